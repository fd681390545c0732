//! Identity per request: whose company a call is about, never taken from the model.
//!
//! A tool's discovery declares its session-bound arguments once (`_meta.session`, e.g.
//! `{"kvk_nummer": "KVK_SESSIE_NUMMER"}`, profile SEC-11). The identity names values by those
//! argument names (`{"kvk_nummer": "68750110"}`) and comes from exactly one source:
//! - HTTP: the verified bearer token's claim (see [`crate::identity::auth`]), per request;
//! - stdio: the request's `_meta["nl.overheid/sessie"]`, per call, set by the host;
//! - stdio without that: the bridge's own environment (`KVK_SESSIE_NUMMER`), per process.
//!
//! The bridge overwrites a bound argument with the identity's value and gives the child the
//! session variable, so the CLI's own session rule (SEC-7) refuses any other company too.

use std::collections::BTreeMap;
use std::ffi::OsString;

use serde_json::{Value, json};

use common::args::{KvkNummer, is_kvk_nummer};
use common::codes;
use common::env::FOREIGN_USER;
use common::exit::ExitStatus;
use common::trace::TraceContext;

use crate::catalog::Source;
use crate::problem::problem;
use crate::transport::Transport;

/// `_meta` key of the per-call identity over stdio.
pub(crate) const META_KEY: &str = "nl.overheid/sessie";

/// Where an identity came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    /// The bridge's own environment: the CLI reads it there as well.
    Process,
    /// This request (token or `_meta`): the bridge's environment never counts.
    Request,
}

/// The identity of one call: values of session-bound arguments, by argument name, and the
/// person who makes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Session {
    /// The company (`kvk_nummer`); empty when the identity names none.
    pub values: BTreeMap<String, String>,
    pub origin: Origin,
    /// The person (or intermediary) who makes the call: the bearer token's `sub`.
    pub subject: Option<String>,
    /// How many companies the token lets the call choose from (HTTP): for the hint when the
    /// call names none.
    pub companies: usize,
}

impl Session {
    /// An identity from this request.
    pub(crate) fn per_request(values: BTreeMap<String, String>) -> Self {
        Self {
            values,
            origin: Origin::Request,
            subject: None,
            companies: 0,
        }
    }

    /// The principal as one string, for binding sealed state: the company and, when known, the
    /// person (`kvk_nummer=68750110&sub="ab12"`), so another person of the same company cannot
    /// finish someone else's round.
    pub(crate) fn principal(session: Option<&Self>) -> String {
        session.map_or_else(
            || "-".to_string(),
            |s| {
                let mut parts: Vec<String> =
                    s.values.iter().map(|(k, v)| format!("{k}={v}")).collect();
                if let Some(subject) = &s.subject {
                    // Quoted as JSON: a `sub` may hold any character, `&` and `=` too.
                    parts.push(format!("sub={}", Value::from(subject.as_str())));
                }
                parts.join("&")
            },
        )
    }

    /// The identity in a request's `_meta` (`None` when absent; `Err` naming the problem when
    /// malformed). `arguments` are the session-bound argument names the catalogue knows: the
    /// identity must name at least one, and nothing else, each as a text (a KvK number as 8
    /// digits). A malformed identity is never ignored: the call would then run with another
    /// identity (the process's own, or a company the model chose) than the host meant.
    pub(crate) fn from_meta(
        meta: &serde_json::Map<String, Value>,
        arguments: &[&str],
    ) -> Result<Option<Self>, String> {
        let Some(value) = meta.get(META_KEY) else {
            return Ok(None);
        };
        let example = "bijv. {\"kvk_nummer\": \"68750110\"}";
        let Some(object) = value.as_object() else {
            return Err(format!("_meta.{META_KEY} moet een object zijn, {example}"));
        };
        if object.is_empty() {
            return Err(format!("_meta.{META_KEY} noemt geen bedrijf; {example}"));
        }
        let mut values = BTreeMap::new();
        for (name, value) in object {
            if !arguments.contains(&name.as_str()) {
                return Err(format!(
                    "_meta.{META_KEY}.{name} is onbekend; bekend: {}",
                    arguments.join(", ")
                ));
            }
            let Some(text) = value.as_str() else {
                return Err(format!("_meta.{META_KEY}.{name} moet een tekst zijn"));
            };
            if name == KvkNummer::SCHEMA.name && !is_kvk_nummer(text) {
                return Err(format!(
                    "_meta.{META_KEY}.{name} is geen KvK-nummer (8 cijfers)"
                ));
            }
            values.insert(name.clone(), text.to_string());
        }
        Ok(Some(Self::per_request(values)))
    }

    /// The per-process identity: the bridge's own session variables, named by their arguments.
    pub(crate) fn from_process(
        sources: &[Source],
        vars: impl Iterator<Item = (OsString, OsString)>,
    ) -> Option<Self> {
        let vars: Vec<(OsString, OsString)> = vars.collect();
        let mut values = BTreeMap::new();
        for (argument, variable) in sources.iter().flat_map(|s| &s.session_vars) {
            let value = vars
                .iter()
                .find(|(name, _)| name == variable.as_str())
                .and_then(|(_, value)| value.to_str());
            if let Some(value) = value.filter(|v| !v.trim().is_empty()) {
                values.insert(argument.clone(), value.to_string());
            }
        }
        (!values.is_empty()).then_some(Self {
            values,
            origin: Origin::Process,
            subject: None,
            companies: 0,
        })
    }

    /// Adjust a child's environment: a per-request identity replaces the source's session
    /// variables (the bridge's own never pass); a per-process one passes as it is.
    pub(crate) fn apply_env(
        session: Option<&Self>,
        source: &Source,
        env: &mut Vec<(OsString, OsString)>,
    ) {
        let per_request = session.is_none_or(|s| s.origin == Origin::Request);
        if !per_request {
            return;
        }
        env.retain(|(name, _)| {
            !source
                .session_vars
                .iter()
                .any(|(_, variable)| name == variable.as_str())
        });
        if let Some(session) = session {
            for (argument, variable) in &source.session_vars {
                if let Some(value) = session.values.get(argument) {
                    env.push((variable.into(), value.into()));
                }
            }
            // The person, for the CLI's audit record (AUDIT-22).
            if let Some(subject) = &session.subject {
                env.retain(|(name, _)| name != FOREIGN_USER);
                env.push((FOREIGN_USER.into(), subject.into()));
            }
        }
    }

    /// The refusal (77, `NIET_TOEGESTAAN`) of a call that names a company its token does not
    /// list. The same for every number (one that exists or not, one another token lists): it
    /// tells nothing about the company.
    pub(crate) fn not_yours(trace: &TraceContext) -> Value {
        let mut error = problem(
            codes::NIET_TOEGESTAAN,
            "Niet toegestaan",
            "U treedt niet op voor het bedrijf dat deze aanroep noemt.",
            ExitStatus::NoPerm,
            trace,
        );
        error["hint"] = json!(format!(
            "Noem in _meta[\"{META_KEY}\"] een bedrijf waarvoor uw token geldt."
        ));
        error
    }

    /// The refusal of a session-bound call whose identity names no company, with the hint that
    /// fits who can fix it: over HTTP the token (the person logs in for a company, or the client
    /// names one of the token's companies), over stdio the host or whoever starts the server.
    pub(crate) fn no_company(
        session: Option<&Self>,
        transport: Transport,
        (argument, variable): (&str, &str),
        trace: &TraceContext,
    ) -> Value {
        let choices = session.map_or(0, |s| s.companies);
        let (code, exit, detail, hint) = match transport {
            Transport::Http if choices > 1 => (
                codes::ONGELDIG_GEBRUIK,
                ExitStatus::Usage,
                format!(
                    "Uw token geldt voor {choices} bedrijven en deze aanroep noemt er geen; \
                     {argument} komt uit de sessie."
                ),
                format!(
                    "De client noemt het bedrijf per aanroep in _meta[\"{META_KEY}\"], bijv. \
                     {{\"{argument}\": \"68750110\"}}: een van de bedrijven van het token."
                ),
            ),
            Transport::Http => (
                codes::NIET_TOEGESTAAN,
                ExitStatus::NoPerm,
                format!("Uw token noemt geen bedrijf; {argument} komt uit de sessie."),
                "Meld u aan met een account dat voor een bedrijf optreedt: de identiteitsdienst \
                 geeft het KvK-nummer dan in het token mee."
                    .to_string(),
            ),
            Transport::Stdio => (
                codes::ONGELDIG_GEBRUIK,
                ExitStatus::Usage,
                format!("Er is geen bedrijf voor deze sessie; {argument} komt uit de sessie."),
                format!(
                    "De host geeft het bedrijf per aanroep in _meta[\"{META_KEY}\"] (bijv. \
                     {{\"{argument}\": \"68750110\"}}), of wie de server start zet {variable}."
                ),
            ),
        };
        let mut error = problem(code, "Geen bedrijf", &detail, exit, trace);
        error["hint"] = json!(hint);
        error
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::EnvPolicy;

    fn source() -> Source {
        Source {
            program_name: "rvo-cli".into(),
            program: "/x/rvo-cli".into(),
            env: EnvPolicy::new(["KVK_SESSIE_NUMMER".to_string()]),
            declared: vec!["KVK_SESSIE_NUMMER".to_string()],
            children: Vec::new(),
            session_vars: vec![("kvk_nummer".into(), "KVK_SESSIE_NUMMER".into())],
        }
    }

    #[test]
    fn reads_the_identity_from_meta_and_refuses_every_other_shape() {
        let read = |meta: serde_json::Value| {
            Session::from_meta(meta.as_object().unwrap(), &["kvk_nummer"])
        };
        let session = read(serde_json::json!({META_KEY: {"kvk_nummer": "68750110"}}))
            .unwrap()
            .unwrap();
        assert_eq!(session.values["kvk_nummer"], "68750110");
        assert_eq!(Session::principal(Some(&session)), "kvk_nummer=68750110");
        let person = Session {
            subject: Some("a&b=\"c".into()),
            ..session.clone()
        };
        assert_eq!(
            Session::principal(Some(&person)),
            "kvk_nummer=68750110&sub=\"a&b=\\\"c\""
        );
        assert_eq!(read(serde_json::json!({})), Ok(None));
        for (identity, named) in [
            (serde_json::json!("68750110"), "een object"),
            (serde_json::json!(null), "een object"),
            (serde_json::json!({}), "noemt geen bedrijf"),
            (
                serde_json::json!({"kvk_nr": "68750110"}),
                "kvk_nr is onbekend",
            ),
            (
                serde_json::json!({"kvk_nummer": "68750110", "naam": "x"}),
                "naam is onbekend",
            ),
            (serde_json::json!({"kvk_nummer": 68750110}), "een tekst"),
            (serde_json::json!({"kvk_nummer": "6875"}), "geen KvK-nummer"),
        ] {
            let refused = read(serde_json::json!({META_KEY: identity})).unwrap_err();
            assert!(refused.contains(named), "{identity}: {refused}");
        }
    }

    #[test]
    fn a_per_request_identity_replaces_the_process_variable() {
        let source = source();
        let own = || {
            vec![
                (
                    OsString::from("KVK_SESSIE_NUMMER"),
                    OsString::from("11111111"),
                ),
                (OsString::from("PATH"), OsString::from("/bin")),
            ]
        };
        let session = Session::per_request([("kvk_nummer".into(), "22222222".into())].into());
        let mut env = own();
        Session::apply_env(Some(&session), &source, &mut env);
        assert_eq!(
            env,
            [
                ("PATH".into(), "/bin".into()),
                ("KVK_SESSIE_NUMMER".into(), "22222222".into())
            ]
        );
        let mut anonymous = own();
        Session::apply_env(None, &source, &mut anonymous);
        assert_eq!(anonymous, [("PATH".into(), "/bin".into())]);
        let process = Session::from_process(std::slice::from_ref(&source), own().into_iter());
        let mut kept = own();
        Session::apply_env(process.as_ref(), &source, &mut kept);
        assert_eq!(kept, own());
        assert_eq!(process.unwrap().values["kvk_nummer"], "11111111");
    }
}

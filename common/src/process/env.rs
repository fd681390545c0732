//! The one place that reads the environment (rules CONF-1, CONF-2).
//!
//! A tool declares every variable it reads; [`Env::read`] takes a snapshot of
//! exactly those (plus the profile's own) and nothing else. Discovery lists the
//! same declarations, so the published `env` table cannot drift from the code.

use std::borrow::Cow;

use serde::Serialize;

use crate::problem::error::{Problem, Result};

/// What kind of value a variable holds, so a harness knows what to do with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EnvKind {
    /// The base URL of an upstream service; a test harness may point it at a fake.
    BaseUrl,
    /// A credential: never printed, never on argv, `***` in plans.
    Secret,
    /// A file or directory path.
    Path,
    /// Any other setting.
    Setting,
}

/// The declaration of one environment variable.
#[derive(Clone, Debug, Serialize)]
pub struct EnvVar {
    pub name: &'static str,
    pub kind: EnvKind,
    pub secret: bool,
    pub meaning: Cow<'static, str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<&'static str>,
}

impl EnvVar {
    /// A declaration; `secret` follows from the kind.
    pub const fn new(name: &'static str, kind: EnvKind, meaning: &'static str) -> Self {
        Self {
            name,
            kind,
            secret: matches!(kind, EnvKind::Secret),
            meaning: Cow::Borrowed(meaning),
            default: None,
        }
    }

    /// The same declaration with a documented default.
    pub const fn with_default(mut self, default: &'static str) -> Self {
        self.default = Some(default);
        self
    }
}

/// Name of the variable that overrides the audit destination for all tools.
pub(crate) const OVERHEID_AUDIT_LOG: &str = "OVERHEID_AUDIT_LOG";
/// Name of the processing-activity id variable (Logboek Dataverwerkingen).
pub(crate) const PROCESSING_ACTIVITY: &str = "OVERHEID_PROCESSING_ACTIVITY_ID";
/// Name of the response-size cap variable.
pub(crate) const MAX_RESPONSE_BYTES: &str = "OVERHEID_MAX_RESPONSE_BYTES";
/// Which audit destinations are written: `file`, `otlp` or `file,otlp` (AUDIT-20).
pub(crate) const AUDIT_EXPORT: &str = "OVERHEID_AUDIT_EXPORT";
/// The calling application or organisation, recorded as `dpl.core.foreign_operation.processor`.
pub const FOREIGN_PROCESSOR: &str = "OVERHEID_FOREIGN_PROCESSOR";
/// The person for whom the calling application made the call (its login's `sub`), recorded as
/// `user.id` (AUDIT-22).
pub const FOREIGN_USER: &str = "OVERHEID_FOREIGN_USER";
/// The program the calling application is (over MCP its `clientInfo` and its token's OAuth
/// client), as it declared it: JSON that `overheid_records::ProposingClient` reads. A proposal
/// records it for the person who decides, labelled as not verified.
pub const FOREIGN_CLIENT: &str = "OVERHEID_FOREIGN_CLIENT";
/// The standard OpenTelemetry exporter variables the OTLP destination reads.
pub(crate) const OTLP_ENDPOINT: &str = "OTEL_EXPORTER_OTLP_ENDPOINT";
pub(crate) const OTLP_TRACES_ENDPOINT: &str = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT";
pub(crate) const OTLP_HEADERS: &str = "OTEL_EXPORTER_OTLP_HEADERS";
pub(crate) const OTLP_PROTOCOL: &str = "OTEL_EXPORTER_OTLP_PROTOCOL";
pub(crate) const OTLP_TIMEOUT: &str = "OTEL_EXPORTER_OTLP_TIMEOUT";
pub(crate) const OTEL_SERVICE_NAME: &str = "OTEL_SERVICE_NAME";
pub(crate) const OTEL_RESOURCE_ATTRIBUTES: &str = "OTEL_RESOURCE_ATTRIBUTES";
/// The session variable of the KvK session rule.
/// The pager for long output for people on a terminal (CONV-6); before `PAGER`.
pub(crate) const OVERHEID_PAGER: &str = "OVERHEID_PAGER";
pub const KVK_SESSIE_NUMMER: &str = "KVK_SESSIE_NUMMER";

/// Where a tool finds the other CLIs of the family it runs as children (`common::child`).
pub(crate) const OVERHEID_CLI_DIR: &str = "OVERHEID_CLI_DIR";

/// The declaration of [`OVERHEID_CLI_DIR`], for the tools that run family CLIs as children.
pub const CLI_DIR_VAR: EnvVar = EnvVar::new(
    OVERHEID_CLI_DIR,
    EnvKind::Path,
    "map met de andere CLI's van de familie (kvk-cli, regelrecht-cli, …) die als kindproces draaien; standaard de map van dit programma",
);

/// The variables every profile tool reads.
pub(crate) const PROFILE_ENV: &[EnvVar] = &[
    EnvVar::new(
        OVERHEID_AUDIT_LOG,
        EnvKind::Path,
        "auditlog (JSON Lines) voor alle tools, als de tool-eigen variabele niet gezet is",
    ),
    EnvVar::new(
        "XDG_STATE_HOME",
        EnvKind::Path,
        "basismap voor het standaard-auditlog ($XDG_STATE_HOME/overheid-cli/audit.jsonl)",
    ),
    EnvVar::new(
        "HOME",
        EnvKind::Path,
        "thuismap; standaard-auditlog onder ~/.local/state",
    ),
    EnvVar::new(
        PROCESSING_ACTIVITY,
        EnvKind::Setting,
        "id van de verwerkingsactiviteit voor het auditlog (dpl.core.processing_activity_id)",
    ),
    EnvVar::new(
        MAX_RESPONSE_BYTES,
        EnvKind::Setting,
        "maximale grootte van een antwoord van de bron in bytes",
    )
    .with_default("20971520"),
    EnvVar::new(
        "TRACEPARENT",
        EnvKind::Setting,
        "W3C trace context om voort te zetten (audit, provenance, upstream traceparent)",
    ),
    EnvVar::new(
        "HTTPS_PROXY",
        EnvKind::Setting,
        "proxy voor https-verzoeken (andere proxyvariabelen worden genegeerd)",
    ),
    EnvVar::new(
        "NO_COLOR",
        EnvKind::Setting,
        "gezet: geen kleur in de uitvoer",
    ),
    EnvVar::new(
        "TERM",
        EnvKind::Setting,
        "\"dumb\": geen kleur in de uitvoer",
    ),
    EnvVar::new(
        AUDIT_EXPORT,
        EnvKind::Setting,
        "bestemming van de auditregels: file, otlp (een Logboek via OTLP/HTTP) of file,otlp",
    )
    .with_default("file"),
    EnvVar::new(
        FOREIGN_PROCESSOR,
        EnvKind::Setting,
        "URL van de aanroepende applicatie of organisatie (dpl.core.foreign_operation.processor)",
    ),
    EnvVar::new(
        FOREIGN_USER,
        EnvKind::Setting,
        "de persoon voor wie de aanroepende applicatie de aanroep doet, bijv. de sub van haar login (user.id)",
    ),
    EnvVar::new(
        FOREIGN_CLIENT,
        EnvKind::Setting,
        "het programma van de aanroepende applicatie, zoals zij het opgeeft: JSON met mcp_client en/of oauth_client (niet gecontroleerd; een voorstel toont het)",
    ),
    EnvVar::new(
        OTLP_ENDPOINT,
        EnvKind::BaseUrl,
        "OTLP/HTTP-collector van het Logboek; spans gaan naar <url>/v1/traces",
    )
    .with_default("http://localhost:4318"),
    EnvVar::new(
        OTLP_TRACES_ENDPOINT,
        EnvKind::BaseUrl,
        "volledige OTLP/HTTP-URL voor spans (gaat voor OTEL_EXPORTER_OTLP_ENDPOINT)",
    ),
    EnvVar::new(
        OTLP_HEADERS,
        EnvKind::Secret,
        "headers voor de collector (sleutel=waarde,…), bijv. een token",
    ),
    EnvVar::new(
        OTLP_PROTOCOL,
        EnvKind::Setting,
        "http/protobuf of http/json",
    )
    .with_default("http/protobuf"),
    EnvVar::new(
        OTLP_TIMEOUT,
        EnvKind::Setting,
        "maximale wachttijd op de collector in milliseconden (binnen --timeout)",
    )
    .with_default("10000"),
    EnvVar::new(
        OTEL_SERVICE_NAME,
        EnvKind::Setting,
        "service.name in de OTLP-resource (standaard de naam van de tool)",
    ),
    EnvVar::new(
        OTEL_RESOURCE_ATTRIBUTES,
        EnvKind::Setting,
        "extra resource-attributen voor OTLP (sleutel=waarde,…)",
    ),
    EnvVar::new(
        OVERHEID_PAGER,
        EnvKind::Setting,
        "pager voor lange uitvoer voor mensen op een terminal (gaat voor PAGER); standaard less -FRX",
    ),
    EnvVar::new(
        "PAGER",
        EnvKind::Setting,
        "pager als OVERHEID_PAGER niet gezet is",
    ),
    EnvVar::new(
        "COLUMNS",
        EnvKind::Setting,
        "breedte in tekens waarop --output table past; standaard de breedte van de terminal",
    ),
];

/// Variables whose unreadable (non-UTF-8) value is harmless and not an error:
/// an invalid `TRACEPARENT` is ignored (AUDIT-11), `NO_COLOR` counts by its
/// presence alone, a `TERM` that is not `dumb` changes nothing, and an
/// unreadable `COLUMNS` leaves the terminal width.
const LENIENT: &[&str] = &["TRACEPARENT", "NO_COLOR", "TERM", "COLUMNS"];

/// The value of one declared variable as the process found it.
#[derive(Clone, Debug)]
enum Value {
    Unset,
    Set(String),
    /// Present but not valid UTF-8: never treated as unset (CONF-7).
    Invalid,
}

/// A snapshot of the declared variables.
#[derive(Clone, Debug, Default)]
pub struct Env {
    values: Vec<(&'static str, Value)>,
}

impl Env {
    /// Read the tool's declared variables and the profile's own.
    ///
    /// Values are read with `var_os`, so a present but unreadable value is
    /// remembered as such ([`Env::check`], [`Env::value`]) instead of
    /// silently counting as unset.
    #[allow(clippy::disallowed_methods, reason = "one env reader")]
    pub fn read(tool_env: &[EnvVar]) -> Self {
        let values = PROFILE_ENV
            .iter()
            .chain(tool_env)
            .map(|var| {
                let value = match std::env::var_os(var.name) {
                    None => Value::Unset,
                    Some(v) if v.is_empty() => Value::Unset,
                    Some(v) => v.into_string().map_or(Value::Invalid, Value::Set),
                };
                (var.name, value)
            })
            .collect();
        Self { values }
    }

    /// An environment with exactly these values (for tests).
    pub fn from_pairs(pairs: &[(&'static str, &str)]) -> Self {
        Self {
            values: pairs
                .iter()
                .map(|(k, v)| {
                    let value = if v.is_empty() {
                        Value::Unset
                    } else {
                        Value::Set((*v).to_string())
                    };
                    (*k, value)
                })
                .collect(),
        }
    }

    /// The same environment with `name` present but unreadable (for tests).
    pub fn with_invalid(mut self, name: &'static str) -> Self {
        self.values.retain(|(k, _)| *k != name);
        self.values.push((name, Value::Invalid));
        self
    }

    /// Fails with exit 78 (`CONFIG_FOUT`) naming the first declared variable
    /// that is present but unreadable (rule CONF-7). The lifecycle calls this
    /// before any command runs, so [`Env::get`] never hides such a value.
    pub fn check(&self) -> Result<(), Problem> {
        match self
            .values
            .iter()
            .find(|(name, v)| matches!(v, Value::Invalid) && !LENIENT.contains(name))
        {
            Some((name, _)) => Err(invalid(name)),
            None => Ok(()),
        }
    }

    /// The value of a declared variable: `Ok(None)` when unset or empty, an
    /// error (exit 78) when present but unreadable.
    pub fn value(&self, name: &str) -> Result<Option<&str>, Problem> {
        match self.values.iter().find(|(k, _)| *k == name) {
            Some((_, Value::Invalid)) => Err(invalid(name)),
            _ => Ok(self.get(name)),
        }
    }

    /// The value of a declared variable, if set, non-empty and readable.
    ///
    /// Commands run only after [`Env::check`] passed, so for them `None`
    /// means unset. Reading an undeclared variable is a bug: it would be
    /// missing from discovery. Debug builds panic on it.
    pub fn get(&self, name: &str) -> Option<&str> {
        match self.values.iter().find(|(k, _)| *k == name) {
            Some((_, Value::Set(v))) => Some(v),
            Some(_) => None,
            None => {
                debug_assert!(
                    self.values.is_empty() || cfg!(test),
                    "environment variable {name} read but not declared"
                );
                None
            }
        }
    }
}

/// The error for a variable that is present but not valid UTF-8. The value
/// itself is never echoed: it may be a secret.
fn invalid(name: &str) -> Problem {
    Problem::config(format!(
        "omgevingsvariabele {name} is gezet maar geen geldige UTF-8-tekst"
    ))
    .with_hint(format!("geef {name} een geldige waarde of maak hem leeg"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_follows_kind() {
        assert!(EnvVar::new("K", EnvKind::Secret, "").secret);
        assert!(!EnvVar::new("U", EnvKind::BaseUrl, "").secret);
    }

    #[test]
    fn unreadable_values_are_errors_not_unset() {
        let env = Env::from_pairs(&[("A", "x")])
            .with_invalid(KVK_SESSIE_NUMMER)
            .with_invalid("TRACEPARENT");
        assert_eq!(env.get(KVK_SESSIE_NUMMER), None);
        let err = env.value(KVK_SESSIE_NUMMER).expect_err("CONF-7");
        assert_eq!(err.exit.code(), 78);
        let err = env.check().expect_err("CONF-7");
        assert!(format!("{err:?}").contains(KVK_SESSIE_NUMMER), "{err:?}");
        assert!(
            Env::from_pairs(&[("A", "x")])
                .with_invalid("TRACEPARENT")
                .check()
                .is_ok()
        );
        assert_eq!(env.value("A").unwrap(), Some("x"));
    }

    #[test]
    fn empty_values_count_as_unset() {
        let env = Env::from_pairs(&[("A", ""), ("B", "x")]);
        assert_eq!(env.get("A"), None);
        assert_eq!(env.get("B"), Some("x"));
    }
}

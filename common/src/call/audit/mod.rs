//! The audit trail: one record per processing, modelled on the Logboek
//! Dataverwerkingen span (rules AUDIT-*), and where it goes.
//!
//! A record has trace and span ids, a name for people, start and end, an LDV
//! status (`OK`, `UNSET`, `ERROR`) and `dpl.core.*` attributes; never a
//! secret, never response data, never a user identifier. A call that
//! concerns several data subjects adds one child record per subject.
//! `OVERHEID_AUDIT_EXPORT` chooses the destinations: the local JSON Lines
//! file ([`file`], the default), a Logboek over OTLP/HTTP ([`otlp`], the
//! record mapped to a span by [`span`]), or both. Every destination confirms
//! the write before anything is printed or committed (AUDIT-6, AUDIT-21).

pub(crate) mod decision;
mod file;
pub(crate) mod otlp;
pub(crate) mod record;
pub(crate) mod span;

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::{Map, Value};

pub(crate) use file::{AuditLog, RECORD_GRACE};
pub(crate) use otlp::OtlpExporter;

use crate::call::tool::ToolInfo;
use crate::net::http::HttpClient;
use crate::problem::error::{Problem, Result};
use crate::problem::exit::ExitStatus;
use crate::process::env::{AUDIT_EXPORT, Env, OVERHEID_AUDIT_LOG};

/// Where the audit log goes: `--audit-log`, the tool's variable,
/// `OVERHEID_AUDIT_LOG`, then `$XDG_STATE_HOME/overheid-cli/audit.jsonl`
/// (`~/.local/state/...`). A consulted variable that is present but
/// unreadable is exit 78: there is then no trustworthy destination.
pub(crate) fn destination(
    flag: Option<&Path>,
    env: &Env,
    tool_var: &str,
) -> Result<PathBuf, Problem> {
    if let Some(path) = flag {
        return Ok(path.to_path_buf());
    }
    for var in [tool_var, OVERHEID_AUDIT_LOG] {
        if let Some(path) = env.value(var)? {
            return Ok(PathBuf::from(path));
        }
    }
    let state = match env.value("XDG_STATE_HOME")? {
        Some(dir) => Some(PathBuf::from(dir)),
        None => env
            .value("HOME")?
            .map(|h| Path::new(h).join(".local/state")),
    };
    let state = state.ok_or_else(|| {
        Problem::io("geen plaats voor het auditlog: HOME en XDG_STATE_HOME ontbreken")
            .with_code(crate::problem::codes::AUDIT_FOUT)
            .with_hint(format!("zet {tool_var} of gebruik --audit-log PAD"))
    })?;
    Ok(state.join("overheid-cli").join("audit.jsonl"))
}

pub(crate) fn audit_error(detail: String) -> Problem {
    Problem::io(detail)
        .with_code(crate::problem::codes::AUDIT_FOUT)
        .with_hint("zonder auditregel geen verwerking; kies een schrijfbaar pad met --audit-log")
}

/// The LDV status of an invocation that ended with `exit` (AUDIT-9): `OK`
/// for success; `ERROR` only for an internal or technical failure (the
/// program, its configuration, its output, the source or the network);
/// `UNSET` for a call handled without such a failure, however it ended (bad
/// input, nothing found, a refusal, a mutation awaiting confirmation, a person's Ctrl-C).
pub(crate) fn status(exit: ExitStatus) -> &'static str {
    match exit {
        ExitStatus::Ok => "OK",
        ExitStatus::Usage
        | ExitStatus::DataErr
        | ExitStatus::NotFound
        | ExitStatus::NoPerm
        | ExitStatus::ConfirmationRequired
        | ExitStatus::PlanStale
        | ExitStatus::Interrupted => "UNSET",
        ExitStatus::Error
        | ExitStatus::Unavailable
        | ExitStatus::Software
        | ExitStatus::IoErr
        | ExitStatus::TempFail
        | ExitStatus::Protocol
        | ExitStatus::Config
        | ExitStatus::Timeout => "ERROR",
    }
}

/// Which destinations `OVERHEID_AUDIT_EXPORT` chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Destinations {
    pub file: bool,
    pub otlp: bool,
}

impl Destinations {
    /// `file` (the default), `otlp` or `file,otlp` (in either order); any
    /// other value is exit 78: there is then no trustworthy destination.
    pub(crate) fn from_env(env: &Env) -> Result<Self, Problem> {
        let Some(text) = env.value(AUDIT_EXPORT)? else {
            return Ok(Self {
                file: true,
                otlp: false,
            });
        };
        let mut chosen = Self {
            file: false,
            otlp: false,
        };
        for part in text.split(',').map(str::trim) {
            let slot = match part {
                "file" => &mut chosen.file,
                "otlp" => &mut chosen.otlp,
                _ => {
                    return Err(Problem::config(format!(
                        "{AUDIT_EXPORT} is geen geldige keuze: {part:?}"
                    ))
                    .with_hint(format!("zet {AUDIT_EXPORT} op file, otlp of file,otlp")));
                }
            };
            if std::mem::replace(slot, true) {
                return Err(
                    Problem::config(format!("{AUDIT_EXPORT} noemt {part} twee keer"))
                        .with_hint(format!("zet {AUDIT_EXPORT} op file, otlp of file,otlp")),
                );
            }
        }
        Ok(chosen)
    }
}

/// The open destinations of one invocation's audit records.
pub(crate) struct Audit {
    file: Option<AuditLog>,
    otlp: Option<OtlpExporter>,
}

impl Audit {
    /// Open what `OVERHEID_AUDIT_EXPORT` chose, before any work (AUDIT-5):
    /// the file (its path from `flag` and the environment, AUDIT-2) and/or
    /// the OTLP exporter (its configuration checked, AUDIT-20). Nothing of
    /// the OTLP code runs unless it is chosen. Failure is exit 74 or 78,
    /// without a record.
    pub(crate) fn open(
        flag: Option<&Path>,
        env: &Env,
        tool: &ToolInfo,
        deadline: Instant,
    ) -> Result<Self, Problem> {
        let chosen = Destinations::from_env(env)?;
        let file = match chosen.file {
            true => Some(AuditLog::open(
                &destination(flag, env, tool.audit_env)?,
                deadline,
            )?),
            false => None,
        };
        let otlp = match chosen.otlp {
            true => Some(OtlpExporter::from_env(env, tool, deadline)?),
            false => None,
        };
        Ok(Self { file, otlp })
    }

    /// Write one invocation's records to every destination and have each
    /// confirm it: the Logboek first (its 2xx), then the file (`durable`
    /// also syncs it). If the file then fails, the Logboek gets a second
    /// record of the same spans, `restated` for that failure (AUDIT-1), as
    /// far as it still can; the first failure is the result.
    ///
    /// `client` gives the command's HTTP client for reuse, when it has one
    /// that loaded what the collector needs (`needs_tls`).
    pub(crate) fn write(
        &mut self,
        records: &[Value],
        durable: bool,
        client: impl Fn(bool) -> Option<HttpClient>,
        restated: impl Fn(&Problem) -> Vec<Value>,
    ) -> Result<(), Problem> {
        let client = self.otlp.as_ref().and_then(|otlp| client(otlp.needs_tls()));
        if let Some(otlp) = &self.otlp {
            otlp.export(records, client.as_ref())?;
        }
        if let Some(file) = &mut self.file
            && let Err(err) = file.append_all(records, durable)
        {
            if let Some(otlp) = &self.otlp {
                let _ = otlp.export(&restated(&err), client.as_ref());
            }
            return Err(err);
        }
        Ok(())
    }
}

/// A data subject the call concerns (AUDIT-14). When a call concerns several,
/// each gets its own line: a child span of the call's span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Subject {
    pub id: String,
    pub id_type: &'static str,
    /// The span of this subject's own line (used only when there are several).
    pub span_id: String,
}

/// The attributes a command contributes to its record.
#[derive(Clone, Debug, Default)]
pub(crate) struct AuditAttributes {
    /// Distinct data subjects, in the order they were named.
    subjects: Vec<Subject>,
    /// The subjects named so far (kind, id), so naming one is not a scan of all before it: a
    /// batch names one per case.
    named: std::collections::HashSet<(&'static str, String)>,
    pub url: Option<String>,
    pub http_status: Option<u16>,
    pub body_size: Option<usize>,
    pub extra: Map<String, Value>,
}

impl AuditAttributes {
    /// Name a data subject; naming the same one again changes nothing.
    pub(crate) fn add_subject(&mut self, id: &str, id_type: &'static str) {
        if self.named.insert((id_type, id.to_string())) {
            self.subjects.push(Subject {
                id: id.to_string(),
                id_type,
                span_id: crate::process::trace::random_hex::<8>(),
            });
        }
    }

    /// Name the call's one data subject, replacing those named before (an identifier that only
    /// pointed at it, such as an establishment of the company the answer names).
    pub(crate) fn replace_subjects(&mut self, id: &str, id_type: &'static str) {
        self.subjects.clear();
        self.named.clear();
        self.add_subject(id, id_type);
    }

    /// The one data subject of the call, if it concerns exactly one.
    pub(crate) fn single_subject(&self) -> Option<&Subject> {
        match self.subjects.as_slice() {
            [one] => Some(one),
            _ => None,
        }
    }

    /// The data subjects that get a line of their own (a child span each):
    /// all of them when there are several, none when there is one or none.
    pub(crate) fn child_subjects(&self) -> &[Subject] {
        if self.subjects.len() > 1 {
            &self.subjects
        } else {
            &[]
        }
    }

    /// The `attributes` object of the call's record: the subject is in it
    /// only when there is exactly one.
    pub(crate) fn to_json(&self, processing_activity: &str) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert(
            "dpl.core.processing_activity_id".into(),
            processing_activity.into(),
        );
        if let Some(subject) = self.single_subject() {
            subject.insert_into(&mut map);
        }
        if let Some(url) = &self.url {
            map.insert("url.full".into(), url.clone().into());
        }
        if let Some(status) = self.http_status {
            map.insert("http.response.status_code".into(), status.into());
        }
        if let Some(size) = self.body_size {
            map.insert("http.response.body.size".into(), size.into());
        }
        for (k, v) in &self.extra {
            map.insert(k.clone(), v.clone());
        }
        map
    }
}

impl Subject {
    /// Add `dpl.core.data_subject_id` and `dpl.core.data_subject_id_type`.
    pub(crate) fn insert_into(&self, map: &mut Map<String, Value>) {
        map.insert("dpl.core.data_subject_id".into(), self.id.clone().into());
        map.insert("dpl.core.data_subject_id_type".into(), self.id_type.into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destination_precedence() {
        let env = Env::from_pairs(&[
            ("KVK_AUDIT_LOG", "/a/tool.jsonl"),
            ("OVERHEID_AUDIT_LOG", "/a/all.jsonl"),
            ("XDG_STATE_HOME", "/state"),
            ("HOME", "/home/u"),
        ]);
        let flag = Path::new("/flag.jsonl");
        assert_eq!(
            destination(Some(flag), &env, "KVK_AUDIT_LOG").unwrap(),
            flag
        );
        assert_eq!(
            destination(None, &env, "KVK_AUDIT_LOG").unwrap(),
            Path::new("/a/tool.jsonl")
        );
        assert_eq!(
            destination(None, &env, "KOOP_AUDIT_LOG").unwrap(),
            Path::new("/a/all.jsonl")
        );
        let env = Env::from_pairs(&[("HOME", "/home/u")]);
        assert_eq!(
            destination(None, &env, "KVK_AUDIT_LOG").unwrap(),
            Path::new("/home/u/.local/state/overheid-cli/audit.jsonl")
        );
        let env = Env::from_pairs(&[("XDG_STATE_HOME", "/s"), ("HOME", "/home/u")]);
        assert_eq!(
            destination(None, &env, "KVK_AUDIT_LOG").unwrap(),
            Path::new("/s/overheid-cli/audit.jsonl")
        );
    }

    #[test]
    fn export_choices() {
        let chosen = |v: &str| Destinations::from_env(&Env::from_pairs(&[(AUDIT_EXPORT, v)]));
        let both = Destinations {
            file: true,
            otlp: true,
        };
        assert_eq!(
            chosen("").unwrap(),
            Destinations {
                file: true,
                otlp: false
            }
        );
        assert_eq!(
            chosen("otlp").unwrap(),
            Destinations {
                file: false,
                otlp: true
            }
        );
        assert_eq!(chosen("file,otlp").unwrap(), both);
        assert_eq!(chosen(" otlp , file ").unwrap(), both);
        for bad in ["syslog", "file,", "otlp,otlp", "FILE"] {
            assert_eq!(chosen(bad).unwrap_err().exit.code(), 78, "{bad}");
        }
    }

    /// AUDIT-14: a subject counts once, in the order first named, also after the subjects
    /// were replaced by the one the answer names.
    #[test]
    fn subjects_are_distinct_in_the_order_named() {
        let ids = |a: &AuditAttributes| -> Vec<(String, &str)> {
            a.child_subjects()
                .iter()
                .map(|s| (s.id.clone(), s.id_type))
                .collect()
        };
        let mut attributes = AuditAttributes::default();
        for (id, kind) in [
            ("1", "BSN"),
            ("2", "BSN"),
            ("1", "BSN"),
            ("1", "KVK_NUMMER"),
        ] {
            attributes.add_subject(id, kind);
        }
        assert_eq!(
            ids(&attributes),
            [
                ("1".to_string(), "BSN"),
                ("2".to_string(), "BSN"),
                ("1".to_string(), "KVK_NUMMER")
            ]
        );
        attributes.replace_subjects("3", "KVK_NUMMER");
        assert_eq!(
            attributes.single_subject().map(|s| s.id.as_str()),
            Some("3")
        );
        attributes.add_subject("1", "BSN");
        attributes.add_subject("3", "KVK_NUMMER");
        assert_eq!(
            ids(&attributes),
            [("3".to_string(), "KVK_NUMMER"), ("1".to_string(), "BSN")]
        );
    }

    /// AUDIT-9: `ERROR` only for internal or technical failures (LDV).
    #[test]
    fn status_follows_the_standard() {
        assert_eq!(status(ExitStatus::Ok), "OK");
        for handled in [
            ExitStatus::DataErr,
            ExitStatus::NoPerm,
            ExitStatus::NotFound,
            ExitStatus::ConfirmationRequired,
            ExitStatus::Interrupted,
        ] {
            assert_eq!(status(handled), "UNSET", "{handled:?}");
        }
        for failed in [
            ExitStatus::Unavailable,
            ExitStatus::Software,
            ExitStatus::IoErr,
            ExitStatus::Timeout,
            ExitStatus::Protocol,
        ] {
            assert_eq!(status(failed), "ERROR", "{failed:?}");
        }
    }
}

//! Audit, trace and leak checks (AUDIT-*, ERR-6, SEC-2, OUT-6): what every invocation left behind.

use std::collections::HashSet;

use serde_json::Value;

use super::{Check, Level, Verdict, judge_probes};
use crate::probe::{Kind, Probe};
use crate::schemas::{schemas, violations};
use crate::session::{ACTIVITY_ID, Session};

pub(super) fn checks() -> Vec<Check> {
    vec![
        Check {
            id: "audit-records",
            rules: &["AUDIT-1"],
            level: Level::Must,
            title: "elke aanroep die een opdracht bereikt: precies één geldige auditregel; help en discovery geen",
            run: records,
        },
        Check {
            id: "audit-content",
            rules: &["AUDIT-8", "AUDIT-9", "AUDIT-10", "AUDIT-13"],
            level: Level::Must,
            title: "auditregel: name, tool, exit_code, status, error.code, tijden, verwerkingsactiviteit",
            run: content,
        },
        Check {
            id: "audit-plan",
            rules: &["AUDIT-16"],
            level: Level::Must,
            title: "dry run en plan: overheid.dry_run en overheid.plan_digest",
            run: plan_attributes,
        },
        Check {
            id: "trace-context",
            rules: &["AUDIT-11", "AUDIT-12", "ERR-6"],
            level: Level::Must,
            title: "TRACEPARENT wordt voortgezet; nieuwe span per aanroep; instance = urn:trace:<trace_id>",
            run: trace_context,
        },
        Check {
            id: "secrets-canary",
            rules: &["SEC-2", "DRY-5", "AUDIT-7", "ERR-13"],
            level: Level::Must,
            title: "een geheim (kanariewaarde) staat nergens in stdout, stderr, plan, herkomst of auditlog",
            run: secrets,
        },
        Check {
            id: "no-ansi",
            rules: &["OUT-6"],
            level: Level::Must,
            title: "geen ANSI-escapes buiten een terminal of met NO_COLOR",
            run: no_ansi,
        },
    ]
}

fn parsed(probe: &Probe) -> Vec<Value> {
    probe
        .audit
        .iter()
        .flatten()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect()
}

fn records(session: &Session) -> Verdict {
    judge_probes(
        session.probes.iter().filter(|p| p.outcome.status.is_some()),
        "geen aanroepen",
        |probe| {
            // Per-subject child records (AUDIT-14) belong to the call's record.
            let lines = probe.audit.as_ref().map_or(0, |lines| own_records(lines));
            match probe.kind.reaches_command() {
                Some(false) if lines > 0 => {
                    return Some(format!(
                        "{lines} auditregel(s) bij een aanroep die geen opdracht bereikt"
                    ));
                }
                Some(true) if lines != 1 => {
                    return Some(format!("verwacht precies één auditregel, vond er {lines}"));
                }
                None if lines > 1 => return Some(format!("{lines} auditregels voor één aanroep")),
                _ => {}
            }
            for line in probe.audit.iter().flatten() {
                let Ok(record) = serde_json::from_str::<Value>(line) else {
                    return Some(format!(
                        "auditregel is geen JSON: {}",
                        super::truncate(line)
                    ));
                };
                if let Some(why) = violations(&schemas().audit, &record) {
                    return Some(format!(
                        "auditregel voldoet niet aan audit-record.schema.json: {why}"
                    ));
                }
                if line.trim() != serde_json::to_string(&record).unwrap_or_default() {
                    return Some("auditregel is geen compacte JSON op één regel".into());
                }
            }
            None
        },
    )
}

/// How many of `lines` are a call's own record: a line whose `parent_span_id` is the
/// first line's `span_id` is a per-subject child of it (AUDIT-14).
fn own_records(lines: &[String]) -> usize {
    let span = |line: &String, key: &str| {
        serde_json::from_str::<Value>(line)
            .ok()
            .and_then(|r| r.get(key).and_then(Value::as_str).map(str::to_string))
    };
    let first = lines.first().and_then(|l| span(l, "span_id"));
    lines
        .iter()
        .filter(|l| first.is_none() || span(l, "parent_span_id") != first)
        .count()
}

fn content(session: &Session) -> Verdict {
    judge_probes(
        session
            .probes
            .iter()
            .filter(|p| !parsed(p).is_empty() && p.entry.is_some()),
        "geen auditregels",
        |probe| {
            let record = parsed(probe).into_iter().next()?;
            let text = |name: &str| {
                record
                    .get(name)
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string()
            };
            let name = session.command_of(probe);
            if text("name") != name {
                return Some(format!("name {:?} hoort {name:?} te zijn", text("name")));
            }
            if text("tool") != session.program_name()
                || text("tool_version") != session.program_version()
            {
                return Some("tool/tool_version wijken af van discovery".into());
            }
            let status = probe.outcome.status?;
            if record.get("exit_code").and_then(Value::as_i64) != Some(i64::from(status)) {
                return Some(format!(
                    "exit_code {} is niet de exitstatus {status}",
                    record["exit_code"]
                ));
            }
            if text("status") != if status == 0 { "OK" } else { "ERROR" } {
                return Some(format!(
                    "status {:?} past niet bij exit {status}",
                    text("status")
                ));
            }
            let attributes = record.get("attributes")?;
            if status != 0 {
                let logged = attributes.get("error.code").and_then(Value::as_str);
                if let Some(code) = probe.error_code()
                    && logged != Some(code.as_str())
                {
                    return Some(format!(
                        "error.code {logged:?} is niet de code {code} van het foutobject"
                    ));
                }
            }
            if text("start_time") > text("end_time") {
                return Some("start_time ligt na end_time".into());
            }
            (attributes.get("dpl.core.processing_activity_id").and_then(Value::as_str) != Some(ACTIVITY_ID))
            .then(|| format!("dpl.core.processing_activity_id hoort OVERHEID_PROCESSING_ACTIVITY_ID ({ACTIVITY_ID}) te zijn"))
        },
    )
}

fn plan_attributes(session: &Session) -> Verdict {
    judge_probes(
        session
            .probes_where(|k| {
                matches!(
                    k,
                    Kind::DryRun(_) | Kind::MutationRefused | Kind::MutationStale(_)
                )
            })
            .filter(|p| p.stdout_json().is_some() && !parsed(p).is_empty())
            .filter(|p| {
                matches!(p.kind, Kind::DryRun(_)) || matches!(p.outcome.status, Some(80 | 81))
            }),
        "geen plannen met auditregel",
        |probe| {
            let record = parsed(probe).into_iter().next()?;
            let attributes = record.get("attributes")?;
            let digest = probe.stdout_json()?.get("plan_digest").cloned();
            if matches!(probe.kind, Kind::DryRun(_))
                && attributes.get("overheid.dry_run") != Some(&Value::Bool(true))
            {
                return Some("overheid.dry_run ontbreekt of is niet true".into());
            }
            (attributes.get("overheid.plan_digest") != digest.as_ref())
                .then(|| "overheid.plan_digest is niet de plan_digest van het plan".into())
        },
    )
}

fn trace_context(session: &Session) -> Verdict {
    let mut spans = HashSet::new();
    let mut repeated = HashSet::new();
    for record in session.probes.iter().flat_map(parsed) {
        if let Some(span) = record.get("span_id").and_then(Value::as_str)
            && !spans.insert(span.to_string())
        {
            repeated.insert(span.to_string());
        }
    }
    judge_probes(
        session.probes.iter().filter(|p| !parsed(p).is_empty()),
        "geen auditregels",
        |probe| {
            let record = parsed(probe).into_iter().next()?;
            let text = |name: &str| {
                record
                    .get(name)
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string()
            };
            if text("trace_id") != session.trace_id {
                return Some(format!(
                    "trace_id {:?} is niet die van TRACEPARENT ({})",
                    text("trace_id"),
                    session.trace_id
                ));
            }
            if text("parent_span_id") != session.parent_span_id {
                return Some(format!(
                    "parent_span_id {:?} is niet de parent-id van TRACEPARENT",
                    text("parent_span_id")
                ));
            }
            let span = text("span_id");
            if span == session.parent_span_id || repeated.contains(&span) {
                return Some(format!("span_id {span} is niet nieuw per aanroep"));
            }
            let instance = probe
                .error_object()
                .and_then(|o| o.get("instance").and_then(Value::as_str).map(String::from));
            match instance {
                Some(instance) if instance != format!("urn:trace:{}", session.trace_id) => {
                    Some(format!(
                        "instance {instance:?} hoort urn:trace:{} te zijn",
                        session.trace_id
                    ))
                }
                _ => None,
            }
        },
    )
}

fn secrets(session: &Session) -> Verdict {
    let Some(canary) = &session.canary else {
        return Verdict::Skip("discovery declareert geen geheime variabelen".into());
    };
    judge_probes(
        session.probes.iter().filter(|p| {
            p.kind.reaches_command() != Some(false) || p.kind == Kind::DiscoveryWatched
        }),
        "geen aanroepen",
        |probe| {
            let places = [
                ("stdout", probe.outcome.stdout.contains(canary.as_str())),
                ("stderr", probe.outcome.stderr.contains(canary.as_str())),
                (
                    "auditlog",
                    probe
                        .audit
                        .iter()
                        .flatten()
                        .any(|line| line.contains(canary.as_str())),
                ),
            ];
            let leaked: Vec<&str> = places
                .iter()
                .filter(|(_, leaked)| *leaked)
                .map(|(place, _)| *place)
                .collect();
            (!leaked.is_empty())
                .then(|| format!("de geheime waarde staat in {}", leaked.join(", ")))
        },
    )
}

fn no_ansi(session: &Session) -> Verdict {
    judge_probes(
        session.probes.iter().filter(|p| p.outcome.status.is_some()),
        "geen aanroepen",
        |probe| {
            let streams = [
                ("stdout", &probe.outcome.stdout),
                ("stderr", &probe.outcome.stderr),
            ];
            streams
                .iter()
                .find(|(_, text)| text.contains('\u{1b}'))
                .map(|(stream, _)| format!("ANSI-escape op {stream}, dat geen terminal is"))
        },
    )
}

//! Output checks (OUT-*, FIELDS-*, PROV-*): unknown fields offline; the rest against a source that answers.

use crate::checks::not_exit_0;
use serde_json::Value;

use super::errors::error_problem;
use super::{Check, Level, Verdict, judge_probes};
use crate::probe::{Kind, Probe};
use crate::schemas::{compile_user_schema, schemas, violations};
use crate::session::Session;

pub(super) fn checks() -> Vec<Check> {
    vec![
        Check {
            id: "fields-unknown",
            rules: &["FIELDS-5"],
            level: Level::Must,
            title: "--fields met een onbekend veld: exit 2 ONBEKEND_VELD, noemt alle geldige velden, niets verstuurd",
            run: fields_unknown,
        },
        Check {
            id: "live-examples",
            rules: &["EXIT-2", "OUT-5"],
            level: Level::Must,
            title: "elk voorbeeld tegen een bron die antwoordt: exit 0, alleen het resultaat op stdout",
            run: live_examples,
        },
        Check {
            id: "output-valid",
            rules: &["OUT-7"],
            level: Level::Must,
            title: "de uitvoer voldoet aan het outputSchema",
            run: output_valid,
        },
        Check {
            id: "output-json",
            rules: &["OUT-2", "OUT-3"],
            level: Level::Must,
            title: "json (ook standaard buiten een terminal): één compact document en een newline",
            run: output_json,
        },
        Check {
            id: "output-pretty",
            rules: &["OUT-4"],
            level: Level::Must,
            title: "--output pretty: dezelfde JSON-waarde, ingesprongen",
            run: output_pretty,
        },
        Check {
            id: "fields-two",
            rules: &["FIELDS-1", "FIELDS-3"],
            level: Level::Must,
            title: "--fields a,b geeft precies die twee velden met hun inhoud",
            run: fields_two,
        },
        Check {
            id: "provenance-envelope",
            rules: &["PROV-1", "PROV-5", "PROV-7", "PROV-9"],
            level: Level::Must,
            title: "--provenance: geldige envelop met data, trace_id, fields null, tool en versie",
            run: provenance,
        },
    ]
}

const OFFLINE: &str = "geen bron die antwoordt: geef --env met een base_url-variabele van het programma \
     (NAAM=URL, bijv. een nepbron) of --live";

fn fields_unknown(session: &Session) -> Verdict {
    judge_probes(
        session
            .probes_where(|k| *k == Kind::FieldsUnknown)
            .filter(|p| {
                p.entry
                    .is_some_and(|e| !session.entries[e].output_fields().is_empty())
            }),
        "geen outputSchema met velden",
        |probe| {
            let entry = &session.entries[probe.entry?];
            if let Some(why) = error_problem(probe, 2, Some("ONBEKEND_VELD")) {
                return Some(why);
            }
            let object = probe.error_object()?;
            let text = format!(
                "{} {}",
                object.get("detail").and_then(Value::as_str).unwrap_or(""),
                object.get("hint").and_then(Value::as_str).unwrap_or("")
            );
            let missing: Vec<String> = entry
                .output_fields()
                .into_iter()
                .filter(|f| !text.contains(f.as_str()))
                .collect();
            if !missing.is_empty() {
                return Some(format!(
                    "detail/hint noemt deze geldige velden niet: {}",
                    missing.join(", ")
                ));
            }
            (!probe.requests.is_empty())
                .then(|| format!("verkeer vóór de controle: {}", probe.requests[0].url))
        },
    )
}

fn live<'a>(
    session: &'a Session,
    wanted: impl Fn(&Kind) -> bool + 'a,
) -> Box<dyn Iterator<Item = &'a Probe> + 'a> {
    Box::new(session.probes_where(wanted))
}

fn success(probe: &Probe) -> Option<String> {
    if let Some(why) = not_exit_0(&probe.outcome) {
        return Some(why);
    }
    probe
        .stdout_json()
        .is_none()
        .then(|| "stdout is niet precies één JSON-document".into())
}

fn reference<'a>(session: &'a Session, probe: &Probe) -> Option<&'a Probe> {
    session
        .probes
        .iter()
        .find(|p| p.kind == Kind::Live(0) && p.entry == probe.entry && p.outcome.status == Some(0))
}

fn live_examples(session: &Session) -> Verdict {
    judge_probes(
        live(session, |k| matches!(k, Kind::Live(_))),
        OFFLINE,
        success,
    )
}

fn output_valid(session: &Session) -> Verdict {
    judge_probes(
        live(session, |k| matches!(k, Kind::Live(_))).filter(|p| p.outcome.status == Some(0)),
        OFFLINE,
        |probe| {
            let entry = &session.entries[probe.entry?];
            // The full schema is the command's own (DISC-17); the root lists only its members.
            let full = session
                .probes
                .iter()
                .find(|p| p.kind == Kind::CommandDiscovery && p.entry == probe.entry)
                .and_then(Probe::stdout_json)
                .and_then(|own| own.get("outputSchema").cloned());
            let validator = compile_user_schema(full.as_ref().unwrap_or(&entry.output)).ok()?;
            violations(&validator, &probe.stdout_json()?)
                .map(|why| format!("uitvoer voldoet niet aan outputSchema: {why}"))
        },
    )
}

fn output_json(session: &Session) -> Verdict {
    judge_probes(
        live(session, |k| *k == Kind::LiveJson || *k == Kind::Live(0)),
        OFFLINE,
        |probe| {
            if let Some(why) = success(probe) {
                return Some(why);
            }
            let compact = format!("{}\n", serde_json::to_string(&probe.stdout_json()?).ok()?);
            (probe.outcome.stdout != compact)
                .then(|| "stdout is niet compact (of mist de afsluitende newline)".into())
        },
    )
}

fn output_pretty(session: &Session) -> Verdict {
    judge_probes(
        live(session, |k| *k == Kind::LivePretty),
        OFFLINE,
        |probe| {
            if let Some(why) = success(probe) {
                return Some(why);
            }
            let expected = reference(session, probe)?.stdout_json();
            if probe.stdout_json() != expected {
                return Some("pretty geeft een andere JSON-waarde dan json".into());
            }
            (!probe.outcome.stdout.trim().contains('\n'))
                .then(|| "pretty is niet ingesprongen".into())
        },
    )
}

fn fields_two(session: &Session) -> Verdict {
    judge_probes(
        live(session, |k| matches!(k, Kind::LiveFields(_, _))),
        OFFLINE,
        |probe| {
            let Kind::LiveFields(a, b) = &probe.kind else {
                return None;
            };
            if let Some(why) = success(probe) {
                return Some(why);
            }
            let full = reference(session, probe)?.stdout_json()?;
            let got = probe.stdout_json()?;
            let keys: Vec<&String> = got
                .as_object()
                .map(|o| o.keys().collect())
                .unwrap_or_default();
            let mut sorted = keys.clone();
            sorted.sort();
            let mut wanted = vec![a, b];
            wanted.sort();
            if sorted != wanted {
                return Some(format!(
                    "verwacht precies de velden {a} en {b}, kreeg {keys:?}"
                ));
            }
            (got.get(a) != full.get(a) || got.get(b) != full.get(b))
                .then(|| "de inhoud van de gekozen velden wijkt af van de volledige uitvoer".into())
        },
    )
}

fn provenance(session: &Session) -> Verdict {
    judge_probes(
        live(session, |k| *k == Kind::LiveProvenance),
        OFFLINE,
        |probe| {
            if let Some(why) = success(probe) {
                return Some(why);
            }
            let envelope = probe.stdout_json()?;
            if let Some(why) = violations(&schemas().envelope, &envelope) {
                return Some(format!(
                    "envelop voldoet niet aan envelope.schema.json: {why}"
                ));
            }
            let provenance = envelope.get("provenance")?;
            let text = |name: &str| {
                provenance
                    .get(name)
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string()
            };
            if text("tool") != session.program_name()
                || text("tool_version") != session.program_version()
                || text("profile_version") != crate::PROFILE_VERSION
            {
                return Some("tool, tool_version of profile_version wijkt af van discovery".into());
            }
            if text("trace_id") != session.trace_id {
                return Some(format!(
                    "trace_id hoort {} (uit TRACEPARENT) te zijn",
                    session.trace_id
                ));
            }
            if provenance.get("fields") != Some(&Value::Null) {
                return Some("fields hoort null te zijn zonder --fields".into());
            }
            let data = reference(session, probe)?.stdout_json();
            (envelope.get("data") != data.as_ref())
                .then(|| "data wijkt af van de uitvoer zonder --provenance".into())
        },
    )
}

//! Error checks (ERR-*, EXIT-1, EXIT-3): invocations generated from each inputSchema, and every error object seen.

use serde_json::Value;

use super::{Check, Level, Verdict, judge_probes};
use crate::probe::{Kind, Probe};
use crate::schemas::{schemas, violations};
use crate::session::Session;

pub(super) fn checks() -> Vec<Check> {
    vec![
        Check {
            id: "usage-missing-argument",
            rules: &["ERR-11"],
            level: Level::Must,
            title: "ontbrekend verplicht argument: exit 2, code ONGELDIG_GEBRUIK",
            run: missing_argument,
        },
        Check {
            id: "usage-unknown-option",
            rules: &["ERR-11"],
            level: Level::Must,
            title: "onbekende optie: exit 2, code ONGELDIG_GEBRUIK",
            run: unknown_option,
        },
        Check {
            id: "usage-unknown-command",
            rules: &["ERR-11"],
            level: Level::Must,
            title: "onbekende opdracht: exit 2, code ONGELDIG_GEBRUIK",
            run: unknown_command,
        },
        Check {
            id: "usage-bad-enum",
            rules: &["ERR-11"],
            level: Level::Must,
            title: "waarde buiten enum: exit 2, code ONGELDIG_GEBRUIK",
            run: bad_enum,
        },
        Check {
            id: "invalid-pattern",
            rules: &["EXIT-3", "ERR-8", "ERR-10"],
            level: Level::Must,
            title: "waarde die pattern breekt: exit 65, ONGELDIGE_INVOER met pointer, geen verkeer",
            run: invalid_pattern,
        },
        Check {
            id: "error-object",
            rules: &["ERR-1", "ERR-2", "ERR-4", "ERR-5"],
            level: Level::Must,
            title: "elke fout: precies één foutobject als laatste regel op stderr, geldig, exit_code en type kloppen",
            run: error_object,
        },
        Check {
            id: "error-stdout-empty",
            rules: &["ERR-3"],
            level: Level::Must,
            title: "bij een fout is stdout leeg (behalve het plan bij 80/81)",
            run: stdout_empty,
        },
        Check {
            id: "exit-codes-known",
            rules: &["EXIT-1"],
            level: Level::Must,
            title: "elke exitcode komt uit de tabel van het profiel",
            run: exit_codes_known,
        },
    ]
}

/// Why `probe` is not a clean error with `exit` and `code`, if it is not.
pub(super) fn error_problem(probe: &Probe, exit: i32, code: Option<&str>) -> Option<String> {
    if probe.outcome.status != Some(exit) {
        return Some(format!(
            "verwacht exit {exit}, kreeg {}",
            probe.outcome.status_text()
        ));
    }
    let Some(object) = probe.error_object() else {
        return Some("de laatste regel op stderr is geen JSON-foutobject".into());
    };
    if let Some(why) = violations(&schemas().error, &object) {
        return Some(format!(
            "foutobject voldoet niet aan error.schema.json: {why}"
        ));
    }
    let got = object.get("code").and_then(Value::as_str).unwrap_or("");
    if let Some(code) = code
        && got != code
    {
        return Some(format!("verwacht code {code}, kreeg {got}"));
    }
    None
}

fn usage(session: &Session, wanted: impl Fn(&Kind) -> bool, reason: &str) -> Verdict {
    judge_probes(session.probes_where(wanted), reason, |probe| {
        error_problem(probe, 2, Some("ONGELDIG_GEBRUIK"))
    })
}

fn missing_argument(session: &Session) -> Verdict {
    usage(
        session,
        |k| matches!(k, Kind::MissingRequired(_)),
        "geen tool heeft een verplichte eigenschap",
    )
}

fn unknown_option(session: &Session) -> Verdict {
    usage(
        session,
        |k| *k == Kind::UnknownFlag,
        "geen tool met een voorbeeld",
    )
}

fn unknown_command(session: &Session) -> Verdict {
    usage(session, |k| *k == Kind::UnknownCommand, "niet aangeroepen")
}

fn bad_enum(session: &Session) -> Verdict {
    usage(
        session,
        |k| matches!(k, Kind::BadEnum(_)),
        "geen eigenschap met een enum",
    )
}

fn invalid_pattern(session: &Session) -> Verdict {
    judge_probes(
        session.probes_where(|k| matches!(k, Kind::BadPattern(_))),
        "geen eigenschap met een pattern",
        |probe| {
            let Kind::BadPattern(name) = &probe.kind else {
                return None;
            };
            if let Some(why) = error_problem(probe, 65, Some("ONGELDIGE_INVOER")) {
                return Some(why);
            }
            let pointer = format!("/{name}");
            let pointers: Vec<String> = probe
                .error_object()
                .and_then(|o| o.get("errors").cloned())
                .and_then(|e| e.as_array().cloned())
                .unwrap_or_default()
                .iter()
                .filter_map(|e| e.get("pointer").and_then(Value::as_str).map(String::from))
                .collect();
            if !pointers.contains(&pointer) {
                return Some(format!(
                    "errors noemt pointer {pointer} niet (wel: {pointers:?})"
                ));
            }
            (!probe.requests.is_empty()).then(|| {
                format!(
                    "verkeer naar de bron vóór de controle: {}",
                    probe.requests[0].url
                )
            })
        },
    )
}

fn failed(probe: &&Probe) -> bool {
    probe.outcome.status.is_some_and(|status| status != 0)
}

fn error_object(session: &Session) -> Verdict {
    judge_probes(
        session.probes.iter().filter(failed),
        "geen enkele aanroep faalde",
        |probe| {
            let status = probe.outcome.status?;
            let lines: Vec<&str> = probe
                .outcome
                .stderr
                .lines()
                .filter(|l| !l.trim().is_empty())
                .collect();
            let objects = lines
                .iter()
                .filter(|l| serde_json::from_str::<Value>(l).is_ok_and(|v| v.is_object()))
                .count();
            if objects != 1 {
                return Some(format!(
                    "verwacht precies één JSON-foutobject op stderr, vond er {objects}"
                ));
            }
            let object = probe.error_object().filter(Value::is_object);
            let Some(object) = object else {
                return Some("het foutobject is niet de laatste regel op stderr".into());
            };
            if let Some(why) = violations(&schemas().error, &object) {
                return Some(format!("voldoet niet aan error.schema.json: {why}"));
            }
            if object.get("exit_code").and_then(Value::as_i64) != Some(i64::from(status)) {
                return Some(format!(
                    "exit_code {} is niet de exitstatus {status}",
                    object["exit_code"]
                ));
            }
            let code = object.get("code").and_then(Value::as_str).unwrap_or("");
            let expected = format!("urn:overheid-cli:problem:{code}");
            (object.get("type").and_then(Value::as_str) != Some(expected.as_str()))
                .then(|| format!("type hoort {expected} te zijn"))
        },
    )
}

fn stdout_empty(session: &Session) -> Verdict {
    judge_probes(
        session.probes.iter().filter(failed),
        "geen enkele aanroep faalde",
        |probe| {
            let status = probe.outcome.status?;
            (status != 80 && status != 81 && !probe.outcome.stdout.is_empty())
                .then(|| format!("exit {status} met uitvoer op stdout"))
        },
    )
}

/// Exit codes of §8.2.
pub(super) const TABLE: [i32; 16] = [
    0, 1, 2, 65, 66, 69, 70, 74, 75, 76, 77, 78, 80, 81, 124, 130,
];

fn exit_codes_known(session: &Session) -> Verdict {
    judge_probes(
        session.probes.iter().filter(|p| p.outcome.status.is_some()),
        "geen aanroepen",
        |probe| {
            let status = probe.outcome.status?;
            (!TABLE.contains(&status)).then(|| format!("exit {status} staat niet in de tabel"))
        },
    )
}

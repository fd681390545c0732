//! The discovery document as a whole (DISC-1, DISC-2, DISC-4, DISC-5, DISC-7, CONF-9, CONV-1): valid,
//! read offline without side effects, stable between calls, naming the program, with the exit-code table.

use crate::checks::not_exit_0;
use serde_json::Value;

use crate::checks::{Evidence, NO_DISCOVERY, Verdict, judge, judge_probes, needs_discovery};
use crate::probe::Kind;
use crate::schemas::{schemas, violations};
use crate::session::Session;

pub(super) fn document(session: &Session) -> Verdict {
    let outcome = &session.discovery_outcome;
    let problem = if let Some(why) = not_exit_0(outcome) {
        Some(why)
    } else {
        match &session.discovery {
            None => Some("stdout is niet precies één JSON-document".into()),
            Some(document) => violations(&schemas().discovery, document)
                .map(|v| format!("voldoet niet aan discovery.schema.json: {v}")),
        }
    };
    match problem {
        Some(problem) => Verdict::Fail(vec![Evidence::of(outcome, problem)]),
        None => Verdict::Pass,
    }
}

pub(super) fn offline(session: &Session) -> Verdict {
    if let Some(skip) = needs_discovery(session) {
        return skip;
    }
    let reference = session.discovery.as_ref();
    judge_probes(
        session.probes_where(|k| matches!(k, Kind::DiscoveryEmptyEnv | Kind::DiscoveryWatched)),
        "geen discovery-aanroepen",
        |probe| {
            if let Some(why) = not_exit_0(&probe.outcome) {
                return Some(why);
            }
            if probe.stdout_json().as_ref() != reference {
                return Some("ander document dan bij de eerste aanroep".into());
            }
            if !probe.requests.is_empty() {
                return Some(format!(
                    "{} verzoek(en) naar de bron, bijv. {}",
                    probe.requests.len(),
                    probe.requests[0].url
                ));
            }
            if probe.audit.is_some() {
                return Some("discovery schreef een auditregel".into());
            }
            None
        },
    )
}

pub(super) fn stable(session: &Session) -> Verdict {
    if let Some(skip) = needs_discovery(session) {
        return skip;
    }
    judge_probes(
        session.probes_where(|k| *k == Kind::DiscoveryAgain),
        "niet herhaald",
        |probe| {
            (probe.outcome.stdout != session.discovery_outcome.stdout)
                .then(|| "tweede aanroep gaf een ander document".into())
        },
    )
}

pub(super) fn identity(session: &Session) -> Verdict {
    let expected = format!("{} {}\n", session.program_name(), session.program_version());
    judge_probes(
        session.probes_where(|k| *k == Kind::Version),
        "--version niet aangeroepen",
        |probe| {
            if probe.outcome.status != Some(0) {
                return Some(format!(
                    "--version: verwacht exit 0, kreeg {}",
                    probe.outcome.status_text()
                ));
            }
            session.discovery.as_ref()?;
            let name = session.program_name();
            let version = session.program_version();
            (!is_version_line(&probe.outcome.stdout, &name, &version)).then(|| {
                format!(
                    "verwacht {expected:?}, eventueel met een bouwnotitie tussen haakjes vóór de \
                     regelovergang (name en version uit discovery)"
                )
            })
        },
    )
}

/// Whether `stdout` is CONV-1's line: `<name> <version>`, optionally followed by one build
/// note in parentheses (` (commit 1a2b3c4d5e6f)`), and a newline.
fn is_version_line(stdout: &str, name: &str, version: &str) -> bool {
    let Some(rest) = stdout
        .strip_suffix('\n')
        .and_then(|line| line.strip_prefix(name))
        .and_then(|line| line.strip_prefix(' '))
        .and_then(|line| line.strip_prefix(version))
    else {
        return false;
    };
    rest.is_empty()
        || rest
            .strip_prefix(" (")
            .and_then(|note| note.strip_suffix(')'))
            .is_some_and(|note| {
                !note.is_empty()
                    && !note.contains(['(', ')'])
                    && !note.chars().any(char::is_control)
            })
}

const EXIT_CODES: [(i64, &str); 16] = [
    (0, "OK"),
    (1, "ERROR"),
    (2, "USAGE"),
    (65, "DATAERR"),
    (66, "NOT_FOUND"),
    (69, "UNAVAILABLE"),
    (70, "SOFTWARE"),
    (74, "IOERR"),
    (75, "TEMPFAIL"),
    (76, "PROTOCOL"),
    (77, "NOPERM"),
    (78, "CONFIG"),
    (80, "CONFIRMATION_REQUIRED"),
    (81, "PLAN_STALE"),
    (124, "TIMEOUT"),
    (130, "INTERRUPTED"),
];

pub(super) fn exit_code_table(session: &Session) -> Verdict {
    let Some(document) = &session.discovery else {
        return Verdict::Skip(NO_DISCOVERY.into());
    };
    let table: Vec<(i64, String, bool)> = document
        .get("exit_codes")
        .and_then(Value::as_array)
        .map(|rows| {
            rows.iter()
                .map(|row| {
                    (
                        row.get("code").and_then(Value::as_i64).unwrap_or(-1),
                        row.get("name")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string(),
                        // A meaning is the profile's (§8.2); one that is given is not empty.
                        row.get("meaning")
                            .is_none_or(|m| m.as_str().is_some_and(|m| !m.is_empty())),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let got: Vec<(i64, &str)> = table
        .iter()
        .map(|(code, name, _)| (*code, name.as_str()))
        .collect();
    let mut failures = Vec::new();
    if got != EXIT_CODES {
        failures.push(Evidence::about(
            "exit_codes",
            format!("verwacht {EXIT_CODES:?}, kreeg {got:?}"),
        ));
    }
    if let Some((code, _, _)) = table.iter().find(|(_, _, meaning)| !meaning) {
        failures.push(Evidence::about(
            "exit_codes",
            format!("code {code} met een lege of ongeldige meaning"),
        ));
    }
    judge(failures, 1, "")
}

#[cfg(test)]
mod tests {
    use super::is_version_line;

    #[test]
    fn a_version_line_may_carry_one_build_note() {
        assert!(is_version_line("kvk-cli 0.1.0\n", "kvk-cli", "0.1.0"));
        assert!(is_version_line(
            "kvk-cli 0.1.0 (commit 1a2b3c4d5e6f)\n",
            "kvk-cli",
            "0.1.0"
        ));
        for wrong in [
            "kvk-cli 0.1.0",
            "kvk-cli 0.1.1\n",
            "kvk 0.1.0\n",
            "kvk-cli 0.1.0 extra\n",
            "kvk-cli 0.1.0 ()\n",
            "kvk-cli 0.1.0 (a) (b)\n",
            "kvk-cli 0.1.0 (a\nb)\n",
            "kvk-cli 0.1.0\nmeer\n",
        ] {
            assert!(!is_version_line(wrong, "kvk-cli", "0.1.0"), "{wrong:?}");
        }
    }
}

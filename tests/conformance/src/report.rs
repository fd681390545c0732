//! The report: a table for people, JSON for machines, and the catalogue listing (`--list-rules`).

use std::time::Duration;

use serde_json::{Value, json};

use crate::checks::{Check, Level, Verdict};
use crate::session::Session;

/// Checks with their verdicts.
pub(crate) type Results<'a> = Vec<(&'a Check, Verdict)>;

fn label(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Pass => "PASS",
        Verdict::Fail(_) => "FAIL",
        Verdict::Skip(_) | Verdict::NotApplicable(_) => "SKIP",
    }
}

/// How many results have `label`.
fn count(results: &Results, wanted: &str) -> usize {
    results.iter().filter(|(_, v)| label(v) == wanted).count()
}

/// How many checks were not judged because of how the checker was run (`--emulated`).
fn not_applicable(results: &Results) -> usize {
    results
        .iter()
        .filter(|(_, v)| matches!(v, Verdict::NotApplicable(_)))
        .count()
}

/// Number of failed MUST checks.
pub(crate) fn must_failures(results: &Results) -> usize {
    results
        .iter()
        .filter(|(check, verdict)| {
            check.level == Level::Must && matches!(verdict, Verdict::Fail(_))
        })
        .count()
}

/// The machine report.
pub(crate) fn json(session: &Session, results: &Results, elapsed: Duration) -> Value {
    json!({
        "program": session.program,
        "name": session.program_name(),
        "version": session.program_version(),
        "profile_version": crate::PROFILE_VERSION,
        "live": session.live,
        "emulated": session.emulated,
        "duration_ms": elapsed.as_millis() as u64,
        "summary": {
            "pass": count(results, "PASS"),
            "fail": count(results, "FAIL"),
            "skip": count(results, "SKIP"),
            "not_applicable": not_applicable(results),
            "must_failed": must_failures(results)
        },
        "checks": results.iter().map(|(check, verdict)| {
            let mut item = json!({"id": check.id, "rules": check.rules, "level": check.level.label(), "title": check.title, "result": label(verdict)});
            match verdict {
                Verdict::Skip(reason) => item["reason"] = json!(reason),
                Verdict::NotApplicable(reason) => {
                    item["reason"] = json!(reason);
                    item["not_applicable"] = json!(true);
                }
                Verdict::Fail(evidence) => item["evidence"] = evidence.iter().map(|e| json!({
                    "command": e.command, "status": e.status, "problem": e.problem, "output": e.output
                })).collect(),
                Verdict::Pass => {}
            }
            item
        }).collect::<Vec<_>>()
    })
}

const SHOWN: usize = 5;

/// The human report.
pub(crate) fn table(session: &Session, results: &Results, elapsed: Duration) -> String {
    let width = results.iter().map(|(c, _)| c.id.len()).max().unwrap_or(10);
    let rules_width = results
        .iter()
        .map(|(c, _)| c.rules.join(",").len())
        .max()
        .unwrap_or(10)
        .min(28);
    let mut out = format!(
        "profile-check: {} {} (profiel {}){}{}, {} controles in {:.1} s\n\n",
        if session.program_name().is_empty() {
            session.program.join(" ")
        } else {
            session.program_name()
        },
        session.program_version(),
        crate::PROFILE_VERSION,
        if session.live { ", live" } else { "" },
        if session.emulated {
            format!(
                ", onder een emulator (tijdslimieten {}× ruimer)",
                crate::session::EMULATED_SLOWDOWN
            )
        } else {
            String::new()
        },
        results.len(),
        elapsed.as_secs_f64()
    );
    for (check, verdict) in results {
        out.push_str(&format!(
            "{}  {:width$}  {:rules_width$}  {}\n",
            label(verdict),
            check.id,
            check.rules.join(","),
            check.title
        ));
        match verdict {
            Verdict::Skip(reason) | Verdict::NotApplicable(reason) => {
                out.push_str(&format!("      overgeslagen: {reason}\n"))
            }
            Verdict::Fail(evidence) => {
                for item in evidence.iter().take(SHOWN) {
                    out.push_str(&format!("      $ {}\n", item.command));
                    let status = if item.status.is_empty() {
                        String::new()
                    } else {
                        format!("{}: ", item.status)
                    };
                    out.push_str(&format!("        {status}{}\n", item.problem));
                    for line in item.output.lines().take(4) {
                        out.push_str(&format!("        {line}\n"));
                    }
                }
                if evidence.len() > SHOWN {
                    out.push_str(&format!("      … en nog {} keer\n", evidence.len() - SHOWN));
                }
            }
            Verdict::Pass => {}
        }
    }
    let unjudged = match not_applicable(results) {
        0 => String::new(),
        n => format!(" (waarvan {n} niet van toepassing onder --emulated)"),
    };
    out.push_str(&format!(
        "\n{} PASS, {} FAIL ({} MUST), {} SKIP{unjudged}\n",
        count(results, "PASS"),
        count(results, "FAIL"),
        must_failures(results),
        count(results, "SKIP")
    ));
    out
}

/// `--list-rules`.
pub(crate) fn catalogue_json(checks: &[Check]) -> Value {
    checks
        .iter()
        .map(|c| json!({"id": c.id, "rules": c.rules, "level": c.level.label(), "title": c.title}))
        .collect()
}

/// `--list-rules` as a table.
pub(crate) fn catalogue_table(checks: &[Check]) -> String {
    let width = checks.iter().map(|c| c.id.len()).max().unwrap_or(10);
    checks
        .iter()
        .map(|c| {
            format!(
                "{:width$}  {:6}  {:28}  {}\n",
                c.id,
                c.level.label(),
                c.rules.join(","),
                c.title
            )
        })
        .collect()
}

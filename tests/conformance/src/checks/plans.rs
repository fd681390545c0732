//! Plan checks (DRY-*, MUT-*, NET-8, OUT-1): dry runs of every example, refused and stale mutations.

use crate::checks::not_exit_0;
use serde_json::Value;

use super::errors::error_problem;
use super::{Check, Level, Verdict, judge_probes};
use crate::canonical::plan_digest;
use crate::probe::{Kind, Probe};
use crate::schemas::{schemas, violations};
use crate::session::Session;

pub(super) fn checks() -> Vec<Check> {
    vec![
        Check {
            id: "dry-run-examples",
            rules: &["DRY-1", "DISC-16", "EXIT-2"],
            level: Level::Must,
            title: "--dry-run van elk voorbeeld: exit 0, geldig plan met dry_run true",
            run: dry_run_examples,
        },
        Check {
            id: "dry-run-no-traffic",
            rules: &["DRY-2"],
            level: Level::Must,
            title: "een dry run verstuurt niets",
            run: dry_run_no_traffic,
        },
        Check {
            id: "plan-content",
            rules: &["DRY-7", "MUT-3"],
            level: Level::Must,
            title: "plan: tool, command, mutating en plan_digest (canonieke JSON) kloppen",
            run: plan_content,
        },
        Check {
            id: "dry-run-provenance",
            rules: &["DRY-9"],
            level: Level::Must,
            title: "--provenance omhult een plan niet",
            run: dry_run_provenance,
        },
        Check {
            id: "dry-run-confirm",
            rules: &["DRY-8", "MUT-7"],
            level: Level::Must,
            title: "--dry-run gaat voor --confirm; --confirm wordt aanvaard",
            run: dry_run_confirm,
        },
        Check {
            id: "dry-run-fields",
            rules: &["FIELDS-8"],
            level: Level::Must,
            title: "--dry-run --fields plan_digest geeft alleen de digest van het hele plan",
            run: dry_run_fields,
        },
        Check {
            id: "plain-http-refused",
            rules: &["NET-8", "DRY-4"],
            level: Level::Must,
            title: "basis-URL met http naar een niet-loopback-host: exit 78 CONFIG_FOUT, ook bij --dry-run",
            run: plain_http,
        },
        Check {
            id: "output-option",
            rules: &["OUT-1"],
            level: Level::Must,
            title: "--output json|raw|pretty aanvaard, een andere waarde exit 2",
            run: output_option,
        },
        Check {
            id: "mutation-refused",
            rules: &["MUT-2"],
            level: Level::Must,
            title: "mutatie zonder --confirm: exit 80, plan op stdout, hint met --confirm=<digest>, niets verstuurd",
            run: mutation_refused,
        },
        Check {
            id: "mutation-stale",
            rules: &["MUT-6"],
            level: Level::Must,
            title: "mutatie met een verkeerde digest: exit 81 PLAN_VERLOPEN, plan op stdout, niets verstuurd",
            run: mutation_stale,
        },
    ]
}

/// Why stdout is not a valid plan with `dry_run`, if it is not.
/// A dry run: exit 0 and a valid plan on stdout.
fn dry_run_plan(probe: &Probe) -> Option<String> {
    not_exit_0(&probe.outcome).or_else(|| plan_problem(probe, true))
}

fn plan_problem(probe: &Probe, dry_run: bool) -> Option<String> {
    let Some(plan) = probe.stdout_json() else {
        return Some("stdout is geen JSON-plan".into());
    };
    if let Some(why) = violations(&schemas().plan, &plan) {
        return Some(format!("plan voldoet niet aan plan.schema.json: {why}"));
    }
    (plan.get("dry_run") != Some(&Value::Bool(dry_run)))
        .then(|| format!("dry_run hoort {dry_run} te zijn"))
}

fn traffic(probe: &Probe) -> Option<String> {
    (!probe.requests.is_empty()).then(|| {
        format!(
            "{} verzoek(en) verstuurd, eerste: {} {}",
            probe.requests.len(),
            probe.requests[0].method,
            probe.requests[0].url
        )
    })
}

fn dry_run_examples(session: &Session) -> Verdict {
    judge_probes(
        session.probes_where(|k| matches!(k, Kind::DryRun(_))),
        "geen voorbeelden",
        dry_run_plan,
    )
}

fn dry_run_no_traffic(session: &Session) -> Verdict {
    judge_probes(
        session.probes_where(|k| {
            matches!(
                k,
                Kind::DryRun(_)
                    | Kind::DryRunConfirm
                    | Kind::DryRunProvenance
                    | Kind::DryRunFields(_)
                    | Kind::DryRunOutput(_)
            )
        }),
        "geen dry runs",
        traffic,
    )
}

fn plan_content(session: &Session) -> Verdict {
    if session.discovery.is_none() {
        return Verdict::Skip(super::NO_DISCOVERY.into());
    }
    judge_probes(
        session
            .probes_where(|k| matches!(k, Kind::DryRun(_) | Kind::MutationRefused))
            .filter(|p| {
                p.stdout_json().is_some()
                    && (p.kind != Kind::MutationRefused || p.outcome.status == Some(80))
            }),
        "geen plannen",
        |probe| {
            let plan = probe.stdout_json()?;
            let entry = &session.entries[probe.entry?];
            let command = session.command_of(probe);
            if plan.get("tool").and_then(Value::as_str) != Some(session.program_name().as_str()) {
                return Some(format!("tool hoort {:?} te zijn", session.program_name()));
            }
            if plan.get("command").and_then(Value::as_str) != Some(command.as_str()) {
                return Some(format!("command hoort {command:?} te zijn"));
            }
            if plan.get("mutating") != Some(&Value::Bool(!entry.read_only)) {
                return Some(format!(
                    "mutating hoort {} te zijn (readOnlyHint {})",
                    !entry.read_only, entry.read_only
                ));
            }
            let expected = plan_digest(plan.get("command")?, plan.get("arguments")?);
            (plan.get("plan_digest").and_then(Value::as_str) != Some(expected.as_str()))
                .then(|| format!("plan_digest hoort {expected} te zijn (SHA-256 van canonieke {{command, arguments}})"))
        },
    )
}

fn dry_run_provenance(session: &Session) -> Verdict {
    judge_probes(
        session.probes_where(|k| *k == Kind::DryRunProvenance),
        "geen voorbeelden",
        dry_run_plan,
    )
}

fn dry_run_confirm(session: &Session) -> Verdict {
    judge_probes(
        session.probes_where(|k| *k == Kind::DryRunConfirm),
        "geen voorbeelden",
        |probe| dry_run_plan(probe).or_else(|| traffic(probe)),
    )
}

fn dry_run_fields(session: &Session) -> Verdict {
    judge_probes(
        session.probes_where(|k| matches!(k, Kind::DryRunFields(_))),
        "geen dry runs",
        |probe| {
            let reference = session
                .probes
                .iter()
                .find(|p| p.kind == Kind::DryRun(0) && p.entry == probe.entry)
                .and_then(Probe::stdout_json)?;
            if probe.outcome.status != Some(0) {
                return Some(format!(
                    "verwacht exit 0 zoals zonder --fields, kreeg {}",
                    probe.outcome.status_text()
                ));
            }
            let expected = serde_json::json!({"plan_digest": reference.get("plan_digest")?});
            (probe.stdout_json().as_ref() != Some(&expected))
                .then(|| format!("verwacht alleen {expected} (de digest van het hele plan)"))
        },
    )
}

fn plain_http(session: &Session) -> Verdict {
    judge_probes(
        session.probes_where(|k| *k == Kind::PlainHttp),
        "geen base_url-variabelen of geen tool met openWorldHint",
        |probe| error_problem(probe, 78, Some("CONFIG_FOUT")),
    )
}

fn output_option(session: &Session) -> Verdict {
    judge_probes(
        session.probes_where(|k| matches!(k, Kind::DryRunOutput(_))),
        "geen voorbeelden",
        |probe| {
            let Kind::DryRunOutput(mode) = &probe.kind else {
                return None;
            };
            match mode.as_str() {
                "json" | "raw" | "pretty" => {
                    if probe.outcome.status != Some(0) {
                        return Some(format!(
                            "--output {mode}: verwacht exit 0, kreeg {}",
                            probe.outcome.status_text()
                        ));
                    }
                    serde_json::from_str::<Value>(&probe.outcome.stdout)
                        .is_err()
                        .then(|| format!("--output {mode} gaf geen JSON"))
                }
                _ => error_problem(probe, 2, None),
            }
        },
    )
}

fn mutation_refused(session: &Session) -> Verdict {
    judge_probes(
        session.probes_where(|k| *k == Kind::MutationRefused),
        "geen muterende tools (readOnlyHint false)",
        |probe| {
            if let Some(why) = error_problem(probe, 80, Some("BEVESTIGING_VEREIST")) {
                return Some(why);
            }
            if let Some(why) = plan_problem(probe, false) {
                return Some(why);
            }
            let digest = probe
                .stdout_json()?
                .get("plan_digest")?
                .as_str()?
                .to_string();
            let hint = probe
                .error_object()?
                .get("hint")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            if !hint.contains(&format!("--confirm={digest}")) {
                return Some(format!("hint bevat geen --confirm={digest}"));
            }
            traffic(probe)
        },
    )
}

fn mutation_stale(session: &Session) -> Verdict {
    judge_probes(
        session.probes_where(|k| matches!(k, Kind::MutationStale(_))),
        "geen muterende tools (readOnlyHint false)",
        |probe| {
            error_problem(probe, 81, Some("PLAN_VERLOPEN"))
                .or_else(|| plan_problem(probe, false))
                .or_else(|| traffic(probe))
        },
    )
}

//! What happens on the wire (EXIT-9, NET-2, NET-3, NET-6, NET-10, NET-11, CONF-5, AUDIT-15): an unreadable
//! answer, a silent source, a redirect elsewhere, the request headers, the base URL, the audit record.

use std::time::Duration;

use serde_json::Value;

use super::{NONE, of_mode};
use crate::checks::errors::error_problem;
use crate::checks::{Evidence, Verdict, judge, judge_probes};
use crate::probe::{Kind, Probe};
use crate::recorder::Mode;
use crate::session::Session;

pub(super) fn garbage(session: &Session) -> Verdict {
    judge_probes(of_mode(session, Mode::Garbage), NONE, |probe| {
        error_problem(probe, 76, None)
    })
}

/// Against silence, `--timeout 1` ends the program by itself with exit 124: what the deadline
/// does, whatever the clock (also under `--emulated`, with the checker's limit widened).
pub(super) fn timeout(session: &Session) -> Verdict {
    judge_probes(of_mode(session, Mode::Stall), NONE, |probe| {
        if probe.outcome.timed_out {
            return Some("het programma stopte niet zelf na --timeout 1".into());
        }
        // Ended before its second was up and without a request: it never waited on the silent
        // source. (A deadline counts from the start, so a start slower than the second, as under
        // a loaded emulator, may rightly end the program before its request: not judged here.)
        if probe.requests.is_empty() && probe.outcome.elapsed < STALL_DEADLINE {
            return Some(format!(
                "exit na {:.2} s, voor de tijdlimiet van 1 s en zonder verzoek aan de zwijgende bron",
                probe.outcome.elapsed.as_secs_f64()
            ));
        }
        error_problem(probe, 124, Some("TIJDLIMIET_VERSTREKEN"))
    })
}

/// Why `timeout_on_time` does not apply under `--emulated`.
const WALL_CLOCK_UNDER_EMULATION: &str = "niet van toepassing onder een emulator (--emulated): meet wandkloktijd, en die is daar de emulator, niet het programma";

/// Against silence, `--timeout 1` ends the program within [`STALL_GRACE`] of its first request:
/// a measure of wall-clock time, which under an emulator measures the emulator.
/// Under an emulator it is not applicable where it would have judged something; a program
/// without a source to fall silent is skipped for that, emulated or not.
pub(super) fn timeout_on_time(session: &Session) -> Verdict {
    if session.emulated && of_mode(session, Mode::Stall).next().is_some() {
        return Verdict::NotApplicable(WALL_CLOCK_UNDER_EMULATION.into());
    }
    judge_probes(of_mode(session, Mode::Stall), NONE, |probe| {
        let after = after_first_request(probe);
        (probe.outcome.timed_out || after > STALL_GRACE).then(|| {
            format!(
                "pas {:.1} s na het verzoek gestopt (hoogstens {:.1} s)",
                after.as_secs_f64(),
                STALL_GRACE.as_secs_f64()
            )
        })
    })
}

/// The deadline the silent-source probe gives the program (`--timeout 1`).
const STALL_DEADLINE: Duration = Duration::from_secs(1);

/// How long after its first request a program with `--timeout 1` may take to stop: the second
/// of its deadline plus room for a busy machine. Timed from the request, not from the start,
/// so that a slow start on a loaded machine is not taken for an ignored deadline (the probe's
/// own 4 s limit still bounds the whole run).
const STALL_GRACE: Duration = Duration::from_millis(2500);

/// The time between the probe's first recorded request and the end of its process (its whole
/// run when it sent none).
fn after_first_request(probe: &Probe) -> Duration {
    let first = probe.requests.iter().map(|request| request.received).min();
    match (first, probe.outcome.ended) {
        (Some(first), Some(ended)) => ended.saturating_duration_since(first),
        _ => probe.outcome.elapsed,
    }
}

pub(super) fn redirect(session: &Session) -> Verdict {
    judge_probes(of_mode(session, Mode::Redirect), NONE, |probe| {
        error_problem(probe, 76, Some("OMLEIDING_GEWEIGERD"))
    })
}

pub(super) fn headers(session: &Session) -> Verdict {
    let agent = format!("{}/{}", session.program_name(), session.program_version());
    let mut considered = 0;
    let mut failures = Vec::new();
    for probe in session
        .probes
        .iter()
        .filter(|p| matches!(p.kind, Kind::Upstream(_)))
    {
        for request in &probe.requests {
            considered += 1;
            let user_agent = request.header("user-agent").unwrap_or("");
            let traceparent = request.header("traceparent").unwrap_or("");
            let problem = if !user_agent.starts_with(&agent) {
                Some(format!("User-Agent {user_agent:?} begint niet met {agent}"))
            } else if !traceparent.starts_with(&format!("00-{}-", session.trace_id)) {
                Some(format!(
                    "traceparent {traceparent:?} draagt niet trace-id {}",
                    session.trace_id
                ))
            } else {
                None
            };
            if let Some(problem) = problem {
                failures.push(Evidence::of(
                    &probe.outcome,
                    format!("{} {}: {problem}", request.method, request.url),
                ));
                break;
            }
        }
    }
    judge(failures, considered, "geen verzoeken ontvangen")
}

pub(super) fn base_url(session: &Session) -> Verdict {
    let failures: Vec<Evidence> = session
        .stray_requests
        .iter()
        .map(|request| {
            Evidence::about(
                format!("{} {}", request.method, request.url),
                "verzoek buiten elke opgegeven basis-URL",
            )
        })
        .collect();
    let considered = session
        .probes
        .iter()
        .filter(|p| !p.requests.is_empty())
        .count()
        + failures.len();
    judge(failures, considered, "geen verzoeken ontvangen")
}

pub(super) fn audit_upstream(session: &Session) -> Verdict {
    judge_probes(
        session.probes.iter().filter(|p| {
            matches!(p.kind, Kind::Upstream(m) if m != Mode::Stall && m != Mode::Redirect)
                && !p.requests.is_empty()
        }),
        "geen verzoeken ontvangen",
        |probe| {
            let record: Value = serde_json::from_str(probe.audit.as_ref()?.first()?).ok()?;
            let attributes = record.get("attributes")?;
            if attributes
                .get("url.full")
                .and_then(Value::as_str)
                .is_none_or(str::is_empty)
            {
                return Some("url.full ontbreekt".into());
            }
            let Kind::Upstream(mode) = probe.kind else {
                return None;
            };
            let expected = mode.status()?;
            (attributes
                .get("http.response.status_code")
                .and_then(Value::as_i64)
                != Some(expected))
            .then(|| format!("http.response.status_code hoort {expected} te zijn"))
        },
    )
}

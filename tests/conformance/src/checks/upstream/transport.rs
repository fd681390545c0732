//! Source-behaviour checks (EXIT-4..9, NET-*, AUDIT-15): the recorder answers like a misbehaving source.

use serde_json::Value;

use super::errors::error_problem;
use super::{Check, Evidence, Level, Verdict, judge, judge_probes};
use crate::probe::{Kind, Probe};
use crate::recorder::Mode;
use crate::session::Session;

pub fn checks() -> Vec<Check> {
    vec![
        Check {
            id: "upstream-5xx",
            rules: &["EXIT-8", "ERR-7"],
            level: Level::Must,
            title: "bron antwoordt 500: exit 69 SOURCE_UNAVAILABLE met status 500",
            run: server_error,
        },
        Check {
            id: "upstream-429",
            rules: &["EXIT-7", "ERR-9", "NET-5"],
            level: Level::Must,
            title: "bron antwoordt 429 met Retry-After voorbij de deadline: exit 75 met retry_after, niet opnieuw",
            run: rate_limited,
        },
        Check {
            id: "upstream-401",
            rules: &["EXIT-5"],
            level: Level::Must,
            title: "bron antwoordt 401: exit 77",
            run: unauthorized,
        },
        Check {
            id: "upstream-400",
            rules: &["EXIT-4"],
            level: Level::Must,
            title: "bron antwoordt 400: exit 65",
            run: bad_request,
        },
        Check {
            id: "upstream-garbage",
            rules: &["EXIT-9"],
            level: Level::Must,
            title: "onleesbaar antwoord: exit 76",
            run: garbage,
        },
        Check {
            id: "upstream-timeout",
            rules: &["NET-2"],
            level: Level::Must,
            title: "bron zwijgt: --timeout 1 geeft exit 124 TIMEOUT op tijd",
            run: timeout,
        },
        Check {
            id: "upstream-redirect",
            rules: &["NET-6"],
            level: Level::Must,
            title: "omleiding naar een andere origin: niet volgen, exit 76 OMLEIDING_GEWEIGERD",
            run: redirect,
        },
        Check {
            id: "upstream-headers",
            rules: &["NET-3", "NET-10"],
            level: Level::Must,
            title: "elk verzoek: User-Agent <naam>/<versie> en traceparent met de trace-id",
            run: headers,
        },
        Check {
            id: "upstream-base-url",
            rules: &["NET-11", "CONF-5"],
            level: Level::Must,
            title: "verzoeken gaan alleen naar de opgegeven basis-URL",
            run: base_url,
        },
        Check {
            id: "audit-upstream",
            rules: &["AUDIT-15"],
            level: Level::Must,
            title: "auditregel na een verzoek: url.full en http.response.status_code",
            run: audit_upstream,
        },
    ]
}

fn of_mode(session: &Session, mode: Mode) -> impl Iterator<Item = &Probe> {
    session.probes_where(move |k| *k == Kind::Upstream(mode))
}

const NONE: &str = "geen alleen-lezen tool met openWorldHint en base_url-variabele";

fn status_member(probe: &Probe, status: i64) -> Option<String> {
    let object = probe.error_object()?;
    (object.get("status").and_then(Value::as_i64) != Some(status))
        .then(|| format!("foutobject zonder \"status\": {status}"))
}

fn server_error(session: &Session) -> Verdict {
    judge_probes(of_mode(session, Mode::ServerError), NONE, |probe| {
        error_problem(probe, 69, Some("SOURCE_UNAVAILABLE")).or_else(|| status_member(probe, 500))
    })
}

fn rate_limited(session: &Session) -> Verdict {
    judge_probes(of_mode(session, Mode::RateLimited), NONE, |probe| {
        if let Some(why) = error_problem(probe, 75, None) {
            return Some(why);
        }
        if probe.requests.len() > 1 {
            return Some(format!(
                "{} verzoeken: opnieuw geprobeerd hoewel Retry-After voorbij de deadline ligt",
                probe.requests.len()
            ));
        }
        let retry_after = probe
            .error_object()?
            .get("retry_after")
            .and_then(Value::as_i64);
        (retry_after != Some(3600))
            .then(|| format!("retry_after hoort 3600 te zijn, kreeg {retry_after:?}"))
    })
}

fn unauthorized(session: &Session) -> Verdict {
    judge_probes(of_mode(session, Mode::Unauthorized), NONE, |probe| {
        error_problem(probe, 77, None)
    })
}

fn bad_request(session: &Session) -> Verdict {
    judge_probes(of_mode(session, Mode::BadRequest), NONE, |probe| {
        error_problem(probe, 65, None)
    })
}

fn garbage(session: &Session) -> Verdict {
    judge_probes(of_mode(session, Mode::Garbage), NONE, |probe| {
        error_problem(probe, 76, None)
    })
}

fn timeout(session: &Session) -> Verdict {
    judge_probes(of_mode(session, Mode::Stall), NONE, |probe| {
        if probe.outcome.timed_out {
            return Some("het programma stopte niet zelf na --timeout 1".into());
        }
        error_problem(probe, 124, Some("TIMEOUT")).or_else(|| {
            (probe.outcome.elapsed.as_secs_f64() > 2.5).then(|| {
                format!(
                    "pas na {:.1} s gestopt",
                    probe.outcome.elapsed.as_secs_f64()
                )
            })
        })
    })
}

fn redirect(session: &Session) -> Verdict {
    judge_probes(of_mode(session, Mode::Redirect), NONE, |probe| {
        error_problem(probe, 76, Some("OMLEIDING_GEWEIGERD"))
    })
}

fn headers(session: &Session) -> Verdict {
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

fn base_url(session: &Session) -> Verdict {
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

fn audit_upstream(session: &Session) -> Verdict {
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
            let expected = match probe.kind {
                Kind::Upstream(Mode::ServerError) => 500,
                Kind::Upstream(Mode::RateLimited) => 429,
                Kind::Upstream(Mode::Unauthorized) => 401,
                Kind::Upstream(Mode::BadRequest) => 400,
                _ => 200,
            };
            (attributes
                .get("http.response.status_code")
                .and_then(Value::as_i64)
                != Some(expected))
            .then(|| format!("http.response.status_code hoort {expected} te zijn"))
        },
    )
}

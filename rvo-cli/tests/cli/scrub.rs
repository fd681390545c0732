//! A backend that echoes the bearer token back, on every error path of every networked
//! command: the token never reaches stdout, stderr or the audit log, in any form (SEC-2,
//! ERR-13).

use serde_json::json;
use test_support::cli::{CANARY, assert_no_canary, percent_encoded};
use test_support::{FakeServer, RecordedRequest, Reply};

use crate::support::{Sandbox, indienen, run};

/// The token as the backend received it, `Bearer ` and all.
fn authorization(request: &RecordedRequest) -> String {
    request.header("authorization").unwrap_or("?").to_string()
}

/// The token alone.
fn token(request: &RecordedRequest) -> String {
    authorization(request)
        .trim_start_matches("Bearer ")
        .to_string()
}

/// A problem+json answer that repeats `echo` in every text member.
fn echoing_problem(status: u16, echo: &str) -> Reply {
    Reply::json(
        status,
        &json!({
            "type": "about:blank", "title": echo, "status": status,
            "detail": format!("token {echo} geweigerd"), "hint": echo,
            "errors": [{"pointer": "/maatregelen", "detail": echo}],
        }),
    )
    .header("content-type", "application/problem+json")
    .header("www-authenticate", &format!("Bearer error=\"{echo}\""))
}

type Echo = fn(&RecordedRequest) -> Reply;

fn cases() -> Vec<(&'static str, i32, Echo)> {
    vec![
        ("400 raw token", 65, |r| echoing_problem(400, &token(r))),
        ("401 bearer form", 77, |r| {
            echoing_problem(401, &authorization(r))
        }),
        ("403 url-encoded", 77, |r| {
            echoing_problem(403, &percent_encoded(&token(r)))
        }),
        ("409 in progress", 75, |r| {
            echoing_problem(409, &token(r)).header("retry-after", "1")
        }),
        ("422 idempotency conflict", 65, |r| {
            echoing_problem(422, &token(r))
        }),
        ("429", 75, |r| {
            echoing_problem(429, &token(r)).header("retry-after", "60")
        }),
        ("500", 69, |r| echoing_problem(500, &token(r))),
        ("503 plain text", 69, |r| {
            Reply::text(503, &authorization(r))
        }),
        ("201 not JSON", 76, |r| Reply::text(201, &token(r))),
        ("201 of another shape", 76, |r| {
            Reply::json(
                201,
                &json!({"referentienummer": token(r), "ontvangen_op": token(r), "status": token(r)}),
            )
        }),
        ("302 out of the base", 76, |r| {
            Reply::redirect(&format!("/elders?t={}", percent_encoded(&token(r))))
        }),
    ]
}

fn assert_clean(label: &str, sandbox: &Sandbox, run: &crate::support::Run) {
    for text in [&run.stdout, &run.stderr, &sandbox.audit_text()] {
        assert_no_canary(label, text);
    }
}

/// SEC-2, ERR-13: `indienen`, `status` and `lijst` against a backend that echoes the token:
/// the exit status says what happened, the token is masked everywhere.
#[test]
fn sec_2_echoed_token_never_reaches_the_user_or_the_audit_log() {
    let filing = indienen("LED", &["--confirm"]);
    let reads = [
        vec!["rapportage", "status", "RVO-EBR-2027-1KC7Q3M9Z-7XK2MD"],
        vec!["rapportage", "lijst", "68750110"],
    ];
    for (label, exit, echo) in cases() {
        let fake = FakeServer::start(echo);
        for args in std::iter::once(&filing).chain(&reads) {
            // A read of one report answering 404-like codes is its own class; the classes
            // of the reads are pinned in http_status.rs, here only the masking matters.
            let sandbox = Sandbox::new();
            let mut cmd = sandbox.cmd();
            cmd.env("RVO_API_BASE", fake.url("/api"))
                .env("RVO_API_TOKEN", CANARY)
                .args(["--timeout", "5"]);
            let result = run(cmd, args);
            assert_ne!(result.code, 0, "{label} {args:?}: {result:?}");
            if args == &filing {
                assert_eq!(result.code, exit, "{label}: {result:?}");
            }
            assert_clean(label, &sandbox, &result);
        }
    }
}

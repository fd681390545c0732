//! The HTTP client as seen from the wire: headers, retries, deadlines, redirects, body cap
//! (NET-*, SEC-3).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use test_support::kvk::special::{STALL_BEFORE_HEADERS, STALL_MID_BODY, TECHNISCHE_FOUT};
use test_support::{FakeServer, Reply};

use crate::support::{KEY, KvkFake, MOUNT, Sandbox, discovery, run};

/// NET-3, SEC-3: the request carries the key (to the configured host) and a User-Agent
/// that starts with `kvk-cli/<version>`.
#[test]
fn net_3_user_agent_and_key_header() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "68750110"],
    )
    .json();
    let request = fake.server.last_request().expect("a request");
    assert_eq!(request.header("apikey"), Some(KEY));
    let version = discovery()["version"].as_str().expect("version").to_owned();
    let agent = request.header("user-agent").expect("user-agent");
    assert!(agent.starts_with(&format!("kvk-cli/{version}")), "{agent}");
}

/// The KvK contract: every command asks for `application/hal+json` (the only type the
/// Vestigingsprofiel document lists; the fake refuses anything else there with 406, as a mock
/// from that document does) and `application/json`.
#[test]
fn every_command_accepts_hal_json_and_json() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    for args in [
        &["zoek", "--naam", "Donald"][..],
        &["basisprofiel", "toon", "68750110"],
        &["basisprofiel", "eigenaar", "68750110"],
        &["basisprofiel", "hoofdvestiging", "68750110"],
        &["basisprofiel", "vestigingen", "68750110"],
        &["vestigingsprofiel", "toon", "000037178601"],
        &["naamgeving", "toon", "68750110"],
    ] {
        run(sandbox.cmd(&fake.base()), args).json();
        let request = fake.server.last_request().expect("a request");
        assert_eq!(
            request.header("accept"),
            Some("application/hal+json, application/json"),
            "{args:?}"
        );
    }
}

/// NET-5, EXIT-2: a 429 with a short Retry-After is retried after waiting, and then succeeds.
#[test]
fn net_5_short_retry_after_is_retried() {
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&calls);
    let fake = KvkFake::with(move |request| {
        if counter.fetch_add(1, Ordering::SeqCst) == 0 {
            Reply::text(429, "Too Many Requests").header("retry-after", "1")
        } else {
            test_support::kvk::kvk(request)
        }
    });
    let sandbox = Sandbox::new();
    let started = Instant::now();
    let data = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "68750110", "--timeout", "10"],
    )
    .json();
    assert_eq!(data["kvkNummer"], "68750110");
    assert_eq!(fake.request_count(), 2);
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "Retry-After honoured"
    );
    let record = sandbox.single_audit_record();
    assert_eq!(record["attributes"]["http.response.status_code"], 200);
}

/// NET-5: a Retry-After beyond the deadline is not waited for: the answer comes at once.
#[test]
fn net_5_no_wait_beyond_the_deadline() {
    let fake = KvkFake::with(|_| Reply::text(429, "Too Many Requests").header("retry-after", "30"));
    let sandbox = Sandbox::new();
    let started = Instant::now();
    let error = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "68750110", "--timeout", "5"],
    )
    .error(75);
    assert_eq!(error["retry_after"], 30);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(fake.request_count(), 1);
}

/// NET-4: a 503 without Retry-After is retried at most twice, then 69.
#[test]
fn net_4_at_most_two_retries() {
    let fake = KvkFake::with(|_| Reply::text(503, "Service Unavailable"));
    let sandbox = Sandbox::new();
    run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "68750110"],
    )
    .error(69);
    assert_eq!(fake.request_count(), 3);
}

/// NET-4: a 500 is not retried.
#[test]
fn net_4_500_is_not_retried() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", TECHNISCHE_FOUT],
    )
    .error(69);
    assert_eq!(fake.request_count(), 1);
}

/// NET-2, EXIT-1: a fake that stalls before the headers ends in 124 `TIJDLIMIET_VERSTREKEN` at the deadline.
#[test]
fn net_2_stall_before_headers_is_124() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let started = Instant::now();
    let error = run(
        sandbox.cmd(&fake.base()),
        [
            "basisprofiel",
            "toon",
            STALL_BEFORE_HEADERS,
            "--timeout",
            "1",
        ],
    )
    .error(124);
    assert_eq!(error["code"], "TIJDLIMIET_VERSTREKEN");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(sandbox.single_audit_record()["exit_code"], 124);
}

/// NET-2: a fake that stalls in the middle of the body also ends in 124 at the deadline.
#[test]
fn net_2_stall_mid_body_is_124() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let started = Instant::now();
    let error = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", STALL_MID_BODY, "--timeout", "1"],
    )
    .error(124);
    assert_eq!(error["code"], "TIJDLIMIET_VERSTREKEN");
    assert!(started.elapsed() < Duration::from_secs(10));
}

/// NET-2: a `--timeout` that is not a positive number is a usage error.
#[test]
fn net_2_bad_timeout_is_usage() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    for value in ["0", "-1", "soms"] {
        run(
            sandbox.cmd(&fake.base()),
            ["basisprofiel", "toon", "68750110", "--timeout", value],
        )
        .error(2);
    }
    assert_eq!(fake.request_count(), 0);
}

/// NET-6, SEC-3: a redirect to another origin is not followed: the second server receives
/// nothing (so never the key) and the tool exits 76 `OMLEIDING_GEWEIGERD`.
#[test]
fn net_6_redirect_to_other_host_is_refused() {
    let elsewhere = FakeServer::start(test_support::kvk::kvk);
    for target_host in [
        elsewhere.host_port(),
        format!("localhost:{}", elsewhere.port()),
    ] {
        let target = format!("http://{target_host}{MOUNT}/v1/basisprofielen/68750110");
        let fake = KvkFake::with(move |_| Reply::redirect(&target));
        let sandbox = Sandbox::new();
        let result = run(
            sandbox.cmd(&fake.base()),
            ["basisprofiel", "toon", "68750110"],
        );
        let error = result.error(76);
        assert_eq!(error["code"], "OMLEIDING_GEWEIGERD");
        assert_eq!(fake.request_count(), 1);
        assert!(!result.stderr.contains(KEY));
    }
    assert_eq!(elsewhere.request_count(), 0, "the key went to another host");
}

/// NET-6, NET-11: a redirect within the same origin and under the base is followed (with
/// the key, which the fake requires) and the data arrives.
#[test]
fn net_6_same_origin_redirect_is_followed() {
    let fake = crate::hostile_http::moved_under_the_base();
    let sandbox = Sandbox::new();
    let data = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "68750110"],
    )
    .json();
    assert_eq!(data["naam"], "Test BV Donald");
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[1].header("apikey"), Some(KEY));
}

/// NET-7: a body beyond `OVERHEID_MAX_RESPONSE_BYTES` is 76 `ANTWOORD_TE_GROOT`.
#[test]
fn net_7_body_cap() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd(&fake.base());
    cmd.env("OVERHEID_MAX_RESPONSE_BYTES", "100");
    let error = run(cmd, ["basisprofiel", "toon", "68750110"]).error(76);
    assert_eq!(error["code"], "ANTWOORD_TE_GROOT");
}

/// CONF-7: an unparseable size cap is a configuration error (78), before any request.
#[test]
fn conf_7_invalid_size_cap_is_78() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd(&fake.base());
    cmd.env("OVERHEID_MAX_RESPONSE_BYTES", "veel");
    run(cmd, ["basisprofiel", "toon", "68750110"]).error(78);
    assert_eq!(fake.request_count(), 0);
}

/// SEC-5: identifiers are validated before they reach a URL: a path-traversal attempt
/// is refused (65) and never sent.
#[test]
fn sec_5_identifier_never_reaches_the_url_unvalidated() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "--", "../../x"],
    )
    .error(65);
    assert_eq!(fake.request_count(), 0);
}

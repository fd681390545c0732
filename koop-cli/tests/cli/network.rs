//! What the sources send back that must not be trusted: a toestand URL on another host (NET-11),
//! bodies that are not XML or are cut off (EXIT-9), stalls (NET-2), unreachable and unsafe URLs, and
//! HTTP failures of either source (EXIT-4 … EXIT-8, the shared mapping with koop's hints).

use std::time::{Duration, Instant};

use test_support::koop::Koop;
use test_support::{FakeServer, Mounts, RecordedRequest, Reply};

use crate::support::{KoopFake, Sandbox, run};

#[test]
fn a_toestand_on_a_foreign_host_is_refused_and_the_host_receives_nothing() {
    let foreign = FakeServer::start(|_| Reply::text(200, "<toestand bwb-id=\"BWBR9900003\"/>"));
    let fake = KoopFake::with(Koop::new().foreign_base(&foreign.base_url()));
    let sandbox = Sandbox::new();
    for args in [
        vec![
            "regeling",
            "toon",
            "BWBR9900003",
            "--peildatum",
            "2025-06-01",
        ],
        vec![
            "regeling",
            "artikel",
            "BWBR9900003",
            "1",
            "--peildatum",
            "2025-06-01",
        ],
    ] {
        let error = run(sandbox.cmd(&fake), &args).error(76);
        assert_eq!(error["code"], "OMLEIDING_GEWEIGERD");
        assert!(
            error["detail"]
                .as_str()
                .unwrap()
                .contains(&foreign.base_url()),
            "{error}"
        );
    }
    assert_eq!(
        foreign.request_count(),
        0,
        "NET-11: the foreign host got nothing"
    );
    assert_eq!(fake.requests().len(), 2, "only the two searches");
}

#[test]
fn a_toestand_that_is_not_xml_is_a_protocol_error() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    for id in ["BWBR9900005", "BWBR9900006"] {
        let error = run(sandbox.cmd(&fake), ["regeling", "toon", id]).error(76);
        assert_eq!(error["code"], "PARSE_FOUT", "{id}");
    }
}

#[test]
fn a_truncated_toestand_is_a_protocol_error() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let error = run(sandbox.cmd(&fake), ["regeling", "toon", "BWBR9900004"]).error(76);
    assert_eq!(error["code"], "PARSE_FOUT");
    assert!(
        error["detail"].as_str().unwrap().contains("afgebroken"),
        "{error}"
    );
    // The cheap path reads only up to the article it wants, which lies before the cut.
    let artikel = run(
        sandbox.cmd(&fake),
        ["regeling", "artikel", "BWBR9900004", "1"],
    )
    .json();
    assert_eq!(artikel["artikel"]["nummer"], "1");
    run(
        sandbox.cmd(&fake),
        ["regeling", "artikel", "BWBR9900004", "3"],
    )
    .error(76);
}

#[test]
fn a_slow_repository_ends_in_a_timeout() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let started = Instant::now();
    let error = run(
        sandbox.cmd(&fake),
        ["regeling", "toon", "BWBR9900007", "--timeout", "1"],
    )
    .error(124);
    assert_eq!(error["code"], "TIJDLIMIET_VERSTREKEN");
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "NET-2: the deadline holds"
    );
}

#[test]
fn a_slow_search_ends_in_a_timeout() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let error = run(
        sandbox.cmd(&fake),
        ["regeling", "zoek", "traag", "--timeout", "0.5"],
    )
    .error(124);
    assert_eq!(error["code"], "TIJDLIMIET_VERSTREKEN");
}

#[test]
fn an_unreachable_search_service_is_unavailable() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.bare();
    cmd.env("KOOP_SRU_URL", format!("http://127.0.0.1:{port}/sru"));
    let error = run(cmd, ["regeling", "versies", "BWBR9900001"]).error(69);
    assert_eq!(error["code"], "BRON_ONBEREIKBAAR");
}

#[test]
fn a_server_error_of_the_search_service_is_unavailable() {
    let broken = FakeServer::start(|_| Reply::html_error(500));
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.bare();
    cmd.env("KOOP_SRU_URL", broken.base_url());
    let error = run(cmd, ["regeling", "zoek", "x"]).error(69);
    assert_eq!(error["status"], 500, "ERR-7");
}

#[test]
fn plain_http_to_another_host_is_refused_before_anything_is_sent() {
    let sandbox = Sandbox::new();
    for dry in [false, true] {
        let mut cmd = sandbox.bare();
        cmd.env("KOOP_REPOSITORY_URL", "http://repository.example.org");
        let mut args = vec!["regeling", "toon", "BWBR9900001"];
        if dry {
            args.push("--dry-run");
        }
        let error = run(cmd, &args).error(78);
        assert_eq!(error["code"], "CONFIG_FOUT", "DRY-4 ({dry})");
    }
}

/// The fake KOOP whose repository answers every request with `reply`.
fn failing_repository(reply: Reply) -> FakeServer {
    let mounts = Mounts::new()
        .mount("/koop/repository", move |_: &RecordedRequest| reply.clone())
        .mount("/koop", |r: &RecordedRequest| Koop::new().route(r));
    FakeServer::start(mounts.into_handler())
}

#[test]
fn http_failures_of_the_search_service_map_to_the_profile() {
    let cases = [
        (Reply::text(400, "bad"), 65, "API_FOUT"),
        (Reply::text(401, "no"), 77, "NIET_TOEGESTAAN"),
        (Reply::text(404, "gone"), 69, "BRON_ONBEREIKBAAR"),
        (
            Reply::text(429, "slow down").header("retry-after", "60"),
            75,
            "TIJDELIJK_NIET_BESCHIKBAAR",
        ),
        (
            Reply::text(503, "busy").header("retry-after", "30"),
            75,
            "TIJDELIJK_NIET_BESCHIKBAAR",
        ),
        (Reply::html_error(503), 69, "BRON_ONBEREIKBAAR"),
        (Reply::text(418, "teapot"), 1, "API_FOUT"),
    ];
    let sandbox = Sandbox::new();
    for (reply, exit, code) in cases {
        let status = reply.status_code();
        let server = FakeServer::start(move |_| reply.clone());
        let mut cmd = sandbox.bare();
        cmd.env("KOOP_SRU_URL", server.base_url());
        // A Retry-After beyond the deadline: answered at once, not retried (NET-5).
        let args = ["regeling", "versies", "BWBR9900001", "--timeout", "5"];
        let error = run(cmd, args).error(exit);
        assert_eq!(error["code"], code, "{status}: {error}");
        assert_eq!(error["status"], status, "ERR-7");
        assert_eq!(
            error["detail"],
            format!("de zoekdienst antwoordde HTTP {status}")
        );
        match status {
            404 => assert_eq!(error["hint"], "controleer KOOP_SRU_URL"),
            429 => {
                assert_eq!(error["retry_after"], 60, "EXIT-7");
                assert_eq!(
                    error["hint"],
                    "te veel verzoeken; wacht 60 seconden en probeer het opnieuw"
                );
            }
            503 if exit == 75 => assert_eq!(error["retry_after"], 30),
            _ => {}
        }
        if status < 500 || exit == 75 {
            assert_eq!(server.requests().len(), 1, "not retried: {status}");
        }
    }
}

#[test]
fn http_failures_of_the_repository_map_to_the_profile() {
    let sandbox = Sandbox::new();
    let args = [
        "regeling",
        "artikel",
        "BWBR9900001",
        "1",
        "--peildatum",
        "2025-06-01",
    ];
    for (reply, exit, code) in [
        (Reply::text(404, "Not Found"), 66, "NIET_GEVONDEN"),
        (Reply::text(410, "Gone"), 66, "NIET_GEVONDEN"),
        (Reply::text(403, "Forbidden"), 77, "NIET_TOEGESTAAN"),
        (Reply::html_error(502), 69, "BRON_ONBEREIKBAAR"),
    ] {
        let status = reply.status_code();
        let server = failing_repository(reply);
        let mut cmd = sandbox.bare();
        cmd.env("KOOP_SRU_URL", server.url("/koop"))
            .env("KOOP_REPOSITORY_URL", server.url("/koop/repository"));
        let error = run(cmd, args).error(exit);
        assert_eq!(error["code"], code, "{status}: {error}");
        assert_eq!(error["status"], status);
        assert_eq!(
            error["detail"],
            format!("de repository antwoordde HTTP {status}")
        );
        if exit == 66 {
            assert_eq!(
                error["hint"],
                "de toestand bestaat niet (meer) in de repository; probeer het later opnieuw"
            );
        }
    }
}

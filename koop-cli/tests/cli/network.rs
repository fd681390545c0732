//! What the sources send back that must not be trusted: a toestand URL on another host (NET-11),
//! bodies that are not XML or are cut off (EXIT-9), stalls (NET-2), unreachable and unsafe URLs.

use std::time::{Duration, Instant};

use test_support::koop::Koop;
use test_support::{FakeServer, Reply};

use crate::support::{KoopFake, Sandbox, run};

#[test]
fn a_toestand_on_a_foreign_host_is_refused_and_the_host_receives_nothing() {
    let foreign = FakeServer::start(|_| Reply::text(200, "<toestand bwb-id=\"BWBR9900003\"/>"));
    let fake = KoopFake::with(Koop::new().foreign_base(&foreign.base_url()));
    let sandbox = Sandbox::new();
    for args in [
        vec![
            "regeling",
            "get",
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
        let error = run(sandbox.cmd(&fake), ["regeling", "get", id]).error(76);
        assert_eq!(error["code"], "PARSE_FOUT", "{id}");
    }
}

#[test]
fn a_truncated_toestand_is_a_protocol_error() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let error = run(sandbox.cmd(&fake), ["regeling", "get", "BWBR9900004"]).error(76);
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
        ["regeling", "get", "BWBR9900007", "--timeout", "1"],
    )
    .error(124);
    assert_eq!(error["code"], "TIMEOUT");
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
    assert_eq!(error["code"], "TIMEOUT");
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
    assert_eq!(error["code"], "SOURCE_UNAVAILABLE");
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
        let mut args = vec!["regeling", "get", "BWBR9900001"];
        if dry {
            args.push("--dry-run");
        }
        let error = run(cmd, &args).error(78);
        assert_eq!(error["code"], "CONFIG_FOUT", "DRY-4 ({dry})");
    }
}

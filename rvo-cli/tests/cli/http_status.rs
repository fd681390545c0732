//! How rvo-cli maps the HTTP backend's answers to exit codes: `common`'s shared mapping
//! (`Response::status_error`) with the contract's refinements on top (409 is 75 with
//! `retry_after`, 422 on filing is `IDEMPOTENTIE_CONFLICT`, tested in `http.rs`).

use serde_json::json;
use test_support::{FakeServer, Reply};

use crate::http::{assert_no_token, http_run, problem};
use crate::support::{Sandbox, indienen};

#[test]
fn a_request_in_flight_is_a_temporary_failure_with_retry_after() {
    let fake = FakeServer::start(|_| problem(409, "Wordt nog verwerkt").header("retry-after", "7"));
    let sandbox = Sandbox::new();
    let run = http_run(&sandbox, &fake.base_url(), &indienen("LED", &["--confirm"]));
    let error = run.error(75);
    assert_eq!(error["code"], "TIJDELIJK_NIET_BESCHIKBAAR");
    assert_eq!(error["retry_after"], 7);
    assert_eq!(error["status"], 409);
}

#[test]
fn other_answers_map_to_their_exit_codes() {
    let cases: [(Reply, i32); 5] = [
        (problem(401, "Geen token"), 77),
        (problem(403, "Niet voor dit bedrijf"), 77),
        (problem(500, "Stuk"), 69),
        (Reply::text(201, "geen json"), 76),
        (
            Reply::json(
                201,
                &json!({"referentienummer": "../x", "ontvangen_op": "2026-11-30T10:00:00Z", "status": "ONTVANGEN"}),
            ),
            76,
        ),
    ];
    for (reply, exit) in cases {
        let fake = FakeServer::start(move |_| reply.clone());
        let sandbox = Sandbox::new();
        let run = http_run(&sandbox, &fake.base_url(), &indienen("LED", &["--confirm"]));
        run.error(exit);
        assert_no_token(&sandbox, &run);
    }
}

#[test]
fn unavailable_without_retry_after_is_69_and_with_it_75() {
    let cases: [(Reply, i32); 2] = [
        (problem(503, "Onderhoud"), 69),
        (problem(503, "Onderhoud").header("retry-after", "5"), 75),
    ];
    let reads = [
        vec!["rapportage", "lijst", "68750110"],
        vec!["rapportage", "status", "RVO-EBR-2027-1KC7Q3M9Z-7XK2MD"],
    ];
    for (reply, exit) in cases {
        let fake = FakeServer::start(move |_| reply.clone());
        let sandbox = Sandbox::new();
        let filing = indienen("LED", &["--confirm"]);
        for args in reads.iter().chain([&filing]) {
            let run = http_run(&sandbox, &fake.base_url(), args);
            let error = run.error(exit);
            assert_eq!(error["status"], 503, "{args:?}: {error}");
            if exit == 75 {
                assert_eq!(error["code"], "TIJDELIJK_NIET_BESCHIKBAAR");
                assert_eq!(error["retry_after"], 5, "{args:?}: {error}");
            } else {
                assert_eq!(error["code"], "BRON_ONBEREIKBAAR", "{args:?}: {error}");
                assert!(error.get("retry_after").is_none(), "{args:?}: {error}");
            }
        }
    }
}

#[test]
fn a_404_on_a_collection_is_unavailable_and_on_one_report_not_found() {
    let fake = FakeServer::start(|_| problem(404, "Onbekend pad"));
    let sandbox = Sandbox::new();
    let cases: [(Vec<&str>, i32, &str); 3] = [
        (
            vec!["rapportage", "lijst", "68750110"],
            69,
            "BRON_ONBEREIKBAAR",
        ),
        (indienen("LED", &["--confirm"]), 69, "BRON_ONBEREIKBAAR"),
        (
            vec!["rapportage", "status", "RVO-EBR-2027-1KC7Q3M9Z-7XK2MD"],
            66,
            "NIET_GEVONDEN",
        ),
    ];
    for (args, exit, code) in cases {
        let run = http_run(&sandbox, &fake.url("/api"), &args);
        let error = run.error(exit);
        assert_eq!(error["code"], code, "{args:?}: {error}");
        assert_eq!(error["status"], 404, "{args:?}: {error}");
    }
}

#[test]
fn an_empty_list_is_not_a_404() {
    let fake = FakeServer::start(|_| Reply::json(200, &json!({"rapportages": []})));
    let sandbox = Sandbox::new();
    let run = http_run(
        &sandbox,
        &fake.url("/api"),
        &["rapportage", "lijst", "68750110"],
    );
    let data = run.json();
    assert_eq!(data["aantal"], 0);
    assert_eq!(data["backend"], "http");
    assert_no_token(&sandbox, &run);
}

/// A problem body keeps its `detail` and `errors` whatever else it lacks (RFC 9457: every
/// member is optional, `type` defaults to `about:blank`) or holds of another type.
#[test]
fn a_problem_without_type_keeps_its_detail_and_errors() {
    let detail = "Sleutel hoort bij een rapportage met andere maatregelen.";
    let bodies = [
        json!({"detail": detail, "errors": [{"pointer": "/maatregelen", "detail": "wijkt af"}]}),
        json!({"title": "Hergebruikt", "status": 422, "detail": detail,
               "errors": [{"pointer": "/maatregelen", "detail": "wijkt af"}, {"pointer": 3}]}),
        json!({"status": "422", "instance": 7, "detail": detail,
               "errors": [{"pointer": "/maatregelen", "detail": "wijkt af"}]}),
    ];
    let cases: [(Vec<&str>, &str); 2] = [
        (indienen("LED", &["--confirm"]), "IDEMPOTENTIE_CONFLICT"),
        (vec!["rapportage", "lijst", "68750110"], "API_FOUT"),
    ];
    for body in bodies {
        let reply = Reply::json(422, &body).header("content-type", "application/problem+json");
        let fake = FakeServer::start(move |_| reply.clone());
        let sandbox = Sandbox::new();
        for (args, code) in &cases {
            let error = http_run(&sandbox, &fake.base_url(), args).error(65);
            assert_eq!(error["code"], *code, "{body}: {error}");
            assert_eq!(error["status"], 422, "{body}: {error}");
            assert_eq!(error["detail"], detail, "{body}: {error}");
            assert_eq!(
                error["errors"],
                json!([{"pointer": "/maatregelen", "detail": "wijkt af"}]),
                "{body}: {error}"
            );
        }
    }
}

/// Without a problem object (or without `detail` and `title`), the detail says the status.
#[test]
fn a_422_without_a_problem_object_names_the_status() {
    for reply in [
        Reply::text(422, "Unprocessable"),
        Reply::json(422, &json!(["geen", "problem"])),
        Reply::json(422, &json!({"status": 422})),
    ] {
        let fake = FakeServer::start(move |_| reply.clone());
        let sandbox = Sandbox::new();
        let error =
            http_run(&sandbox, &fake.base_url(), &indienen("LED", &["--confirm"])).error(65);
        assert_eq!(
            error["detail"], "de backend antwoordde met HTTP 422",
            "{error}"
        );
        assert!(error.get("errors").is_none(), "{error}");
    }
}

//! The HTTP backend (`RVO_API_BASE`) against a fake of the contract in `spec/rvo-backend.md`:
//! 201 then 200 for the same key and body, 422 for the same key with another body, 409 while in
//! flight, plus the reads. The token goes out as `Authorization` and is never printed.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rvo_cli::backend_types::{RapportageAanvraag, RapportageRecord, RapportageStatus};
use serde_json::{Value, json};
use test_support::{FakeServer, RecordedRequest, Reply};

use crate::support::{Sandbox, indienen, indienen_digest, run, sha256_hex};

pub(crate) const TOKEN: &str = "geheim-token-7c1d";

/// Reports by idempotency key: (canonical body digest, record).
type Reports = Arc<Mutex<HashMap<String, (String, RapportageRecord)>>>;

/// A problem answer of the contract with `status`.
pub(crate) fn problem(status: u16, title: &str) -> Reply {
    Reply::json(
        status,
        &json!({"type": "about:blank", "title": title, "status": status}),
    )
    .header("content-type", "application/problem+json")
}

/// A fake backend that implements the contract.
pub(crate) fn contract_fake() -> FakeServer {
    let reports: Reports = Arc::default();
    FakeServer::start(move |request: &RecordedRequest| {
        if request.header("authorization") != Some(&format!("Bearer {TOKEN}")) {
            return problem(401, "Geen geldig token");
        }
        let mut reports = reports.lock().unwrap();
        match (request.method.as_str(), request.path.as_str()) {
            ("POST", "/api/rapportages") => {
                let Some(key) = request.header("idempotency-key").map(str::to_string) else {
                    return problem(400, "Idempotency-Key ontbreekt");
                };
                let Ok(body) = serde_json::from_slice::<RapportageAanvraag>(&request.body) else {
                    return problem(400, "Ongeldige aanvraag");
                };
                let body_sha = rvo_cli::canonical::canonical_sha256(&body).unwrap();
                if let Some((sha, record)) = reports.get(&key) {
                    if *sha != body_sha {
                        return problem(422, "Idempotency-Key al gebruikt");
                    }
                    return Reply::json(200, &receipt(record));
                }
                let record = RapportageRecord {
                    referentienummer: format!("FAKE-{}", reports.len() + 1),
                    aanvraag: body,
                    ontvangen_op: "2026-11-30T10:00:00.123Z".parse().unwrap(),
                    status: RapportageStatus::Ontvangen,
                };
                let reply = Reply::json(201, &receipt(&record)).header(
                    "location",
                    &format!("/api/rapportages/{}", record.referentienummer),
                );
                reports.insert(key, (body_sha, record));
                reply
            }
            ("GET", "/api/rapportages") => {
                let kvk = request.query_param("kvk_nummer");
                let list: Vec<&RapportageRecord> = reports
                    .values()
                    .map(|(_, r)| r)
                    .filter(|r| kvk.is_none_or(|k| r.aanvraag.kvk_nummer == k))
                    .collect();
                Reply::json(200, &json!({"rapportages": list}))
            }
            ("GET", path) => match path
                .strip_prefix("/api/rapportages/")
                .and_then(|r| reports.values().find(|(_, rec)| rec.referentienummer == r))
            {
                Some((_, record)) => Reply::json(200, &serde_json::to_value(record).unwrap()),
                None => problem(404, "Onbekende rapportage"),
            },
            _ => problem(404, "Onbekend pad"),
        }
    })
}

fn receipt(record: &RapportageRecord) -> Value {
    json!({
        "referentienummer": record.referentienummer,
        "ontvangen_op": record.ontvangen_op,
        "status": record.status,
    })
}

/// Runs rvo-cli with the HTTP backend at `base` and the token.
pub(crate) fn http_run(sandbox: &Sandbox, base: &str, args: &[&str]) -> crate::support::Run {
    let mut cmd = sandbox.cmd();
    cmd.env("RVO_API_BASE", base).env("RVO_API_TOKEN", TOKEN);
    run(cmd, args)
}

/// Like [`http_run`], but `rvo-cli-test-hooks` with "now" fixed at `now` (RFC 3339).
pub(crate) fn http_run_at(
    sandbox: &Sandbox,
    base: &str,
    now: &str,
    args: &[&str],
) -> crate::support::Run {
    let mut cmd = sandbox.cmd_at(now);
    cmd.env("RVO_API_BASE", base).env("RVO_API_TOKEN", TOKEN);
    run(cmd, args)
}

/// The token appears nowhere: not on stdout, stderr or in the audit log.
pub(crate) fn assert_no_token(sandbox: &Sandbox, run: &crate::support::Run) {
    assert!(
        !run.stdout.contains(TOKEN) && !run.stderr.contains(TOKEN),
        "{run:#?}"
    );
    assert!(
        !sandbox.audit_text().contains(TOKEN),
        "token in the audit log"
    );
}

fn default_digest() -> String {
    indienen_digest(&json!({
        "kvk_nummer": "68750110",
        "regeling_id": "EBR-2027",
        "maatregelen": ["led-verlichting", "warmtepomp"],
    }))
}

#[test]
fn files_with_the_plan_digest_as_key_then_replays() {
    let fake = contract_fake();
    let base = fake.url("/api/");
    let sandbox = Sandbox::new();
    let args = indienen("warmtepomp, led-verlichting", &[]);

    let refused = http_run(&sandbox, &base, &args);
    refused.refusal(80);
    let plan = refused.plan();
    assert_eq!(fake.request_count(), 0, "a refused mutation sent something");
    assert_eq!(plan["backend"], "http");
    assert_eq!(plan["method"], "POST");
    assert_eq!(plan["url"], fake.url("/api/rapportages"));
    assert_eq!(plan["headers"]["Authorization"], "***");
    assert_eq!(
        plan["headers"]["Idempotency-Key"],
        default_digest().as_str()
    );
    assert_no_token(&sandbox, &refused);

    let confirm = format!("--confirm={}", default_digest());
    let mut confirmed = args.clone();
    confirmed.push(&confirm);
    let first = http_run(&sandbox, &base, &confirmed);
    let result = first.json();
    assert_eq!(result["backend"], "http");
    assert_eq!(result["replayed"], false);
    assert_eq!(result["referentienummer"], "FAKE-1");
    assert_eq!(result["ingediend_op"], "2026-11-30T10:00:00.123Z");
    let sent = fake.last_request().unwrap();
    assert_eq!(
        sent.header("idempotency-key"),
        Some(default_digest().as_str())
    );
    assert_eq!(
        sent.header("authorization"),
        Some(format!("Bearer {TOKEN}").as_str())
    );
    let body: Value = serde_json::from_slice(&sent.body).unwrap();
    assert_eq!(
        body,
        json!({"kvk_nummer": "68750110", "regeling_id": "EBR-2027", "maatregelen": ["led-verlichting", "warmtepomp"]})
    );
    assert_no_token(&sandbox, &first);

    let again = http_run(&sandbox, &base, &confirmed).json();
    assert_eq!(again["replayed"], true);
    assert_eq!(again["referentienummer"], "FAKE-1");
    assert!(
        !sandbox.data_dir().exists(),
        "the HTTP backend touched the local store"
    );

    let status = http_run(
        &sandbox,
        &base,
        &["rapportage", "status", "FAKE-1", "--provenance"],
    );
    let envelope = status.json();
    assert_eq!(envelope["data"]["backend"], "http");
    assert_eq!(envelope["data"]["kvk_nummer"], "68750110");
    assert_eq!(envelope["provenance"]["environment"], "local");
    assert_eq!(
        envelope["provenance"]["requests"][0]["url"],
        fake.url("/api/rapportages/FAKE-1")
    );
    let lijst = http_run(&sandbox, &base, &["rapportage", "lijst", "68750110"]).json();
    assert_eq!(lijst["aantal"], 1);
    http_run(&sandbox, &base, &["rapportage", "status", "FAKE-9"]).error(66);
    assert_no_token(&sandbox, &status);
}

#[test]
fn a_dry_run_sends_nothing() {
    let fake = contract_fake();
    let sandbox = Sandbox::new();
    let run = http_run(
        &sandbox,
        &fake.url("/api"),
        &indienen("LED", &["--dry-run"]),
    );
    assert_eq!(run.code, 0, "{run:#?}");
    assert_eq!(run.plan()["requests"].as_array().unwrap().len(), 1);
    assert_eq!(fake.request_count(), 0);
}

#[test]
fn same_key_with_another_body_is_an_idempotency_conflict() {
    let fake = FakeServer::start(|_| {
        Reply::json(
            422,
            &json!({"type": "https://x.test/idempotency-key-reused", "title": "Sleutel hergebruikt", "status": 422,
                    "detail": "Andere maatregelen dan de eerste aanvraag.",
                    "errors": [{"pointer": "/maatregelen", "detail": "wijkt af"}]}),
        )
    });
    let sandbox = Sandbox::new();
    let run = http_run(&sandbox, &fake.base_url(), &indienen("LED", &["--confirm"]));
    let error = run.error(65);
    assert_eq!(error["code"], "IDEMPOTENTIE_CONFLICT");
    assert_eq!(error["status"], 422);
    assert_eq!(error["errors"][0]["pointer"], "/maatregelen");
}

#[test]
fn an_unsafe_base_url_is_a_configuration_error_even_in_a_dry_run() {
    let sandbox = Sandbox::new();
    for args in [
        indienen("LED", &["--dry-run"]),
        vec!["rapportage", "lijst", "68750110"],
    ] {
        let run = http_run(&sandbox, "http://rvo.example.nl/api", &args);
        assert_eq!(run.error(78)["code"], "CONFIG_FOUT");
    }
}

#[test]
fn the_digest_in_the_header_is_the_plan_digest_of_the_arguments() {
    // Independent recomputation: SHA-256 of the canonical JSON of {command, arguments}.
    let doc = r#"{"arguments":{"kvk_nummer":"68750110","maatregelen":["led-verlichting","warmtepomp"],"regeling_id":"EBR-2027"},"command":"rvo-cli rapportage indienen"}"#;
    assert_eq!(default_digest(), sha256_hex(doc.as_bytes()));
}

/// OUT-10: a `--jq` filter that fails after the backend took the filing does not hide it:
/// the result is printed unfiltered, the filing recorded (then the filter's error), the error
/// names its reference, and the same call again replays it rather than filing twice.
#[test]
fn out_10_a_failing_filter_after_a_filing_names_its_reference() {
    let fake = contract_fake();
    let base = fake.url("/api/");
    let sandbox = Sandbox::new();
    let confirm = format!("--confirm={}", default_digest());
    let mut args = indienen("warmtepomp, led-verlichting", &[&confirm]);
    args.extend(["--jq", "def f: {f: f}; f"]);
    let filed = http_run(&sandbox, &base, &args);
    assert_eq!(filed.code, 2, "{filed:#?}");
    assert_eq!(fake.request_count(), 1, "the backend took the filing");
    let result = test_support::cli::compact_document(&filed.stdout);
    assert_eq!(result["referentienummer"], "FAKE-1");
    let error = test_support::cli::compact_document(&filed.stderr);
    test_support::cli::assert_valid("error.schema.json", &error);
    assert_eq!(error["exit_code"], 2);
    assert!(
        error["detail"].as_str().unwrap().contains("FAKE-1"),
        "{error}"
    );
    let records = sandbox.audit_records();
    let exits: Vec<&Value> = records.iter().map(|r| &r["exit_code"]).collect();
    assert_eq!(exits, [0, 2], "{records:#?}");
    assert_eq!(records[0]["span_id"], records[1]["span_id"]);
    assert_no_token(&sandbox, &filed);

    let again = http_run(
        &sandbox,
        &base,
        &indienen("warmtepomp, led-verlichting", &[&confirm]),
    );
    assert_eq!(again.json()["replayed"], true);
}

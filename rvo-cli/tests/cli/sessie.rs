//! The session rule (SEC-6..9): with `KVK_SESSIE_NUMMER` set, rapportage commands act for that
//! company only; refusals are audited with the attempted number. Commands that name the company
//! are refused with exit 77; `rapportage status`, which names only a reference, answers another
//! company's report as an unknown reference (66), so the refusal reveals nothing.

use rvo_cli::backend_types::{RapportageAanvraag, RapportageRecord, RapportageStatus};
use serde_json::Value;
use test_support::{FakeServer, Reply};

use crate::http::{TOKEN, problem};
use crate::support::{Sandbox, indienen, run};

const SESSIE: &str = "12345678";

fn in_session(sandbox: &Sandbox, args: &[&str]) -> crate::support::Run {
    let mut cmd = sandbox.cmd();
    cmd.env("KVK_SESSIE_NUMMER", SESSIE);
    run(cmd, args)
}

#[test]
fn filing_for_another_company_is_refused_and_audited() {
    let sandbox = Sandbox::new();
    for extra in [&["--confirm"][..], &["--dry-run"][..], &[][..]] {
        let error = in_session(&sandbox, &indienen("LED", extra)).error(77);
        assert_eq!(error["code"], "NIET_TOEGESTAAN");
    }
    sandbox.assert_store(0);
    let audit = sandbox.audit_records();
    assert_eq!(audit.len(), 3);
    for record in audit {
        assert_eq!(record["exit_code"], 77);
        assert_eq!(record["attributes"]["dpl.core.data_subject_id"], "68750110");
        assert_eq!(
            record["attributes"]["dpl.core.data_subject_id_type"],
            "KVK_NUMMER"
        );
        assert_eq!(record["attributes"]["error.code"], "NIET_TOEGESTAAN");
    }
}

#[test]
fn lijst_defaults_to_the_session_and_refuses_others() {
    let sandbox = Sandbox::new();
    let lijst = in_session(&sandbox, &["rapportage", "lijst"]).json();
    assert_eq!(lijst["kvk_nummer"], SESSIE);
    in_session(&sandbox, &["rapportage", "lijst", "68750110"]).error(77);
    let error = sandbox.run(["rapportage", "lijst"]).error(2);
    assert!(
        error["hint"]
            .as_str()
            .unwrap()
            .contains("KVK_SESSIE_NUMMER")
    );
}

/// The error object without its per-call `instance`, with `reference` written as `REF`, so
/// that the answers for two references can be compared.
fn comparable(error: &Value, reference: &str) -> Value {
    let mut error = error.clone();
    error.as_object_mut().unwrap().remove("instance");
    serde_json::from_str(&error.to_string().replace(reference, "REF")).unwrap()
}

/// Another company's report is answered exactly as an unknown reference (66, same detail and
/// hint): the subject is only known from the report, and a 77 would confirm that it exists.
/// SEC-8: the audit record names the attempted subject and marks the refusal.
#[test]
fn status_of_another_companys_report_is_answered_as_unknown() {
    let sandbox = Sandbox::new();
    let filed = sandbox.run(indienen("LED", &["--confirm"])).json();
    let reference = filed["referentienummer"].as_str().unwrap();
    let missing = "RVO-EBR-2027-1KC7Q3M9Z-7XK2MD";
    assert_ne!(reference, missing);

    let refused = in_session(&sandbox, &["rapportage", "status", reference]);
    let refused_error = refused.error(66);
    let unknown_error = in_session(&sandbox, &["rapportage", "status", missing]).error(66);
    assert_eq!(refused_error["code"], "NIET_GEVONDEN");
    assert!(refused_error["hint"].is_string(), "{refused_error}");
    assert_eq!(
        comparable(&refused_error, reference),
        comparable(&unknown_error, missing)
    );
    for leaked in ["68750110", "LED", "led-verlichting", "EBR-2027-1"] {
        assert!(
            !refused.stderr.replace(reference, "REF").contains(leaked),
            "{leaked} leaked: {}",
            refused.stderr
        );
    }

    let audit = sandbox.audit_records();
    let [.., attempt, miss] = audit.as_slice() else {
        panic!("too few audit records: {audit:#?}");
    };
    assert_eq!(attempt["exit_code"], 66);
    assert_eq!(
        attempt["attributes"]["dpl.core.data_subject_id"],
        "68750110"
    );
    assert_eq!(
        attempt["attributes"]["dpl.core.data_subject_id_type"],
        "KVK_NUMMER"
    );
    assert_eq!(attempt["attributes"]["overheid.session_refused"], true);
    assert!(miss["attributes"].get("overheid.session_refused").is_none());
    assert!(miss["attributes"].get("dpl.core.data_subject_id").is_none());
}

/// The same with the HTTP backend: the report is read, then answered as the backend's 404 for an
/// unknown reference is answered (66, status 404, the same detail and hint).
#[test]
fn http_status_of_another_companys_report_is_answered_as_unknown() {
    let record = RapportageRecord {
        referentienummer: "FAKE-1".into(),
        aanvraag: RapportageAanvraag {
            kvk_nummer: "68750110".into(),
            regeling_id: "EBR-2027".into(),
            maatregelen: vec!["led-verlichting".into()],
            toelichting: None,
            inhoud: None,
        },
        ontvangen_op: "2026-11-30T10:00:00.123Z".parse().unwrap(),
        status: RapportageStatus::Ontvangen,
    };
    let fake = FakeServer::start(move |request| match request.path.as_str() {
        "/api/rapportages/FAKE-1" => Reply::json(200, &serde_json::to_value(&record).unwrap()),
        _ => problem(404, "Onbekende rapportage"),
    });
    let sandbox = Sandbox::new();
    let base = fake.url("/api");
    let in_session_http = |reference: &str| {
        let mut cmd = sandbox.cmd();
        cmd.env("KVK_SESSIE_NUMMER", SESSIE)
            .env("RVO_API_BASE", &base)
            .env("RVO_API_TOKEN", TOKEN);
        run(cmd, ["rapportage", "status", reference])
    };
    let refused = in_session_http("FAKE-1");
    let refused_error = refused.error(66);
    let unknown_error = in_session_http("FAKE-2").error(66);
    assert_eq!(refused_error["status"], 404);
    assert_eq!(
        comparable(&refused_error, "FAKE-1"),
        comparable(&unknown_error, "FAKE-2")
    );
    assert!(!refused.stderr.contains("68750110"), "{}", refused.stderr);
    assert_eq!(fake.request_count(), 2);
    let audit = sandbox.audit_records();
    assert_eq!(
        audit[0]["attributes"]["dpl.core.data_subject_id"],
        "68750110"
    );
    assert_eq!(audit[0]["attributes"]["overheid.session_refused"], true);

    let mut cmd = sandbox.cmd();
    cmd.env("KVK_SESSIE_NUMMER", "68750110")
        .env("RVO_API_BASE", &base)
        .env("RVO_API_TOKEN", TOKEN);
    let own = run(cmd, ["rapportage", "status", "FAKE-1"]).json();
    assert_eq!(own["kvk_nummer"], "68750110");
}

#[test]
fn the_session_company_may_file() {
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd();
    cmd.env("KVK_SESSIE_NUMMER", "68750110");
    run(cmd, indienen("LED", &["--confirm"])).json();
    sandbox.assert_store(1);
}

//! The session rule: `KVK_SESSIE_NUMMER` binds company commands to one number (SEC-6..SEC-9).

use crate::support::{KvkFake, Sandbox, run};

const SESSION: &str = "68750110";
const OTHER: &str = "69599084";

fn session_cmd(sandbox: &Sandbox, fake: &KvkFake) -> assert_cmd::Command {
    let mut cmd = sandbox.cmd(&fake.base());
    cmd.env("KVK_SESSIE_NUMMER", SESSION);
    cmd
}

/// SEC-6: without an argument, the session's number is used.
#[test]
fn sec_6_defaults_to_the_session_number() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let data = run(session_cmd(&sandbox, &fake), ["basisprofiel", "toon"]).json();
    assert_eq!(data["kvkNummer"], SESSION);
    let request = fake.server.last_request().expect("one request");
    assert!(
        request
            .path
            .ends_with(&format!("/basisprofielen/{SESSION}"))
    );
    let record = sandbox.single_audit_record();
    assert_eq!(record["attributes"]["dpl.core.data_subject_id"], SESSION);
}

/// SEC-7, SEC-8, AUDIT-14: another number is refused with 77, nothing is sent, and the
/// refusal is audited with the attempted number.
#[test]
fn sec_7_other_number_is_refused_and_audited() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let error = run(
        session_cmd(&sandbox, &fake),
        ["basisprofiel", "toon", OTHER],
    )
    .error(77);
    assert_eq!(error["code"], "NIET_TOEGESTAAN");
    assert!(error.get("status").is_none(), "ERR-7: no upstream status");
    assert_eq!(fake.request_count(), 0);
    let record = sandbox.single_audit_record();
    assert_eq!(record["exit_code"], 77);
    assert_eq!(
        record["status"], "UNSET",
        "AUDIT-9: a refusal is no technical failure"
    );
    assert_eq!(record["attributes"]["dpl.core.data_subject_id"], OTHER);
    assert_eq!(
        record["attributes"]["dpl.core.data_subject_id_type"],
        "KVK_NUMMER"
    );
    assert_eq!(record["attributes"]["error.code"], "NIET_TOEGESTAAN");
}

/// SEC-7: the refusal also holds under `--dry-run`, for every session-bound command.
#[test]
fn sec_7_refused_for_every_bound_command_and_in_dry_run() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    for command in [
        ["basisprofiel", "toon"],
        ["basisprofiel", "eigenaar"],
        ["basisprofiel", "hoofdvestiging"],
        ["basisprofiel", "vestigingen"],
        ["naamgeving", "toon"],
    ] {
        for dry in [false, true] {
            let mut args = vec![command[0], command[1], OTHER];
            if dry {
                args.push("--dry-run");
            }
            run(session_cmd(&sandbox, &fake), &args).error(77);
        }
    }
    assert_eq!(fake.request_count(), 0);
    assert_eq!(sandbox.audit_records().len(), 10);
}

/// SEC-6: the public search (`zoek`) is not bound.
#[test]
fn sec_6_the_public_search_is_not_bound() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let found = run(
        session_cmd(&sandbox, &fake),
        ["zoek", "--kvk-nummer", OTHER],
    )
    .json();
    assert!(found["totaal"].as_u64().expect("totaal") > 0, "{found}");
}

/// SEC-7 through the answer: an establishment names its company, so `vestigingsprofiel toon`
/// of another company's establishment is refused with 77 before anything is printed, without
/// naming that company to the caller; the audit record names it (AUDIT-14). An establishment of a
/// third company (69599068, not the one of the review's example) is refused alike.
#[test]
fn sec_7_an_establishment_of_another_company_is_refused_and_its_company_audited() {
    let fake = KvkFake::start();
    for (vestiging, owner) in [("000038509520", "69599068"), ("000038509504", OTHER)] {
        let sandbox = Sandbox::new();
        for args in [
            vec!["vestigingsprofiel", "toon", vestiging],
            vec![
                "vestigingsprofiel",
                "toon",
                vestiging,
                "--geo",
                "--fields",
                "eersteHandelsnaam",
            ],
        ] {
            let output = session_cmd(&sandbox, &fake)
                .args(&args)
                .output()
                .expect("runs");
            assert_eq!(output.status.code(), Some(77), "{output:?}");
            assert!(output.stdout.is_empty(), "nothing printed: {output:?}");
            let error: serde_json::Value =
                serde_json::from_slice(&output.stderr).expect("a JSON problem");
            assert_eq!(error["code"], "NIET_TOEGESTAAN");
            assert!(
                !error.to_string().contains(owner),
                "the refusal does not name the other company: {error}"
            );
        }
        let records = sandbox.audit_records();
        assert_eq!(records.len(), 2);
        for record in records {
            assert_eq!(record["exit_code"], 77);
            assert_eq!(record["attributes"]["dpl.core.data_subject_id"], owner);
            assert_eq!(
                record["attributes"]["dpl.core.data_subject_id_type"],
                "KVK_NUMMER"
            );
            assert_eq!(record["attributes"]["error.code"], "NIET_TOEGESTAAN");
        }
    }
}

/// SEC-7 through the answer: the session's own establishment is shown, and without a session any
/// establishment is; either way the audit record names the company, not only the establishment.
#[test]
fn sec_7_an_own_establishment_is_shown_and_its_company_audited() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let own = run(
        session_cmd(&sandbox, &fake),
        ["vestigingsprofiel", "toon", "000037178601"],
    )
    .json();
    assert_eq!(own["kvkNummer"], SESSION);
    let unbound = run(
        sandbox.cmd(&fake.base()),
        ["vestigingsprofiel", "toon", "000038509504"],
    )
    .json();
    assert_eq!(unbound["kvkNummer"], OTHER);
    let subjects: Vec<_> = sandbox
        .audit_records()
        .iter()
        .map(|r| r["attributes"]["dpl.core.data_subject_id"].clone())
        .collect();
    assert_eq!(subjects, [SESSION, OTHER]);
}

/// SEC-7 through the answer: an answer that does not say whose establishment it is cannot be
/// checked, so under a session it is refused (77) and not printed; without one it is shown.
#[test]
fn sec_7_an_establishment_without_a_company_is_refused_under_a_session() {
    let fake = KvkFake::with(|_| {
        test_support::Reply::json(
            200,
            &serde_json::json!({"vestigingsnummer": "000099990001", "eersteHandelsnaam": "Zonder eigenaar"}),
        )
    });
    let sandbox = Sandbox::new();
    let output = session_cmd(&sandbox, &fake)
        .args(["vestigingsprofiel", "toon", "000099990001"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(77), "{output:?}");
    assert!(output.stdout.is_empty());
    let shown = run(
        sandbox.cmd(&fake.base()),
        ["vestigingsprofiel", "toon", "000099990001"],
    )
    .json();
    assert_eq!(shown["eersteHandelsnaam"], "Zonder eigenaar");
}

/// SEC-9: neither an argument nor a session is exit 2 with a hint naming both.
#[test]
fn sec_9_no_number_and_no_session_is_usage_with_hint() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let error = run(sandbox.cmd(&fake.base()), ["naamgeving", "toon"]).error(2);
    assert_eq!(error["code"], "ONGELDIG_GEBRUIK");
    let hint = error["hint"].as_str().expect("hint");
    assert!(hint.contains("KVK_SESSIE_NUMMER"), "{hint}");
    assert!(hint.contains("KvK-nummer"), "{hint}");
    assert_eq!(fake.request_count(), 0);
    assert_eq!(sandbox.single_audit_record()["exit_code"], 2, "AUDIT-1");
}

/// SEC-6 through the answer: a bound command whose upstream answers with another company's
/// document (here the fake serves 69599068's for every number) prints nothing of it (76) and does
/// not name that company.
#[test]
fn sec_6_an_answer_about_another_company_is_refused() {
    let fake = KvkFake::with(|request| {
        let path = request.path.replace(SESSION, "69599068");
        test_support::kvk::kvk(&test_support::RecordedRequest {
            path,
            ..request.clone()
        })
    });
    let sandbox = Sandbox::new();
    for args in [
        &["basisprofiel", "toon"][..],
        &["basisprofiel", "vestigingen"],
        &["basisprofiel", "hoofdvestiging"],
        &["naamgeving", "toon"],
    ] {
        let output = session_cmd(&sandbox, &fake)
            .args(args)
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(76), "{args:?}: {output:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("69599068"), "{stderr}");
    }
}

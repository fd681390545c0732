//! The session rule (SEC-6..9): with `KVK_SESSIE_NUMMER` set, rapportage commands act for that
//! company only; refusals are exit 77 and audited with the attempted number.

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

#[test]
fn status_of_another_companys_report_is_refused() {
    let sandbox = Sandbox::new();
    let filed = sandbox.run(indienen("LED", &["--confirm"])).json();
    let reference = filed["referentienummer"].as_str().unwrap();
    let error = in_session(&sandbox, &["rapportage", "status", reference]).error(77);
    assert!(
        !error.to_string().contains("LED"),
        "report data leaked: {error}"
    );
    let audit = sandbox.audit_records();
    let last = audit.last().unwrap();
    assert_eq!(last["attributes"]["dpl.core.data_subject_id"], "68750110");
}

#[test]
fn the_session_company_may_file() {
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd();
    cmd.env("KVK_SESSIE_NUMMER", "68750110");
    run(cmd, indienen("LED", &["--confirm"])).json();
    sandbox.assert_store(1);
}

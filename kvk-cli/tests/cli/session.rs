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

/// SEC-6: public commands (`zoek`, `vestigingsprofiel toon`) are not bound.
#[test]
fn sec_6_public_commands_are_not_bound() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let found = run(
        session_cmd(&sandbox, &fake),
        ["zoek", "--kvk-nummer", OTHER],
    )
    .json();
    assert!(found["totaal"].as_u64().expect("totaal") > 0, "{found}");
    let vestiging = run(
        session_cmd(&sandbox, &fake),
        ["vestigingsprofiel", "toon", "000038509504"],
    )
    .json();
    assert_eq!(vestiging["kvkNummer"], OTHER);
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

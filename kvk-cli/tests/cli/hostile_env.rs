//! Hostile environments: a declared variable that is present but not valid UTF-8 is exit 78
//! naming the variable, never "unset" (CONF-7, SEC-6, SEC-7, AUDIT-2).

use std::ffi::OsStr;

use crate::support::{KvkFake, Sandbox, run};
use test_support::cli::unreadable;

/// CONF-7, SEC-6/7: with an unreadable session number, API base or key the call is refused
/// (78, naming the variable) before any request, and audited; never answered for another
/// company nor sent to the default host.
#[test]
fn conf_7_unreadable_variables_are_78_not_unset() {
    let fake = KvkFake::start();
    for var in ["KVK_SESSIE_NUMMER", "KVK_API_BASE", "KVK_API_KEY"] {
        let sandbox = Sandbox::new();
        for args in [
            &["basisprofiel", "toon", "69599084"][..],
            &["basisprofiel", "toon", "69599084", "--dry-run"][..],
        ] {
            let mut cmd = sandbox.cmd(&fake.base());
            cmd.env(var, unreadable(&fake.base()));
            let error = run(cmd, args).error(78);
            assert_eq!(error["code"], "CONFIG_FOUT", "{var}");
            let detail = error["detail"].as_str().expect("detail");
            assert!(detail.contains(var), "{var}: {detail}");
        }
        assert_eq!(fake.request_count(), 0, "{var}: nothing is sent");
        let records = sandbox.audit_records();
        assert_eq!(records.len(), 2, "{var}: audited (AUDIT-1)");
        for record in records {
            assert_eq!(record["exit_code"], 78);
            assert_eq!(record["attributes"]["error.code"], "CONFIG_FOUT");
        }
    }
}

/// AUDIT-2, CONF-7: an unreadable variable that decides the audit destination leaves no
/// trustworthy place for a record: 78 naming it, no record anywhere, nothing sent.
#[test]
fn audit_2_unreadable_destination_is_78_without_record() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let other = sandbox.path().join("elders.jsonl");
    for var in ["KVK_AUDIT_LOG", "OVERHEID_AUDIT_LOG", "XDG_STATE_HOME"] {
        let mut cmd = sandbox.cmd(&fake.base());
        cmd.env_remove("KVK_AUDIT_LOG")
            .env(var, unreadable(other.to_str().expect("utf-8")));
        let error = run(cmd, ["basisprofiel", "toon", "68750110"]).error(78);
        assert_eq!(error["code"], "CONFIG_FOUT");
        assert!(error["detail"].as_str().unwrap().contains(var), "{error}");
    }
    assert_eq!(fake.request_count(), 0);
    assert_eq!(sandbox.audit_text(), "", "no record in the sandbox log");
    assert!(
        !sandbox.path().join(".local").exists(),
        "nor in the default"
    );
    // When `--audit-log` decides alone, the unreadable variable is audited like any other.
    let flagged = sandbox.path().join("vlag.jsonl");
    let mut cmd = sandbox.cmd(&fake.base());
    cmd.env("OVERHEID_AUDIT_LOG", unreadable("x"));
    let args = ["basisprofiel", "toon", "68750110", "--audit-log"];
    run(
        cmd,
        args.iter().map(OsStr::new).chain([flagged.as_os_str()]),
    )
    .error(78);
    let records = crate::support::read_audit(&flagged);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["attributes"]["error.code"], "CONFIG_FOUT");
    for entry in std::fs::read_dir(sandbox.path()).unwrap() {
        let name = entry.unwrap().file_name();
        assert!(
            !name.as_encoded_bytes().starts_with(b"elders"),
            "no record next to the unreadable path: {name:?}"
        );
    }
}

/// AUDIT-11, CONF-9: an unreadable `TRACEPARENT` is ignored like any invalid one, and
/// discovery works whatever the environment holds.
#[test]
fn audit_11_unreadable_traceparent_is_ignored_and_discovery_works() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd(&fake.base());
    cmd.env("TRACEPARENT", unreadable("00-"));
    run(cmd, ["basisprofiel", "toon", "68750110"]).json();
    let record = sandbox.single_audit_record();
    assert!(record.get("parent_span_id").is_none());
    let mut cmd = sandbox.cmd(&fake.base());
    cmd.env("KVK_SESSIE_NUMMER", unreadable("6875"));
    assert!(run(cmd, ["--help", "--json"]).json()["tools"].is_array());
}

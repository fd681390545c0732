//! The plan gate cannot be skipped: sending needs the requests it checked (a type, see
//! `common::plan`), and a command without requests that answers without passing it ends with
//! exit 70 and nothing on stdout, under `--dry-run` too (DRY-1, MUT-2).

use std::process::Command;

use serde_json::Value;

fn run(args: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_profile-panic-probe"))
        .env_clear()
        .env("HOME", dir.path())
        .env("PROBE_AUDIT_LOG", dir.path().join("audit.jsonl"))
        .args(args)
        .output()
        .expect("runs");
    (
        output.status.code().unwrap(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn an_answer_without_the_gate_is_an_internal_error() {
    for args in [&["zonder-gate"][..], &["zonder-gate", "--dry-run"]] {
        let (code, stdout, stderr) = run(args);
        assert_eq!(code, 70, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        let error: Value = serde_json::from_str(&stderr).unwrap();
        assert_eq!(error["code"], "INTERNE_FOUT");
        assert!(
            error["detail"].as_str().unwrap().contains("plan-gate"),
            "{error}"
        );
    }
}

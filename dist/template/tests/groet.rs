//! `groet` as a user calls it: the real program, its answer on stdout and its exit code. A new
//! tool keeps this shape for its own commands (and cargo builds the program for these tests,
//! which profile-check's template test runs as well).

use assert_cmd::Command;

/// The program with nothing from the caller's environment but an audit log of its own.
fn sjabloon(audit: &tempfile::TempDir) -> Command {
    let mut command = Command::cargo_bin("sjabloon").expect("cargo builds sjabloon for its tests");
    command
        .env_clear()
        .env("SJABLOON_AUDIT_LOG", audit.path().join("audit.jsonl"));
    command
}

#[test]
fn groet_answers_with_the_greeting_as_json() {
    let audit = tempfile::tempdir().unwrap();
    let output = sjabloon(&audit).args(["groet", "Ada"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answer["naam"], "Ada");
    assert_eq!(answer["groet"], "Hallo, Ada!");
    let log = std::fs::read_to_string(audit.path().join("audit.jsonl")).unwrap();
    assert_eq!(log.lines().count(), 1, "one audit record per call: {log}");
}

#[test]
fn a_name_that_is_no_name_is_65_pointing_at_it_and_nothing_on_stdout() {
    let audit = tempfile::tempdir().unwrap();
    let output = sjabloon(&audit).args(["groet", "Ada1"]).output().unwrap();
    assert_eq!(output.status.code(), Some(65), "{output:?}");
    assert!(output.stdout.is_empty(), "{output:?}");
    let problem: serde_json::Value = serde_json::from_slice(&output.stderr).unwrap();
    assert_eq!(problem["code"], "ONGELDIGE_INVOER");
    assert_eq!(problem["errors"][0]["pointer"], "/naam");
}

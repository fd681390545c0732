//! A panic in a command (ERR-12, AUDIT-19): exit 70 with one error object whose `detail`
//! names the location, the same location in the audit record, and a formatted message (which
//! may hold data) in neither. The panic unwinds with the static unwinder `build.rs` links, so
//! no program of the family loads `libgcc_s.so.1` at start.

use std::process::Command;

use serde_json::Value;

fn run(args: &[&str]) -> (i32, String, Value) {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("audit.jsonl");
    let output = Command::new(env!("CARGO_BIN_EXE_profile-panic-probe"))
        .env_clear()
        .env("PROBE_AUDIT_LOG", &log)
        .args(args)
        .output()
        .expect("runs");
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "one record: {text}");
    (
        output.status.code().unwrap(),
        stderr,
        serde_json::from_str(lines[0]).unwrap(),
    )
}

#[test]
fn err_12_a_literal_panic_keeps_message_and_location() {
    let (code, stderr, record) = run(&["letterlijk"]);
    assert_eq!(code, 70);
    assert_eq!(stderr.lines().count(), 1, "only the error object: {stderr}");
    let error: Value = serde_json::from_str(&stderr).unwrap();
    assert_eq!(error["code"], "INTERNE_FOUT");
    let detail = error["detail"].as_str().unwrap();
    assert!(detail.contains("profile-panic-probe.rs:"), "{detail}");
    assert!(detail.contains("proefpaniek"), "{detail}");
    let attributes = &record["attributes"];
    assert_eq!(attributes["error.code"], "INTERNE_FOUT");
    assert_eq!(attributes["exception.type"], "panic");
    assert_eq!(attributes["exception.message"], "proefpaniek");
    assert!(
        attributes["code.file.path"]
            .as_str()
            .unwrap()
            .ends_with("profile-panic-probe.rs")
    );
    let line = attributes["code.line.number"].as_u64().unwrap();
    assert!(detail.contains(&format!(":{line}:")), "{detail}");
}

#[test]
fn audit_19_a_formatted_panic_keeps_only_the_location() {
    let (code, stderr, record) = run(&["opgemaakt", "geheim-123"]);
    assert_eq!(code, 70);
    assert!(!stderr.contains("geheim-123"), "{stderr}");
    assert!(!record.to_string().contains("geheim-123"), "{record}");
    assert!(record["attributes"]["code.line.number"].is_u64());
    assert!(record["attributes"].get("exception.message").is_none());
}

/// On Linux with glibc (where `build.rs` links the unwinder statically), the probe, which
/// unwinds its panics above, needs no `libgcc_s`.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn the_unwinder_is_linked_in_not_loaded() {
    let probe = env!("CARGO_BIN_EXE_profile-panic-probe");
    let output = Command::new("readelf")
        .args(["--dynamic", probe])
        .output()
        .expect("readelf (binutils) runs");
    assert!(output.status.success());
    let dynamic = String::from_utf8_lossy(&output.stdout);
    assert!(dynamic.contains("(NEEDED)"), "{dynamic}");
    assert!(!dynamic.contains("libgcc_s"), "{dynamic}");
}

//! Shared helpers for the checker's own tests: run profile-check and read its JSON report.

#![allow(dead_code, reason = "each test binary uses part of these helpers")]

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use serde_json::Value;

/// The package directory.
pub(crate) fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fixture script by file name.
pub(crate) fn fixture(name: &str) -> String {
    manifest_dir()
        .join("tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

/// Run profile-check with `arguments`; returns (exit status, parsed JSON report or Null, stderr).
pub(crate) fn profile_check(arguments: &[&str]) -> (i32, Value, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_profile-check"))
        .args(["--output", "json"])
        .args(arguments)
        .output()
        .expect("profile-check runs");
    let report = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    (
        output.status.code().unwrap_or(-1),
        report,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Ids of the checks with `result` in a report.
pub(crate) fn checks_with(report: &Value, result: &str) -> Vec<String> {
    report["checks"]
        .as_array()
        .map(|checks| {
            checks
                .iter()
                .filter(|c| c["result"] == result)
                .filter_map(|c| c["id"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// Rule ids of the failed checks.
pub(crate) fn failed_rules(report: &Value) -> Vec<String> {
    report["checks"]
        .as_array()
        .map(|checks| {
            checks
                .iter()
                .filter(|c| c["result"] == "FAIL")
                .flat_map(|c| c["rules"].as_array().cloned().unwrap_or_default())
                .filter_map(|r| r.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// The base URL of a source for the fixture's `bron get`, started once per test binary on 127.0.0.1:
/// `GET …/items/<id>` answers `{"id":"<id>","naam":"Bron <id>"}`, anything else 404.
pub(crate) fn fake_source() -> &'static str {
    static BASE: OnceLock<String> = OnceLock::new();
    BASE.get_or_init(|| {
        let server = tiny_http::Server::http("127.0.0.1:0").expect("fake source binds");
        let port = server.server_addr().to_ip().expect("an IP address").port();
        std::thread::spawn(move || {
            for request in server.incoming_requests() {
                let id = request
                    .url()
                    .strip_prefix("/api/items/")
                    .filter(|id| id.len() == 4 && id.bytes().all(|b| b.is_ascii_digit()))
                    .map(String::from);
                let response = match id {
                    Some(id) => tiny_http::Response::from_string(format!(
                        "{{\"id\":\"{id}\",\"naam\":\"Bron {id}\"}}"
                    )),
                    None => tiny_http::Response::from_string("niet gevonden").with_status_code(404),
                };
                let _ = request.respond(response);
            }
        });
        format!("http://127.0.0.1:{port}/api")
    })
}

/// `--env GOOD_BRON_URL=<fake source>`: the fixture's source answers, so the live checks run too.
pub(crate) fn with_source(arguments: &[&str]) -> Vec<String> {
    let mut all = vec![
        "--env".to_string(),
        format!("GOOD_BRON_URL={}", fake_source()),
    ];
    all.extend(arguments.iter().map(|a| a.to_string()));
    all
}

//! The `fake-upstream` binary: announces its URLs, serves the mounted KvK fake, logs
//! requests only when asked (`--log`), and refuses non-loopback addresses.
#![allow(clippy::disallowed_methods, reason = "own test client")]

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};

/// Kills the child on drop, so a failing assertion leaves no server behind.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `fake-upstream` with every source, its stdout piped.
fn all_sources() -> Running {
    let child = Command::new(env!("CARGO_BIN_EXE_fake-upstream"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    Running(child)
}

#[test]
fn serves_the_kvk_fake_under_its_prefix_and_logs_requests_when_asked() {
    let child = Command::new(env!("CARGO_BIN_EXE_fake-upstream"))
        .args(["--source", "kvk", "--log"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut running = Running(child);
    let mut stdout = BufReader::new(running.0.stdout.take().unwrap());
    let mut root = String::new();
    stdout.read_line(&mut root).unwrap();
    let root = root.trim_end().trim_start_matches("# ").to_owned();
    assert!(root.starts_with("http://127.0.0.1:"), "{root}");
    let mut variable = String::new();
    stdout.read_line(&mut variable).unwrap();
    assert_eq!(
        variable.trim_end(),
        format!("export KVK_API_BASE={root}/kvk")
    );
    let mut key = String::new();
    stdout.read_line(&mut key).unwrap();
    assert_eq!(key.trim_end(), "export KVK_API_KEY=demo-sleutel");

    let response = reqwest::blocking::Client::new()
        .get(format!("{root}/kvk/v1/basisprofielen/68750110"))
        .header("apikey", "k")
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    let body: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    assert_eq!(body["naam"], "Test BV Donald");
    assert_eq!(
        body["links"][0]["href"],
        format!("{root}/kvk/v1/basisprofielen/68750110")
    );
    let elsewhere = reqwest::blocking::get(format!("{root}/onbekend/x")).unwrap();
    assert_eq!(elsewhere.status(), 404);

    let _ = running.0.kill();
    let mut log = String::new();
    running
        .0
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    assert!(
        log.contains("GET /kvk/v1/basisprofielen/68750110 -> 200"),
        "{log}"
    );
}

#[test]
fn refuses_a_non_loopback_address() {
    let output = Command::new(env!("CARGO_BIN_EXE_fake-upstream"))
        .args(["--bind", "0.0.0.0"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert!(String::from_utf8_lossy(&output.stderr).contains("geen loopback-adres"));
}

#[test]
fn serves_the_koop_fake_with_both_variables() {
    let child = Command::new(env!("CARGO_BIN_EXE_fake-upstream"))
        .args(["--source", "koop"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut running = Running(child);
    let mut stdout = BufReader::new(running.0.stdout.take().unwrap());
    let mut lines = Vec::new();
    for _ in 0..3 {
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        lines.push(line.trim_end().to_owned());
    }
    let root = lines[0].trim_start_matches("# ");
    assert_eq!(lines[1], format!("export KOOP_SRU_URL={root}/koop"));
    assert_eq!(
        lines[2],
        format!("export KOOP_REPOSITORY_URL={root}/koop/repository")
    );
    let answer = reqwest::blocking::get(format!(
        "{root}/koop?operation=searchRetrieve&version=2.0&x-connection=BWB&query=dcterms.identifier%3D%3DBWBR9900002"
    ))
    .unwrap()
    .text()
    .unwrap();
    let toestand = format!(
        "{root}/koop/repository/bwb/BWBR9900002/2025-01-01_0/xml/BWBR9900002_2025-01-01_0.xml"
    );
    assert!(answer.contains(&toestand), "{answer}");
    let xml = reqwest::blocking::get(&toestand).unwrap();
    assert_eq!(xml.status(), 200);
    assert!(xml.text().unwrap().contains("bwb-id=\"BWBR9900002\""));
}

/// A reader that stops after the first line and closes the pipe (as a test that only
/// needs the root URL does) must not stop the server: it keeps serving every source.
#[test]
fn keeps_serving_when_the_reader_closes_stdout_early() {
    let mut running = all_sources();
    let mut root = String::new();
    BufReader::new(running.0.stdout.take().unwrap())
        .read_line(&mut root)
        .unwrap();
    let root = root.trim_start_matches("# ").to_owned();
    // The reader (and with it the pipe) is gone here.
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(
        running.0.try_wait().unwrap().is_none(),
        "fake-upstream exited"
    );
    let response = reqwest::blocking::Client::new()
        .get(format!(
            "{}/kvk/v1/basisprofielen/68750110",
            root.trim_end()
        ))
        .header("apikey", "k")
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
}

/// The announcement is shell: sourced by bash, it sets every variable a tool needs, with a
/// demo key the fake accepts, and a kvk-cli call with that environment gets an answer.
#[test]
fn the_announcement_can_be_sourced() {
    let mut running = all_sources();
    let mut stdout = BufReader::new(running.0.stdout.take().unwrap());
    let mut announcement = String::new();
    while !announcement.contains("KOOP_REPOSITORY_URL") {
        stdout.read_line(&mut announcement).unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("nep.env");
    std::fs::write(&file, &announcement).unwrap();
    let output = Command::new("bash")
        .arg("-c")
        .arg(r#"set -eu; . "$1"; echo "$KVK_API_BASE|$KVK_API_KEY|$KOOP_SRU_URL|$KOOP_REPOSITORY_URL""#)
        .arg("bash")
        .arg(&file)
        .env_clear()
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let values = String::from_utf8(output.stdout).unwrap();
    let values: Vec<&str> = values.trim_end().split('|').collect();
    let root = announcement
        .lines()
        .next()
        .unwrap()
        .trim_start_matches("# ");
    assert_eq!(
        values,
        [
            format!("{root}/kvk"),
            "demo-sleutel".to_string(),
            format!("{root}/koop"),
            format!("{root}/koop/repository"),
        ]
    );
    let answer = reqwest::blocking::Client::new()
        .get(format!("{}/v1/basisprofielen/68750110", values[0]))
        .header("apikey", values[1])
        .send()
        .unwrap();
    assert_eq!(answer.status(), 200, "the demo key is accepted");
}

/// Started in the background of a person's shell (`fake-upstream > nep.env &`), it writes
/// nothing into that shell: without `--log` its stderr stays empty while it serves.
#[test]
fn is_quiet_in_a_shell_without_log() {
    let child = Command::new(env!("CARGO_BIN_EXE_fake-upstream"))
        .args(["--source", "kvk"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut running = Running(child);
    let mut root = String::new();
    BufReader::new(running.0.stdout.take().unwrap())
        .read_line(&mut root)
        .unwrap();
    let root = root.trim_end().trim_start_matches("# ").to_owned();
    for path in ["/kvk/v1/basisprofielen/68750110", "/onbekend/x"] {
        let _ = reqwest::blocking::Client::new()
            .get(format!("{root}{path}"))
            .header("apikey", "k")
            .send()
            .unwrap();
    }
    let _ = running.0.kill();
    let mut log = String::new();
    running
        .0
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    assert_eq!(log, "");
}

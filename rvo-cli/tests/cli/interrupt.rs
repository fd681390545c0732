//! EXIT-11 for a filing: Ctrl-C (`SIGINT`) is never silent. Sent while the backend holds the
//! request, the call ends at once with exit 130 and an audit record that says the outcome is
//! unknown (the hint: repeat the same command; the key makes it happen once). Sent while the
//! local sandbox's filing is begun but not committed, the filing is rolled back and the record
//! says the call was interrupted with nothing filed.

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use test_support::{FakeServer, Reply};

use crate::http::TOKEN;
use crate::support::{Sandbox, indienen};

/// Ctrl-C as a terminal sends it: `SIGINT` to the process.
fn interrupt(child: &Child) {
    let pid = rustix::process::Pid::from_child(child);
    rustix::process::kill_process(pid, rustix::process::Signal::INT).expect("SIGINT");
}

/// The child's exit code and error object, within `bound`.
fn ended(child: Child, bound: Duration) -> (i32, Value, String) {
    let started = Instant::now();
    let mut child = child;
    while child.try_wait().expect("wait").is_none() {
        assert!(started.elapsed() < bound, "still running after SIGINT");
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().expect("reaped");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let problem = stderr
        .lines()
        .last()
        .and_then(|line| serde_json::from_str(line).ok())
        .unwrap_or_else(|| panic!("no error object: {stderr:?}"));
    (
        output.status.code().unwrap_or(-1),
        problem,
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

#[test]
fn ctrl_c_while_the_backend_files_is_audited_as_unknown_outcome() {
    let fake = FakeServer::start(|_| {
        Reply::json(201, &serde_json::json!({})).delay(Duration::from_secs(20))
    });
    let sandbox = Sandbox::new();
    let args = indienen("warmtepomp,led-verlichting", &["--confirm"]);
    let child = sandbox
        .process(&args)
        .env("RVO_API_BASE", fake.url("/api/"))
        .env("RVO_API_TOKEN", TOKEN)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn rvo-cli");
    let started = Instant::now();
    while fake.request_count() == 0 {
        assert!(started.elapsed() < Duration::from_secs(20), "never sent");
        std::thread::sleep(Duration::from_millis(20));
    }
    interrupt(&child);
    let (code, problem, stdout) = ended(child, Duration::from_secs(5));
    assert_eq!(code, 130, "{problem}");
    assert!(stdout.is_empty(), "{stdout}");
    test_support::cli::assert_valid("error.schema.json", &problem);
    assert_eq!(problem["code"], "ONDERBROKEN", "{problem}");
    let detail = problem["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("uitkomst is onbekend"), "{problem}");
    let hint = problem["hint"].as_str().unwrap_or_default();
    assert!(hint.contains("hetzelfde commando"), "{problem}");

    let record = sandbox.single_audit_record();
    assert_eq!(record["exit_code"], 130, "{record}");
    assert_eq!(record["status"], "UNSET", "{record}");
    let attributes = &record["attributes"];
    assert_eq!(attributes["error.code"], "ONDERBROKEN", "{record}");
    assert_eq!(attributes["overheid.outcome_unknown"], true, "{record}");
    assert!(attributes["overheid.plan_digest"].is_string(), "{record}");
    assert_eq!(
        attributes["dpl.core.data_subject_id"], "68750110",
        "{record}"
    );
}

#[test]
fn ctrl_c_before_a_local_filing_commits_files_nothing_and_says_so() {
    let sandbox = Sandbox::new();
    let args = indienen("warmtepomp,led-verlichting", &["--confirm"]);
    let mut child = sandbox
        .hooked_process(&args)
        .env("RVO_CLI_TEST_PAUSE", "begun:1500")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn rvo-cli");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut line = String::new();
    while line.trim_end() != "RVO_CLI_TEST_PAUSED begun" {
        line.clear();
        assert!(
            stderr.read_line(&mut line).expect("stderr") > 0,
            "never paused"
        );
    }
    child.stderr = Some(stderr.into_inner());
    interrupt(&child);
    let (code, problem, stdout) = ended(child, Duration::from_secs(10));
    assert_eq!(code, 130, "{problem}");
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(problem["code"], "ONDERBROKEN", "{problem}");
    let detail = problem["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("niets gewijzigd"), "{problem}");

    sandbox.assert_store(0);
    let record = sandbox.single_audit_record();
    assert_eq!(record["exit_code"], 130, "{record}");
    assert_eq!(
        record["attributes"]["error.code"], "ONDERBROKEN",
        "{record}"
    );
    assert!(
        record["attributes"]
            .get("overheid.outcome_unknown")
            .is_none()
    );

    // The same command files the report once.
    let rerun = sandbox.run(&args).json();
    assert_eq!(rerun["replayed"], false, "{rerun}");
    sandbox.assert_store(1);
}

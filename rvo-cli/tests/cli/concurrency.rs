//! Exactly once under pressure: twenty processes filing the same report at once, and a writer
//! killed with SIGKILL at every phase of a filing (test-only pause hook, `RVO_CLI_TEST_PAUSE`).
//!
//! What holds after a kill: the store is consistent (no report, or one complete report; never a
//! half-written one). The audit record of a filing is appended right after the report is
//! committed and before the result is shown; a kill in between (phase `renamed`) leaves a report
//! whose own invocation has no audit record and whose caller saw no result. Rerunning the same
//! command is then safe: it replays the report and its audit record carries the report's key,
//! so every report is audited. The tests check exactly that.

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

use crate::support::{Sandbox, indienen};

fn raw_command(sandbox: &Sandbox, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rvo-cli"));
    cmd.env_clear()
        .env("HOME", sandbox.path())
        .env("RVO_DATA_DIR", sandbox.data_dir())
        .env("RVO_AUDIT_LOG", sandbox.audit_log())
        .args(args)
        .stdin(Stdio::null());
    cmd
}

#[test]
fn twenty_processes_filing_the_same_report_produce_one() {
    let sandbox = Sandbox::new();
    let args = indienen("warmtepomp,led-verlichting", &["--confirm"]);
    let children: Vec<Child> = (0..20)
        .map(|_| {
            raw_command(&sandbox, &args)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn rvo-cli")
        })
        .collect();
    let results: Vec<Value> = children
        .into_iter()
        .map(|child| {
            let output = child.wait_with_output().expect("rvo-cli ends");
            assert!(output.status.success(), "{output:?}");
            serde_json::from_slice(&output.stdout).expect("JSON result")
        })
        .collect();
    let references: HashSet<&str> = results
        .iter()
        .map(|r| r["referentienummer"].as_str().unwrap())
        .collect();
    assert_eq!(references.len(), 1, "{references:?}");
    let first_filings = results.iter().filter(|r| r["replayed"] == false).count();
    assert_eq!(first_filings, 1);
    sandbox.assert_store(1);
    assert_eq!(sandbox.audit_records().len(), 20);
    sandbox.assert_every_report_audited();
}

/// Starts a filing that pauses at `phase`, waits until it is there, and kills it (SIGKILL).
fn kill_at(sandbox: &Sandbox, phase: &str) {
    let args = indienen("warmtepomp,led-verlichting", &["--confirm"]);
    let mut child = raw_command(sandbox, &args)
        .env("RVO_CLI_TEST_PAUSE", format!("{phase}:30000"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn rvo-cli");
    let stderr = child.stderr.take().expect("stderr");
    let marker = format!("RVO_CLI_TEST_PAUSED {phase}");
    let mut reached = false;
    for line in BufReader::new(stderr).lines() {
        let line = line.expect("stderr line");
        if line == marker {
            reached = true;
            break;
        }
    }
    assert!(
        reached,
        "the writer never paused at {phase} (is the test hook compiled in?)"
    );
    child.kill().expect("SIGKILL");
    let status = child.wait().expect("reaped");
    assert!(!status.success());
}

#[test]
fn a_kill_at_any_phase_leaves_no_report_or_one_complete_audited_one() {
    for (phase, committed) in [
        ("locked", false),
        ("half-written", false),
        ("synced", false),
        ("renamed", true),
    ] {
        let sandbox = Sandbox::new();
        kill_at(&sandbox, phase);
        sandbox.assert_store(usize::from(committed));
        assert_eq!(
            sandbox.audit_records().len(),
            0,
            "{phase}: the killed invocation wrote an audit record"
        );
        let stored: Vec<String> = sandbox.stored_keys();

        // The caller saw no result and reruns the same command; that is always safe.
        let rerun = sandbox
            .run(indienen("warmtepomp,led-verlichting", &["--confirm"]))
            .json();
        assert_eq!(rerun["replayed"], committed, "{phase}: {rerun}");
        sandbox.assert_store(1);
        if committed {
            assert_eq!(sandbox.stored_keys(), stored);
        }
        assert!(
            sandbox.store().temp_files.is_empty(),
            "{phase}: the next writer leaves no debris"
        );
        sandbox.assert_every_report_audited();
    }
}

//! MUT-13 for the local sandbox: a filing killed with SIGKILL at every phase (test-only pause
//! hook: `RVO_CLI_TEST_PAUSE`, read only by the `rvo-cli-test-hooks` binary), and a filing whose
//! audit append fails.
//!
//! The store files in two phases around the audit record: begin (the filing written in an open
//! transaction of the store), then `common` appends and syncs the audit record, then the
//! transaction commits. So after a kill at any phase the store is consistent and every stored
//! report already has a successful audit record carrying its key as `overheid.plan_digest`; the
//! reverse (an audit record of a filing that was never committed) is possible after a kill
//! between the two, and rerunning the command then files the report.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;

use crate::support::{Sandbox, digest_of_default_report, indienen};

/// Starts a filing that pauses at `phase` for `pause`, and waits until it is there.
fn pause_at(sandbox: &Sandbox, phase: &str, pause: Duration) -> std::process::Child {
    let args = indienen("warmtepomp,led-verlichting", &["--confirm"]);
    let mut child = sandbox
        .hooked_process(&args)
        .env(
            "RVO_CLI_TEST_PAUSE",
            format!("{phase}:{}", pause.as_millis()),
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn rvo-cli");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let marker = format!("RVO_CLI_TEST_PAUSED {phase}");
    let mut line = String::new();
    loop {
        line.clear();
        let read = stderr.read_line(&mut line).expect("stderr line");
        assert!(
            read > 0,
            "the writer never paused at {phase} (is the test hook compiled in?)"
        );
        if line.trim_end() == marker {
            break;
        }
    }
    // Give the rest of stderr back to the child's handle for `wait_with_output`.
    child.stderr = Some(stderr.into_inner());
    child
}

/// A successful audit record of `rapportage indienen` for the default report.
fn assert_filing_audited(record: &Value, replayed: bool) {
    assert_eq!(record["name"], "rvo-cli rapportage indienen", "{record}");
    assert_eq!(record["status"], "OK", "{record}");
    assert_eq!(record["exit_code"], 0, "{record}");
    let attributes = &record["attributes"];
    assert_eq!(
        attributes["overheid.plan_digest"],
        digest_of_default_report().as_str()
    );
    assert_eq!(attributes["overheid.replayed"], replayed, "{record}");
}

/// One kill phase: whether the killed call had appended its audit record, and whether its
/// report was committed.
struct KillCase {
    phase: &'static str,
    audited: bool,
    stored: bool,
}

const KILL_CASES: [KillCase; 3] = [
    // The filing written in an open transaction, before the audit.
    KillCase {
        phase: "begun",
        audited: false,
        stored: false,
    },
    // After the audit, before the commit.
    KillCase {
        phase: "committing",
        audited: true,
        stored: false,
    },
    // After the commit, before the result.
    KillCase {
        phase: "committed",
        audited: true,
        stored: true,
    },
];

#[test]
fn a_kill_at_any_phase_never_leaves_a_report_without_its_audit_record() {
    for case in KILL_CASES {
        let phase = case.phase;
        let sandbox = Sandbox::new();
        let mut child = pause_at(&sandbox, phase, Duration::from_secs(30));
        child.kill().expect("SIGKILL");
        let output = child.wait_with_output().expect("reaped");
        assert!(!output.status.success(), "{phase}");
        assert!(output.stdout.is_empty(), "{phase}: the caller saw a result");

        sandbox.assert_store(usize::from(case.stored));
        let audit = sandbox.audit_records();
        assert_eq!(
            audit.len(),
            usize::from(case.audited),
            "{phase}: {audit:#?}"
        );
        if case.audited {
            assert_filing_audited(&audit[0], false);
        }
        sandbox.assert_every_report_audited();

        // The caller saw no result and reruns the same command: it replays the committed report
        // or files the uncommitted one (the killed transaction left nothing behind).
        let rerun = sandbox
            .run(indienen("warmtepomp,led-verlichting", &["--confirm"]))
            .json();
        assert_eq!(rerun["replayed"], case.stored, "{phase}: {rerun}");
        sandbox.assert_store(1);
        assert_eq!(
            sandbox.stored_keys(),
            [digest_of_default_report()],
            "{phase}"
        );
        let audit = sandbox.audit_records();
        assert_eq!(audit.len(), usize::from(case.audited) + 1, "{phase}");
        assert_filing_audited(audit.last().unwrap(), case.stored);
        sandbox.assert_every_report_audited();
    }
}

/// With the audit log on a full device the append fails: exit 74, and the begun filing is
/// rolled back (no report; the store free for the next writer).
#[cfg(target_os = "linux")]
#[test]
fn a_failed_audit_append_files_nothing() {
    let sandbox = Sandbox::new();
    let run = crate::support::run(
        {
            let mut cmd = sandbox.cmd();
            cmd.env("RVO_AUDIT_LOG", "/dev/full");
            cmd
        },
        indienen("warmtepomp,led-verlichting", &["--confirm"]),
    );
    let error = run.error(74);
    assert_eq!(error["code"], "AUDIT_FOUT", "{error}");
    sandbox.assert_store(0);

    let filed = sandbox
        .run(indienen("warmtepomp,led-verlichting", &["--confirm"]))
        .json();
    assert_eq!(filed["replayed"], false);
    sandbox.assert_store(1);
    sandbox.assert_every_report_audited();
}

/// The pause hook lives only in `rvo-cli-test-hooks`: `rvo-cli` itself ignores
/// `RVO_CLI_TEST_PAUSE` (it reads no variable it does not declare, CONF-2) and files at once.
#[test]
fn rvo_cli_itself_has_no_pause_hook() {
    let sandbox = Sandbox::new();
    let started = std::time::Instant::now();
    let output = sandbox
        .process(&indienen("warmtepomp,led-verlichting", &["--confirm"]))
        .env("RVO_CLI_TEST_PAUSE", "begun:20000")
        .output()
        .expect("rvo-cli runs");
    assert!(output.status.success(), "{output:?}");
    assert!(
        !String::from_utf8_lossy(&output.stderr).contains("RVO_CLI_TEST_PAUSED"),
        "{output:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "rvo-cli paused"
    );
    sandbox.assert_store(1);
}

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

use crate::support::{Sandbox, digest_of_default_report, indienen, run, unique_report};

/// Starts a filing that pauses at `phase` for `pause`, and waits until it is there.
fn pause_at(sandbox: &Sandbox, phase: &str, pause: Duration) -> std::process::Child {
    let args = indienen("warmtepomp,led-verlichting", &["--confirm"]);
    pause_filing_at(sandbox, &args, &[], phase, pause)
}

/// Starts `rvo-cli-test-hooks args` (with `env`) pausing at `phase` for `pause`, and waits
/// until it is there.
fn pause_filing_at(
    sandbox: &Sandbox,
    args: &[&str],
    env: &[(&str, &str)],
    phase: &str,
    pause: Duration,
) -> std::process::Child {
    let mut child = sandbox
        .hooked_process(args)
        .envs(env.iter().copied())
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

/// The report of a PostgreSQL test (unique on the shared database), its plan digest from a
/// `--dry-run`, and the `--confirm=DIGEST` filing of it.
fn planned_on_postgres(sandbox: &Sandbox, label: &str, env: &[(&str, &str)]) -> Vec<String> {
    let report = unique_report(label);
    let mut args: Vec<String> = vec!["rapportage".into(), "indienen".into()];
    args.extend(report);
    let mut dry = sandbox.cmd();
    dry.envs(env.iter().copied());
    let plan = run(dry, args.iter().chain([&"--dry-run".to_string()])).json();
    let digest = plan["plan_digest"]
        .as_str()
        .expect("a plan digest")
        .to_string();
    args.push(format!("--confirm={digest}"));
    args
}

/// The digest in the `--confirm=DIGEST` of `args`.
fn confirmed_digest(args: &[String]) -> &str {
    args.last()
        .and_then(|a| a.strip_prefix("--confirm="))
        .expect("--confirm=DIGEST last")
}

/// The filing under `key` in the shared store.
fn filed_on(location: &overheid_records::Location, key: &str) -> Option<overheid_records::Filing> {
    overheid_records::Store::open(location, None)
        .expect("the store opens")
        .filing(key)
        .expect("the store reads")
}

/// MUT-13 on PostgreSQL for the person at a terminal: `--dry-run`, then `--confirm=DIGEST`
/// killed (SIGKILL) after begin, after the audit record and after the commit. Each time the
/// shared store holds the report only when the commit happened, every stored report has its
/// audit record, and the same `--confirm=DIGEST` rerun files it once (or replays it).
#[test]
fn postgres_a_confirmed_filing_killed_at_any_phase_is_rerun_into_one_filing() {
    let Some(url) = test_support::postgres::url() else {
        return;
    };
    let env = [("OVERHEID_STORE_URL", url.as_str())];
    let location = overheid_records::Location::Postgres(url.clone());
    for case in KILL_CASES {
        let phase = case.phase;
        let sandbox = Sandbox::new();
        let args = planned_on_postgres(&sandbox, phase, &env);
        let key = confirmed_digest(&args).to_string();
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut child = pause_filing_at(&sandbox, &argv, &env, phase, Duration::from_secs(30));
        child.kill().expect("SIGKILL");
        let output = child.wait_with_output().expect("reaped");
        assert!(output.stdout.is_empty(), "{phase}: the caller saw a result");
        assert_eq!(filed_on(&location, &key).is_some(), case.stored, "{phase}");
        // The dry run's record, and the killed call's when it got that far.
        let audit = sandbox.audit_records();
        assert_eq!(
            audit.len(),
            1 + usize::from(case.audited),
            "{phase}: {audit:#?}"
        );
        if case.audited {
            assert_eq!(audit[1]["status"], "OK", "{phase}");
            assert_eq!(audit[1]["attributes"]["overheid.plan_digest"], key.as_str());
        }

        let mut rerun = sandbox.cmd();
        rerun.envs(env.iter().copied());
        let rerun = run(rerun, &argv);
        assert_eq!(rerun.code, 0, "{phase}: {}", rerun.stderr);
        let rerun = rerun.json();
        assert_eq!(rerun["replayed"], case.stored, "{phase}: {rerun}");
        let filing = filed_on(&location, &key).expect("filed by the rerun");
        assert_eq!(
            filing.reference,
            rerun["referentienummer"].as_str().unwrap()
        );
        let audit = sandbox.audit_records();
        let last = audit.last().unwrap();
        assert_eq!(last["status"], "OK", "{phase}");
        assert_eq!(
            last["attributes"]["overheid.replayed"], case.stored,
            "{phase}"
        );
        assert!(
            !sandbox
                .audit_text()
                .contains(url.split('@').next().unwrap()),
            "the password is never logged"
        );
    }
}

/// The commit fails after the audit record was written (the database ends the connection
/// while the filer waits between the two): exit 69, nothing filed, and a second record of the
/// same span says ERROR, so the audit log does not claim a filing that does not exist. The
/// rerun files the report once; the record of the failed call is the only one without it.
#[test]
fn postgres_a_commit_that_fails_after_the_audit_record_files_nothing_and_says_so() {
    let Some(url) = test_support::postgres::url() else {
        return;
    };
    // A name of its own for this filer's connection, so the test ends that one only.
    let name = format!("commit-fails-{}", std::process::id());
    let filer_url = format!(
        "{url}{}application_name={name}",
        if url.contains('?') { '&' } else { '?' }
    );
    let env = [("OVERHEID_STORE_URL", filer_url.as_str())];
    let location = overheid_records::Location::Postgres(url.clone());
    let sandbox = Sandbox::new();
    let args = planned_on_postgres(&sandbox, "commit", &env);
    let key = confirmed_digest(&args).to_string();
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let child = pause_filing_at(&sandbox, &argv, &env, "committing", Duration::from_secs(3));
    let mut admin = postgres::Client::connect(&url, postgres::NoTls).expect("connects");
    let ended = admin
        .query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
            &[&name],
        )
        .expect("terminates");
    assert_eq!(ended.len(), 1, "the filer's one connection");
    let output = child.wait_with_output().expect("the filer ends");
    assert_eq!(output.status.code(), Some(69), "{output:?}");
    assert!(
        output.stdout.is_empty(),
        "no result for a filing that did not happen"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("OPSLAG_ONBEREIKBAAR"), "{stderr}");
    assert!(
        !stderr.contains(url.split('@').next().unwrap()),
        "no password"
    );
    assert!(filed_on(&location, &key).is_none(), "nothing was filed");

    let audit = sandbox.audit_records();
    assert_eq!(
        audit.len(),
        3,
        "dry run, the filing, its failure: {audit:#?}"
    );
    let (announced, failed) = (&audit[1], &audit[2]);
    assert_eq!(announced["status"], "OK");
    assert_eq!(
        announced["attributes"]["overheid.plan_digest"],
        key.as_str()
    );
    assert_eq!(failed["status"], "ERROR", "{failed}");
    assert_eq!(failed["exit_code"], 69, "{failed}");
    assert_eq!(failed["span_id"], announced["span_id"], "the same call");
    assert_eq!(failed["trace_id"], announced["trace_id"], "the same call");

    let mut rerun = sandbox.cmd();
    rerun.envs(env.iter().copied());
    let rerun = run(rerun, &argv);
    assert_eq!(rerun.code, 0, "{}", rerun.stderr);
    assert_eq!(rerun.json()["replayed"], false, "filed now, once");
    assert!(filed_on(&location, &key).is_some());
    let mut again = sandbox.cmd();
    again.envs(env.iter().copied());
    assert_eq!(run(again, &argv).json()["replayed"], true);
}

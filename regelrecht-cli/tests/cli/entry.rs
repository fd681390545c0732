//! The program's entry point (`common::entry`): a family program starts from C's `main` and
//! keeps what a CLI relies on of Rust's start-up. A closed standard output is opened on
//! `/dev/null` before any file is, and a closed pipe is handled as written, never a `SIGPIPE`.

use std::process::{Command, Stdio};

use crate::support::{SMALL_LAW, Sandbox};

/// One small evaluation of a law of our own: it opens the audit log and the cache, then prints.
fn evaluation(sandbox: &Sandbox) -> Vec<String> {
    sandbox.write("w/kleine_wet.yaml", SMALL_LAW);
    let law = sandbox.path().join("w/kleine_wet.yaml");
    [
        "evalueer",
        "kleine_wet",
        "--uitvoer",
        "bedrag_eurocent",
        "--peildatum",
        "2025-06-01",
        "--corpus",
    ]
    .into_iter()
    .map(String::from)
    .chain([law.display().to_string()])
    .collect()
}

/// `program` run with the sandbox's environment, as a `std` command (whose standard streams
/// can be any descriptor).
fn command(sandbox: &Sandbox, program: impl AsRef<std::ffi::OsStr>) -> Command {
    let tool = sandbox.cmd();
    let mut command = Command::new(program);
    command.env_clear().envs(
        tool.get_envs()
            .filter_map(|(key, value)| Some((key, value?))),
    );
    command
}

#[test]
fn a_closed_stdout_is_opened_on_dev_null_not_on_the_audit_log() {
    let sandbox = Sandbox::new();
    // The shell closes descriptor 1 and becomes the tool: the first file the tool opened
    // would otherwise get number 1 and receive the result.
    let output = command(&sandbox, "/bin/sh")
        .args(["-c", r#"exec >&-; exec "$0" "$@""#])
        .arg(sandbox.cmd().get_program())
        .args(evaluation(&sandbox))
        .output()
        .expect("sh runs");
    assert!(
        output.status.success(),
        "{:?}: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    // Every line of the log is a valid audit record (checked against its schema), and there
    // is one: the result went nowhere.
    let records = sandbox.audit_records();
    assert_eq!(records.len(), 1, "{}", sandbox.audit_text());
    assert_eq!(records[0]["status"], "OK");
}

#[test]
fn a_closed_pipe_is_handled_as_written_not_a_sigpipe() {
    let sandbox = Sandbox::new();
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let output = command(&sandbox, sandbox.cmd().get_program())
        .args(evaluation(&sandbox))
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("the tool runs");
    // Killed by SIGPIPE, it would have no exit code.
    assert_eq!(
        output.status.code(),
        Some(0),
        "{:?}: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(sandbox.single_audit_record()["status"], "OK");
}

//! One invocation of a tool and the profile's assertions on what it printed.

use std::ffi::OsStr;

use assert_cmd::Command;
use serde_json::Value;

use super::{assert_valid, compact_document};

/// How a tool's warnings start on stderr (`common::output`); they are plain text lines.
const WARNING_PREFIX: &str = "waarschuwing: ";

/// The outcome of one invocation.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `cmd` with `args` and collects its outcome.
pub fn run<I, S>(mut cmd: Command, args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let output = cmd.args(args).output().expect("the tool runs");
    Run {
        code: output.status.code().expect("the tool exited, not killed"),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

impl Run {
    /// Asserts success (exit 0, nothing on stderr) and returns stdout as one JSON document
    /// in compact form followed by one newline (OUT-3).
    pub fn json(&self) -> Value {
        assert_eq!(self.code, 0, "expected success: {self:#?}");
        assert_eq!(self.stderr, "", "stderr must be empty on success");
        compact_document(&self.stdout)
    }

    /// Like [`Run::json`], but stderr may hold warnings: lines starting `waarschuwing: `,
    /// and nothing else.
    pub fn json_after_warnings(&self) -> Value {
        assert_eq!(self.code, 0, "expected success: {self:#?}");
        assert_eq!(self.after_warnings(), "", "stderr holds more than warnings");
        compact_document(&self.stdout)
    }

    /// Asserts a failure with `exit` and returns the error object: stdout empty (ERR-3),
    /// stderr exactly one compact JSON line (ERR-1) validating against the schema, with
    /// `exit_code` equal to the status (ERR-4) and `type` built from `code` (ERR-5).
    pub fn error(&self, exit: i32) -> Value {
        assert_eq!(self.code, exit, "unexpected exit status: {self:#?}");
        assert_eq!(self.stdout, "", "stdout must be empty on failure");
        self.error_object(&self.stderr, exit)
    }

    /// Like [`Run::error`], but the error line may follow warnings: lines starting
    /// `waarschuwing: `.
    pub fn error_after_warnings(&self, exit: i32) -> Value {
        assert_eq!(self.code, exit, "unexpected exit status: {self:#?}");
        assert_eq!(self.stdout, "", "stdout must be empty on failure");
        self.error_object(self.after_warnings(), exit)
    }

    /// Like [`Run::error`], for a command that talked to a person on stderr first (a login's
    /// link and code): the error object is stderr's last line.
    pub fn error_after_dialogue(&self, exit: i32) -> Value {
        assert_eq!(self.code, exit, "unexpected exit status: {self:#?}");
        assert_eq!(self.stdout, "", "stdout must be empty on failure");
        let last = self.stderr.trim_end().lines().last().unwrap_or_default();
        self.error_object(&format!("{last}\n"), exit)
    }

    /// Like [`Run::error`] for a refused mutation (80 CONFIRMATION_REQUIRED, 81 PLAN_STALE),
    /// which prints the plan on stdout: stdout is not checked here; see [`Run::plan`].
    pub fn refusal(&self, exit: i32) -> Value {
        assert!(
            matches!(exit, 80 | 81),
            "only 80 and 81 print a plan on failure, not {exit}"
        );
        assert_eq!(self.code, exit, "unexpected exit status: {self:#?}");
        self.error_object(&self.stderr, exit)
    }

    /// The plan on stdout (a dry run, or a refusal with 80 or 81), validated against
    /// `plan.schema.json`.
    pub fn plan(&self) -> Value {
        let plan = compact_document(&self.stdout);
        assert_valid("plan.schema.json", &plan);
        plan
    }

    /// The trace id named by the error object's `instance` (ERR-6).
    pub fn error_trace_id(&self) -> String {
        let error = compact_document(&self.stderr);
        error["instance"]
            .as_str()
            .and_then(|i| i.strip_prefix("urn:trace:"))
            .expect("instance is urn:trace:<id>")
            .to_owned()
    }

    /// Stderr after its leading warning lines.
    fn after_warnings(&self) -> &str {
        let mut rest = self.stderr.as_str();
        while rest.starts_with(WARNING_PREFIX) {
            rest = rest.split_once('\n').map_or("", |(_, after)| after);
        }
        rest
    }

    /// `text` is exactly one valid error object, matching exit status `exit`.
    fn error_object(&self, text: &str, exit: i32) -> Value {
        let error = compact_document(text);
        assert_valid("error.schema.json", &error);
        assert_eq!(error["exit_code"], exit, "{error}");
        let code = error["code"].as_str().expect("code");
        assert_eq!(error["type"], format!("urn:overheid-cli:problem:{code}"));
        error
    }
}

/// The root discovery document of `program` (`--help --json`), checked to be one compact
/// JSON document on a clean exit.
pub fn discovery(program: &std::path::Path) -> Value {
    run(Command::new(program), ["--help", "--json"]).json()
}

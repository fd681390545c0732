//! Shared helpers: a sandbox with its own audit log, runs of `regelrecht-cli` in a clean
//! environment, the profile's output shapes, and validation against `spec/schemas/`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

/// The `$id` of the built-in Bal.
pub const BAL: &str = "besluit_activiteiten_leefomgeving";

/// `<repo>/../shared/regelrecht`.
pub fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/regelrecht")
}

/// The shared corpus directory.
pub fn corpus_dir() -> PathBuf {
    shared().join("corpus")
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A temporary directory for the audit log and test files.
pub struct Sandbox {
    dir: TempDir,
}

impl Sandbox {
    pub fn new() -> Self {
        Sandbox {
            dir: tempfile::tempdir().expect("temporary directory"),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn audit_log(&self) -> PathBuf {
        self.path().join("audit.jsonl")
    }

    /// `regelrecht-cli` with an empty environment except `HOME`, `PATH` and the audit log.
    pub fn cmd(&self) -> Command {
        let mut cmd = Command::cargo_bin("regelrecht-cli").expect("regelrecht-cli is built");
        cmd.env_clear()
            .env("HOME", self.path())
            .env("PATH", self.path())
            .env("REGELRECHT_AUDIT_LOG", self.audit_log())
            .timeout(Duration::from_secs(60));
        cmd
    }

    /// Every audit record, each validated against the schema.
    pub fn audit_records(&self) -> Vec<Value> {
        std::fs::read_to_string(self.audit_log())
            .unwrap_or_default()
            .lines()
            .map(|line| {
                let record: Value = serde_json::from_str(line).expect("audit line is JSON");
                assert_valid("audit-record.schema.json", &record);
                record
            })
            .collect()
    }

    /// Write a file in the sandbox.
    pub fn write(&self, relative: &str, text: &str) -> PathBuf {
        let path = self.path().join(relative);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, text).expect("write");
        path
    }
}

/// The outcome of one invocation.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn run<I, S>(mut cmd: Command, args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let output = cmd.args(args).output().expect("regelrecht-cli runs");
    Run {
        code: output.status.code().expect("exited"),
        stdout: String::from_utf8(output.stdout).expect("UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("UTF-8"),
    }
}

impl Run {
    /// Success: exit 0, one compact JSON document on stdout.
    pub fn json(&self) -> Value {
        assert_eq!(self.code, 0, "expected success: {self:#?}");
        compact_document(&self.stdout)
    }

    /// Failure with `exit`: stdout empty, one error object as the last stderr line,
    /// valid against `error.schema.json`, with matching `exit_code` and `type`.
    pub fn error(&self, exit: i32) -> Value {
        assert_eq!(self.code, exit, "unexpected exit status: {self:#?}");
        assert_eq!(self.stdout, "", "stdout must be empty on failure");
        let last = self.stderr.lines().last().expect("an error line");
        let error: Value = serde_json::from_str(last).expect("error is JSON");
        assert_valid("error.schema.json", &error);
        assert_eq!(error["exit_code"], exit);
        let code = error["code"].as_str().expect("code");
        assert_eq!(error["type"], format!("urn:overheid-cli:problem:{code}"));
        error
    }
}

/// Exactly one compact JSON document and one newline.
pub fn compact_document(text: &str) -> Value {
    let line = text.strip_suffix('\n').expect("ends with a newline");
    assert!(!line.contains('\n'), "one line: {text}");
    let value: Value = serde_json::from_str(line).expect("JSON");
    assert_eq!(value.to_string(), line, "compact JSON");
    value
}

/// A schema of `spec/schemas/`.
pub fn schema(name: &str) -> Value {
    let path = repo().join("spec/schemas").join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).expect("schema file")).expect("JSON")
}

pub fn assert_valid(name: &str, instance: &Value) {
    assert_valid_against(&schema(name), instance, name);
}

pub fn assert_valid_against(schema: &Value, instance: &Value, label: &str) {
    let validator = jsonschema::validator_for(schema).unwrap_or_else(|e| panic!("{label}: {e}"));
    let problems: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(problems.is_empty(), "{label}: {problems:#?}\n{instance}");
}

/// The discovery document.
pub fn discovery() -> Value {
    run(Sandbox::new().cmd(), ["--help", "--json"]).json()
}

/// The output schema of tool `name`.
pub fn output_schema(name: &str) -> Value {
    discovery()["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("tool {name}"))["outputSchema"]
        .clone()
}

//! Shared helpers: a sandbox with its own audit log, the fake KOOP, one invocation's outcome with
//! the profile's shape checks, and validation against the published schemas.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use serde_json::Value;
use sha2::{Digest, Sha256};
use tempfile::TempDir;
use test_support::koop::Koop;
use test_support::{FakeServer, Mounts, RecordedRequest};

/// Where the fake KOOP is mounted.
pub const MOUNT: &str = "/koop";

const RUN_LIMIT: Duration = Duration::from_secs(60);

/// A temporary home and audit log.
pub struct Sandbox {
    dir: TempDir,
}

impl Sandbox {
    pub fn new() -> Self {
        Sandbox {
            dir: tempfile::tempdir().expect("temporary directory"),
        }
    }

    pub fn audit_log(&self) -> PathBuf {
        self.dir.path().join("audit.jsonl")
    }

    /// `koop-cli` with nothing of the developer's environment but `HOME` and `PATH`.
    pub fn bare(&self) -> Command {
        let mut cmd = Command::cargo_bin("koop-cli").expect("koop-cli is built");
        cmd.env_clear()
            .env("HOME", self.dir.path())
            .env("PATH", self.dir.path())
            .env("KOOP_AUDIT_LOG", self.audit_log())
            .timeout(RUN_LIMIT);
        cmd
    }

    /// `koop-cli` pointed at `fake`.
    pub fn cmd(&self, fake: &KoopFake) -> Command {
        let mut cmd = self.bare();
        cmd.env("KOOP_SRU_URL", fake.sru_url())
            .env("KOOP_REPOSITORY_URL", fake.repository_url());
        cmd
    }

    /// Every audit record, each validated against its schema.
    pub fn audit_records(&self) -> Vec<Value> {
        let text = std::fs::read_to_string(self.audit_log()).unwrap_or_default();
        text.lines()
            .map(|line| {
                let record: Value = serde_json::from_str(line).expect("audit line is JSON");
                assert_valid("audit-record.schema.json", &record);
                record
            })
            .collect()
    }
}

/// The fake KOOP on its own port.
pub struct KoopFake {
    pub server: FakeServer,
}

impl KoopFake {
    pub fn start() -> Self {
        Self::with(Koop::new())
    }

    pub fn with(router: Koop) -> Self {
        let mounts = Mounts::new().mount(MOUNT, move |r: &RecordedRequest| router.route(r));
        KoopFake {
            server: FakeServer::start(mounts.into_handler()),
        }
    }

    pub fn sru_url(&self) -> String {
        self.server.url(MOUNT)
    }

    pub fn repository_url(&self) -> String {
        self.server.url(&format!("{MOUNT}/repository"))
    }

    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.server.requests()
    }
}

/// One invocation's outcome.
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
    let output = cmd.args(args).output().expect("koop-cli runs");
    Run {
        code: output.status.code().expect("exited, not killed"),
        stdout: String::from_utf8(output.stdout).expect("UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("UTF-8"),
    }
}

impl Run {
    /// Success: exit 0, empty stderr, one compact JSON document (OUT-3).
    pub fn json(&self) -> Value {
        assert_eq!(self.code, 0, "expected success: {self:#?}");
        assert_eq!(self.stderr, "", "stderr must be empty on success");
        compact_document(&self.stdout)
    }

    /// Failure with `exit`: stdout empty (ERR-3), one error object on stderr validating against
    /// the schema (ERR-1), with matching `exit_code` (ERR-4) and `type` (ERR-5).
    pub fn error(&self, exit: i32) -> Value {
        assert_eq!(self.code, exit, "unexpected exit status: {self:#?}");
        assert_eq!(self.stdout, "", "stdout must be empty on failure");
        let error = compact_document(&self.stderr);
        assert_valid("error.schema.json", &error);
        assert_eq!(error["exit_code"], exit);
        let code = error["code"].as_str().expect("code");
        assert_eq!(error["type"], format!("urn:overheid-cli:problem:{code}"));
        error
    }
}

pub fn compact_document(text: &str) -> Value {
    let line = text
        .strip_suffix('\n')
        .unwrap_or_else(|| panic!("output must end with one newline: {text:?}"));
    assert!(!line.contains('\n'), "output must be one line: {text}");
    let value: Value =
        serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    assert_eq!(value.to_string(), line, "output must be compact JSON");
    value
}

fn schema_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/schemas")
}

pub fn schema(name: &str) -> Value {
    let text = std::fs::read_to_string(schema_dir().join(name)).expect("schema readable");
    serde_json::from_str(&text).expect("schema is JSON")
}

pub fn assert_valid(name: &str, instance: &Value) {
    assert_valid_against(&schema(name), instance, name);
}

pub fn assert_valid_against(schema: &Value, instance: &Value, label: &str) {
    let validator = jsonschema::validator_for(schema)
        .unwrap_or_else(|e| panic!("{label} is not a valid schema: {e}"));
    let problems: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(
        problems.is_empty(),
        "{label}: {problems:#?}\ninstance: {instance}"
    );
}

/// The discovery document.
pub fn discovery() -> Value {
    run(Sandbox::new().bare(), ["--help", "--json"]).json()
}

/// The tool entry `name` of discovery.
pub fn tool_entry(name: &str) -> Value {
    discovery()["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
        .clone()
}

/// Success and the data valid against the command's outputSchema (OUT-7).
pub fn data(run: &Run, tool: &str) -> Value {
    let value = run.json();
    let entry = tool_entry(tool);
    assert_valid_against(&entry["outputSchema"], &value, tool);
    value
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

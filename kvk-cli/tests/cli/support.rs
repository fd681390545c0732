//! Shared helpers for the kvk-cli integration tests.
//!
//! - [`Sandbox`]: a temporary home with its own audit log, and `kvk-cli` commands that run
//!   in a clean environment (nothing of the developer's environment leaks in).
//! - [`Run`]: the outcome of one invocation, with assertions for the profile's shapes
//!   (one compact JSON document on stdout, or exactly one error line on stderr).
//! - [`KvkFake`]: the fake KvK on a loopback port that also remembers every body it sent,
//!   so provenance digests can be checked against the bytes on the wire.
//! - [`assert_valid`]: validation against the published schemas in `spec/schemas/`.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use assert_cmd::Command;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use tempfile::TempDir;
use test_support::{FakeServer, RecordedRequest, Reply};

/// The API key the tests configure; it must never show up in any output.
pub const KEY: &str = "sleutel-9f8e7d6c5b4a";

/// The name and path under which the fake KvK is mounted.
pub const MOUNT: &str = "/api";

/// Upper bound for any single invocation, so a hanging tool fails the test instead of CI.
const RUN_LIMIT: Duration = Duration::from_secs(60);

/// A temporary directory that serves as `HOME`, `PATH` and audit-log location.
pub struct Sandbox {
    dir: TempDir,
}

impl Sandbox {
    pub fn new() -> Self {
        Sandbox {
            dir: tempfile::tempdir().expect("temporary directory"),
        }
    }

    /// The sandbox directory.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The audit log the commands of this sandbox write to (`KVK_AUDIT_LOG`).
    pub fn audit_log(&self) -> PathBuf {
        self.path().join("audit.jsonl")
    }

    /// `kvk-cli` with an empty environment except `HOME` and `PATH` (both the sandbox).
    pub fn bare(&self) -> Command {
        let mut cmd = Command::cargo_bin("kvk-cli").expect("kvk-cli is built");
        cmd.env_clear()
            .env("HOME", self.path())
            .env("PATH", self.path())
            .timeout(RUN_LIMIT);
        cmd
    }

    /// `kvk-cli` pointed at `base` with [`KEY`] and the sandbox's audit log.
    pub fn cmd(&self, base: &str) -> Command {
        let mut cmd = self.bare();
        cmd.env("KVK_API_BASE", base)
            .env("KVK_API_KEY", KEY)
            .env("KVK_AUDIT_LOG", self.audit_log());
        cmd
    }

    /// Every record of the audit log, each validated against `audit-record.schema.json`.
    /// A missing log is an empty list.
    pub fn audit_records(&self) -> Vec<Value> {
        read_audit(&self.audit_log())
    }

    /// The one audit record of the log; fails if there is not exactly one.
    pub fn single_audit_record(&self) -> Value {
        let records = self.audit_records();
        assert_eq!(records.len(), 1, "expected one audit record: {records:#?}");
        records.into_iter().next().expect("one record")
    }

    /// The raw text of the audit log ("" when absent).
    pub fn audit_text(&self) -> String {
        std::fs::read_to_string(self.audit_log()).unwrap_or_default()
    }
}

/// The records of the audit log at `path`, each validated against the schema.
pub fn read_audit(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .map(|line| {
            let record: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("audit line is not JSON ({e}): {line}"));
            assert_valid("audit-record.schema.json", &record);
            record
        })
        .collect()
}

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
    S: AsRef<std::ffi::OsStr>,
{
    let output = cmd.args(args).output().expect("kvk-cli runs");
    Run {
        code: output.status.code().expect("kvk-cli exited, not killed"),
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

    /// Asserts a failure with `exit` and returns the error object: stdout empty (ERR-3),
    /// stderr exactly one compact JSON line (ERR-1) validating against the schema, with
    /// `exit_code` equal to the status (ERR-4), `type` built from `code` (ERR-5) and an
    /// `instance` naming a trace (ERR-6).
    pub fn error(&self, exit: i32) -> Value {
        assert_eq!(self.code, exit, "unexpected exit status: {self:#?}");
        assert_eq!(self.stdout, "", "stdout must be empty on failure");
        let error = compact_document(&self.stderr);
        assert_valid("error.schema.json", &error);
        assert_eq!(error["exit_code"], exit, "{error}");
        let code = error["code"].as_str().expect("code");
        assert_eq!(error["type"], format!("urn:overheid-cli:problem:{code}"));
        error
    }

    /// The trace id named by the error object's `instance`.
    pub fn error_trace_id(&self) -> String {
        let error = compact_document(&self.stderr);
        error["instance"]
            .as_str()
            .and_then(|i| i.strip_prefix("urn:trace:"))
            .expect("instance is urn:trace:<id>")
            .to_owned()
    }
}

/// `text` must be exactly one compact JSON document and one newline.
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

/// The fake KvK on `127.0.0.1:<free port>` under [`MOUNT`], remembering every body it sent.
pub struct KvkFake {
    pub server: FakeServer,
    sent: Arc<Mutex<Vec<Vec<u8>>>>,
}

impl KvkFake {
    pub fn start() -> Self {
        KvkFake::with(test_support::kvk::kvk)
    }

    /// A fake that answers with `handler` (which sees paths relative to [`MOUNT`]).
    pub fn with<H>(handler: H) -> Self
    where
        H: Fn(&RecordedRequest) -> Reply + Send + Sync + 'static,
    {
        let sent = Arc::new(Mutex::new(Vec::new()));
        let recorder = Arc::clone(&sent);
        let mounts = test_support::Mounts::new().mount(MOUNT, handler);
        let server = FakeServer::start(move |request| {
            let reply = mounts.route(request);
            recorder
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(reply.body_bytes().to_vec());
            reply
        });
        KvkFake { server, sent }
    }

    /// `KVK_API_BASE` for this fake.
    pub fn base(&self) -> String {
        self.server.url(MOUNT)
    }

    /// Every body the fake sent, in order.
    pub fn bodies(&self) -> Vec<Vec<u8>> {
        self.sent
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    pub fn request_count(&self) -> usize {
        self.server.request_count()
    }

    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.server.requests()
    }
}

/// The directory of the published schemas.
fn schema_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/schemas")
}

/// A schema of `spec/schemas/` as JSON.
pub fn schema(name: &str) -> Value {
    let path = schema_dir().join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).expect("schema is JSON")
}

/// Asserts that `instance` validates against the published schema `name`.
pub fn assert_valid(name: &str, instance: &Value) {
    assert_valid_against(&schema(name), instance, name);
}

/// Asserts that `instance` validates against `schema` (`label` names it in the message).
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

/// Lower-case hex SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Canonical JSON (sorted keys, no whitespace) as the profile's plan digest uses it.
pub fn canonical(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let members: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{}:{}", Value::from(k.as_str()), canonical(&map[k])))
                .collect();
            format!("{{{}}}", members.join(","))
        }
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(canonical).collect::<Vec<_>>().join(",")
        ),
        other => other.to_string(),
    }
}

/// The discovery document (`kvk-cli --help --json`), run in a clean environment.
pub fn discovery() -> Value {
    let sandbox = Sandbox::new();
    run(sandbox.bare(), ["--help", "--json"]).json()
}

/// The tool entry called `name` in the discovery document.
pub fn tool_entry(name: &str) -> Value {
    discovery()["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
        .clone()
}

/// A port on 127.0.0.1 that nothing listens on (bound, then released).
pub fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    drop(listener);
    port
}

/// The members of an object, for readable assertions on key order.
pub fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .map(Map::keys)
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect()
}

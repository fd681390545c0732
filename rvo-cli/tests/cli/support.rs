//! Shared helpers: a sandbox (temporary store, audit log and home), running rvo-cli in a clean
//! environment, the profile's output shapes, and validation against `spec/schemas/`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use serde_json::Value;
use sha2::{Digest, Sha256};
use tempfile::TempDir;

/// Upper bound for one invocation, so a hanging tool fails the test instead of CI.
const RUN_LIMIT: Duration = Duration::from_secs(60);

/// The date the filing tests validate against (EBR-2027 is open, EBR-2023 is closed).
pub const PEILDATUM: &str = "2026-11-30";

/// A temporary directory with the store (`data/`), the audit log and `HOME`.
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

    /// `RVO_DATA_DIR` of this sandbox.
    pub fn data_dir(&self) -> PathBuf {
        self.path().join("data")
    }

    /// `RVO_AUDIT_LOG` of this sandbox.
    pub fn audit_log(&self) -> PathBuf {
        self.path().join("audit.jsonl")
    }

    /// rvo-cli with only `HOME`, `PATH`, `RVO_DATA_DIR` and `RVO_AUDIT_LOG` set.
    pub fn cmd(&self) -> Command {
        let mut cmd = Command::cargo_bin("rvo-cli").expect("rvo-cli is built");
        cmd.env_clear()
            .env("HOME", self.path())
            .env("PATH", self.path())
            .env("RVO_DATA_DIR", self.data_dir())
            .env("RVO_AUDIT_LOG", self.audit_log())
            .timeout(RUN_LIMIT);
        cmd
    }

    /// rvo-cli with `args` as a plain process (for tests that spawn or kill it), with the same
    /// environment as [`Sandbox::cmd`] and stdin closed.
    pub fn process(&self, args: &[&str]) -> std::process::Command {
        self.process_of(env!("CARGO_BIN_EXE_rvo-cli"), args)
    }

    /// Like [`Sandbox::process`], but `rvo-cli-test-hooks`: rvo-cli with the pause hook
    /// (`RVO_CLI_TEST_PAUSE`), for the crash tests. `rvo-cli` itself ignores that variable.
    pub fn hooked_process(&self, args: &[&str]) -> std::process::Command {
        self.process_of(env!("CARGO_BIN_EXE_rvo-cli-test-hooks"), args)
    }

    fn process_of(&self, program: &str, args: &[&str]) -> std::process::Command {
        let mut cmd = std::process::Command::new(program);
        cmd.env_clear()
            .env("HOME", self.path())
            .env("PATH", self.path())
            .env("RVO_DATA_DIR", self.data_dir())
            .env("RVO_AUDIT_LOG", self.audit_log())
            .args(args)
            .stdin(std::process::Stdio::null());
        cmd
    }

    /// Runs rvo-cli with `args` in this sandbox.
    pub fn run<I, S>(&self, args: I) -> Run
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        run(self.cmd(), args)
    }

    /// Every audit record, each validated against `audit-record.schema.json`.
    pub fn audit_records(&self) -> Vec<Value> {
        let text = std::fs::read_to_string(self.audit_log()).unwrap_or_default();
        text.lines()
            .map(|line| {
                let record: Value = serde_json::from_str(line)
                    .unwrap_or_else(|e| panic!("audit line is not JSON ({e}): {line}"));
                assert_valid("audit-record.schema.json", &record);
                record
            })
            .collect()
    }

    /// The raw audit log ("" when absent).
    pub fn audit_text(&self) -> String {
        std::fs::read_to_string(self.audit_log()).unwrap_or_default()
    }

    /// The store's consistency report.
    pub fn store(&self) -> rvo_cli::verify::StoreReport {
        rvo_cli::verify::verify_store(&self.data_dir()).expect("store is readable")
    }

    /// The idempotency keys of all complete records in the store.
    pub fn stored_keys(&self) -> Vec<String> {
        let dir = self.data_dir().join(rvo_cli::store::RECORDS_DIR);
        let mut keys: Vec<String> = std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .filter_map(|e| rvo_cli::store::record_key(&e.ok()?.file_name()))
                    .collect()
            })
            .unwrap_or_default();
        keys.sort();
        keys
    }

    /// Asserts the store is consistent and holds `records` reports.
    pub fn assert_store(&self, records: usize) {
        let report = self.store();
        assert!(report.is_consistent(), "{report:?}");
        assert_eq!(report.records, records, "{report:?}");
    }

    /// Asserts that every stored report has a successful audit record of
    /// `rapportage indienen` carrying its key as `overheid.plan_digest`.
    pub fn assert_every_report_audited(&self) {
        let records = self.audit_records();
        for key in self.stored_keys() {
            let audited = records.iter().any(|r| {
                r["name"] == "rvo-cli rapportage indienen"
                    && r["exit_code"] == 0
                    && r["attributes"]["overheid.plan_digest"] == key.as_str()
                    && r["attributes"].get("overheid.dry_run").is_none()
            });
            assert!(audited, "report {key} has no audit record: {records:#?}");
        }
    }
}

/// The outcome of one invocation.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `cmd` with `args`.
pub fn run<I, S>(mut cmd: Command, args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let output = cmd.args(args).output().expect("rvo-cli runs");
    Run {
        code: output.status.code().expect("rvo-cli exited, not killed"),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

impl Run {
    /// Success: exit 0, empty stderr, one compact JSON document on stdout.
    pub fn json(&self) -> Value {
        assert_eq!(self.code, 0, "expected success: {self:#?}");
        assert_eq!(self.stderr, "", "stderr must be empty on success");
        compact_document(&self.stdout)
    }

    /// Failure with `exit`: one error object on stderr validating against the schema. Stdout is
    /// empty except for 80 and 81, which print the plan.
    pub fn error(&self, exit: i32) -> Value {
        assert_eq!(self.code, exit, "unexpected exit status: {self:#?}");
        if !matches!(exit, 80 | 81) {
            assert_eq!(self.stdout, "", "stdout must be empty on failure");
        }
        let error = compact_document(&self.stderr);
        assert_valid("error.schema.json", &error);
        assert_eq!(error["exit_code"], exit, "{error}");
        let code = error["code"].as_str().expect("code");
        assert_eq!(error["type"], format!("urn:overheid-cli:problem:{code}"));
        error
    }

    /// The plan on stdout (exit 0 for a dry run, 80 or 81), validated against the schema.
    pub fn plan(&self) -> Value {
        let plan = compact_document(&self.stdout);
        assert_valid("plan.schema.json", &plan);
        plan
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

/// A schema of `spec/schemas/`.
pub fn schema(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../spec/schemas")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).expect("schema is JSON")
}

/// Asserts that `instance` validates against the published schema `name`.
pub fn assert_valid(name: &str, instance: &Value) {
    assert_valid_against(&schema(name), instance, name);
}

/// Asserts that `instance` validates against `schema`.
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

/// The output schema of tool `name` from discovery.
pub fn output_schema(name: &str) -> Value {
    let sandbox = Sandbox::new();
    let doc = sandbox.run(["--help", "--json"]).json();
    doc["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no tool {name}"))["outputSchema"]
        .clone()
}

/// Lower-case hex SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Canonical JSON (sorted keys, no whitespace), written independently of the tool.
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

/// The plan digest of `rvo-cli rapportage indienen` with these normalised arguments (MUT-3).
pub fn indienen_digest(arguments: &Value) -> String {
    let doc = serde_json::json!({"command": "rvo-cli rapportage indienen", "arguments": arguments});
    sha256_hex(canonical(&doc).as_bytes())
}

/// The plan digest of `indienen("warmtepomp, led-verlichting", …)` (in any spelling of the
/// measures): the key under which that report is stored.
pub fn digest_of_default_report() -> String {
    indienen_digest(&serde_json::json!({
        "kvk_nummer": "68750110",
        "regeling_id": "EBR-2027",
        "maatregelen": ["led-verlichting", "warmtepomp"],
        "peildatum": PEILDATUM,
    }))
}

/// `rapportage indienen 68750110 EBR-2027 <maatregelen> --peildatum 2026-11-30` plus `extra`.
pub fn indienen<'a>(maatregelen: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "rapportage",
        "indienen",
        "68750110",
        "EBR-2027",
        maatregelen,
        "--peildatum",
        PEILDATUM,
    ];
    args.extend_from_slice(extra);
    args
}

//! Helpers for the rvo-cli integration tests; the tool-independent ones live in
//! [`test_support::cli`].
//!
//! - [`Sandbox`]: the shared sandbox for `rvo-cli`, with its own store (`RVO_DATA_DIR`) and
//!   assertions on that store.
//! - [`indienen`] and the plan digests of `rapportage indienen`.

use std::ops::Deref;
use std::path::PathBuf;

use serde_json::Value;

pub(crate) use test_support::cli::{
    Run, assert_valid, assert_valid_against, canonical, run, sha256_hex,
};

/// The date the filing tests validate against (EBR-2027 is open, EBR-2023 is closed).
pub(crate) const PEILDATUM: &str = "2026-11-30";

/// A report of the proposal and shared-store tests.
pub(crate) const REPORT: [&str; 5] = [
    "68750110",
    "EBR-2027",
    "LED-verlichting,Isolatie dak",
    "--peildatum",
    PEILDATUM,
];

/// [`REPORT`] as no other test on the shared PostgreSQL database files it (its explanation is
/// unique).
pub(crate) fn unique_report(label: &str) -> Vec<String> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let mut report: Vec<String> = REPORT.iter().map(|a| a.to_string()).collect();
    report.extend([
        "--toelichting".into(),
        format!("{label} {} {nanos}", std::process::id()),
    ]);
    report
}

/// The store directory inside the sandbox (`RVO_DATA_DIR`).
const DATA_DIR: &str = "data";

/// The shared sandbox for `rvo-cli` (audit log in `RVO_AUDIT_LOG`, store in `RVO_DATA_DIR`).
pub(crate) struct Sandbox(test_support::cli::Sandbox);

impl Sandbox {
    pub(crate) fn new() -> Self {
        Sandbox(
            test_support::cli::Sandbox::new(env!("CARGO_BIN_EXE_rvo-cli"), "RVO_AUDIT_LOG")
                .with_dir("RVO_DATA_DIR", DATA_DIR),
        )
    }

    /// `RVO_DATA_DIR` of this sandbox.
    pub(crate) fn data_dir(&self) -> PathBuf {
        self.path().join(DATA_DIR)
    }

    /// Like [`test_support::cli::Sandbox::process`], but `rvo-cli-test-hooks`: rvo-cli with
    /// the pause hook (`RVO_CLI_TEST_PAUSE`), for the crash tests. `rvo-cli` itself ignores
    /// that variable.
    pub(crate) fn hooked_process(&self, args: &[&str]) -> std::process::Command {
        self.process_of(env!("CARGO_BIN_EXE_rvo-cli-test-hooks"), args)
    }

    /// `rvo-cli-test-hooks` with "now" fixed at `now` (RFC 3339, `RVO_CLI_TEST_NOW`), for tests
    /// whose outcome depends on the date; run it with [`run`]. `rvo-cli` ignores that variable.
    pub(crate) fn cmd_at(&self, now: &str) -> assert_cmd::Command {
        let mut cmd = self.process_of(env!("CARGO_BIN_EXE_rvo-cli-test-hooks"), &[]);
        cmd.env(rvo_cli::clock::NOW_ENV, now);
        let mut cmd = assert_cmd::Command::from_std(cmd);
        cmd.timeout(std::time::Duration::from_secs(60));
        cmd
    }

    /// Runs [`Sandbox::cmd_at`] with `args`.
    pub(crate) fn run_at(&self, now: &str, args: &[&str]) -> Run {
        run(self.cmd_at(now), args)
    }

    /// The store of this sandbox: SQLite in its `RVO_DATA_DIR`.
    pub(crate) fn location(&self) -> overheid_records::Location {
        overheid_records::Location::Sqlite(self.data_dir())
    }

    /// The store's consistency report (this tool's filings).
    pub(crate) fn store(&self) -> rvo_cli::verify::StoreReport {
        rvo_cli::verify::verify_store(&self.location()).expect("store is readable")
    }

    /// The idempotency keys of all sound filings in the store.
    pub(crate) fn stored_keys(&self) -> Vec<String> {
        self.store().keys
    }

    /// Runs `sql` on the sandbox's SQLite store (to damage a record, or hold its write lock).
    pub(crate) fn sqlite(&self) -> rusqlite::Connection {
        rusqlite::Connection::open(self.data_dir().join(overheid_records::DATABASE_FILE))
            .expect("the store's database opens")
    }

    /// Asserts the store is consistent and holds `records` reports.
    pub(crate) fn assert_store(&self, records: usize) {
        let report = self.store();
        assert!(report.is_consistent(), "{report:?}");
        assert_eq!(report.records, records, "{report:?}");
    }

    /// Asserts that every stored report has a successful audit record of
    /// `rapportage indienen` carrying its key as `overheid.plan_digest`.
    pub(crate) fn assert_every_report_audited(&self) {
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

impl Deref for Sandbox {
    type Target = test_support::cli::Sandbox;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

/// The output schema of tool `name` from discovery.
pub(crate) fn output_schema(name: &str) -> Value {
    Sandbox::new().tool_entry(name)["outputSchema"].clone()
}

/// The plan digest of `rvo-cli rapportage indienen` with these normalised arguments (MUT-3).
pub(crate) fn indienen_digest(arguments: &Value) -> String {
    let doc = serde_json::json!({"command": "rvo-cli rapportage indienen", "arguments": arguments});
    sha256_hex(canonical(&doc).as_bytes())
}

/// The plan digest of `indienen("warmtepomp, led-verlichting", …)` (in any spelling of the
/// measures, with or without `--peildatum`): the key under which that report is stored. It is
/// the worked digest of the profile (spec §10).
pub(crate) fn digest_of_default_report() -> String {
    indienen_digest(&serde_json::json!({
        "kvk_nummer": "68750110",
        "regeling_id": "EBR-2027",
        "maatregelen": ["led-verlichting", "warmtepomp"],
    }))
}

/// `rapportage indienen 68750110 EBR-2027 <maatregelen> --peildatum 2026-11-30` plus `extra`.
pub(crate) fn indienen<'a>(maatregelen: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = indienen_today(maatregelen, &["--peildatum", PEILDATUM]);
    args.extend_from_slice(extra);
    args
}

/// `rapportage indienen 68750110 EBR-2027 <maatregelen>` plus `extra`, without `--peildatum`: the
/// date checked is the tool's today (fix it with [`Sandbox::run_at`]).
pub(crate) fn indienen_today<'a>(maatregelen: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "rapportage",
        "indienen",
        "68750110",
        "EBR-2027",
        maatregelen,
    ];
    args.extend_from_slice(extra);
    args
}

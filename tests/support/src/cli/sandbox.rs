//! A temporary home for one test, and commands of the tool under test that run in it with a
//! clean environment (nothing of the developer's environment leaks in).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

use super::{Run, read_audit, run};

/// Rewrite the body of the cache entry at `entry` with `edit` and recompute its header (length
/// and SHA-256), so the entry is sound as a cache entry: a planted entry, as someone who can write
/// the directory could make one.
pub fn forge_cache_entry(entry: &Path, edit: impl Fn(&str) -> String) {
    let bytes = std::fs::read(entry).expect("cache entry");
    let end = bytes
        .windows(2)
        .position(|w| w == b"\n\n")
        .expect("a header");
    let header = std::str::from_utf8(&bytes[..end]).expect("UTF-8 header");
    let body = edit(std::str::from_utf8(&bytes[end + 2..]).expect("UTF-8 body"));
    let mut lines: Vec<String> = header.lines().map(str::to_string).collect();
    lines[3] = format!("length {}", body.len());
    lines[4] = format!("sha256 {}", super::sha256_hex(body.as_bytes()));
    std::fs::write(entry, format!("{}\n\n{body}", lines.join("\n"))).expect("written");
}

/// The entry files (`*.cache`) of the cache directory `dir`; none when it does not exist.
pub fn cache_entries(dir: &Path) -> Vec<PathBuf> {
    match std::fs::read_dir(dir) {
        Ok(listing) => listing
            .map(|e| e.expect("cache entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "cache"))
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// Upper bound for any single invocation, so a hanging tool fails the test instead of CI.
const RUN_LIMIT: Duration = Duration::from_secs(60);

/// A temporary directory that serves as `HOME`, `PATH`, audit-log location and the home of
/// any state directories the tool is given.
pub struct Sandbox {
    dir: TempDir,
    program: PathBuf,
    audit_var: &'static str,
    state_dirs: Vec<(&'static str, &'static str)>,
}

impl Sandbox {
    /// A sandbox for the binary `program` (`env!("CARGO_BIN_EXE_<tool>")`), whose audit log
    /// is set through `audit_var` (`KVK_AUDIT_LOG`).
    pub fn new(program: impl Into<PathBuf>, audit_var: &'static str) -> Self {
        Sandbox {
            dir: tempfile::tempdir().expect("temporary directory"),
            program: program.into(),
            audit_var,
            state_dirs: Vec::new(),
        }
    }

    /// The family's default cache directory in this sandbox (`HOME` is the sandbox; CACHE-2).
    pub fn cache_dir(&self) -> PathBuf {
        self.path().join(".cache/overheid-cli")
    }

    /// The entry files in the sandbox's cache directory ([`cache_entries`]).
    pub fn cache_entries(&self) -> Vec<PathBuf> {
        cache_entries(&self.cache_dir())
    }

    /// Also points `var` at the sandbox's subdirectory `relative` in [`Sandbox::cmd`] and
    /// [`Sandbox::process`] (`RVO_DATA_DIR` → `data`).
    pub fn with_dir(mut self, var: &'static str, relative: &'static str) -> Self {
        self.state_dirs.push((var, relative));
        self
    }

    /// The sandbox directory.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The audit log the commands of this sandbox write to.
    pub fn audit_log(&self) -> PathBuf {
        self.path().join("audit.jsonl")
    }

    /// The tool with an empty environment except `HOME` and `PATH` (both the sandbox).
    pub fn bare(&self) -> Command {
        let mut cmd = Command::new(&self.program);
        cmd.env_clear()
            .env("HOME", self.path())
            .env("PATH", self.path())
            .timeout(RUN_LIMIT);
        cmd
    }

    /// [`Sandbox::bare`] plus the audit log and the state directories.
    pub fn cmd(&self) -> Command {
        let mut cmd = self.bare();
        cmd.envs(self.state_env());
        cmd
    }

    /// Runs [`Sandbox::cmd`] with `args`.
    pub fn run<I, S>(&self, args: I) -> Run
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        run(self.cmd(), args)
    }

    /// The tool with `args` as a plain process (for tests that spawn or kill it), with the
    /// environment of [`Sandbox::cmd`] and stdin closed.
    pub fn process(&self, args: &[&str]) -> std::process::Command {
        self.process_of(&self.program, args)
    }

    /// Like [`Sandbox::process`], but another binary (a variant of the tool).
    pub fn process_of(&self, program: impl AsRef<OsStr>, args: &[&str]) -> std::process::Command {
        let mut cmd = std::process::Command::new(program);
        cmd.env_clear()
            .env("HOME", self.path())
            .env("PATH", self.path())
            .envs(self.state_env())
            .args(args)
            .stdin(Stdio::null());
        cmd
    }

    /// The discovery document (`<tool> --help --json`), as [`Sandbox::run`] prints it.
    pub fn discovery(&self) -> Value {
        self.run(["--help", "--json"]).json()
    }

    /// The full tool entry called `name`: `<command> --help --json` (DISC-17), with the
    /// whole output schema (the root document lists only its members).
    pub fn tool_entry(&self, name: &str) -> Value {
        let root = self.discovery()["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .find(|t| t["name"] == name)
            .unwrap_or_else(|| panic!("no tool {name}"))
            .clone();
        let mut args: Vec<String> = root["_meta"]["argv"]
            .as_array()
            .expect("argv")
            .iter()
            .map(|w| w.as_str().expect("word").to_string())
            .collect();
        args.extend(["--help".into(), "--json".into()]);
        self.run(&args).json()
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

    /// Writes `text` to `relative` in the sandbox (creating directories) and returns its path.
    pub fn write(&self, relative: &str, text: &str) -> PathBuf {
        let path = self.path().join(relative);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, text).expect("write");
        path
    }

    /// The audit log and the state directories, as environment variables.
    fn state_env(&self) -> Vec<(&'static str, PathBuf)> {
        let mut env = vec![(self.audit_var, self.audit_log())];
        env.extend(
            self.state_dirs
                .iter()
                .map(|(var, relative)| (*var, self.path().join(relative))),
        );
        env
    }
}

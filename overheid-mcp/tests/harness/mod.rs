//! Test harness: `overheid-mcp` as a child, spoken to over its stdin and stdout.
#![allow(clippy::disallowed_methods, reason = "test switches")]
#![allow(clippy::print_stderr, reason = "test harness")]
#![allow(dead_code, reason = "each test binary uses part of the harness")]

use std::collections::VecDeque;
use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

pub(crate) mod http;

/// How long any single answer may take in a test.
pub(crate) const ANSWER_TIMEOUT: Duration = Duration::from_secs(20);

/// The fake CLI fixture (a Python script after the profile, with a resource and a mutation).
pub(crate) fn demo_cli() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/demo-cli")
}

/// A bridge serving only the fixture CLI, with its store in a new temporary directory.
pub(crate) fn demo_bridge(extra_args: &[&str]) -> (Bridge, tempfile::TempDir) {
    demo_bridge_env(extra_args, &[])
}

/// [`demo_bridge`] with more variables, after a 2025-11-25 `initialize`.
pub(crate) fn demo_bridge_env(
    extra_args: &[&str],
    extra_env: &[(&str, &str)],
) -> (Bridge, tempfile::TempDir) {
    let (mut bridge, dir) = demo_start(extra_args, extra_env);
    bridge.initialize();
    (bridge, dir)
}

/// The fixture CLI's bridge, before any message.
fn demo_start(extra_args: &[&str], extra_env: &[(&str, &str)]) -> (Bridge, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store.json");
    let cli = demo_cli();
    let mut args = vec!["--tool", cli.to_str().unwrap()];
    args.extend_from_slice(extra_args);
    let mut env = vec![("DEMO_STORE", store.to_str().unwrap())];
    env.extend_from_slice(extra_env);
    (Bridge::start_raw(&args, &env), dir)
}

/// The workspace's `kvk-cli` binary (`$MCP_BRIDGE_KVK_CLI` when set, else next to this
/// test's target directory); `None` (with a message) when it was not built.
pub(crate) fn kvk_cli() -> Option<PathBuf> {
    let found = workspace_binary("kvk-cli", "MCP_BRIDGE_KVK_CLI");
    if found.is_none() {
        eprintln!(
            "OVERGESLAGEN: target/debug/kvk-cli ontbreekt; bouw eerst de workspace (cargo build -p kvk-cli)"
        );
    }
    found
}

/// The workspace's `rvo-cli` binary (`$MCP_BRIDGE_RVO_CLI` when set); as [`regelrecht_cli`], a
/// test that needs it fails when it was not built.
pub(crate) fn rvo_cli() -> PathBuf {
    workspace_binary("rvo-cli", "MCP_BRIDGE_RVO_CLI").unwrap_or_else(|| {
        panic!("target/debug/rvo-cli ontbreekt: bouw het eerst (cargo build -p rvo-cli)")
    })
}

/// The workspace's `regelrecht-cli` binary (`$MCP_BRIDGE_REGELRECHT_CLI` when set); a test that
/// needs it fails when it was not built, rather than passing without having run.
pub(crate) fn regelrecht_cli() -> PathBuf {
    workspace_binary("regelrecht-cli", "MCP_BRIDGE_REGELRECHT_CLI").unwrap_or_else(|| {
        panic!(
            "target/debug/regelrecht-cli ontbreekt: bouw het eerst (cargo build -p regelrecht-cli, \
             of cargo test -p overheid-mcp -p regelrecht-cli)"
        )
    })
}

/// A workspace CLI by name (`koop-cli`), `$MCP_BRIDGE_<NAME>` when set; `None` when not built.
pub(crate) fn workspace_cli(name: &str) -> Option<PathBuf> {
    let variable = format!("MCP_BRIDGE_{}", name.to_uppercase().replace('-', "_"));
    workspace_binary(name, &variable)
}

/// `$variable` when set, else `name` next to this test's target directory or in the workspace's
/// `target/debug`.
fn workspace_binary(name: &str, variable: &str) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(variable) {
        return Some(PathBuf::from(path));
    }
    let beside_tests = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.join(name)));
    let in_workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../target/debug")
        .join(name);
    beside_tests
        .into_iter()
        .chain([in_workspace])
        .find(|p| p.is_file())
}

/// A running bridge.
pub(crate) struct Bridge {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Messages read while waiting for another id.
    pending: VecDeque<Value>,
    next_id: i64,
    /// `_meta` merged into every request's params (the 2026-07-28 per-request context).
    pub(crate) meta: Option<Value>,
    /// The bridge's (and so its children's) `HOME`: a test never writes into the developer's.
    _home: tempfile::TempDir,
}

/// The per-request `_meta` of MCP 2026-07-28, with these client capabilities.
pub(crate) fn modern_meta(capabilities: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    })
}

impl Bridge {
    /// Start `overheid-mcp args…` with exactly `env` (plus PATH and HOME), and open a
    /// 2025-11-25 session (`initialize`).
    pub(crate) fn start(args: &[&str], env: &[(&str, &str)]) -> Bridge {
        let mut bridge = Self::start_raw(args, env);
        bridge.initialize();
        bridge
    }

    /// Start without any first message.
    pub(crate) fn start_raw(args: &[&str], env: &[(&str, &str)]) -> Bridge {
        let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
        let env: Vec<(&OsStr, &OsStr)> = env
            .iter()
            .map(|(k, v)| (OsStr::new(k), OsStr::new(v)))
            .collect();
        Self::start_os_raw(&args, &env)
    }

    /// Open a 2025-11-25 session.
    pub(crate) fn initialize(&mut self) -> Value {
        let result = self.request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}),
        );
        self.notify("notifications/initialized", json!({}));
        result
    }

    /// From now on, send every request the 2026-07-28 `_meta` with these capabilities.
    pub(crate) fn modern(&mut self, capabilities: Value) {
        self.meta = Some(modern_meta(capabilities));
    }

    /// [`Bridge::start`] with arguments and variables that need not be UTF-8.
    pub(crate) fn start_os(args: &[&OsStr], env: &[(&OsStr, &OsStr)]) -> Bridge {
        let mut bridge = Self::start_os_raw(args, env);
        bridge.initialize();
        bridge
    }

    /// [`Bridge::start_raw`] with arguments and variables that need not be UTF-8.
    pub(crate) fn start_os_raw(args: &[&OsStr], env: &[(&OsStr, &OsStr)]) -> Bridge {
        let home = tempfile::tempdir().expect("temporary HOME");
        let mut command = Command::new(env!("CARGO_BIN_EXE_overheid-mcp"));
        command
            .args(args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", home.path())
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        let mut child = command.spawn().expect("overheid-mcp starts");
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Bridge {
            stdin: child.stdin.take(),
            child,
            lines,
            pending: VecDeque::new(),
            next_id: 1,
            meta: None,
            _home: home,
        }
    }

    /// The bridge's process id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Write one raw line.
    pub(crate) fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Write one raw line of bytes (which need not be UTF-8).
    pub(crate) fn send_bytes(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Send a request; returns its id.
    pub(crate) fn send(&mut self, method: &str, mut params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        if let (Some(meta), Some(object)) = (&self.meta, params.as_object_mut()) {
            let merged = object.entry("_meta").or_insert_with(|| json!({}));
            for (key, value) in meta.as_object().unwrap() {
                merged[key] = value.clone();
            }
        }
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_line(&message.to_string());
        id
    }

    /// Send a notification.
    pub(crate) fn notify(&mut self, method: &str, params: Value) {
        let message = json!({"jsonrpc": "2.0", "method": method, "params": params});
        self.send_line(&message.to_string());
    }

    /// The next message, whatever it is.
    pub(crate) fn next_message(&mut self) -> Value {
        if let Some(message) = self.pending.pop_front() {
            return message;
        }
        let line = self.next_line();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    /// The next line as the bridge wrote it (nothing may be pending).
    pub(crate) fn next_line(&mut self) -> String {
        assert!(
            self.pending.is_empty(),
            "messages pending: {:?}",
            self.pending
        );
        self.lines
            .recv_timeout(ANSWER_TIMEOUT)
            .expect("an answer from overheid-mcp in time")
    }

    /// The response to request `id` (other messages are kept for later).
    pub(crate) fn response(&mut self, id: i64) -> Value {
        if let Some(at) = self.pending.iter().position(|m| m["id"] == id) {
            return self.pending.remove(at).unwrap();
        }
        loop {
            let line = self
                .lines
                .recv_timeout(ANSWER_TIMEOUT)
                .expect("an answer in time");
            let message: Value = serde_json::from_str(&line).unwrap();
            assert_eq!(message["jsonrpc"], "2.0");
            if message["id"] == id {
                return message;
            }
            self.pending.push_back(message);
        }
    }

    /// The messages read while waiting for a response (notifications, mostly), oldest first.
    pub(crate) fn take_pending(&mut self) -> Vec<Value> {
        self.pending.drain(..).collect()
    }

    /// Send a request and return its `result` (panics on a JSON-RPC error).
    pub(crate) fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params);
        let response = self.response(id);
        assert!(response.get("error").is_none(), "{method}: {response}");
        response["result"].clone()
    }

    /// Send a request and return its `error` (panics on a result).
    pub(crate) fn request_error(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params);
        let response = self.response(id);
        assert!(response.get("result").is_none(), "{method}: {response}");
        response["error"].clone()
    }

    /// `tools/call` and its result.
    pub(crate) fn call(&mut self, name: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": name, "arguments": arguments}))
    }

    /// The entry of tool `name` in `tools/list` (panics when it is not listed).
    pub(crate) fn listed_tool(&mut self, name: &str) -> Value {
        let tools = self.request("tools/list", json!({}))["tools"].clone();
        tools
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("{name} not listed: {tools}"))
    }

    /// Whether a line arrives within `wait`.
    pub(crate) fn silent_for(&mut self, wait: Duration) -> bool {
        self.pending.is_empty() && self.lines.recv_timeout(wait).is_err()
    }

    /// Close stdin and wait for the bridge to exit.
    pub(crate) fn finish(mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        self.child.wait().unwrap()
    }
}

impl Drop for Bridge {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether process `pid` is gone (or a zombie waiting for its parent).
pub(crate) fn is_gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

/// Wait up to `wait` for `pid` to be gone.
pub(crate) fn wait_gone(pid: u32, wait: Duration) -> bool {
    let deadline = std::time::Instant::now() + wait;
    while std::time::Instant::now() < deadline {
        if is_gone(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    is_gone(pid)
}

/// A bridge serving only the fixture CLI, spoken to in 2026-07-28 (no handshake) by a client with
/// these capabilities.
pub(crate) fn demo_bridge_modern(
    extra_args: &[&str],
    extra_env: &[(&str, &str)],
    capabilities: Value,
) -> (Bridge, tempfile::TempDir) {
    let (mut bridge, dir) = demo_start(extra_args, extra_env);
    bridge.modern(capabilities);
    (bridge, dir)
}

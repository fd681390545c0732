//! Test harness for `overheid-mcp --http`: a bridge on a free loopback port, a small MCP-over-HTTP
//! client (reqwest) that sets the headers from the body, and Ed25519 keys and JWTs the test
//! makes itself.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

#[allow(
    unused_imports,
    reason = "not every test binary that includes the harness signs tokens"
)]
pub(crate) use test_support::jwt::Signer;

/// A running HTTP bridge.
pub(crate) struct HttpBridge {
    pub child: Child,
    /// `http://127.0.0.1:PORT`
    pub base: String,
    client: reqwest::blocking::Client,
    /// The bridge's (and so its children's) `HOME`: a test never writes into the developer's.
    _home: tempfile::TempDir,
}

impl HttpBridge {
    /// Start `overheid-mcp --http 127.0.0.1:0 args…` with exactly `env` (plus PATH and a
    /// temporary HOME) and wait for the line that names the port.
    pub(crate) fn start(args: &[&str], env: &[(&str, &str)]) -> HttpBridge {
        let home = tempfile::tempdir().expect("temporary HOME");
        let mut child = Command::new(env!("CARGO_BIN_EXE_overheid-mcp"))
            .arg("--http")
            .arg("127.0.0.1:0")
            .args(args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", home.path())
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("overheid-mcp starts");
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut base = None;
        let mut line = String::new();
        while stderr.read_line(&mut line).unwrap_or(0) > 0 {
            if let Some(rest) = line.trim().strip_prefix("overheid-mcp: luistert op ") {
                base = Some(rest.trim_end_matches("/mcp").to_string());
                break;
            }
            line.clear();
        }
        // Keep draining stderr so the bridge never blocks on it.
        std::thread::spawn(move || for _ in stderr.lines() {});
        let base = base.unwrap_or_else(|| panic!("the bridge did not start: {line}"));
        HttpBridge {
            child,
            base,
            client: reqwest::blocking::Client::builder()
                .timeout(Duration::from_secs(30))
                .build()
                .unwrap(),
            _home: home,
        }
    }

    /// POST one JSON-RPC message to `/mcp` with the headers its body implies, plus `extra`.
    pub(crate) fn post(&self, token: Option<&str>, body: &Value, extra: &[(&str, &str)]) -> Reply {
        post(&self.client, &self.base, token, body, extra)
    }

    /// A client to use from other threads.
    pub(crate) fn client(&self) -> reqwest::blocking::Client {
        self.client.clone()
    }

    pub(crate) fn get(&self, path: &str) -> reqwest::blocking::Response {
        self.client
            .get(format!("{}{path}", self.base))
            .send()
            .unwrap()
    }
}

impl Drop for HttpBridge {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP answer.
#[derive(Debug)]
pub(crate) struct Reply {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
}

/// The 2026-07-28 request `_meta`, with these client capabilities.
pub(crate) fn meta(capabilities: Value) -> Value {
    super::modern_meta(capabilities)
}

/// A JSON-RPC request in 2026-07-28 form.
pub(crate) fn request(id: i64, method: &str, mut params: Value, capabilities: Value) -> Value {
    let merged = params
        .as_object_mut()
        .unwrap()
        .entry("_meta")
        .or_insert_with(|| json!({}));
    for (key, value) in meta(capabilities).as_object().unwrap() {
        merged[key] = value.clone();
    }
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// POST with `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` taken from the body.
pub(crate) fn post(
    client: &reqwest::blocking::Client,
    base: &str,
    token: Option<&str>,
    body: &Value,
    extra: &[(&str, &str)],
) -> Reply {
    let mut builder = client
        .post(format!("{base}/mcp"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    let version = body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"]
        .as_str()
        .unwrap_or("2025-11-25");
    builder = builder.header("mcp-protocol-version", version);
    if let Some(method) = body["method"].as_str() {
        builder = builder.header("mcp-method", method);
        let name = match method {
            "tools/call" | "prompts/get" => body["params"]["name"].as_str(),
            "resources/read" => body["params"]["uri"].as_str(),
            _ => None,
        };
        if let Some(name) = name {
            builder = builder.header("mcp-name", name);
        }
    }
    if let Some(token) = token {
        builder = builder.bearer_auth(token);
    }
    let mut request = builder.body(body.to_string()).build().unwrap();
    for (name, value) in extra {
        let name = reqwest::header::HeaderName::from_bytes(name.as_bytes()).unwrap();
        request
            .headers_mut()
            .insert(name, reqwest::header::HeaderValue::from_str(value).unwrap());
    }
    let response = client.execute(request).unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let text = response.text().unwrap_or_default();
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
    Reply {
        status,
        headers,
        body,
    }
}

/// Seconds since the epoch.
pub(crate) fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

//! One scripted session: one task through one transport variant, in a process of its own so
//! that the peak RSS of what it ran (`RUSAGE_CHILDREN`) is that session's alone.
//!
//! It prints one JSON object: the calls made, the texts the model would read (tool
//! definitions once, then every result), the data each answer is extracted from, the wall
//! time, and the peak RSS. Judging the answers and counting tokens is the parent's work.
//!
//! A filing goes through a proposal in every variant: the agent records it, a person approves it
//! at a terminal (`rvo-cli voorstel goedkeuren`, the digest typed under `script`; not timed, as in
//! `bench/proposals`), and the agent applies it by id.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use test_support::jwt::Signer;
use test_support::lines::LineChild;

use crate::tasks::{Call, Task};

/// Where the binaries are, the fakes' variables, and a fresh directory for this session.
pub(crate) struct Setup {
    pub bin_dir: PathBuf,
    pub work: PathBuf,
    pub env: Vec<(String, String)>,
}

impl Setup {
    fn command(&self, program: &str) -> Command {
        self.command_at(&self.bin_dir.join(program))
    }

    /// A program outside the family (`script`), in the session's environment.
    fn command_at(&self, program: &Path) -> Command {
        let mut command = Command::new(program);
        command
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &self.work)
            .env("RVO_DATA_DIR", self.work.join("rvo"))
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null());
        command
    }
}

/// What a session reports.
#[derive(Default)]
struct Record {
    calls: usize,
    definitions: Vec<String>,
    results: Vec<String>,
    /// Per MCP result: the bytes of its second copy of the data and of its provenance.
    duplicate_bytes: usize,
    provenance_bytes: usize,
    /// Per MCP result: the text content alone, and the result without `_meta`.
    text_only: Vec<String>,
    without_provenance: Vec<String>,
    /// Per MCP result: its `structuredContent` (the data as a client that reads it gets it).
    structured: Vec<String>,
    /// Per MCP success with data: the tool, its text block and the whole result as sent.
    text_blocks: Vec<Value>,
    /// Per question: the data it is answered from, and the jq to apply (null: it is the answer).
    answers: Vec<Value>,
    /// The proposal the last call recorded (id, plan digest), until it is applied.
    proposal: Option<(String, String)>,
    /// Time spent on the person's approval, left out of the wall time.
    untimed: Duration,
}

/// Runs one session and returns its report.
pub(crate) fn run(setup: &Setup, task: &Task, variant: &str) -> Value {
    let started = Instant::now();
    let mut record = Record::default();
    match variant {
        "mcp-stdio" => mcp(setup, task, Mcp::Stdio, false, &mut record),
        "mcp-stdio-fields" => mcp(setup, task, Mcp::Stdio, true, &mut record),
        "mcp-stdio-lean" => mcp(setup, task, Mcp::StdioLean, true, &mut record),
        "mcp-stdio-once" => mcp(setup, task, Mcp::StdioOnce, true, &mut record),
        "mcp-http" => mcp(setup, task, Mcp::Http, true, &mut record),
        _ => cli(setup, task, variant, &mut record),
    }
    let wall = started.elapsed().saturating_sub(record.untimed);
    let rss = nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN)
        .map(|usage| usage.max_rss())
        .unwrap_or(0);
    json!({
        "calls": record.calls,
        "definitions": record.definitions,
        "results": record.results,
        "duplicate_bytes": record.duplicate_bytes,
        "provenance_bytes": record.provenance_bytes,
        "text_only": record.text_only,
        "without_provenance": record.without_provenance,
        "structured": record.structured,
        "text_blocks": record.text_blocks,
        "answers": record.answers,
        "wall_ms": wall.as_secs_f64() * 1000.0,
        "max_rss_kb": rss,
    })
}

struct Output {
    code: i32,
    stdout: String,
    stderr: String,
}

fn execute(mut command: Command) -> Output {
    let output = command.output().expect("a program of the family runs");
    Output {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// What the model reads of a command: stdout, and stderr when there is any.
fn read_by_model(output: &Output) -> String {
    if output.stderr.is_empty() {
        output.stdout.clone()
    } else {
        format!("{}{}", output.stdout, output.stderr)
    }
}

fn programs(task: &Task) -> Vec<&'static str> {
    let mut programs: Vec<&str> = Vec::new();
    for call in task.calls {
        if !programs.contains(&call.program) {
            programs.push(call.program);
        }
    }
    programs
}

/// The id and plan digest of a proposal in a call's data (`None`: the data is no proposal).
fn proposal_of(data: &Value) -> Option<(String, String)> {
    let id = data["voorstel_id"].as_str().or(data["id"].as_str())?;
    let digest = data["plan_digest"].as_str()?;
    id.starts_with("vs_")
        .then(|| (id.to_string(), digest.to_string()))
}

impl Record {
    /// Remember the proposal a call's data names.
    fn note(&mut self, data: &Value) {
        if let Some(proposal) = proposal_of(data) {
            self.proposal = Some(proposal);
        }
    }

    /// The id of the proposal a call applies, after a person approved it at a terminal: the
    /// plan shown, the first 8 characters of the digest typed (under `script`, a pseudo-terminal).
    /// Not timed: the person's minutes are no cost of the transport.
    fn approved(&mut self, setup: &Setup) -> String {
        let started = Instant::now();
        let (id, digest) = self
            .proposal
            .take()
            .expect("a proposal was recorded before it is applied");
        let program = setup.bin_dir.join("rvo-cli");
        let mut command = setup.command_at(Path::new("script"));
        command
            .env("SHELL", "/bin/sh")
            .env("TERM", "xterm")
            .arg("-qec")
            .arg(format!(
                "{} voorstel goedkeuren {id} --timeout 30",
                program.display()
            ))
            .arg("/dev/null")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let mut child = command.spawn().expect("script (util-linux) runs");
        let mut stdin = child.stdin.take().expect("stdin");
        writeln!(stdin, "{}", &digest[..8]).expect("the digest is typed");
        drop(stdin);
        let status = child.wait().expect("the approval ends");
        assert!(status.success(), "the person's approval of {id} failed");
        self.untimed += started.elapsed();
        id
    }
}

fn argv(call: &Call, setup: &Setup, record: &mut Record) -> Vec<String> {
    let mut words: Vec<String> = call.argv.iter().map(|w| w.to_string()).collect();
    if call.applies {
        words.push(record.approved(setup));
    }
    words
}

/// The CLI variants: `cli` (full output), `cli-fields`, `cli-jq` (the tool's own `--jq`) and
/// `cli-state` (each answer written to a file once, follow-ups read from it with jq).
fn cli(setup: &Setup, task: &Task, variant: &str, record: &mut Record) {
    for program in programs(task) {
        let mut command = setup.command(program);
        command.args(["--help", "--json"]);
        record.definitions.push(execute(command).stdout);
    }
    match variant {
        "cli" | "cli-state" => {
            let state = variant == "cli-state";
            let mut data: Vec<String> = Vec::new();
            for (index, call) in task.calls.iter().enumerate() {
                let mut command = setup.command(call.program);
                command.args(argv(call, setup, record));
                let output = execute(command);
                record.calls += 1;
                if state {
                    let file = setup.work.join(format!("antwoord-{index}.json"));
                    std::fs::write(&file, &output.stdout).expect("write the answer file");
                    // Written to a file: the model reads only what the shell shows.
                    record.results.push(output.stderr.clone());
                } else {
                    record.results.push(read_by_model(&output));
                }
                record.note(&serde_json::from_str(&output.stdout).unwrap_or_default());
                data.push(output.stdout);
            }
            for question in task.questions {
                if state {
                    let file = setup.work.join(format!("antwoord-{}.json", question.call));
                    let output = jq(question.jq, &file);
                    record.calls += 1;
                    record.results.push(read_by_model(&output));
                    record
                        .answers
                        .push(json!({"data": output.stdout, "jq": null}));
                } else {
                    record
                        .answers
                        .push(json!({"data": data[question.call], "jq": question.jq}));
                }
            }
        }
        "cli-fields" | "cli-jq" => {
            let jq_option = variant == "cli-jq";
            for question in task.questions {
                let call = &task.calls[question.call];
                if call.applies && record.proposal.is_none() {
                    // The answer left out the proposal's id: ask again for only its id and digest
                    // (the same input gives back the same open proposal).
                    let mut again = setup.command(call.program);
                    again.args(task.calls[question.call - 1].argv);
                    again.args(["--fields", "id,plan_digest"]);
                    let output = execute(again);
                    record.calls += 1;
                    record.results.push(read_by_model(&output));
                    record.note(&serde_json::from_str(&output.stdout).unwrap_or_default());
                }
                let mut command = setup.command(call.program);
                command.args(argv(call, setup, record));
                let mut extraction = question.jq;
                if jq_option {
                    command.args(["--jq", question.jq]);
                } else if let Some(fields) = question.fields {
                    command.args(["--fields", fields]);
                    extraction = question.jq_fields.unwrap_or(question.jq);
                }
                let output = execute(command);
                record.calls += 1;
                record.results.push(read_by_model(&output));
                record.note(&serde_json::from_str(&output.stdout).unwrap_or_default());
                let answered_by_jq = jq_option && output.code == 0;
                record.answers.push(json!({
                    "data": output.stdout,
                    "jq": if answered_by_jq { Value::Null } else { extraction.into() },
                }));
            }
        }
        other => panic!("unknown variant {other}"),
    }
}

fn jq(expression: &str, file: &Path) -> Output {
    let mut command = Command::new("jq");
    command
        .arg("-c")
        .arg(expression)
        .arg(file)
        .stdin(Stdio::null());
    execute(command)
}

fn result_of(line: &str) -> Value {
    serde_json::from_str::<Value>(line).unwrap_or_default()["result"].clone()
}

/// How a session reaches the bridge.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mcp {
    /// stdio, a 2025-11-25 session (`initialize`): results carry the data twice (text and
    /// `structuredContent`) and the full provenance in `_meta`.
    Stdio,
    /// stdio, 2026-07-28 requests (per-request `_meta`): the data once, and the compact
    /// provenance asked for per call (`nl.overheid/provenance`).
    StdioLean,
    /// stdio, 2026-07-28 as a client that reads `structuredContent` asks (issue 40 item 4): the
    /// data once (`nl.overheid/text: short`, the text block one fixed sentence) and no provenance
    /// (`nl.overheid/provenance: none`, as the CLI prints none without `--provenance`).
    StdioOnce,
    /// Streamable HTTP (`--http 127.0.0.1:0`), 2026-07-28 as `StdioLean`. The company comes from a
    /// bearer token (an Ed25519 key made here, its JWKS given to the bridge), as in production:
    /// the listed tools have no `kvk_nummer`, so the calls leave out the session's own number, and a
    /// question about another company is refused by design.
    Http,
}

/// The company of the HTTP variant's bearer token: the fakes' first company.
const SESSION_COMPANY: &str = "68750110";
const TOKEN_ISSUER: &str = "https://login.bench.invalid";
const TOKEN_AUDIENCE: &str = "https://mcp.bench.invalid/mcp";

/// The per-request `_meta` of a 2026-07-28 client.
fn modern_meta(capabilities: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    })
}

/// An open connection to the bridge: one JSON-RPC request at a time, its `result` back.
enum Connection {
    Stdio(LineChild, Option<Value>),
    Http {
        child: std::process::Child,
        client: reqwest::blocking::Client,
        url: String,
        next_id: i64,
        token: String,
    },
}

impl Connection {
    fn open(setup: &Setup, kind: Mcp) -> Connection {
        let answer = Duration::from_secs(60);
        match kind {
            Mcp::Stdio | Mcp::StdioLean | Mcp::StdioOnce => {
                let mut command = setup.command("overheid-mcp");
                command.stderr(Stdio::null());
                let mut bridge = LineChild::start(command);
                if kind == Mcp::Stdio {
                    bridge.request(
                        "initialize",
                        json!({
                            "protocolVersion": "2025-11-25",
                            "capabilities": {},
                            "clientInfo": {"name": "bench-transports", "version": "1"}
                        }),
                        answer,
                    );
                    bridge.write(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
                    Connection::Stdio(bridge, None)
                } else {
                    Connection::Stdio(bridge, Some(modern_meta(json!({}))))
                }
            }
            Mcp::Http => {
                let signer = Signer::new("bench");
                let jwks = setup.work.join("jwks.json");
                std::fs::write(&jwks, json!({"keys": [signer.jwk()]}).to_string())
                    .expect("the JWKS is written");
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .expect("a clock after 1970")
                    .as_secs();
                let token = signer.token(&json!({
                    "iss": TOKEN_ISSUER, "aud": TOKEN_AUDIENCE, "exp": now + 3600,
                    "kvk_nummer": SESSION_COMPANY,
                    // Reading and filing (applying an approved proposal) are two scopes.
                    "scope": "overheid:lezen overheid:indienen",
                }));
                let mut command = setup.command("overheid-mcp");
                command
                    .args(["--http", "127.0.0.1:0", "--auth-jwks"])
                    .arg(&jwks)
                    .args([
                        "--auth-issuer",
                        TOKEN_ISSUER,
                        "--auth-audience",
                        TOKEN_AUDIENCE,
                    ])
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped());
                let mut child = command.spawn().expect("overheid-mcp --http starts");
                let stderr = child.stderr.take().expect("stderr");
                let mut lines = std::io::BufRead::lines(std::io::BufReader::new(stderr));
                let url = lines
                    .by_ref()
                    .map_while(Result::ok)
                    .find_map(|line| {
                        line.trim()
                            .strip_prefix("overheid-mcp: luistert op ")
                            .map(str::to_string)
                    })
                    .expect("the bridge names its address");
                std::thread::spawn(move || lines.for_each(drop));
                let client = reqwest::blocking::Client::builder()
                    .timeout(answer)
                    .build()
                    .expect("an HTTP client");
                Connection::Http {
                    child,
                    client,
                    url,
                    next_id: 1,
                    token,
                }
            }
        }
    }

    /// One request; `extra_meta` is merged into the params' `_meta`.
    fn request(&mut self, method: &str, mut params: Value, extra_meta: &Value) -> Value {
        match self {
            Connection::Stdio(bridge, meta) => {
                if let Some(meta) = meta {
                    params["_meta"] = merged(meta, extra_meta);
                }
                result_of(&bridge.request(method, params, Duration::from_secs(60)))
            }
            Connection::Http {
                client,
                url,
                next_id,
                token,
                ..
            } => {
                // The session's company is the token's, never an argument (spec §14.1).
                if let Some(arguments) = params["arguments"].as_object_mut()
                    && arguments.get("kvk_nummer").and_then(Value::as_str) == Some(SESSION_COMPANY)
                {
                    arguments.remove("kvk_nummer");
                }
                params["_meta"] = merged(&modern_meta(json!({})), extra_meta);
                let body =
                    json!({"jsonrpc": "2.0", "id": *next_id, "method": method, "params": params});
                *next_id += 1;
                let mut builder = client
                    .post(url.as_str())
                    .header("content-type", "application/json")
                    .header("accept", "application/json, text/event-stream")
                    .header("authorization", format!("Bearer {token}"))
                    .header("mcp-protocol-version", "2026-07-28")
                    .header("mcp-method", method);
                if let Some(name) = body["params"]["name"].as_str() {
                    builder = builder.header("mcp-name", name);
                }
                let text = builder
                    .body(body.to_string())
                    .send()
                    .and_then(|r| r.text())
                    .unwrap_or_default();
                result_of(&text)
            }
        }
    }

    fn close(self) {
        match self {
            Connection::Stdio(bridge, _) => bridge.close(),
            Connection::Http { mut child, .. } => {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }
}

fn merged(base: &Value, extra: &Value) -> Value {
    let mut meta = base.clone();
    for (key, value) in extra.as_object().into_iter().flatten() {
        meta[key] = value.clone();
    }
    meta
}

/// One MCP session: `tools/list` once, then one `tools/call` per call (full) or per question
/// (with `fields`). A filing is a proposal (`rvo__rapportage_voorstel`), approved by a person at a
/// terminal (not timed), then applied by id (`rvo__rapportage_indienen` with `voorstel_id`).
fn mcp(setup: &Setup, task: &Task, kind: Mcp, with_fields: bool, record: &mut Record) {
    let mut connection = Connection::open(setup, kind);
    let call_meta = match kind {
        Mcp::Stdio => json!({}),
        Mcp::StdioLean | Mcp::Http => json!({"nl.overheid/provenance": "compact"}),
        Mcp::StdioOnce => json!({"nl.overheid/text": "short", "nl.overheid/provenance": "none"}),
    };
    let list = connection.request("tools/list", json!({}), &json!({}));
    record.definitions.push(list.to_string());
    let mut call_tool = |call: &Call, fields: Option<&str>, record: &mut Record| -> Value {
        let mut arguments: Value = serde_json::from_str(call.arguments).expect("arguments");
        if call.applies {
            arguments["voorstel_id"] = record.approved(setup).into();
        }
        if let Some(fields) = fields {
            arguments["fields"] = if fields.starts_with('$') {
                json!([fields])
            } else {
                fields.split(',').collect::<Vec<_>>().into()
            };
        }
        let params = json!({"name": call.tool, "arguments": arguments});
        let mut result = connection.request("tools/call", params, &call_meta);
        record.calls += 1;
        record.results.push(result.to_string());
        let structured = result["structuredContent"].clone();
        let text = result["content"][0]["text"].as_str().unwrap_or_default();
        if serde_json::from_str::<Value>(text).ok().as_ref() == Some(&structured) {
            record.duplicate_bytes += text.len();
            record
                .text_blocks
                .push(json!({"tool": call.tool, "text": text, "result": result.to_string()}));
        }
        let provenance = &result["_meta"]["nl.overheid/provenance"];
        if !provenance.is_null() {
            record.provenance_bytes += provenance.to_string().len();
        }
        record.text_only.push(text.to_string());
        if !structured.is_null() {
            record.structured.push(structured.to_string());
        }
        if let Some(map) = result.as_object_mut() {
            map.remove("_meta");
        }
        record.without_provenance.push(result.to_string());
        record.note(&structured);
        structured
    };
    if with_fields {
        for question in task.questions {
            let data = call_tool(&task.calls[question.call], question.fields, record);
            let extraction = match question.fields {
                Some(_) => question.jq_fields.unwrap_or(question.jq),
                None => question.jq,
            };
            record
                .answers
                .push(json!({"data": data.to_string(), "jq": extraction}));
        }
    } else {
        let data: Vec<Value> = task
            .calls
            .iter()
            .map(|call| call_tool(call, None, record))
            .collect();
        for question in task.questions {
            record
                .answers
                .push(json!({"data": data[question.call].to_string(), "jq": question.jq}));
        }
    }
    connection.close();
}

//! `overheid-mcp --http` under clients that misbehave or go away (profile WIRE-2, WIRE-5 to
//! WIRE-8): parse errors are 400 with a JSON-RPC error, a body is read before a call slot is
//! taken and only for so long, one principal cannot take every slot, `/health` keeps the Host
//! rules, SIGTERM stops the server with stalled clients, and a cancelled or abandoned call's
//! process group is killed.

mod harness;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use harness::http::{HttpBridge, Signer, now, post, request};
use harness::{demo_cli, wait_gone};

const ISSUER: &str = "https://login.example.test";
const AUDIENCE: &str = "https://mcp.example.test/mcp";

/// A bridge over the fixture CLI that accepts tokens signed by `signer`.
fn authed(signer: &Signer, dir: &tempfile::TempDir, extra: &[&str]) -> HttpBridge {
    let jwks = dir.path().join("jwks.json");
    std::fs::write(&jwks, json!({"keys": [signer.jwk()]}).to_string()).unwrap();
    let cli = demo_cli();
    let mut args = vec![
        "--tool",
        cli.to_str().unwrap(),
        "--auth-jwks",
        jwks.to_str().unwrap(),
        "--auth-issuer",
        ISSUER,
        "--auth-audience",
        AUDIENCE,
    ];
    args.extend_from_slice(extra);
    let store = dir.path().join("store.json");
    HttpBridge::start(&args, &[("DEMO_STORE", store.to_str().unwrap())])
}

/// A bridge without authentication (loopback, development mode).
fn open(dir: &tempfile::TempDir, extra: &[&str]) -> HttpBridge {
    let cli = demo_cli();
    let mut args = vec!["--tool", cli.to_str().unwrap(), "--insecure-no-auth"];
    args.extend_from_slice(extra);
    let store = dir.path().join("store.json");
    HttpBridge::start(&args, &[("DEMO_STORE", store.to_str().unwrap())])
}

fn token(signer: &Signer, kvk: &str) -> String {
    signer.token(
        &json!({"iss": ISSUER, "aud": AUDIENCE, "sub": format!("persoon-{kvk}"),
        "exp": now() + 600, "kvk_nummer": kvk}),
    )
}

fn call(id: i64, name: &str, arguments: Value) -> Value {
    request(
        id,
        "tools/call",
        json!({"name": name, "arguments": arguments}),
        json!({}),
    )
}

/// A 2025-11-25 request: no `_meta`, so rmcp serves it statelessly in the older shapes.
fn legacy_call(id: i64, name: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": name, "arguments": arguments}})
}

/// POST raw bytes to `/mcp` as a 2026-07-28 `ping` with this content type.
fn post_bytes(bridge: &HttpBridge, content_type: &str, body: Vec<u8>) -> (u16, Value) {
    let response = bridge
        .client()
        .post(format!("{}/mcp", bridge.base))
        .header("content-type", content_type)
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "ping")
        .body(body)
        .send()
        .unwrap();
    let status = response.status().as_u16();
    let text = response.text().unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// A connection that sends a request head and part of its body, then nothing.
fn stalled(base: &str, token: Option<&str>) -> TcpStream {
    let address = base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).unwrap();
    let authorization = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: ping\r\n{authorization}Content-Length: 4000\r\n\r\n{{\"jsonrpc\":"
    )
    .unwrap();
    stream.flush().unwrap();
    stream
}

fn health_of(bridge: &HttpBridge) -> Value {
    serde_json::from_str(&bridge.get("/health").text().unwrap()).unwrap()
}

fn sigterm(bridge: &HttpBridge) {
    rustix::process::kill_process(
        rustix::process::Pid::from_raw(bridge.child.id() as i32).unwrap(),
        rustix::process::Signal::TERM,
    )
    .unwrap();
}

/// Wait until the fixture's `wacht` wrote its two process ids; return them.
fn started(pid_file: &std::path::Path) -> Vec<u32> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(text) = std::fs::read_to_string(pid_file) {
            let pids: Vec<u32> = text
                .split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect();
            if pids.len() == 2 {
                return pids;
            }
        }
        assert!(Instant::now() < deadline, "the call never started");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn wire_2_a_body_that_is_no_json_rpc_text_is_400_with_a_parse_error() {
    let dir = tempfile::tempdir().unwrap();
    let bridge = open(&dir, &[]);
    let ping = request(1, "ping", json!({}), json!({})).to_string();
    let mut not_utf8 = ping.clone().into_bytes();
    not_utf8.insert(ping.find("ping").unwrap() + 1, 0xff);
    for (content_type, body) in [
        ("text/plain", ping.clone().into_bytes()),
        (
            "application/json",
            b"{\"jsonrpc\": \"2.0\", \"id\": 1,".to_vec(),
        ),
        ("application/json", not_utf8),
        ("application/json", b"\xff\xfe{}".to_vec()),
    ] {
        let (status, answer) = post_bytes(&bridge, content_type, body);
        assert_eq!(status, 400, "{content_type}: {answer}");
        assert_eq!(answer["error"]["code"], -32700, "{answer}");
        // Present and null, as over stdio (tests/hostile.rs says why).
        assert_eq!(answer.get("id"), Some(&Value::Null), "{answer}");
        assert_eq!(answer["jsonrpc"], "2.0");
    }
    // A lone surrogate is read as U+FFFD; the call runs.
    let body = call(2, "demo__json_toon", json!({"invoer": {}, "kop": "KOP"}))
        .to_string()
        .replace("KOP", "snee\\ud83d");
    let response = bridge
        .client()
        .post(format!("{}/mcp", bridge.base))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "demo__json_toon")
        .body(body)
        .send()
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let answer: Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    assert_eq!(
        answer["result"]["structuredContent"]["kop"], "snee\u{fffd}",
        "{answer}"
    );
}

#[test]
fn wire_6_and_8_stalled_bodies_hold_no_slot_and_sigterm_still_stops_in_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let signer = Signer::new("sleutel-1");
    let mut bridge = authed(&signer, &dir, &["--max-calls", "4"]);
    let token = token(&signer, "68750110");
    // Twenty authenticated connections that never finish their body (more than every slot).
    let stalled: Vec<TcpStream> = (0..20)
        .map(|_| stalled(&bridge.base, Some(&token)))
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let health = health_of(&bridge);
    assert_eq!(health["calls_available"], 4, "{health}");
    // Everyone else is served as usual.
    let answer = bridge.post(
        Some(&token),
        &call(3, "demo__slaap", json!({"seconden": 0})),
        &[],
    );
    assert_eq!(answer.status, 200, "{answer:?}");
    assert_eq!(answer.body["result"]["isError"], false, "{answer:?}");
    // SIGTERM: the stalled bodies are not waited for.
    let stopping = Instant::now();
    sigterm(&bridge);
    let deadline = Instant::now() + Duration::from_secs(5);
    let status = loop {
        if let Some(status) = bridge.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "the bridge did not stop within 5 s of SIGTERM with 20 stalled clients"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
    eprintln!("stopped {:?} after SIGTERM", stopping.elapsed());
    drop(stalled);
}

#[test]
fn wire_6_a_body_that_does_not_arrive_in_time_is_408_and_ran_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let bridge = open(&dir, &[]);
    let started = Instant::now();
    let mut stream = stalled(&bridge.base, None);
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let elapsed = started.elapsed();
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"code\":-32600"), "{answer}");
    assert!(
        elapsed >= Duration::from_secs(9) && elapsed < Duration::from_secs(15),
        "{elapsed:?}"
    );
}

#[test]
fn wire_7_one_principal_gets_429_with_retry_after_while_another_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let signer = Signer::new("sleutel-1");
    // Eight slots: a quarter, two, for each principal.
    let bridge = authed(&signer, &dir, &["--max-calls", "8"]);
    let health = health_of(&bridge);
    assert_eq!(health["max_calls_per_principal"], 2, "{health}");
    let a = token(&signer, "68750110");
    let b = token(&signer, "69599084");
    let slow: Vec<_> = (0..2)
        .map(|i| {
            let (client, base, a) = (bridge.client(), bridge.base.clone(), a.clone());
            std::thread::spawn(move || {
                post(
                    &client,
                    &base,
                    Some(&a),
                    &call(10 + i, "demo__slaap", json!({"seconden": 3})),
                    &[],
                )
            })
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(20);
    while health_of(&bridge)["calls_available"] != 6 {
        assert!(Instant::now() < deadline, "the slow calls never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let refused = bridge.post(
        Some(&a),
        &call(12, "demo__slaap", json!({"seconden": 0})),
        &[],
    );
    assert_eq!(refused.status, 429, "{refused:?}");
    assert_eq!(refused.headers["retry-after"], "1");
    assert_eq!(refused.body["jsonrpc"], "2.0");
    let other = bridge.post(
        Some(&b),
        &call(12, "demo__slaap", json!({"seconden": 0})),
        &[],
    );
    assert_eq!(other.status, 200, "{other:?}");
    for slow in slow {
        assert_eq!(slow.join().unwrap().status, 200);
    }
    // Its calls done, the principal is served again.
    let again = bridge.post(
        Some(&a),
        &call(13, "demo__slaap", json!({"seconden": 0})),
        &[],
    );
    assert_eq!(again.status, 200, "{again:?}");
}

#[test]
fn wire_8_health_and_the_metadata_keep_the_host_and_origin_rules() {
    let dir = tempfile::tempdir().unwrap();
    let bridge = open(&dir, &[]);
    for path in ["/health", "/.well-known/oauth-protected-resource"] {
        for (name, value) in [("host", "evil.example"), ("origin", "https://evil.example")] {
            let response = bridge
                .client()
                .get(format!("{}{path}", bridge.base))
                .header(name, value)
                .send()
                .unwrap();
            assert_eq!(response.status().as_u16(), 403, "{path} {name}: {value}");
        }
        assert_eq!(bridge.get(path).status().as_u16(), 200, "{path}");
    }
}

#[test]
fn wire_5_a_2025_cancellation_and_a_closed_connection_kill_the_child() {
    let dir = tempfile::tempdir().unwrap();
    let signer = Signer::new("sleutel-1");
    let bridge = authed(&signer, &dir, &["--timeout", "60"]);
    let a = token(&signer, "68750110");

    // A 2025-11-25 client cancels with a notification of its own (another POST).
    let pid_file = dir.path().join("pids-1");
    let arguments = json!({"pid_bestand": pid_file.to_str().unwrap()});
    let waiting = {
        let (client, base, a) = (bridge.client(), bridge.base.clone(), a.clone());
        let body = legacy_call(7, "demo__wacht", arguments);
        std::thread::spawn(move || post(&client, &base, Some(&a), &body, &[]))
    };
    let pids = started(&pid_file);
    // Another principal's cancellation of the same id stops nothing.
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 7, "reason": "test"}});
    let b = token(&signer, "69599084");
    assert_eq!(bridge.post(Some(&b), &cancel, &[]).status, 202);
    std::thread::sleep(Duration::from_millis(500));
    assert!(pids.iter().all(|pid| !harness::is_gone(*pid)));
    let started_at = Instant::now();
    assert_eq!(bridge.post(Some(&a), &cancel, &[]).status, 202);
    for pid in &pids {
        assert!(
            wait_gone(*pid, Duration::from_secs(3)),
            "process {pid} survived the cancellation"
        );
    }
    eprintln!("cancelled: children gone after {:?}", started_at.elapsed());
    let answered = waiting.join().unwrap();
    assert_eq!(
        answered.status, 202,
        "a cancelled request is not answered: {answered:?}"
    );

    // A client of either era that closes its connection.
    for (era, body_of) in [
        ("2025-11-25", legacy_call as fn(i64, &str, Value) -> Value),
        ("2026-07-28", call),
    ] {
        let pid_file = dir.path().join(format!("pids-{era}"));
        let body = body_of(
            8,
            "demo__wacht",
            json!({"pid_bestand": pid_file.to_str().unwrap()}),
        )
        .to_string();
        let address = bridge.base.trim_start_matches("http://").to_string();
        let mut stream = TcpStream::connect(&address).unwrap();
        write!(
            stream,
            "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: {era}\r\n\
             Mcp-Method: tools/call\r\nMcp-Name: demo__wacht\r\nAuthorization: Bearer {a}\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let pids = started(&pid_file);
        let closed_at = Instant::now();
        drop(stream);
        for pid in &pids {
            assert!(
                wait_gone(*pid, Duration::from_secs(3)),
                "{era}: process {pid} survived the closed connection"
            );
        }
        eprintln!(
            "{era}: closed connection, children gone after {:?}",
            closed_at.elapsed()
        );
    }
}

#[test]
fn wire_4_a_2025_03_26_client_is_answered_in_its_own_revision() {
    let dir = tempfile::tempdir().unwrap();
    let bridge = open(&dir, &[]);
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-03-26", "capabilities": {},
        "clientInfo": {"name": "oud", "version": "1"}}});
    let agreed = bridge.post(None, &initialize, &[("mcp-protocol-version", "2025-03-26")]);
    assert_eq!(agreed.status, 200, "{agreed:?}");
    assert_eq!(agreed.body["result"]["protocolVersion"], "2025-03-26");
    // A 2025-03-26 client sends no MCP-Protocol-Version header (it came with 2025-06-18).
    let response = bridge
        .client()
        .post(format!("{}/mcp", bridge.base))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(legacy_call(2, "demo__slaap", json!({"seconden": 0})).to_string())
        .send()
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let answer: Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    let result = &answer["result"];
    assert_eq!(result["isError"], false, "{answer}");
    assert_eq!(result["content"][0]["type"], "text", "{answer}");
    assert!(result.get("resultType").is_none(), "{answer}");
}

//! The bridge under hostile or odd input: request ids that rmcp cannot hold, messages over
//! the bridge's size limit, arguments too large for the OS or holding a NUL, arguments that name local files, and
//! bytes that are not UTF-8 in the environment and on the command line.

mod harness;

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use harness::{Bridge, demo_bridge, demo_cli, wait_gone};

#[test]
fn request_ids_come_back_as_sent_and_others_are_refused() {
    let (mut bridge, _dir) = demo_bridge(&[]);
    // rmcp holds a request id as a string or an i64 (NOTES-rmcp.md): those come back as sent.
    for id in [
        "9223372036854775807",
        "-9223372036854775808",
        "0",
        r#""a\u0041""#,
        r#""7""#,
    ] {
        bridge.send_line(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#));
        let answer: Value = serde_json::from_str(&bridge.next_line()).unwrap();
        let sent: Value = serde_json::from_str(id).unwrap();
        assert_eq!(answer["id"], sent, "{answer}");
        assert_eq!(answer["result"], json!({}));
    }
    // Ids no i64 holds, another jsonrpc version, an id that is an object: -32600, and the
    // bridge serves on.
    for line in [
        r#"{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":1.50,"method":"ping"}"#,
        r#"{"jsonrpc":"1.0","id":5,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}"#,
    ] {
        bridge.send_line(line);
        let refused: Value = serde_json::from_str(&bridge.next_line()).unwrap();
        assert_eq!(refused["error"]["code"], -32600, "{line}: {refused}");
        assert!(refused.get("result").is_none());
        // The id when it is one (5), else present and null, never left out (see below).
        let id = refused.get("id").expect("an id member");
        assert!(id.is_null() || *id == 5, "{line}: {refused}");
    }
    let ping = bridge.send("ping", json!({}));
    assert_eq!(bridge.response(ping)["result"], json!({}));
}

#[test]
fn no_line_goes_unanswered_for_its_encoding_and_a_lone_surrogate_is_replaced() {
    let (mut bridge, _dir) = demo_bridge(&[]);
    // A lone surrogate (valid JSON text; JavaScript makes it when it cuts a string inside an
    // emoji) reaches the tool as U+FFFD; a pair stays the character it encodes.
    bridge.send_line(
        r#"{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"demo__json_toon","arguments":{"invoer":{"a":"\ud83d\ude00"},"kop":"snee\ud83d"}}}"#,
    );
    let answer = bridge.response(41);
    let result = &answer["result"];
    assert_eq!(result["isError"], false, "{answer}");
    assert_eq!(
        result["structuredContent"]["kop"], "snee\u{fffd}",
        "{answer}"
    );
    assert_eq!(
        result["structuredContent"]["inhoud"]["a"], "\u{1f600}",
        "{answer}"
    );
    // Bytes that are not UTF-8, and text that is not JSON: -32700 with id null, and the
    // bridge serves on.
    for line in [
        &b"{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"ping\",\"params\":{\"x\":\"\xff\xfe\"}}"[..],
        b"{\"jsonrpc\":\"2.0\",\"id\":43,\"method\":\"ping\"",
        b"\xc3\x28",
    ] {
        bridge.send_bytes(line);
        let refused: Value = serde_json::from_str(&bridge.next_line()).unwrap();
        assert_eq!(refused["error"]["code"], -32700, "{refused}");
        // `"id": null` present, never left out (JSON-RPC 2.0 §5: MUST be Null). The Python SDK
        // 2.x requires the member (`id: RequestId | None`, no default) and refuses an error
        // without it; the TypeScript SDK 1.x and 2.x take `id` as optional and not nullable, so
        // they drop either form as a message for no request of theirs.
        assert_eq!(refused.get("id"), Some(&Value::Null), "{refused}");
        assert!(refused.get("result").is_none());
    }
    let ping = bridge.send("ping", json!({}));
    assert_eq!(bridge.response(ping)["result"], json!({}));
}

#[test]
fn a_cancellation_kills_the_calls_process_group() {
    let (mut bridge, dir) = demo_bridge(&["--timeout", "60"]);
    let pid_file = dir.path().join("pids");
    let id = 4_611_686_018_427_387_904_i64;
    let call =
        json!({"name": "demo__wacht", "arguments": {"pid_bestand": pid_file.to_str().unwrap()}});
    bridge.send_line(&format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{call}}}"#
    ));
    let deadline = Instant::now() + Duration::from_secs(10);
    let pids = loop {
        let pids = std::fs::read_to_string(&pid_file).unwrap_or_default();
        if pids.split_whitespace().count() == 2 {
            break pids;
        }
        assert!(Instant::now() < deadline, "the call never started");
        std::thread::sleep(Duration::from_millis(20));
    };
    bridge.send_line(&format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{id}}}}}"#
    ));
    for pid in pids.split_whitespace() {
        let pid: u32 = pid.parse().unwrap();
        assert!(
            wait_gone(pid, Duration::from_secs(3)),
            "process {pid} survived cancellation"
        );
    }
    let ping = bridge.send("ping", json!({}));
    assert_eq!(bridge.next_message()["id"], ping, "no answer for the call");
}

/// Peak resident memory of process `pid`, in bytes.
fn peak_memory(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib * 1024
}

#[test]
fn a_message_over_the_limit_is_dropped_unheld_answered_and_the_bridge_serves_on() {
    let (mut bridge, dir) = demo_bridge(&[]);
    bridge.request("ping", json!({}));
    let before = peak_memory(bridge.pid());
    // 48 MiB in one line: dropped as it arrives, answered with -32600 and `id: null` (the id
    // went with the line), and nothing runs.
    let padding = "x".repeat(48 * 1024 * 1024);
    bridge.send_line(&format!(
        r#"{{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{{"name":"demo__notitie_maak","arguments":{{"id":"a","tekst":"{padding}","confirm":"{}"}}}}}}"#,
        "0".repeat(64)
    ));
    drop(padding);
    let answered = bridge.send("ping", json!({}));
    let refused = bridge.next_message();
    assert_eq!(refused["id"], Value::Null, "{refused}");
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    let next = bridge.next_message();
    assert_eq!(next["id"], answered, "then the ping is answered: {next}");
    let grown = peak_memory(bridge.pid()).saturating_sub(before);
    assert!(
        grown < 16 * 1024 * 1024,
        "the bridge held {grown} bytes more for a 48 MiB message"
    );
    assert!(!dir.path().join("store.json").exists());
}

#[test]
fn an_argument_too_large_for_the_os_is_invalid_input_named_by_its_property() {
    let (mut bridge, dir) = demo_bridge(&[]);
    // Too large for one word of a command line, small enough for one message (4 MiB).
    let huge = bridge.call(
        "demo__notitie_maak",
        json!({"id": "n1", "tekst": "x".repeat(3 * 1024 * 1024)}),
    );
    let error = &huge["_meta"]["nl.overheid/problem"];
    assert_eq!(huge["isError"], true);
    assert_eq!(error["exit_code"], 65, "{error}");
    assert_eq!(error["code"], "ONGELDIGE_INVOER");
    assert_eq!(error["errors"][0]["pointer"], "/tekst");
    let detail = error["errors"][0]["detail"].as_str().unwrap();
    assert!(detail.contains("65536"), "{detail}");

    // Many values that each fit, but not together.
    let labels = vec!["y".repeat(60 * 1024); 20];
    let many = bridge.call(
        "demo__notitie_maak",
        json!({"id": "n1", "tekst": "t", "label": labels}),
    );
    assert_eq!(
        many["_meta"]["nl.overheid/problem"]["exit_code"], 65,
        "{many}"
    );
    assert_eq!(
        many["_meta"]["nl.overheid/problem"]["title"],
        "Invoer te groot"
    );
    assert!(!dir.path().join("store.json").exists());

    // Just under the limit, the tool runs (a dry run: its plan, nothing done).
    let fits = bridge.call(
        "demo__notitie_maak",
        json!({"id": "n1", "tekst": "z".repeat(60 * 1024)}),
    );
    assert_eq!(fits["isError"], false);
    assert_eq!(fits["structuredContent"]["uitgevoerd"], false);
    assert!(fits["_meta"]["nl.overheid/plan"]["plan_digest"].is_string());
}

#[test]
fn a_nul_in_an_argument_is_invalid_input_naming_it_and_no_server_path() {
    let (mut bridge, dir) = demo_bridge(&[]);
    let program = demo_cli();
    for (arguments, at) in [
        (json!({"id": "n1", "tekst": "a\u{0}b"}), "/tekst"),
        (
            json!({"id": "n1", "tekst": "t", "label": ["ok", "x\u{0}"]}),
            "/label/1",
        ),
    ] {
        let refused = bridge.call("demo__notitie_maak", arguments);
        let error = &refused["_meta"]["nl.overheid/problem"];
        assert_eq!(refused["isError"], true, "{refused}");
        assert_eq!(error["exit_code"], 65, "{error}");
        assert_eq!(error["code"], "ONGELDIGE_INVOER");
        assert_eq!(error["errors"][0]["pointer"], at, "{error}");
        assert!(
            error["errors"][0]["detail"]
                .as_str()
                .unwrap()
                .contains("NUL")
        );
        let text = refused.to_string();
        assert!(!text.contains(program.to_str().unwrap()), "{text}");
    }
    assert!(!dir.path().join("store.json").exists());
}

#[test]
fn path_arguments_are_hidden_and_refused_unless_the_operator_allows_them() {
    let secret = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(secret.path(), "geheime-inhoud").unwrap();
    let path = secret.path().to_str().unwrap();

    let (mut bridge, _dir) = demo_bridge(&[]);
    let tool = bridge.listed_tool("demo__bestand_toon");
    let properties = tool["inputSchema"]["properties"].as_object().unwrap();
    assert!(properties.contains_key("kop"));
    assert!(!properties.contains_key("bestand"), "{tool}");
    let refused = bridge.call("demo__bestand_toon", json!({"bestand": path, "kop": "k"}));
    assert_eq!(refused["isError"], true);
    assert_eq!(refused["_meta"]["nl.overheid/problem"]["exit_code"], 65);
    assert_eq!(
        refused["_meta"]["nl.overheid/problem"]["errors"][0]["pointer"],
        "/bestand"
    );
    assert!(
        refused["_meta"]["nl.overheid/problem"]["errors"][0]["detail"]
            .as_str()
            .unwrap()
            .contains("--allow-local-paths")
    );
    assert!(!refused.to_string().contains("geheime-inhoud"));
    let without = bridge.call("demo__bestand_toon", json!({"kop": "k"}));
    // `inhoud: null` is left out: its listed type is "string" (spec §14.1, portable schemas).
    assert_eq!(without["structuredContent"], json!({"kop": "k"}));

    let (mut allowing, _dir) = demo_bridge(&["--allow-local-paths"]);
    let tool = allowing.listed_tool("demo__bestand_toon");
    assert_eq!(
        tool["inputSchema"]["properties"]["bestand"]["format"],
        "path"
    );
    let read = allowing.call("demo__bestand_toon", json!({"bestand": path}));
    assert_eq!(
        read["structuredContent"]["inhoud"], "geheime-inhoud",
        "{read}"
    );
}

#[test]
fn a_declared_variable_that_is_not_utf8_reaches_the_tool_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store.json");
    let cli = demo_cli();
    let token = OsString::from_vec(b"ab\xffcd".to_vec());
    let undeclared = OsString::from_vec(b"\xfe".to_vec());
    let mut bridge = Bridge::start_os(
        &[OsStr::new("--tool"), cli.as_os_str()],
        &[
            (OsStr::new("DEMO_STORE"), store.as_os_str()),
            (OsStr::new("DEMO_TOKEN"), &token),
            (OsStr::new("CLIENT_SECRET"), &undeclared),
        ],
    );
    let result = bridge.call("demo__omgeving_toon", json!({}));
    assert_eq!(result["isError"], false, "{result}");
    assert_eq!(result["structuredContent"]["token_hex"], "6162ff6364");
    let names = &result["structuredContent"]["variabelen"];
    assert!(!names.as_array().unwrap().contains(&json!("CLIENT_SECRET")));
}

#[test]
fn a_tool_path_that_is_not_utf8_is_served_and_other_such_arguments_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join(OsStr::from_bytes(b"\xff-cli"));
    std::os::unix::fs::symlink(demo_cli(), &odd).unwrap();
    let mut bridge = Bridge::start_os(&[OsStr::new("--tool"), odd.as_os_str()], &[]);
    bridge.listed_tool("demo__omgeving_toon");

    let output = std::process::Command::new(env!("CARGO_BIN_EXE_overheid-mcp"))
        .arg("--timeout")
        .arg(OsStr::from_bytes(b"\xff"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("--timeout verwacht"));
}

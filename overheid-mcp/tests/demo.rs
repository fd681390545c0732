//! The bridge with the fixture CLI `demo-cli`: protocol basics, a mutation through proposal and
//! confirmation, resources, the environment a tool gets, deadlines and cancellation.

mod harness;

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use harness::{Bridge, demo_bridge_env, demo_cli, wait_gone};

struct Demo {
    bridge: Bridge,
    dir: tempfile::TempDir,
}

fn demo(extra_args: &[&str], extra_env: &[(&str, &str)]) -> Demo {
    let (bridge, dir) = demo_bridge_env(extra_args, extra_env);
    Demo { bridge, dir }
}

#[test]
fn initialize_ping_and_protocol_errors() {
    let mut demo = demo(&[], &[]);
    let bridge = &mut demo.bridge;
    // The harness opened the session with 2025-11-25; a second initialize is not a handshake.
    assert_eq!(bridge.request("ping", json!({})), json!({}));
    assert_eq!(
        bridge.request_error("bestaat/niet", json!({}))["code"],
        -32601
    );
    let unknown_tool = bridge.request_error(
        "tools/call",
        json!({"name": "demo__bestaat_niet", "arguments": {}}),
    );
    assert_eq!(unknown_tool["code"], -32602);
    // A legacy session keeps the legacy shapes: no resultType, text duplicated.
    let listed = bridge.request("tools/list", json!({}));
    assert!(listed.get("resultType").is_none(), "{listed}");
    // Text that is no JSON: a parse error with id null (JSON-RPC 2.0 §5.1).
    bridge.send_line("{dit is geen json");
    let unparsable = bridge.next_message();
    assert_eq!(unparsable["error"]["code"], -32700, "{unparsable}");
    assert_eq!(unparsable["id"], Value::Null);
    // A notification gets no answer; the next message is the ping's.
    bridge.notify("notifications/iets", json!({}));
    let id = bridge.send("ping", json!({}));
    assert_eq!(bridge.next_message()["id"], id);
    assert!(demo.bridge.finish().success());
}

#[test]
fn the_handshake_negotiates_the_older_revisions() {
    for (asked, agreed) in [
        ("2025-11-25", "2025-11-25"),
        ("2025-06-18", "2025-06-18"),
        ("2025-03-26", "2025-03-26"),
        ("2024-11-05", "2025-11-25"),
        ("1999-01-01", "2025-11-25"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let cli = demo_cli();
        let mut bridge = Bridge::start_raw(
            &["--tool", cli.to_str().unwrap()],
            &[("DEMO_STORE", dir.path().join("s").to_str().unwrap())],
        );
        let init = bridge.request(
            "initialize",
            json!({"protocolVersion": asked, "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}),
        );
        assert_eq!(init["protocolVersion"], agreed, "{asked}");
        assert_eq!(init["serverInfo"]["name"], "overheid-mcp");
        assert_eq!(init["capabilities"]["tools"]["listChanged"], false);
        assert!(init["capabilities"]["resources"].is_object());
    }
}

/// The data once (issue 40 item 4) only where the revision has `structuredContent`: from
/// 2025-06-18 on a short text block, in 2025-03-26 (no `structuredContent` for its client to read)
/// the data stays the text block.
#[test]
fn the_short_text_block_needs_a_revision_with_structured_content() {
    let lean = json!({"nl.overheid/text": "short", "nl.overheid/provenance": "none"});
    for (version, short) in [
        ("2025-03-26", false),
        ("2025-06-18", true),
        ("2025-11-25", true),
        ("2026-07-28", true),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let cli = demo_cli();
        let mut bridge = Bridge::start_raw(
            &["--tool", cli.to_str().unwrap()],
            &[("DEMO_STORE", dir.path().join("s").to_str().unwrap())],
        );
        if version == "2026-07-28" {
            bridge.modern(json!({}));
        } else {
            bridge.request(
                "initialize",
                json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}),
            );
            bridge.notify("notifications/initialized", json!({}));
        }
        let result = bridge.request(
            "tools/call",
            json!({"name": "demo__omgeving_toon", "arguments": {}, "_meta": lean}),
        );
        let text = result["content"][0]["text"].as_str().unwrap();
        let data = &result["structuredContent"];
        assert!(data.is_object(), "{version}: {result}");
        if short {
            assert!(
                text.contains("structuredContent") && text.len() < 100,
                "{version}: {text}"
            );
        } else {
            assert_eq!(
                &serde_json::from_str::<Value>(text).unwrap(),
                data,
                "{version}"
            );
        }
        assert!(
            result["_meta"].get("nl.overheid/provenance").is_none(),
            "{version}: {result}"
        );
    }
}

#[test]
fn revision_2026_07_28_is_served_per_request_without_a_handshake() {
    let dir = tempfile::tempdir().unwrap();
    let cli = demo_cli();
    let mut bridge = Bridge::start_raw(
        &["--tool", cli.to_str().unwrap()],
        &[("DEMO_STORE", dir.path().join("s").to_str().unwrap())],
    );
    // Without the per-request context: -32602, and the bridge serves on.
    let missing = bridge.request_error("tools/list", json!({}));
    assert_eq!(missing["code"], -32602, "{missing}");
    bridge.modern(json!({}));
    let discover = bridge.request("server/discover", json!({}));
    assert_eq!(discover["resultType"], "complete");
    assert_eq!(discover["cacheScope"], "public");
    assert!(discover["ttlMs"].as_u64().unwrap() > 0);
    assert!(
        discover["supportedVersions"]
            .as_array()
            .unwrap()
            .contains(&json!("2026-07-28"))
    );
    let tools = bridge.request("tools/list", json!({}));
    assert_eq!(tools["resultType"], "complete");
    assert_eq!(tools["cacheScope"], "public");
    let templates = bridge.request("resources/templates/list", json!({}));
    assert_eq!(templates["cacheScope"], "public");
    assert_eq!(
        bridge.request("resources/list", json!({}))["resultType"],
        "complete"
    );
    let unknown = bridge.request_error("resources/read", json!({"uri": "demo://onbekend/x"}));
    assert_eq!(unknown["code"], -32602, "{unknown}");
    let absent = bridge.call("demo__notitie_get", json!({"id": "nee"}));
    assert_eq!(absent["resultType"], "complete");
    assert_eq!(absent["isError"], true);
    assert!(absent.get("structuredContent").is_none(), "{absent}");
    assert_eq!(
        absent["_meta"]["nl.overheid/problem"]["code"],
        "NIET_GEVONDEN"
    );
    // Every result names its server (2026-07-28: SHOULD).
    let listed_resources = bridge.request("resources/list", json!({}));
    for result in [&discover, &tools, &templates, &listed_resources, &absent] {
        let info = &result["_meta"]["io.modelcontextprotocol/serverInfo"];
        assert_eq!(info["name"], "overheid-mcp", "{result}");
        assert!(info["version"].is_string());
    }
    // An unknown revision: -32022 naming the supported ones.
    bridge.send_line(
        r#"{"jsonrpc":"2.0","id":999,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
    );
    let error = bridge.response(999)["error"].clone();
    assert_eq!(error["code"], -32022, "{error}");
    assert!(
        error["data"]["supported"]
            .as_array()
            .unwrap()
            .contains(&json!("2026-07-28"))
    );
}

#[test]
fn a_mutating_tool_with_its_own_arguments_is_a_dry_run_and_confirm_is_refused() {
    let mut demo = demo(&[], &[]);
    let store = demo.dir.path().join("store.json");
    let maak = demo.bridge.listed_tool("demo__notitie_maak");
    assert!(maak["inputSchema"]["properties"].get("confirm").is_none());
    // The CLI's annotations with only the hints that differ from MCP's defaults (this fixture
    // lists every hint): no readOnlyHint, whose default is false, on a mutating tool.
    let output = std::process::Command::new(demo_cli())
        .args(["--help", "--json"])
        .output()
        .unwrap();
    let discovery: Value = serde_json::from_slice(&output.stdout).unwrap();
    let entry = discovery["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "notitie_maak")
        .expect("notitie_maak in discovery");
    let listed = common::discovery::mcp_annotations(entry["annotations"].as_object().unwrap());
    assert_eq!(maak["annotations"], listed, "{maak}");
    assert!(maak["annotations"].get("readOnlyHint").is_none(), "{maak}");

    let arguments = json!({"id": "n1", "tekst": "hallo", "label": ["b", "a"]});
    let planned = demo.bridge.call("demo__notitie_maak", arguments.clone());
    assert_eq!(planned["isError"], false, "{planned}");
    let content = &planned["structuredContent"];
    assert_eq!(content["uitgevoerd"], false);
    let plan = &planned["_meta"]["nl.overheid/plan"];
    let digest = plan["plan_digest"].as_str().unwrap().to_string();
    assert_eq!(plan["arguments"]["label"], json!(["a", "b"]));
    assert!(!store.exists(), "a dry run changes nothing");
    let validator = jsonschema::validator_for(&maak["outputSchema"]).unwrap();
    assert!(validator.is_valid(content), "fits the listed outputSchema");
    // 2025-11-25 hosts may show a model only `content`: the reason is there too.
    assert!(
        planned["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("niets uitgevoerd")
    );

    // Another client, later, with the digest: refused before anything runs, nothing filed.
    let cli = demo_cli();
    let mut other = Bridge::start(
        &["--tool", cli.to_str().unwrap()],
        &[("DEMO_STORE", store.to_str().unwrap())],
    );
    let mut confirmed = arguments.clone();
    confirmed["confirm"] = json!(digest);
    let refused = other.call("demo__notitie_maak", confirmed);
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(validator.is_valid(&refused["structuredContent"]));
    assert!(!store.exists());
}

#[test]
fn resources_are_read_through_their_tool() {
    let mut demo = demo(&[], &[]);
    std::fs::write(
        demo.dir.path().join("store.json"),
        json!({"n 1": {"key": "", "note": {"id": "n 1", "tekst": "x", "labels": []}},
               "n2": {"key": "", "note": {"id": "n2", "tekst": "twee", "labels": ["l"]}}})
        .to_string(),
    )
    .unwrap();
    let templates = demo.bridge.request("resources/templates/list", json!({}));
    let template = &templates["resourceTemplates"][0];
    assert_eq!(template["uriTemplate"], "demo://notitie/{id}");
    assert_eq!(template["mimeType"], "application/json");
    assert_eq!(template["_meta"]["nl.overheid/tool"], "demo__notitie_get");
    assert_eq!(
        demo.bridge.request("resources/list", json!({}))["resources"],
        json!([])
    );

    let read = demo
        .bridge
        .request("resources/read", json!({"uri": "demo://notitie/n2"}));
    let content = &read["contents"][0];
    assert_eq!(content["uri"], "demo://notitie/n2");
    assert_eq!(content["mimeType"], "application/json");
    let text: Value = serde_json::from_str(content["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, json!({"id": "n2", "tekst": "twee", "labels": ["l"]}));
    assert_eq!(read["_meta"]["nl.overheid/provenance"]["method"], "LOCAL");

    let missing = demo
        .bridge
        .request_error("resources/read", json!({"uri": "demo://notitie/n3"}));
    assert_eq!(missing["code"], -32002);
    assert_eq!(missing["data"]["code"], "NIET_GEVONDEN");
    let unknown = demo
        .bridge
        .request_error("resources/read", json!({"uri": "koop://regeling/x"}));
    assert_eq!(unknown["code"], -32002);
    // "n 1" does not match the id pattern: the tool's own input validation refuses it.
    let invalid = demo
        .bridge
        .request_error("resources/read", json!({"uri": "demo://notitie/n%201"}));
    assert_eq!(invalid["code"], -32602, "{invalid}");
}

#[test]
fn a_tool_sees_only_its_declared_variables_and_the_bridges_trace() {
    let mut demo = demo(
        &[],
        &[
            ("DEMO_TOKEN", "van-de-host"),
            ("CLIENT_SECRET", "geheim"),
            ("KVK_API_KEY", "niet-voor-demo"),
            (
                "TRACEPARENT",
                "00-11111111111111111111111111111111-2222222222222222-01",
            ),
        ],
    );
    let result = demo.bridge.call("demo__omgeving_toon", json!({}));
    assert_eq!(result["isError"], false, "{result}");
    let names: Vec<&str> = result["structuredContent"]["variabelen"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for expected in ["DEMO_STORE", "DEMO_TOKEN", "PATH", "HOME", "TRACEPARENT"] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
    for secret in ["CLIENT_SECRET", "KVK_API_KEY"] {
        assert!(!names.contains(&secret), "{secret} leaked: {names:?}");
    }
    let traceparent = result["structuredContent"]["traceparent"].as_str().unwrap();
    assert!(
        !traceparent.contains("1111111111"),
        "the bridge's own trace, not its environment's"
    );
    let trace_id = traceparent.split('-').nth(1).unwrap();
    assert_eq!(
        result["_meta"]["nl.overheid/provenance"]["trace_id"],
        trace_id
    );
}

#[test]
fn a_call_past_the_deadline_kills_the_process_group_while_others_are_answered() {
    let mut demo = demo(&["--timeout", "4"], &[]);
    let pid_file = demo.dir.path().join("pids");
    let started = Instant::now();
    let call = demo.bridge.send(
        "tools/call",
        json!({"name": "demo__wacht", "arguments": {"pid_bestand": pid_file.to_str().unwrap()}}),
    );
    // The bridge answers a ping while the call runs.
    let ping = demo.bridge.send("ping", json!({}));
    assert_eq!(demo.bridge.next_message()["id"], ping);
    let response = demo.bridge.response(call);
    let elapsed = started.elapsed();
    let result = &response["result"];
    assert_eq!(result["isError"], true, "{response}");
    assert_eq!(
        result["_meta"]["nl.overheid/problem"]["code"],
        "TIJDLIMIET_VERSTREKEN"
    );
    assert_eq!(result["_meta"]["nl.overheid/problem"]["exit_code"], 124);
    assert!(
        elapsed >= Duration::from_millis(3900) && elapsed < Duration::from_secs(15),
        "{elapsed:?}"
    );
    let pids = std::fs::read_to_string(&pid_file).unwrap();
    for pid in pids.split_whitespace() {
        let pid: u32 = pid.parse().unwrap();
        assert!(
            wait_gone(pid, Duration::from_secs(3)),
            "process {pid} survived the deadline"
        );
    }
}

#[test]
fn a_cancelled_call_is_killed_and_not_answered() {
    let mut demo = demo(&["--timeout", "60"], &[]);
    let pid_file = demo.dir.path().join("pids");
    let call = demo.bridge.send(
        "tools/call",
        json!({"name": "demo__wacht", "arguments": {"pid_bestand": pid_file.to_str().unwrap()}}),
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    while !pid_file.exists()
        || std::fs::read_to_string(&pid_file)
            .unwrap()
            .split_whitespace()
            .count()
            < 2
    {
        assert!(Instant::now() < deadline, "the call never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    demo.bridge.notify(
        "notifications/cancelled",
        json!({"requestId": call, "reason": "test"}),
    );
    for pid in std::fs::read_to_string(&pid_file)
        .unwrap()
        .split_whitespace()
    {
        let pid: u32 = pid.parse().unwrap();
        assert!(
            wait_gone(pid, Duration::from_secs(3)),
            "process {pid} survived cancellation"
        );
    }
    let ping = demo.bridge.send("ping", json!({}));
    assert_eq!(
        demo.bridge.next_message()["id"],
        ping,
        "no answer for the cancelled call"
    );
}

#[test]
fn a_missing_explicit_tool_stops_the_bridge_with_exit_78() {
    let bridge = Bridge::start_raw(&["--tool", "/bestaat/niet-cli"], &[]);
    assert_eq!(bridge.finish().code(), Some(78));
}

//! What hosts asked of the bridge (issue 40 item 6): a read-only server, a choice of sources,
//! a tool list over HTTP that shows a token only what its scopes allow, names a host can tell
//! apart, answers to a JSON-RPC batch and to an over-long line, and a company that neither the
//! host's `_meta` nor the model can swap for another without a word.

#![allow(
    clippy::too_many_lines,
    reason = "a test is one scenario read top to bottom; the lint holds production code (issue 42.5)"
)]
#![allow(clippy::disallowed_methods, reason = "test switches")]

mod harness;

use serde_json::{Value, json};

use harness::http::{HttpBridge, Signer, now, request};
use harness::{Bridge, demo_bridge, demo_bridge_modern, demo_cli};

fn tool_names(list: &Value) -> Vec<String> {
    list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str().map(String::from))
        .collect()
}

/// `--read-only`: no tool that changes anything is listed, and calling one is an unknown tool.
#[test]
fn read_only_lists_and_runs_nothing_that_changes_anything() {
    let (mut bridge, dir) = demo_bridge(&["--read-only"]);
    let names = tool_names(&bridge.request("tools/list", json!({})));
    assert!(
        names.contains(&"demo__notitie_get".to_string()),
        "{names:?}"
    );
    for mutating in [
        "demo__notitie_maak",
        "demo__notitie_voorstel",
        "demo__notitie_indienen",
    ] {
        assert!(
            !names.contains(&mutating.to_string()),
            "{mutating}: {names:?}"
        );
        let refused = bridge.request_error(
            "tools/call",
            json!({"name": mutating, "arguments": {"id": "n1", "tekst": "x"}}),
        );
        assert_eq!(refused["code"], -32602, "{mutating}: {refused}");
    }
    assert!(!dir.path().join("store.json").exists());
}

/// `--toolsets`: only the named sources are served; a name that is no source stops the server
/// before it serves anything (78), listing the sources there are.
#[test]
fn toolsets_serve_only_the_named_sources_and_an_unknown_one_is_refused() {
    let cli = demo_cli();
    let mut bridge = Bridge::start(
        &["--tool", cli.to_str().unwrap(), "--toolsets", "demo"],
        &[],
    );
    let names = tool_names(&bridge.request("tools/list", json!({})));
    assert!(!names.is_empty() && names.iter().all(|n| n.starts_with("demo__")));
    drop(bridge);

    let output = std::process::Command::new(env!("CARGO_BIN_EXE_overheid-mcp"))
        .args(["--tool", cli.to_str().unwrap(), "--toolsets", "demo,kvkk"])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(78), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("kvkk") && stderr.contains("demo"),
        "names the unknown set and the sources: {stderr}"
    );
    assert!(output.stdout.is_empty());
}

const ISSUER: &str = "https://login.example.test";
const AUDIENCE: &str = "https://mcp.example.test/mcp";

/// Over HTTP `tools/list` shows what the token may call: a reading token sees no tool that
/// files (MCP-AUTH-8), a filing one sees them all, a token without scopes reads.
#[test]
fn over_http_the_tool_list_shows_a_token_only_what_its_scopes_allow() {
    let dir = tempfile::tempdir().unwrap();
    let signer = Signer::new("sleutel-1");
    let jwks = dir.path().join("jwks.json");
    std::fs::write(&jwks, json!({"keys": [signer.jwk()]}).to_string()).unwrap();
    let store = dir.path().join("store.json");
    let cli = demo_cli();
    let server = HttpBridge::start(
        &[
            "--tool",
            cli.to_str().unwrap(),
            "--auth-jwks",
            jwks.to_str().unwrap(),
            "--auth-issuer",
            ISSUER,
            "--auth-audience",
            AUDIENCE,
        ],
        &[("DEMO_STORE", store.to_str().unwrap())],
    );
    let list = request(1, "tools/list", json!({}), json!({}));
    let listed = |scope: Option<&str>| {
        let mut claims = json!({"iss": ISSUER, "aud": AUDIENCE, "sub": "iemand",
                                "exp": now() + 600, "kvk_nummer": "68750110"});
        if let Some(scope) = scope {
            claims["scope"] = scope.into();
        }
        let token = signer.token(&claims);
        let reply = server.post(Some(&token), &list, &[]);
        assert_eq!(reply.status, 200, "{:?}", reply.body);
        tool_names(&reply.body["result"])
    };
    for reading in [Some("overheid:lezen"), None] {
        let names = listed(reading);
        assert!(
            names.contains(&"demo__notitie_get".to_string()),
            "{names:?}"
        );
        assert!(
            !names
                .iter()
                .any(|n| n == "demo__notitie_maak" || n == "demo__notitie_voorstel"),
            "{reading:?}: {names:?}"
        );
    }
    let all = listed(Some("overheid:lezen overheid:indienen"));
    assert!(
        all.contains(&"demo__notitie_voorstel".to_string()),
        "{all:?}"
    );
    assert!(all.contains(&"demo__notitie_get".to_string()), "{all:?}");
}

/// A JSON-RPC batch over HTTP (which MCP does not take) is 400 with a JSON-RPC error, never a
/// status page of another type.
#[test]
fn a_json_rpc_batch_over_http_is_400_with_a_json_rpc_error() {
    let cli = demo_cli();
    let server = HttpBridge::start(
        &["--insecure-no-auth", "--tool", cli.to_str().unwrap()],
        &[],
    );
    let batch = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "id": 2, "method": "ping"}
    ]);
    let reply = server.post(None, &batch, &[]);
    assert_eq!(reply.status, 400, "{:?}", reply.body);
    assert_eq!(
        reply.headers["content-type"].to_str().unwrap(),
        "application/json",
        "{:?}",
        reply.headers
    );
    assert_eq!(reply.body["jsonrpc"], "2.0", "{:?}", reply.body);
    assert_eq!(reply.body["id"], Value::Null);
    assert_eq!(reply.body["error"]["code"], -32600, "{:?}", reply.body);
    assert!(
        reply.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("batch"),
        "{:?}",
        reply.body
    );
}

/// An over-long line on stdio gets a JSON-RPC error with `id: null` (the id is in the line the
/// bridge did not keep), and the bridge reads on.
#[test]
fn an_over_long_stdio_line_is_answered_with_id_null_and_the_bridge_reads_on() {
    let (mut bridge, dir) = demo_bridge(&[]);
    let padding = "x".repeat(5 * 1024 * 1024);
    bridge.send_line(&format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"demo__notitie_get","arguments":{{"id":"{padding}"}}}}}}"#
    ));
    let answer = bridge.next_message();
    assert_eq!(answer["id"], Value::Null, "{answer}");
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("4 MiB"),
        "{answer}"
    );
    let id = bridge.send("ping", json!({}));
    assert_eq!(bridge.next_message()["id"], id);
    assert!(!dir.path().join("store.json").exists());
}

fn sessie(bridge: &mut Bridge, arguments: Value, meta: Option<&str>) -> Value {
    let mut params = json!({"name": "demo__sessie_toon", "arguments": arguments});
    if let Some(number) = meta {
        params["_meta"] = json!({"nl.overheid/sessie": {"kvk_nummer": number}});
    }
    let id = bridge.send("tools/call", params);
    bridge.response(id)
}

fn refused_as_a_conflict(answer: &Value, what: &str) {
    assert_eq!(answer["error"]["code"], -32602, "{what}: {answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.contains("kvk_nummer"), "{what}: {message}");
    // The numbers themselves are not repeated: the refusal is the same for every company.
    for number in ["11111111", "22222222", "33333333", "44444444"] {
        assert!(!message.contains(number), "{what}: {message}");
    }
}

/// A company pinned in the environment cannot be replaced by `_meta`; a model's `kvk_nummer`
/// that differs from the session's company is refused, never silently replaced; the same number
/// is fine either way.
#[test]
fn no_identity_is_swapped_for_another_without_a_word() {
    // Pinned by the process.
    let (mut bridge, _dir) =
        demo_bridge_modern(&[], &[("KVK_SESSIE_NUMMER", "44444444")], json!({}));
    refused_as_a_conflict(&sessie(&mut bridge, json!({}), Some("11111111")), "_meta");
    let same = sessie(&mut bridge, json!({}), Some("44444444"));
    assert_eq!(
        same["result"]["structuredContent"]["kvk_nummer"], "44444444",
        "{same}"
    );
    refused_as_a_conflict(
        &sessie(&mut bridge, json!({"kvk_nummer": "33333333"}), None),
        "the model's number against the process's",
    );
    let echoed = sessie(&mut bridge, json!({"kvk_nummer": "44444444"}), None);
    assert_eq!(
        echoed["result"]["structuredContent"]["kvk_nummer"], "44444444",
        "{echoed}"
    );

    // Named per call by the host: the model's number must be that one.
    let (mut bridge, _dir) = demo_bridge_modern(&["--session-from-meta"], &[], json!({}));
    refused_as_a_conflict(
        &sessie(
            &mut bridge,
            json!({"kvk_nummer": "33333333"}),
            Some("11111111"),
        ),
        "the model's number against _meta",
    );
    let same = sessie(
        &mut bridge,
        json!({"kvk_nummer": "11111111"}),
        Some("11111111"),
    );
    assert_eq!(
        same["result"]["structuredContent"]["kvk_nummer"], "11111111",
        "{same}"
    );

    // The argument listed (no session of the process) and a host that names one per call: the
    // model's differing number is refused, not replaced.
    let (mut bridge, _dir) = demo_bridge_modern(&[], &[], json!({}));
    refused_as_a_conflict(
        &sessie(
            &mut bridge,
            json!({"kvk_nummer": "22222222"}),
            Some("11111111"),
        ),
        "a listed argument against _meta",
    );
    let own = sessie(&mut bridge, json!({"kvk_nummer": "22222222"}), None);
    assert_eq!(own["result"]["structuredContent"]["kvk_nummer"], "22222222");
}

/// Bad input of issue 40: a conflicting company is refused and nothing is read. With kvk-cli
/// against a fake KvK: a company pinned in the environment, then a model's other `kvk_nummer`
/// and a host's other `_meta` company are both -32602 naming the conflict, and the KvK got no
/// request; the same company is read.
#[test]
fn a_conflicting_company_is_refused_before_anything_is_read() {
    let Some(kvk) = harness::kvk_cli() else {
        return;
    };
    let fake = test_support::FakeServer::start(test_support::kvk::kvk);
    let base = fake.base_url();
    let mut bridge = Bridge::start(
        &["--tool", kvk.to_str().unwrap()],
        &[
            ("KVK_API_BASE", base.as_str()),
            ("KVK_API_KEY", "test-sleutel"),
            ("KVK_SESSIE_NUMMER", "68750110"),
        ],
    );
    let call = |bridge: &mut Bridge, arguments: Value, meta: Option<&str>| {
        let mut params = json!({"name": "kvk__basisprofiel_toon", "arguments": arguments});
        if let Some(number) = meta {
            params["_meta"] = json!({"nl.overheid/sessie": {"kvk_nummer": number}});
        }
        let id = bridge.send("tools/call", params);
        bridge.response(id)
    };
    refused_as_a_conflict(
        &call(&mut bridge, json!({"kvk_nummer": "69599084"}), None),
        "the model's number against the process's",
    );
    refused_as_a_conflict(
        &call(&mut bridge, json!({}), Some("69599084")),
        "_meta against the process's",
    );
    assert_eq!(fake.requests().len(), 0, "nothing read for a conflict");
    let own = call(&mut bridge, json!({"kvk_nummer": "68750110"}), None);
    assert_eq!(own["result"]["isError"], false, "{own}");
    assert_eq!(own["result"]["structuredContent"]["kvkNummer"], "68750110");
    assert!(!fake.requests().is_empty(), "the session's company is read");
}

/// Every resource and resource template of the family has a name of its own (issue 40 item 6:
/// koop's `regeling` and the bridge's RVO view were both `regeling`).
#[test]
fn resources_and_templates_are_named_uniquely_across_the_family() {
    for cli in test_support::cli::programs() {
        assert!(harness::workspace_cli(cli).is_some(), "{cli} is built");
    }
    // Without --tool the bridge serves the family found next to itself.
    let mut bridge = Bridge::start(&[], &[("KVK_SESSIE_NUMMER", "68750110")]);
    let templates = bridge.request("resources/templates/list", json!({}));
    let resources = bridge.request("resources/list", json!({}));
    let mut names: Vec<String> = templates["resourceTemplates"]
        .as_array()
        .unwrap()
        .iter()
        .chain(resources["resources"].as_array().unwrap())
        .filter_map(|r| r["name"].as_str().map(String::from))
        .collect();
    assert!(names.len() > 4, "{names:?}");
    names.sort_unstable();
    let before = names.len();
    names.dedup();
    assert_eq!(names.len(), before, "names must be unique: {names:?}");
}

/// Issue 39 item 7: a start where nothing is wrong prints nothing (a tool left out because it
/// needs a local path, or by `--read-only`, is the operator's choice, not a warning); something
/// that is wrong still warns.
#[test]
fn a_start_where_nothing_is_wrong_is_silent() {
    for cli in test_support::cli::programs() {
        assert!(harness::workspace_cli(cli).is_some(), "{cli} is built");
    }
    for args in [&[][..], &["--read-only"]] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_overheid-mcp"))
            .args(args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", std::env::temp_dir())
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{args:?}: {output:?}");
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            "",
            "{args:?}: a start with nothing wrong warns about nothing"
        );
    }
    // A --tool that names a program whose child is missing does warn.
    let dir = tempfile::tempdir().unwrap();
    let lone = dir.path().join("regelrecht-cli");
    std::fs::copy(harness::regelrecht_cli(), &lone).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_overheid-mcp"))
        .args(["--tool", lone.to_str().unwrap()])
        .env_clear()
        .env("PATH", "/nonexistent")
        .env("HOME", dir.path())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("kvk-cli"), "{stderr}");
}

/// The host guide in the README (issue 40 item 6) is what a host can use as written: every
/// configuration's arguments start the bridge over the family found next to it (exit 0 with
/// stdin closed), and every variable the guide names, in a configuration or in its text, is one
/// a program of the family or the bridge reads.
#[test]
fn the_host_guide_s_configurations_start_the_bridge_and_name_known_variables() {
    for cli in test_support::cli::programs() {
        assert!(harness::workspace_cli(cli).is_some(), "{cli} is built");
    }
    let readme =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
            .unwrap();
    let guide = readme
        .split_once("## Host guide")
        .expect("a host guide")
        .1
        .split("\n## ")
        .next()
        .unwrap();
    // The variables the family and the bridge read.
    let bridge = env!("CARGO_BIN_EXE_overheid-mcp");
    let mut known: Vec<String> = Vec::new();
    for cli in test_support::cli::programs() {
        let program = harness::workspace_cli(cli).unwrap();
        let output = std::process::Command::new(program)
            .args(["--help", "--json"])
            .output()
            .unwrap();
        let discovery: Value = serde_json::from_slice(&output.stdout).unwrap();
        let names = discovery["env"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|v| &v["name"])
            .chain(
                discovery["profile_env"]
                    .as_object()
                    .into_iter()
                    .flat_map(|kinds| kinds.values())
                    .flat_map(|names| names.as_array().into_iter().flatten()),
            );
        known.extend(names.filter_map(|n| n.as_str().map(String::from)));
    }
    let help = std::process::Command::new(bridge)
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    // A variable of the family or the bridge (an error code such as `TIJDLIMIET_VERSTREKEN` is
    // none).
    let is_variable = |word: &str| {
        ["KVK_", "KOOP_", "RVO_", "REGELRECHT_", "OVERHEID_", "OTEL_"]
            .iter()
            .any(|prefix| word.starts_with(prefix))
            && word
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    };
    let known_variable = |name: &str| known.iter().any(|k| k == name) || help.contains(name);

    // The configurations: the JSON blocks (Claude Desktop, Cursor, VS Code), Goose's YAML block
    // and the Claude Code command line.
    let mut starts: Vec<Vec<String>> = Vec::new();
    let mut variables: Vec<String> = Vec::new();
    for block in guide.split("```").skip(1).step_by(2) {
        if let Some(json) = block.strip_prefix("json\n") {
            let config: Value = serde_json::from_str(json).expect("a JSON configuration");
            for servers in ["mcpServers", "servers"] {
                for server in config[servers]
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|s| s.1)
                {
                    if server.get("command").is_none() {
                        assert!(server["url"].is_string(), "{server}");
                        continue;
                    }
                    let args: Vec<String> = server["args"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|a| a.as_str().unwrap().to_string())
                        .collect();
                    starts.push(args);
                    variables.extend(
                        server["env"]
                            .as_object()
                            .into_iter()
                            .flatten()
                            .map(|(k, _)| k.clone()),
                    );
                }
            }
        } else if let Some(yaml) = block.strip_prefix("yaml\n") {
            for line in yaml.lines().map(str::trim) {
                if let Some(args) = line.strip_prefix("args: ") {
                    let args: Vec<String> = serde_json::from_str(args).expect("a flow list");
                    starts.push(args);
                }
                if let Some(keys) = line.strip_prefix("env_keys: ") {
                    variables.extend(
                        keys.trim_matches(['[', ']'])
                            .split(',')
                            .map(|k| k.trim().to_string()),
                    );
                }
                if let Some(envs) = line.strip_prefix("envs: ") {
                    variables.extend(
                        envs.trim_matches(['{', '}'])
                            .split(',')
                            .filter_map(|pair| pair.split_once(':'))
                            .map(|(k, _)| k.trim().to_string()),
                    );
                }
            }
        }
    }
    let words: Vec<&str> = guide.split_whitespace().collect();
    for pair in words.windows(2) {
        if pair[0] == "--env" {
            variables.push(pair[1].split('=').next().unwrap().to_string());
        }
    }
    // And every variable the text names.
    variables.extend(
        guide
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|w| is_variable(w))
            .map(String::from),
    );
    assert!(starts.len() >= 3, "{starts:?}");
    assert!(variables.len() >= 8, "{variables:?}");
    for name in &variables {
        assert!(
            known_variable(name),
            "the host guide names {name}, which no program reads"
        );
    }
    for args in &starts {
        let output = std::process::Command::new(bridge)
            .args(args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", std::env::temp_dir())
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{args:?}: {output:?}");
    }
}

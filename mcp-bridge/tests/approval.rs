//! A person approves every mutation (MCP 2026-07-28 multi round-trip requests), and identity per
//! call over stdio: both with the fixture CLI.

mod harness;

use serde_json::{Value, json};

use harness::{Bridge, demo_bridge_modern};

fn retry(bridge: &mut Bridge, arguments: &Value, state: &str, action: Value) -> Value {
    bridge.request(
        "tools/call",
        json!({"name": "demo__notitie_maak", "arguments": arguments,
               "requestState": state, "inputResponses": {"akkoord": action}}),
    )
}

fn accept() -> Value {
    json!({"action": "accept", "content": {"akkoord": true}})
}

#[test]
fn only_an_accepted_elicitation_files_and_exactly_once() {
    let (mut bridge, dir) = demo_bridge_modern(&[], &[], json!({"elicitation": {"form": {}}}));
    let store = dir.path().join("store.json");
    let arguments = json!({"id": "n1", "tekst": "hallo"});
    let listed = bridge.listed_tool("demo__notitie_maak");
    let output = jsonschema::validator_for(&listed["outputSchema"]).unwrap();

    let first = bridge.call("demo__notitie_maak", arguments.clone());
    assert_eq!(first["resultType"], "input_required", "{first}");
    assert!(first.get("ttlMs").is_none() && first.get("content").is_none());
    let request = &first["inputRequests"]["akkoord"];
    assert_eq!(request["method"], "elicitation/create");
    assert_eq!(request["params"]["mode"], "form");
    let digest = first["_meta"]["nl.overheid/plan"]["plan_digest"]
        .as_str()
        .unwrap()
        .to_string();
    let message = request["params"]["message"].as_str().unwrap();
    assert!(
        message.contains(&digest) && message.contains("Maakt notitie n1"),
        "{message}"
    );
    let state = first["requestState"].as_str().unwrap().to_string();
    assert!(!store.exists(), "asking files nothing");

    // The model computes the digest itself: with a client that can elicit, that is a new question.
    let mut self_confirmed = arguments.clone();
    self_confirmed["confirm"] = json!(digest);
    let asked = bridge.call("demo__notitie_maak", self_confirmed);
    assert_eq!(asked["resultType"], "input_required", "{asked}");
    assert!(!store.exists(), "a model-set confirm files nothing");

    // A modified state, or other arguments with the state: refused, nothing filed.
    let mut forged = state.clone();
    let last = forged.pop().unwrap();
    forged.push(if last == 'A' { 'B' } else { 'A' });
    let refused = retry(&mut bridge, &arguments, &forged, accept());
    assert_eq!(refused["isError"], true, "{refused}");
    assert_eq!(refused["structuredContent"]["uitgevoerd"], false);
    let changed = json!({"id": "n1", "tekst": "anders"});
    let refused = retry(&mut bridge, &changed, &state, accept());
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(!store.exists());

    // Decline and cancel: a complete result that says nothing was done.
    for action in [json!({"action": "decline"}), json!({"action": "cancel"})] {
        let declined = retry(&mut bridge, &arguments, &state, action);
        assert_eq!(declined["resultType"], "complete");
        assert_eq!(declined["isError"], false, "{declined}");
        assert_eq!(declined["structuredContent"]["uitgevoerd"], false);
        assert!(output.is_valid(&declined["structuredContent"]));
    }
    assert!(!store.exists());

    // Accept: filed once; the same accepted retry again is a replay of the same note.
    let done = retry(&mut bridge, &arguments, &state, accept());
    assert_eq!(done["isError"], false, "{done}");
    assert_eq!(done["structuredContent"]["replayed"], false);
    assert!(output.is_valid(&done["structuredContent"]));
    let again = retry(&mut bridge, &arguments, &state, accept());
    assert_eq!(again["structuredContent"]["replayed"], true, "{again}");
    assert_eq!(
        again["structuredContent"]["id"],
        done["structuredContent"]["id"]
    );
}

#[test]
fn a_client_without_elicitation_over_stdio_gets_the_two_step_flow() {
    let (mut bridge, dir) = demo_bridge_modern(&[], &[], json!({}));
    let arguments = json!({"id": "n2", "tekst": "x"});
    let proposal = bridge.call("demo__notitie_maak", arguments.clone());
    assert_eq!(proposal["resultType"], "complete");
    assert_eq!(proposal["structuredContent"]["requires_confirmation"], true);
    // The proposal is also its text, in both eras (a host may show a model only `content`).
    let text: Value =
        serde_json::from_str(proposal["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, proposal["structuredContent"]);
    let mut confirmed = arguments;
    confirmed["confirm"] = proposal["structuredContent"]["plan_digest"].clone();
    let done = bridge.call("demo__notitie_maak", confirmed);
    assert_eq!(done["structuredContent"]["replayed"], false, "{done}");
    assert!(dir.path().join("store.json").exists());
}

fn sessie(bridge: &mut Bridge, arguments: Value, meta: Option<&str>) -> Value {
    let mut params = json!({"name": "demo__sessie_toon", "arguments": arguments});
    if let Some(number) = meta {
        params["_meta"] = json!({"nl.overheid/sessie": {"kvk_nummer": number}});
    }
    bridge.request("tools/call", params)
}

#[test]
fn the_identity_per_call_comes_from_meta_and_beats_the_model_and_the_process() {
    let (mut bridge, _dir) = demo_bridge_modern(&["--session-from-meta"], &[], json!({}));
    let listed = bridge.listed_tool("demo__sessie_toon");
    assert!(
        listed["inputSchema"]["properties"]
            .get("kvk_nummer")
            .is_none(),
        "{listed}"
    );
    assert!(
        !listed["inputSchema"]["required"]
            .to_string()
            .contains("kvk_nummer")
    );
    let mine = sessie(&mut bridge, json!({}), Some("11111111"));
    assert_eq!(
        mine["structuredContent"],
        json!({"kvk_nummer": "11111111", "sessie": "11111111"}),
        "{mine}"
    );
    let other = sessie(&mut bridge, json!({}), Some("22222222"));
    assert_eq!(other["structuredContent"]["kvk_nummer"], "22222222");
    // The model names another company: not an argument it has.
    let named = sessie(
        &mut bridge,
        json!({"kvk_nummer": "33333333"}),
        Some("11111111"),
    );
    assert_eq!(named["isError"], true, "{named}");
    assert_eq!(named["_meta"]["nl.overheid/problem"]["exit_code"], 65);
    // No identity at all: the CLI says what is missing.
    let none = sessie(&mut bridge, json!({}), None);
    assert_eq!(
        none["_meta"]["nl.overheid/problem"]["exit_code"], 2,
        "{none}"
    );
    let malformed = bridge.request_error(
        "tools/call",
        json!({"name": "demo__sessie_toon", "arguments": {}, "_meta": {"nl.overheid/sessie": "11111111"}}),
    );
    assert_eq!(malformed["code"], -32602);

    // Per process from the environment, and a per-call identity replaces it.
    let (mut bridge, _dir) =
        demo_bridge_modern(&[], &[("KVK_SESSIE_NUMMER", "44444444")], json!({}));
    let listed = bridge.listed_tool("demo__sessie_toon");
    assert!(
        listed["inputSchema"]["properties"]
            .get("kvk_nummer")
            .is_none()
    );
    let process = sessie(&mut bridge, json!({}), None);
    assert_eq!(
        process["structuredContent"],
        json!({"kvk_nummer": "44444444", "sessie": "44444444"})
    );
    let call = sessie(&mut bridge, json!({}), Some("11111111"));
    assert_eq!(
        call["structuredContent"],
        json!({"kvk_nummer": "11111111", "sessie": "11111111"})
    );

    // Neither: one user on one machine names the company, as before.
    let (mut bridge, _dir) = demo_bridge_modern(&[], &[], json!({}));
    let listed = bridge.listed_tool("demo__sessie_toon");
    assert!(
        listed["inputSchema"]["properties"]
            .get("kvk_nummer")
            .is_some()
    );
    let named = sessie(&mut bridge, json!({"kvk_nummer": "55555555"}), None);
    assert_eq!(
        named["structuredContent"],
        json!({"kvk_nummer": "55555555", "sessie": null})
    );
}

//! A mutation happens only through a proposal that a person approved: no call sequence a model
//! makes alone files anything, in either protocol era; a waiting proposal's link is offered as
//! URL elicitation where the client declared it; identity per call over stdio. All with the
//! fixture CLI, whose proposals a person approves with its terminal command; and rvo-cli's
//! second report of a round, said by the bridge before a person approves (issue 40 item 7).

mod harness;

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use harness::{Bridge, demo_bridge_env, demo_bridge_modern, demo_cli, rvo_cli};

const PAGE: &str = "https://mcp.example.nl/voorstellen";

/// The person's act at a terminal (the fixture's utility command).
fn person(dir: &Path, verb: &str, id: &str) {
    let status = Command::new(demo_cli())
        .args(["voorstel", verb, "--", id])
        .env("DEMO_STORE", dir.join("store.json"))
        .status()
        .unwrap();
    assert!(status.success());
}

fn filed(dir: &Path) -> Value {
    std::fs::read_to_string(dir.join("store.json"))
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_else(|| json!({}))
}

/// The eras a client can speak, over stdio.
fn every_era(extra_args: &[&str]) -> Vec<(&'static str, Bridge, tempfile::TempDir)> {
    let mut eras = Vec::new();
    let (bridge, dir) = demo_bridge_env(extra_args, &[]);
    eras.push(("2025-11-25", bridge, dir));
    for (label, capabilities) in [
        ("2026-07-28", json!({})),
        ("2026-07-28 form", json!({"elicitation": {"form": {}}})),
        (
            "2026-07-28 url",
            json!({"elicitation": {"form": {}, "url": {}}}),
        ),
    ] {
        let (bridge, dir) = demo_bridge_modern(extra_args, &[], capabilities);
        eras.push((label, bridge, dir));
    }
    eras
}

/// The proposal a `notitie_voorstel` call recorded, whatever form the answer took.
fn proposal_id(result: &Value) -> String {
    let id = result["structuredContent"]["voorstel_id"]
        .as_str()
        .or_else(|| result["_meta"]["nl.overheid/plan"]["voorstel_id"].as_str())
        .or_else(|| {
            result["inputRequests"]["goedkeuring"]["params"]["url"]
                .as_str()
                .and_then(|url| url.rsplit('/').next())
        });
    id.unwrap_or_else(|| panic!("no proposal id: {result}"))
        .to_string()
}

#[test]
fn confirm_is_never_offered_and_no_model_only_sequence_files_anything() {
    for (era, mut bridge, dir) in every_era(&["--goedkeuring-url", PAGE]) {
        let tools = bridge.request("tools/list", json!({}))["tools"].clone();
        for tool in tools.as_array().unwrap() {
            assert!(
                tool["inputSchema"]["properties"].get("confirm").is_none(),
                "{era}: {tool}"
            );
        }
        let indienen = bridge.listed_tool("demo__notitie_indienen");
        assert_eq!(
            indienen["inputSchema"]["required"],
            json!(["voorstel_id"]),
            "{era}: {indienen}"
        );
        let properties = indienen["inputSchema"]["properties"].as_object().unwrap();
        assert!(
            properties
                .keys()
                .all(|k| k == "voorstel_id" || k == "fields"),
            "{era}: {properties:?}"
        );

        // A mutating tool with its own arguments: a dry run, its plan, nothing done.
        let arguments = json!({"id": "n1", "tekst": "hallo"});
        let dry = bridge.call("demo__notitie_maak", arguments.clone());
        assert_eq!(
            dry["structuredContent"]["uitgevoerd"], false,
            "{era}: {dry}"
        );
        let digest = dry["_meta"]["nl.overheid/plan"]["plan_digest"]
            .as_str()
            .unwrap_or_else(|| panic!("{era}: {dry}"))
            .to_string();
        // Every digest and id it was given, sent back as confirm: refused before anything runs.
        for confirm in [json!(digest), json!(true), json!("")] {
            let mut confirmed = arguments.clone();
            confirmed["confirm"] = confirm;
            let refused = bridge.call("demo__notitie_maak", confirmed);
            assert_eq!(refused["isError"], true, "{era}: {refused}");
            assert!(
                refused["structuredContent"]["reden"]
                    .as_str()
                    .unwrap()
                    .contains("confirm"),
                "{era}: {refused}"
            );
        }
        // A forged round of approval: a made-up state with an "accept".
        let forged = bridge.request(
            "tools/call",
            json!({"name": "demo__notitie_maak", "arguments": arguments,
                   "requestState": "eyJ4IjoxfQ", "inputResponses": {"akkoord": {"action": "accept", "content": {"akkoord": true}}}}),
        );
        assert_eq!(forged["isError"], true, "{era}: {forged}");

        // Propose, then apply with every id and digest the model saw: nothing is filed.
        let proposed = bridge.call("demo__notitie_voorstel", arguments.clone());
        let id = proposal_id(&proposed);
        let plan_digest = bridge.call("demo__voorstel_toon", json!({"voorstel_id": id}))
            ["structuredContent"]["plan_digest"]
            .as_str()
            .unwrap()
            .to_string();
        for attempt in [
            json!({"voorstel_id": id}),
            json!({"voorstel_id": id, "confirm": plan_digest}),
            json!({"voorstel_id": plan_digest}),
            json!({"id": "n1", "tekst": "hallo"}),
            json!({"voorstel_id": id, "id": "n1", "tekst": "hallo"}),
        ] {
            let answer = bridge.call("demo__notitie_indienen", attempt.clone());
            assert_ne!(
                answer["structuredContent"]["replayed"], false,
                "{era}: {attempt}: {answer}"
            );
            // An elicitation round completed by the client alone still files nothing.
            if answer["resultType"] == "input_required" {
                let state = answer["requestState"].as_str().unwrap();
                let retried = bridge.request(
                    "tools/call",
                    json!({"name": "demo__notitie_indienen", "arguments": attempt,
                           "requestState": state, "inputResponses": {"goedkeuring": {"action": "accept"}}}),
                );
                assert_eq!(retried["resultType"], "complete", "{era}: {retried}");
                assert_eq!(retried["structuredContent"]["status"], "open");
            }
        }
        assert_eq!(filed(dir.path()), json!({}), "{era}: nothing filed");
    }
}

#[test]
fn a_person_approves_and_a_client_in_another_process_applies_once() {
    let (mut first, dir) = demo_bridge_modern(&[], &[], json!({}));
    let proposed = first.call(
        "demo__notitie_voorstel",
        json!({"id": "n2", "tekst": "goed"}),
    );
    assert_eq!(proposed["resultType"], "complete", "{proposed}");
    let id = proposal_id(&proposed);
    // Without an approval page, the answer names the person's terminal command.
    let content = &proposed["structuredContent"];
    assert_eq!(content["status"], "open");
    assert_eq!(
        content["goedkeuring_opdracht"],
        format!("demo-cli voorstel goedkeuren {id}")
    );
    assert!(content.get("goedkeuring_url").is_none());
    let instruction = content["instructie"].as_str().unwrap();
    assert!(instruction.contains("demo__notitie_indienen") && instruction.contains(&id));
    let listed = first.listed_tool("demo__notitie_voorstel");
    let output = jsonschema::validator_for(&listed["outputSchema"]).unwrap();
    assert!(output.is_valid(content), "{content}");
    // The same input gives the same open proposal.
    let again = first.call(
        "demo__notitie_voorstel",
        json!({"id": "n2", "tekst": "goed"}),
    );
    assert_eq!(proposal_id(&again), id);
    drop(first);

    person(dir.path(), "goedkeuren", &id);
    let store = dir.path().join("store.json");
    let mut other = Bridge::start_raw(
        &["--tool", demo_cli().to_str().unwrap()],
        &[("DEMO_STORE", store.to_str().unwrap())],
    );
    other.modern(json!({}));
    let done = other.call("demo__notitie_indienen", json!({"voorstel_id": id}));
    assert_eq!(done["structuredContent"]["replayed"], false, "{done}");
    assert_eq!(done["structuredContent"]["tekst"], "goed");
    let replay = other.call("demo__notitie_indienen", json!({"voorstel_id": id}));
    assert_eq!(replay["structuredContent"]["replayed"], true, "{replay}");
    assert_eq!(filed(dir.path()).as_object().unwrap().len(), 1);

    // Declined: applying it files nothing.
    let declined = other.call(
        "demo__notitie_voorstel",
        json!({"id": "n3", "tekst": "nee"}),
    );
    let declined = proposal_id(&declined);
    person(dir.path(), "afwijzen", &declined);
    let refused = other.call("demo__notitie_indienen", json!({"voorstel_id": declined}));
    assert_eq!(refused["isError"], true, "{refused}");
    assert_eq!(
        refused["_meta"]["nl.overheid/problem"]["code"],
        "VOORSTEL_AFGEWEZEN"
    );
    assert!(filed(dir.path()).get("n3").is_none());
}

#[test]
fn a_waiting_proposal_is_offered_as_url_elicitation_where_the_client_declared_it() {
    // 2026-07-28 with URL elicitation: an InputRequiredResult with a url-mode request.
    let url_caps = json!({"elicitation": {"url": {}}});
    let (mut bridge, _dir) = demo_bridge_modern(&["--goedkeuring-url", PAGE], &[], url_caps);
    let arguments = json!({"id": "n4", "tekst": "x"});
    let asked = bridge.call("demo__notitie_voorstel", arguments.clone());
    assert_eq!(asked["resultType"], "input_required", "{asked}");
    let request = &asked["inputRequests"]["goedkeuring"];
    assert_eq!(request["method"], "elicitation/create");
    assert_eq!(request["params"]["mode"], "url");
    let id = proposal_id(&asked);
    assert_eq!(request["params"]["url"], format!("{PAGE}/{id}"));
    assert!(request["params"]["elicitationId"].is_string());
    assert!(
        request["params"]["message"]
            .as_str()
            .unwrap()
            .contains("Maakt notitie n4")
    );
    // The retry (the person went there, or not) is a complete result with the current status.
    let state = asked["requestState"].as_str().unwrap();
    let retried = bridge.request(
        "tools/call",
        json!({"name": "demo__notitie_voorstel", "arguments": arguments,
               "requestState": state, "inputResponses": {"goedkeuring": {"action": "accept"}}}),
    );
    assert_eq!(retried["resultType"], "complete", "{retried}");
    assert_eq!(retried["structuredContent"]["voorstel_id"], id);
    // The state is bound to its call.
    let elsewhere = bridge.request(
        "tools/call",
        json!({"name": "demo__notitie_voorstel", "arguments": {"id": "n5", "tekst": "y"},
               "requestState": state, "inputResponses": {"goedkeuring": {"action": "accept"}}}),
    );
    assert_eq!(elsewhere["isError"], true, "{elsewhere}");

    // 2026-07-28 with form only: no elicitation, the complete result with id, link and instruction.
    let (mut bridge, _dir) = demo_bridge_modern(
        &["--goedkeuring-url", PAGE],
        &[],
        json!({"elicitation": {"form": {}}}),
    );
    let told = bridge.call("demo__notitie_voorstel", arguments.clone());
    assert_eq!(told["resultType"], "complete", "{told}");
    let id = proposal_id(&told);
    let link = format!("{PAGE}/{id}");
    assert_eq!(told["structuredContent"]["goedkeuring_url"], link);
    assert!(told["content"][0]["text"].as_str().unwrap().contains(&link));

    // 2025-11-25 over stdio, URL elicitation declared in initialize: elicitation/create, mode url.
    let store = _dir.path().join("store.json");
    let mut legacy = Bridge::start_raw(
        &[
            "--tool",
            demo_cli().to_str().unwrap(),
            "--goedkeuring-url",
            PAGE,
        ],
        &[("DEMO_STORE", store.to_str().unwrap())],
    );
    legacy.request(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {"elicitation": {"url": {}}},
               "clientInfo": {"name": "test", "version": "0"}}),
    );
    legacy.notify("notifications/initialized", json!({}));
    let call = legacy.send(
        "tools/call",
        json!({"name": "demo__notitie_indienen", "arguments": {"voorstel_id": id}}),
    );
    let elicitation = legacy.next_message();
    assert_eq!(elicitation["method"], "elicitation/create", "{elicitation}");
    assert_eq!(elicitation["params"]["mode"], "url");
    assert_eq!(elicitation["params"]["url"], link);
    legacy.send_line(
        &json!({"jsonrpc": "2.0", "id": elicitation["id"], "result": {"action": "accept"}})
            .to_string(),
    );
    let answer = legacy.response(call);
    assert_eq!(
        answer["result"]["structuredContent"]["status"], "open",
        "{answer}"
    );
    assert_eq!(filed(_dir.path()), json!({}));
}
fn sessie(bridge: &mut Bridge, arguments: Value, meta: Option<&str>) -> Value {
    let mut params = json!({"name": "demo__sessie_toon", "arguments": arguments});
    if let Some(number) = meta {
        params["_meta"] = json!({"nl.overheid/sessie": {"kvk_nummer": number}});
    }
    bridge.request("tools/call", params)
}

#[test]
fn the_identity_per_call_comes_from_meta_and_the_model_cannot_name_another() {
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
    // The model names another company: refused, never replaced (MCP-AUTH-9; more cases in
    // tests/host_options.rs).
    let named = bridge.request_error(
        "tools/call",
        json!({"name": "demo__sessie_toon", "arguments": {"kvk_nummer": "33333333"},
               "_meta": {"nl.overheid/sessie": {"kvk_nummer": "11111111"}}}),
    );
    assert_eq!(named["code"], -32602, "{named}");
    // No identity at all: the CLI says what is missing.
    let none = sessie(&mut bridge, json!({}), None);
    assert_eq!(
        none["_meta"]["nl.overheid/problem"]["exit_code"], 2,
        "{none}"
    );
    // Over stdio the host, or whoever starts the server, can fix it: the hint names both.
    let hint = none["_meta"]["nl.overheid/problem"]["hint"]
        .as_str()
        .unwrap();
    assert!(
        hint.contains("_meta[\"nl.overheid/sessie\"]") && hint.contains("KVK_SESSIE_NUMMER"),
        "{hint}"
    );
    let malformed = bridge.request_error(
        "tools/call",
        json!({"name": "demo__sessie_toon", "arguments": {}, "_meta": {"nl.overheid/sessie": "11111111"}}),
    );
    assert_eq!(malformed["code"], -32602);

    // Per process from the environment; a per-call identity may name that company, never
    // another (MCP-AUTH-9).
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
    let call = sessie(&mut bridge, json!({}), Some("44444444"));
    assert_eq!(
        call["structuredContent"],
        json!({"kvk_nummer": "44444444", "sessie": "44444444"})
    );
    let other = bridge.request_error(
        "tools/call",
        json!({"name": "demo__sessie_toon", "arguments": {},
               "_meta": {"nl.overheid/sessie": {"kvk_nummer": "11111111"}}}),
    );
    assert_eq!(other["code"], -32602, "{other}");

    // Neither: one user on one machine names the company, as before.
    let (mut bridge, _dir) = demo_bridge_modern(&[], &[], json!({}));
    let listed = bridge.listed_tool("demo__sessie_toon");
    assert!(
        listed["inputSchema"]["properties"]
            .get("kvk_nummer")
            .is_some()
    );
    let named = sessie(&mut bridge, json!({"kvk_nummer": "55555555"}), None);
    // No session: the program's `sessie: null` is left out (its listed type is "string").
    assert_eq!(
        named["structuredContent"],
        json!({"kvk_nummer": "55555555"})
    );
}

#[test]
fn a_malformed_identity_in_meta_is_refused_and_never_lets_the_models_company_win() {
    // The argument is listed here (no session of the process), so a model may fill it: an
    // identity the host meant to give must never be dropped in favour of that value.
    let (mut bridge, _dir) = demo_bridge_modern(&[], &[], json!({}));
    for (meta, named) in [
        (json!({"nl.overheid/sessie": {}}), "noemt geen bedrijf"),
        (
            json!({"nl.overheid/sessie": {"kvk_nr": "11111111"}}),
            "nl.overheid/sessie.kvk_nr is onbekend",
        ),
        (
            json!({"nl.overheid/sessie": {"kvk_nummer": 11111111}}),
            "moet een tekst zijn",
        ),
        (
            json!({"nl.overheid/sessie": {"kvk_nummer": "1111"}}),
            "geen KvK-nummer",
        ),
        (json!({"nl.overheid/sessie": null}), "moet een object zijn"),
        (
            json!({"nl.overheid/sesie": {"kvk_nummer": "11111111"}}),
            "nl.overheid/sesie is onbekend",
        ),
    ] {
        let error = bridge.request_error(
            "tools/call",
            json!({"name": "demo__sessie_toon", "arguments": {"kvk_nummer": "55555555"},
                   "_meta": meta}),
        );
        assert_eq!(error["code"], -32602, "{meta}: {error}");
        let message = error["message"].as_str().unwrap();
        assert!(message.contains(named), "{meta}: {message}");
        assert!(!message.contains("55555555"), "{message}");
    }
    // With a session of its own, a malformed identity does not fall back to it either.
    let (mut bridge, _dir) =
        demo_bridge_modern(&[], &[("KVK_SESSIE_NUMMER", "44444444")], json!({}));
    let error = bridge.request_error(
        "tools/call",
        json!({"name": "demo__sessie_toon", "arguments": {}, "_meta": {"nl.overheid/sessie": {}}}),
    );
    assert_eq!(error["code"], -32602, "{error}");
}

/// Issue 40 item 7, the bridge: a proposal for a scheme's round in which the company already
/// filed says so where every host shows it (the text block, the instruction) with the first
/// report's reference, before a person approves, and its plan names that report; a proposal
/// before any filing says nothing of the kind.
#[test]
#[allow(
    clippy::disallowed_methods,
    reason = "a shell's PATH for the person's own call"
)]
fn a_second_report_of_a_round_is_said_before_a_person_approves() {
    let cli = rvo_cli();
    let store = tempfile::tempdir().unwrap();
    let data = store.path().to_str().unwrap();
    let mut bridge = Bridge::start(
        &["--tool", cli.to_str().unwrap()],
        &[("RVO_DATA_DIR", data)],
    );
    let propose = |bridge: &mut Bridge, measures: &str| -> (String, Value) {
        let proposed = bridge.call(
            "rvo__rapportage_voorstel",
            json!({"kvk_nummer": "68750110", "regeling_id": "EBR-2027", "maatregelen": measures}),
        );
        assert_eq!(proposed["isError"], false, "{proposed}");
        assert_eq!(
            proposed["structuredContent"]["status"], "open",
            "{proposed}"
        );
        let text = proposed["content"][0]["text"].as_str().unwrap().to_string();
        (text, proposed["structuredContent"].clone())
    };
    let (first_text, first) = propose(&mut bridge, "zonnepanelen");
    assert!(!first_text.contains("al een rapportage"), "{first_text}");
    assert!(first["plan"].get("eerder_ingediend").is_none(), "{first}");

    // A person files the first report of the round in a shell.
    let home = tempfile::tempdir().unwrap();
    let output = Command::new(&cli)
        .args([
            "rapportage",
            "indienen",
            "68750110",
            "EBR-2027",
            "LED",
            "--confirm",
        ])
        .env_clear()
        .env("HOME", home.path())
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("RVO_DATA_DIR", data)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let filed: Value = serde_json::from_slice(&output.stdout).unwrap();
    let reference = filed["referentienummer"].as_str().unwrap();

    let (text, second) = propose(&mut bridge, "warmtepomp");
    assert!(
        text.contains("al een rapportage ingediend") && text.contains(reference),
        "the text block says so: {text}"
    );
    assert_eq!(second["instructie"], text, "{second}");
    assert_eq!(
        second["plan"]["eerder_ingediend"][0]["referentienummer"], reference,
        "{second}"
    );
}

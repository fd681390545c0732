//! Path arguments that also take their JSON on stdin (`"x-stdin": true`, DISC-21): offered to
//! the model as the JSON value itself, written to the CLI's stdin with `-` as the argument, and
//! bounded like an argument. With the fixture CLI and end to end with regelrecht-cli `evalueer`.

mod harness;

use serde_json::{Value, json};

use harness::{Bridge, demo_bridge, regelrecht_cli};

/// 29 significant digits: exact as JSON text, not in an f64.
const EXACT: &str = "12345678901234567890.123456789";

fn parsed(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn a_stdin_json_argument_is_offered_as_its_value_and_passed_on_stdin() {
    for extra in [&[][..], &["--allow-local-paths"]] {
        let (mut bridge, _dir) = demo_bridge(extra);
        let tool = bridge.listed_tool("demo__json_toon");
        let input = &tool["inputSchema"];
        assert_eq!(
            input["properties"]["invoer"],
            json!({"type": "object", "description": "het object zelf"}),
            "{extra:?}: {tool}"
        );
        assert_eq!(input["required"], json!(["invoer"]));

        let text = format!(r#"{{"getal":{EXACT},"lijst":[true,"x"],"leeg":{{}}}}"#);
        let arguments = parsed(&format!(r#"{{"invoer": {text}, "kop": "-k"}}"#));
        let result = bridge.call("demo__json_toon", arguments);
        assert_eq!(result["isError"], false, "{result}");
        let data = &result["structuredContent"];
        assert_eq!(data["bron"], "stdin");
        assert_eq!(
            data["ruw"],
            text.as_str(),
            "the value reaches stdin exactly"
        );
        assert_eq!(data["kop"], "-k");
    }
}

#[test]
fn a_file_name_for_a_stdin_argument_is_refused_and_never_read() {
    let secret = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(secret.path(), r#"{"geheim": "inhoud"}"#).unwrap();
    let (mut bridge, _dir) = demo_bridge(&[]);
    let refused = bridge.call(
        "demo__json_toon",
        json!({"invoer": secret.path().to_str().unwrap()}),
    );
    assert_eq!(refused["isError"], true);
    assert_eq!(
        refused["_meta"]["nl.overheid/problem"]["exit_code"], 65,
        "{refused}"
    );
    assert_eq!(
        refused["_meta"]["nl.overheid/problem"]["errors"][0]["pointer"],
        "/invoer"
    );
    assert!(!refused.to_string().contains("inhoud"));
}

#[test]
fn a_stdin_payload_over_the_argument_limit_is_invalid_input() {
    // The fixture echoes its input twice (`ruw` and `inhoud`): room for a 128 KiB result.
    let (mut bridge, _dir) = demo_bridge(&["--max-result-bytes", "262144"]);
    // 64 KiB of value: `{"x":"…"}` adds 8 bytes.
    let over = bridge.call(
        "demo__json_toon",
        json!({"invoer": {"x": "a".repeat(64 * 1024 - 7)}}),
    );
    let error = &over["_meta"]["nl.overheid/problem"];
    assert_eq!(over["isError"], true);
    assert_eq!(error["exit_code"], 65, "{error}");
    assert_eq!(error["errors"][0]["pointer"], "/invoer");
    let detail = error["errors"][0]["detail"].as_str().unwrap();
    assert!(
        detail.contains("65537") && detail.contains("stdin"),
        "{detail}"
    );

    let fits = bridge.call(
        "demo__json_toon",
        json!({"invoer": {"x": "a".repeat(64 * 1024 - 8)}}),
    );
    assert_eq!(fits["isError"], false, "{fits}");
    assert_eq!(
        fits["structuredContent"]["ruw"].as_str().unwrap().len(),
        64 * 1024
    );
}

#[test]
fn regelrecht_evalueer_takes_its_parameters_as_one_json_object() {
    let cli = regelrecht_cli();
    let audit = tempfile::NamedTempFile::new().unwrap();
    let mut bridge = Bridge::start(
        &["--tool", cli.to_str().unwrap()],
        &[("REGELRECHT_AUDIT_LOG", audit.path().to_str().unwrap())],
    );
    let tool = bridge.listed_tool("regelrecht__evalueer");
    let properties = &tool["inputSchema"]["properties"];
    assert_eq!(properties["param_json"]["type"], "object", "{tool}");
    assert!(properties["param_json"].get("format").is_none());
    assert!(properties.get("corpus").is_none(), "corpus stays a path");

    let arguments = parsed(&format!(
        r#"{{"law_id": "besluit_activiteiten_leefomgeving", "peildatum": "2026-01-01",
            "uitvoer": ["heeft_onderzoeksplicht"],
            "param_json": {{"elektriciteitsverbruik_kwh": {EXACT}, "aardgasverbruik_m3": 31000,
                "betreft_gebruiksfunctie_bbl": false, "alleen_hernieuwbare_energie_op_locatie": false,
                "is_activiteit_artikel_3_3a_lid_1_onder_a": false,
                "is_activiteit_artikel_3_3a_lid_1_onder_b": false}}}}"#
    ));
    let result = bridge.call("regelrecht__evalueer", arguments);
    assert_eq!(result["isError"], false, "{result}");
    let data = &result["structuredContent"];
    assert_eq!(data["uitvoer"]["heeft_onderzoeksplicht"], true, "{data}");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains(&format!(r#""elektriciteitsverbruik_kwh":{EXACT}"#)),
        "every digit from the model to the engine and back: {text}"
    );

    // A type error in the object is the CLI's own input error, about the value.
    let wrong = bridge.call(
        "regelrecht__evalueer",
        json!({"law_id": "besluit_activiteiten_leefomgeving", "uitvoer": ["heeft_onderzoeksplicht"],
               "param_json": {"aardgasverbruik_m3": "veel"}}),
    );
    assert_eq!(wrong["isError"], true);
    assert_eq!(
        wrong["_meta"]["nl.overheid/problem"]["exit_code"], 65,
        "{wrong}"
    );
}

//! What today's hosts need of the bridge (issue 31): results they can show (a text block beside
//! `structuredContent` in both eras, and a cap on the size of one result).

mod harness;

use serde_json::{Value, json};

use harness::{Bridge, demo_bridge, demo_bridge_modern};

/// The text block of a success: one item, type text, the same value as `structuredContent`.
fn text_matches_structured(result: &Value) {
    assert_eq!(result["isError"], false, "{result}");
    let content = result["content"].as_array().expect("content");
    assert_eq!(content.len(), 1, "{result}");
    assert_eq!(content[0]["type"], "text");
    let text: Value = serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, result["structuredContent"], "{result}");
}

fn successes(bridge: &mut Bridge) -> Vec<Value> {
    vec![
        bridge.call("demo__omgeving_toon", json!({})),
        bridge.call("demo__json_toon", json!({"invoer": {"a": [1, 2]}})),
        bridge.call("demo__notitie_maak", json!({"id": "n1", "tekst": "x"})),
    ]
}

#[test]
fn every_success_carries_its_data_as_text_in_both_eras() {
    let (mut legacy, _dir) = demo_bridge(&[]);
    for result in successes(&mut legacy) {
        text_matches_structured(&result);
    }
    let (mut modern, _dir) = demo_bridge_modern(&[], &[], json!({}));
    for result in successes(&mut modern) {
        assert_eq!(result["resultType"], "complete");
        text_matches_structured(&result);
    }
}

#[test]
fn a_result_over_the_cap_is_an_error_that_says_how_to_ask_for_less() {
    let (mut bridge, _dir) = demo_bridge_modern(&["--max-result-bytes", "1024"], &[], json!({}));
    let small = bridge.call("demo__json_toon", json!({"invoer": {"a": "x".repeat(100)}}));
    text_matches_structured(&small);
    let big = bridge.call(
        "demo__json_toon",
        json!({"invoer": {"a": "x".repeat(2000)}}),
    );
    assert_eq!(big["isError"], true, "{big}");
    assert!(big.get("structuredContent").is_none());
    let problem = &big["_meta"]["nl.overheid/problem"];
    assert_eq!(problem["code"], "ANTWOORD_TE_GROOT");
    assert_eq!(problem["exit_code"], 76);
    assert_eq!(problem["limit_bytes"], 1024);
    assert!(problem["size_bytes"].as_u64().unwrap() > 4000, "{problem}");
    let hint = problem["hint"].as_str().unwrap();
    assert!(
        hint.contains("fields") && hint.contains("\"bron\""),
        "{hint}"
    );
    let text = big["content"][0]["text"].as_str().unwrap();
    assert!(text.len() < 1024 && !text.contains("xxxx"), "{text}");
    // The data itself: nowhere in the answer.
    assert!(!big.to_string().contains("xxxxxxxx"));
}

#[test]
fn the_cap_is_checked_when_the_bridge_starts() {
    let bridge = Bridge::start_raw(&["--max-result-bytes", "12"], &[]);
    assert_eq!(bridge.finish().code(), Some(2));
}

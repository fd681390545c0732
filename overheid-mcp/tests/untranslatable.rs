//! The untranslatable mark reaches the model (issue 41 item 4): in `onvertaalbaar: propagate`
//! mode `regelrecht__evalueer` returns the mark where the value would be, in `structuredContent`
//! and in the text block, also when `fields` keeps only the output. The law is written here, so
//! nothing from `../shared` is needed.

mod harness;

use serde_json::{Value, json};

use harness::{Bridge, regelrecht_cli};

/// One article whose only output depends on a construct the engine cannot run (as in
/// regelrecht-cli's own test of the mark): computed it would be the unrounded `bedrag`.
const ONVERTAALBAAR: &str = "$id: onvertaalbaar\nregulatory_layer: WET\nvalid_from: '2025-01-01'\narticles:\n  - number: '2'\n    machine_readable:\n      untranslatables:\n        - construct: afronden op hele euro's\n          reason: geen operatie\n          accepted: false\n      execution:\n        parameters:\n          - name: bedrag\n            type: amount\n        output:\n          - name: afgerond\n            type: amount\n        actions:\n          - output: afgerond\n            value: $bedrag\n";

/// `regelrecht__evalueer` on that law for `bedrag=1234`, in `mode`, with `fields` when given.
fn evaluate(bridge: &mut Bridge, mode: &str, fields: Option<&[&str]>) -> Value {
    let mut arguments = json!({
        "law_id": "onvertaalbaar",
        "uitvoer": ["afgerond"],
        "param": ["bedrag=1234"],
        "peildatum": "2025-06-01",
        "onvertaalbaar": mode,
    });
    if let Some(fields) = fields {
        arguments["fields"] = json!(fields);
    }
    bridge.call("regelrecht__evalueer", arguments)
}

/// The result's one text block, read as JSON.
fn text_block(result: &Value) -> Value {
    let content = result["content"].as_array().expect("content");
    assert_eq!(content.len(), 1, "{result}");
    assert_eq!(content[0]["type"], "text", "{result}");
    let text = content[0]["text"].as_str().expect("text");
    serde_json::from_str(text).unwrap_or_else(|e| panic!("text is no JSON ({e}): {text}"))
}

#[test]
fn the_mcp_result_keeps_the_untranslatable_mark_with_and_without_fields() {
    let corpus = tempfile::tempdir().unwrap();
    std::fs::write(corpus.path().join("onvertaalbaar.yaml"), ONVERTAALBAAR).unwrap();
    let cli = regelrecht_cli();
    let mut bridge = Bridge::start(
        &["--tool", cli.to_str().unwrap()],
        &[("REGELRECHT_CORPUS", corpus.path().to_str().unwrap())],
    );
    let mark = json!({
        "__untranslatable": true,
        "article": "2",
        "construct": "afronden op hele euro's",
    });

    // Without propagate the same call is either refused or computes the plain number, so the
    // assertions below see the mark, not a value that merely happens to be there.
    let refused = evaluate(&mut bridge, "error", None);
    assert_eq!(refused["isError"], true, "{refused}");
    assert_eq!(
        refused["_meta"]["nl.overheid/problem"]["code"], "ONVERTAALBAAR",
        "{refused}"
    );
    let warned = evaluate(&mut bridge, "warn", Some(&["uitvoer"]));
    assert_eq!(warned["isError"], false, "{warned}");
    assert_eq!(
        warned["structuredContent"],
        json!({"uitvoer": {"afgerond": 1234}})
    );

    let whole = evaluate(&mut bridge, "propagate", None);
    assert_eq!(whole["isError"], false, "{whole}");
    let structured = &whole["structuredContent"];
    assert_eq!(structured["uitvoer"]["afgerond"], mark, "{whole}");
    assert_eq!(
        structured["onvertaalbaar"]["gemarkeerd"],
        json!(["afgerond"])
    );
    assert_eq!(
        &text_block(&whole),
        structured,
        "the text says what the data says"
    );

    for fields in [&["uitvoer"][..], &["uitvoer.afgerond"]] {
        let projected = evaluate(&mut bridge, "propagate", Some(fields));
        assert_eq!(projected["isError"], false, "{fields:?}: {projected}");
        let expected = json!({"uitvoer": {"afgerond": mark}});
        assert_eq!(projected["structuredContent"], expected, "{fields:?}");
        assert_eq!(text_block(&projected), expected, "{fields:?}");
    }
}

//! `wet notities`: RegelRecht's example notes resolve against the live law, and a note follows
//! its text through renumbering and small rewording, or is reported orphaned.

use crate::support::{Sandbox, assert_valid_against, corpus_dir, output_schema};

#[test]
fn the_shared_example_notes_resolve_on_the_live_law() {
    test_support::conformance_dir!();
    let sandbox = Sandbox::new();
    let corpus = corpus_dir().display().to_string();
    let data = sandbox
        .run([
            "wet",
            "notities",
            "wet_op_de_zorgtoeslag",
            "--corpus",
            &corpus,
            "--peildatum",
            "2025-01-01",
        ])
        .json();
    assert_valid_against(&output_schema("wet_notities"), &data, "wet_notities");
    assert_eq!(data["aantal"], 4);
    assert_eq!(data["per_status"]["found"], 4, "{data}");
    assert!(
        data["bestand"]
            .as_str()
            .unwrap()
            .ends_with("annotations/wet_op_de_zorgtoeslag/annotations.yaml")
    );
}

const LAW: &str = "$id: genoteerd\nregulatory_layer: WET\nvalid_from: '2025-01-01'\narticles:\n  - number: 'NUM'\n    text: TEXT\n";
const NOTES: &str = "annotations:\n  - type: Annotation\n    motivation: commenting\n    creator: tester\n    target:\n      source: regelrecht://genoteerd\n      selector: {type: TextQuoteSelector, exact: 'aanspraak op een zorgtoeslag', prefix: 'heeft de verzekerde ', suffix: ' ter grootte'}\n    body: {type: TextualBody, value: uitleg, purpose: commenting}\n  - type: Annotation\n    motivation: commenting\n    target:\n      source: regelrecht://andere_wet\n      selector: {type: TextQuoteSelector, exact: x}\n    body: {type: TextualBody, value: elders, purpose: commenting}\n";

fn resolve(num: &str, text: &str) -> serde_json::Value {
    let sandbox = Sandbox::new();
    sandbox.write(
        "w/genoteerd.yaml",
        &LAW.replace("NUM", num).replace("TEXT", text),
    );
    sandbox.write("n/genoteerd/annotations.yaml", NOTES);
    let dir = sandbox.path().join("w").display().to_string();
    let notes = sandbox.path().join("n").display().to_string();
    let data = sandbox
        .run([
            "wet",
            "notities",
            "genoteerd",
            "--notities",
            &notes,
            "--corpus",
            &dir,
            "--peildatum",
            "2025-06-01",
        ])
        .json();
    assert_eq!(data["aantal"], 1, "only notes on this law: {data}");
    data["notities"][0].clone()
}

#[test]
fn a_note_follows_its_text_through_renumbering_and_rewording() {
    let exact = resolve(
        "2",
        "heeft de verzekerde aanspraak op een zorgtoeslag ter grootte van dat verschil",
    );
    assert_eq!(
        (
            exact["status"].as_str(),
            exact["artikel"].as_str(),
            exact["exact"].as_bool()
        ),
        (Some("found"), Some("2"), Some(true))
    );
    assert_eq!(exact["begin"], 20);
    assert_eq!(exact["tekst"], serde_json::json!(["uitleg"]));
    let renumbered = resolve(
        "4a",
        "heeft de verzekerde aanspraak op een zorgtoeslag ter grootte van dat verschil",
    );
    assert_eq!(renumbered["artikel"], "4a");
    let reworded = resolve(
        "2",
        "heeft de verzekerde recht op een zorgtoeslag ter grootte van het verschil",
    );
    assert_eq!(
        (reworded["status"].as_str(), reworded["exact"].as_bool()),
        (Some("found"), Some(false))
    );
    assert!(reworded["zekerheid"].as_f64().unwrap() < 1.0);
    let gone = resolve("2", "Geheel andere tekst.");
    assert_eq!(gone["status"], "orphaned");
    assert!(gone.get("artikel").is_none());
}

#[test]
fn notes_that_break_the_annotation_schema_are_invalid_input_with_their_paths() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "w/genoteerd.yaml",
        &LAW.replace("NUM", "2").replace("TEXT", "Tekst."),
    );
    let broken = NOTES
        .replacen("motivation: commenting", "motivation: GEHEIM_MOTIEF", 1)
        .replacen(
            "    body: {type: TextualBody, value: elders, purpose: commenting}\n",
            "",
            1,
        );
    let file = sandbox.write("n/genoteerd/annotations.yaml", &broken);
    let dir = sandbox.path().join("w").display().to_string();
    let error = sandbox
        .run([
            "wet",
            "notities",
            "genoteerd",
            "--notities",
            file.to_str().unwrap(),
            "--corpus",
            &dir,
            "--peildatum",
            "2025-06-01",
        ])
        .error(65);
    let details: Vec<&str> = error["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["detail"].as_str().unwrap())
        .collect();
    assert!(
        details
            .iter()
            .any(|d| d.contains("/annotations/0/motivation")),
        "{error}"
    );
    assert!(
        details.iter().any(|d| d.contains("/annotations/1")),
        "{error}"
    );
    assert!(!error.to_string().contains("GEHEIM_MOTIEF"), "{error}");

    // wet valideer checks a notes file against the same schema.
    let out = sandbox.run(["wet", "valideer", file.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{out:?}");
    let data = test_support::cli::compact_document(&out.stdout);
    assert_eq!(data["resultaten"][0]["inhoud"], "notities");
    assert_eq!(data["resultaten"][0]["geldig"], false);
    let fine = sandbox.write("n/ok/annotations.yaml", NOTES);
    let out = sandbox.run(["wet", "valideer", fine.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{out:?}");
}

//! The whole legal basis (`wettelijke_grondslag`): every article on the chain that produced a
//! value — a source in another law, the implementation of an open term, an override, a hook —
//! each with its
//! law version; outputs that a hook gives can be requested and come with their provenance
//! (`wijze: hook`); and the untranslatable mark travels with the value, so neither `--fields`
//! nor `--jq` can keep an amount and lose its mark.

use serde_json::{Value, json};

use crate::support::{Sandbox, assert_valid_against, output_schema};

/// Article 1 adds an input from another law to an open term that a regulation fills in, and
/// produces a decision (BESCHIKKING), on which a procedural law's hook fires.
const HOOFDWET: &str = "$id: hoofdwet\nname: Hoofdwet\nregulatory_layer: WET\nvalid_from: '2025-01-01'\narticles:\n  - number: '1'\n    text: Het bedrag is de premie plus het tarief.\n    url: https://example.org/hoofdwet/1\n    machine_readable:\n      open_terms:\n        - id: tarief\n          type: amount\n          required: true\n      execution:\n        produces:\n          legal_character: BESCHIKKING\n        input:\n          - name: premie\n            type: amount\n            source:\n              regulation: bronwet\n              output: premie\n        output:\n          - name: bedrag\n            type: amount\n        actions:\n          - output: bedrag\n            value:\n              operation: ADD\n              values: [$premie, $tarief]\n";
const BRONWET: &str = "$id: bronwet\nname: Bronwet\nregulatory_layer: WET\nvalid_from: '2024-01-01'\narticles:\n  - number: '7'\n    machine_readable:\n      execution:\n        output:\n          - name: premie\n            type: amount\n        actions:\n          - output: premie\n            value: 100\n";
const REGELING: &str = "$id: tariefregeling\nname: Tariefregeling\nregulatory_layer: MINISTERIELE_REGELING\nvalid_from: '2025-01-01'\narticles:\n  - number: '2'\n    machine_readable:\n      implements:\n        - law: hoofdwet\n          article: '1'\n          open_term: tarief\n      execution:\n        output:\n          - name: tarief\n            type: amount\n        actions:\n          - output: tarief\n            value: 25\n";
const PROCEDUREWET: &str = "$id: procedurewet\nname: Procedurewet\nregulatory_layer: WET\nvalid_from: '2020-01-01'\narticles:\n  - number: '3:46'\n    machine_readable:\n      hooks:\n        - hook_point: post_actions\n          applies_to:\n            legal_character: BESCHIKKING\n      execution:\n        output:\n          - name: motivering_vereist\n            type: boolean\n        actions:\n          - output: motivering_vereist\n            value: true\n";

fn chain_sandbox() -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.write("w/hoofdwet.yaml", HOOFDWET);
    sandbox.write("w/bronwet.yaml", BRONWET);
    sandbox.write("w/tariefregeling.yaml", REGELING);
    sandbox.write("w/procedurewet.yaml", PROCEDUREWET);
    sandbox
}

fn evalueer(sandbox: &Sandbox, outputs: &[&str], extra: &[&str]) -> test_support::cli::Run {
    let dir = sandbox.path().join("w").display().to_string();
    let mut args = vec![
        "evalueer",
        "hoofdwet",
        "--peildatum",
        "2025-06-01",
        "--corpus",
    ];
    args.push(&dir);
    for output in outputs {
        args.extend(["--uitvoer", output]);
    }
    args.extend_from_slice(extra);
    sandbox.run(args)
}

/// `(law_id, artikel, wijze, keten, via, valid_from)` of each entry for `output`.
fn basis(data: &Value, output: &str) -> Vec<(String, String, String, bool, Value, Value)> {
    data["wettelijke_grondslag"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["uitvoer"] == output)
        .map(|g| {
            (
                g["law_id"].as_str().unwrap().to_string(),
                g["artikel"].as_str().unwrap().to_string(),
                g["wijze"].as_str().unwrap().to_string(),
                g["keten"].as_bool().unwrap(),
                g["via"].clone(),
                g["valid_from"].clone(),
            )
        })
        .collect()
}

#[test]
fn the_legal_basis_cites_every_article_on_the_chain_with_its_version() {
    let sandbox = chain_sandbox();
    let data = evalueer(&sandbox, &["bedrag"], &[]).json();
    assert_valid_against(&output_schema("evalueer"), &data, "evalueer");
    assert_eq!(data["uitvoer"]["bedrag"], 125);
    let s = |t: &str| t.to_string();
    assert_eq!(
        basis(&data, "bedrag"),
        [
            (
                s("hoofdwet"),
                s("1"),
                s("direct"),
                false,
                Value::Null,
                json!("2025-01-01")
            ),
            (
                s("bronwet"),
                s("7"),
                s("bron"),
                true,
                json!("premie"),
                json!("2024-01-01")
            ),
            (
                s("tariefregeling"),
                s("2"),
                s("open_norm"),
                true,
                json!("tarief"),
                json!("2025-01-01")
            ),
        ],
        "{data}"
    );
    // `artikel` names the article that produced the answer, not the chain behind it.
    assert_eq!(data["artikel"], "1");
}

/// Article 1 takes the premium from the Bronwet; article 9 overrides that premium (lex specialis).
const BIJZONDERE_WET: &str = "$id: bijzondere_wet\nname: Bijzondere wet\nregulatory_layer: WET\nvalid_from: '2025-01-01'\narticles:\n  - number: '1'\n    machine_readable:\n      execution:\n        input:\n          - name: premie\n            type: amount\n            source:\n              regulation: bronwet\n              output: premie\n        output:\n          - name: bedrag\n            type: amount\n        actions:\n          - output: bedrag\n            value: $premie\n  - number: '9'\n    text: In afwijking van artikel 7 van de Bronwet is de premie 80.\n    machine_readable:\n      overrides:\n        - law: bronwet\n          article: '7'\n          output: premie\n      execution:\n        output:\n          - name: premie\n            type: amount\n        actions:\n          - output: premie\n            value: 80\n";

#[test]
fn an_article_that_overrides_a_source_is_cited_as_the_override_it_is() {
    let sandbox = chain_sandbox();
    sandbox.write("w/bijzondere_wet.yaml", BIJZONDERE_WET);
    let dir = sandbox.path().join("w").display().to_string();
    let data = sandbox
        .run([
            "evalueer",
            "bijzondere_wet",
            "--uitvoer",
            "bedrag",
            "--peildatum",
            "2025-06-01",
            "--corpus",
            &dir,
        ])
        .json();
    assert_valid_against(&output_schema("evalueer"), &data, "evalueer");
    assert_eq!(data["uitvoer"]["bedrag"], 80, "{data}");
    let s = |t: &str| t.to_string();
    // The overriding article is cited with its version, as an override; the article it
    // replaced gave nothing, so it is not.
    assert_eq!(
        basis(&data, "bedrag"),
        [
            (
                s("bijzondere_wet"),
                s("1"),
                s("direct"),
                false,
                Value::Null,
                json!("2025-01-01")
            ),
            (
                s("bijzondere_wet"),
                s("9"),
                s("override"),
                true,
                json!("premie"),
                json!("2025-01-01")
            ),
        ],
        "{data}"
    );
}

#[test]
fn an_output_a_hook_gives_can_be_requested_with_its_provenance() {
    let sandbox = chain_sandbox();
    let data = evalueer(&sandbox, &["motivering_vereist"], &[]).json();
    assert_valid_against(&output_schema("evalueer"), &data, "evalueer");
    assert_eq!(data["uitvoer"], json!({"motivering_vereist": true}));
    let entries = basis(&data, "motivering_vereist");
    assert_eq!(entries.len(), 1, "{data}");
    assert_eq!(
        (
            entries[0].0.as_str(),
            entries[0].1.as_str(),
            entries[0].2.as_str()
        ),
        ("procedurewet", "3:46", "hook")
    );
    // Together with an output of the article it fires on: that article runs once.
    let both = evalueer(&sandbox, &["bedrag", "motivering_vereist"], &[]).json();
    assert_eq!(
        both["uitvoer"],
        json!({"bedrag": 125, "motivering_vereist": true})
    );
    // And in a receipt, which re-runs to the same result.
    let with_receipt = evalueer(&sandbox, &["motivering_vereist"], &["--ontvangstbewijs"]).json();
    let file = sandbox.write("r.json", &with_receipt.to_string());
    let dir = sandbox.path().join("w").display().to_string();
    let check = sandbox.run([
        "ontvangstbewijs",
        "controleer",
        file.to_str().unwrap(),
        "--corpus",
        &dir,
    ]);
    assert_eq!(check.code, 0, "{check:?}");
}

#[test]
fn an_output_neither_the_law_nor_a_hook_gives_is_refused_naming_the_hook_outputs() {
    let sandbox = chain_sandbox();
    let error = evalueer(&sandbox, &["bestaat_niet"], &[]).error(65);
    assert!(
        error["detail"].as_str().unwrap().contains("bestaat_niet"),
        "{error}"
    );
    let hint = error["hint"].as_str().unwrap();
    assert!(
        hint.contains("bedrag") && hint.contains("motivering_vereist"),
        "{hint}"
    );
}

/// One article with an untranslatable construct that is not accepted.
const ONVERTAALBAAR: &str = "$id: onvertaalbaar\nregulatory_layer: WET\nvalid_from: '2025-01-01'\narticles:\n  - number: '2'\n    machine_readable:\n      untranslatables:\n        - construct: afronden op hele euro's\n          reason: geen operatie\n          accepted: false\n      execution:\n        parameters:\n          - name: bedrag\n            type: amount\n        output:\n          - name: afgerond\n            type: amount\n        actions:\n          - output: afgerond\n            value: $bedrag\n";

fn propagate(sandbox: &Sandbox, extra: &[&str]) -> test_support::cli::Run {
    let dir = sandbox.path().join("u").display().to_string();
    let mut args = vec![
        "evalueer",
        "onvertaalbaar",
        "--uitvoer",
        "afgerond",
        "--param",
        "bedrag=1234",
        "--peildatum",
        "2025-06-01",
        "--onvertaalbaar",
        "propagate",
        "--corpus",
        &dir,
    ];
    args.extend_from_slice(extra);
    sandbox.run(args)
}

#[test]
fn the_untranslatable_mark_is_the_value_so_no_projection_drops_it() {
    let sandbox = Sandbox::new();
    sandbox.write("u/onvertaalbaar.yaml", ONVERTAALBAAR);
    let mark = json!({
        "__untranslatable": true,
        "article": "2",
        "construct": "afronden op hele euro's",
    });
    let whole = propagate(&sandbox, &[]).json();
    assert_valid_against(&output_schema("evalueer"), &whole, "evalueer");
    assert_eq!(whole["uitvoer"]["afgerond"], mark, "{whole}");
    assert_eq!(whole["onvertaalbaar"]["gemarkeerd"], json!(["afgerond"]));
    assert_eq!(
        whole["onvertaalbaar"]["herkomst"]["afgerond"]["law_id"],
        "onvertaalbaar"
    );

    let fields = propagate(&sandbox, &["--fields", "uitvoer"]).json();
    assert_eq!(fields, json!({"uitvoer": {"afgerond": mark}}));
    let nested = propagate(&sandbox, &["--fields", "uitvoer.afgerond"]).json();
    assert_eq!(nested, json!({"uitvoer": {"afgerond": mark}}));

    let jq = propagate(&sandbox, &["--jq", ".uitvoer.afgerond"]);
    assert_eq!(jq.code, 0, "{jq:?}");
    let projected: Value = serde_json::from_str(jq.stdout.trim()).unwrap();
    assert_eq!(projected, mark);
    let jq_number = propagate(&sandbox, &["--jq", ".uitvoer.afgerond + 1"]);
    assert_ne!(jq_number.code, 0, "no arithmetic on a mark: {jq_number:?}");

    // In warn mode the partial value is computed and a warning says what was left out.
    let dir = sandbox.path().join("u").display().to_string();
    let warned = sandbox.run([
        "evalueer",
        "onvertaalbaar",
        "--uitvoer",
        "afgerond",
        "--param",
        "bedrag=1234",
        "--peildatum",
        "2025-06-01",
        "--onvertaalbaar",
        "warn",
        "--corpus",
        &dir,
    ]);
    assert_eq!(warned.json_after_warnings()["uitvoer"]["afgerond"], 1234);
}

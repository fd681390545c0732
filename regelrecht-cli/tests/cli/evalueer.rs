//! `evalueer`: typed parameters from `--param` and `--param-json`, outputs with their legal
//! basis, `--uitleg`, refusals naming what is missing, unknown laws and outputs.

use std::io::Write;
use std::process::Stdio;

use serde_json::{Value, json};

use crate::support::{BAL, Sandbox, assert_valid_against, corpus_dir, output_schema, run};

/// The Bal facts of one company; the first pair is its electricity use.
pub(crate) const PARAMS: [&str; 12] = [
    "--param",
    "elektriciteitsverbruik_kwh=62000",
    "--param",
    "aardgasverbruik_m3=31000",
    "--param",
    "betreft_gebruiksfunctie_bbl=false",
    "--param",
    "alleen_hernieuwbare_energie_op_locatie=nee",
    "--param",
    "is_activiteit_artikel_3_3a_lid_1_onder_a=false",
    "--param",
    "is_activiteit_artikel_3_3a_lid_1_onder_b=false",
];

fn evalueer(extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = ["evalueer", BAL, "--peildatum", "2026-01-01"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

#[test]
fn params_are_typed_and_each_output_has_its_article() {
    let mut extra = PARAMS.to_vec();
    extra.extend([
        "--uitvoer",
        "heeft_informatieplicht",
        "--uitvoer",
        "heeft_onderzoeksplicht",
    ]);
    let v = run(Sandbox::new().cmd(), evalueer(&extra)).json();
    assert_valid_against(&output_schema("evalueer"), &v, "evalueer");
    assert_eq!(v["law_id"], BAL);
    assert_eq!(v["peildatum"], "2026-01-01");
    assert_eq!(
        v["uitvoer"],
        json!({"heeft_informatieplicht": true, "heeft_onderzoeksplicht": false})
    );
    assert_eq!(v["artikel"], "5.15a, 5.15b");
    assert_eq!(v["gebruikte_invoer"]["elektriciteitsverbruik_kwh"], 62000);
    assert_eq!(
        v["gebruikte_invoer"]["alleen_hernieuwbare_energie_op_locatie"],
        false
    );
    assert_eq!(v["gebruikte_invoer"]["heeft_energiebesparingsplicht"], true);
    // The articles that produced the answers (the chain behind them is marked `keten`).
    let basis: Vec<&Value> = v["wettelijke_grondslag"]
        .as_array()
        .expect("grondslag")
        .iter()
        .filter(|g| g["keten"] == false)
        .collect();
    assert_eq!(basis[0]["uitvoer"], "heeft_informatieplicht");
    assert_eq!(basis[0]["artikel"], "5.15a");
    assert_eq!(basis[0]["wet"], "Besluit activiteiten leefomgeving");
    assert_eq!(
        basis[1]["url"],
        "https://wetten.overheid.nl/BWBR0041330/2026-01-01#Artikel5.15b"
    );
    assert_eq!(v["regulation_sha256"].as_str().expect("sha").len(), 64);
    assert!(v.get("uitleg").is_none());
}

#[test]
fn param_json_from_stdin_merges_with_param_which_wins() {
    let sandbox = Sandbox::new();
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("regelrecht-cli"));
    cmd.env_clear()
        .env("REGELRECHT_AUDIT_LOG", sandbox.audit_log())
        .args(evalueer(&[
            "--param-json",
            "-",
            "--param",
            "elektriciteitsverbruik_kwh=49999",
            "--uitvoer",
            "heeft_energiebesparingsplicht",
            "--uitleg",
        ]))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn");
    let params = json!({
        "elektriciteitsverbruik_kwh": 60000, "aardgasverbruik_m3": 24999,
        "betreft_gebruiksfunctie_bbl": false, "alleen_hernieuwbare_energie_op_locatie": false,
        "is_activiteit_artikel_3_3a_lid_1_onder_b": false
    });
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(params.to_string().as_bytes())
        .expect("write");
    let output = child.wait_with_output().expect("wait");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let v: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(v["uitvoer"]["heeft_energiebesparingsplicht"], false);
    assert_eq!(v["gebruikte_invoer"]["elektriciteitsverbruik_kwh"], 49999);
    let steps = v["uitleg"].as_array().expect("uitleg");
    assert_eq!(steps[0]["niveau"], 0);
    let action = steps
        .iter()
        .find(|s| s["soort"] == "actie")
        .expect("an action step");
    assert_eq!(action["artikel"], "5.15");
    assert_eq!(action["gebruikt"]["drempel_elektriciteit_kwh"], 50000);
    assert_eq!(action["waarde"], false);
}

#[test]
fn uitleg_is_readable_as_a_table() {
    let mut extra = PARAMS.to_vec();
    extra.extend([
        "--uitvoer",
        "heeft_onderzoeksplicht",
        "--uitleg",
        "--output",
        "table",
    ]);
    let r = run(Sandbox::new().cmd(), evalueer(&extra));
    assert_eq!(r.code, 0, "{r:#?}");
    assert!(
        r.stdout.contains("uitvoer.heeft_onderzoeksplicht"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("niveau  soort"), "{}", r.stdout);
    assert!(!r.stdout.trim_start().starts_with('{'));
}

#[test]
fn wrong_types_are_all_reported() {
    let sandbox = Sandbox::new();
    let json_file = sandbox.write("p.json", r#"{"aardgasverbruik_m3": "veel"}"#);
    let json_path = json_file.display().to_string();
    let error = run(
        sandbox.cmd(),
        evalueer(&[
            "--param",
            "elektriciteitsverbruik_kwh=50.000",
            "--param",
            "betreft_gebruiksfunctie_bbl=misschien",
            "--param-json",
            &json_path,
            "--uitvoer",
            "heeft_energiebesparingsplicht",
        ]),
    )
    .error(65);
    assert_eq!(error["code"], "ONGELDIGE_INVOER");
    let details: Vec<&str> = error["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| e["detail"].as_str().expect("detail"))
        .collect();
    assert_eq!(details.len(), 3, "{details:?}");
    assert!(details.iter().any(|d| d.contains("aardgasverbruik_m3")));
    assert!(
        details
            .iter()
            .any(|d| d.contains("betreft_gebruiksfunctie_bbl"))
    );
}

#[test]
fn malformed_param_json_and_param_are_input_errors() {
    let sandbox = Sandbox::new();
    let list = sandbox.write("lijst.json", "[1, 2]");
    let list = list.display().to_string();
    let error = run(
        sandbox.cmd(),
        evalueer(&[
            "--param-json",
            &list,
            "--param",
            "zonder-is",
            "--uitvoer",
            "x",
        ]),
    )
    .error(65);
    let pointers: Vec<&str> = error["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| e["pointer"].as_str().expect("pointer"))
        .collect();
    assert_eq!(pointers, ["/param", "/param_json"]);
}

#[test]
fn an_output_that_cannot_be_computed_is_an_error_naming_what_is_missing() {
    let sandbox = Sandbox::new();
    let error = run(
        sandbox.cmd(),
        evalueer(&[
            "--param",
            "elektriciteitsverbruik_kwh=1",
            "--param",
            "betreft_gebruiksfunctie_bbl=false",
            "--param",
            "is_activiteit_artikel_3_3a_lid_1_onder_b=false",
            "--uitvoer",
            "heeft_energiebesparingsplicht",
        ]),
    )
    .error(65);
    assert_eq!(error["code"], "ONTBREEKT");
    assert_eq!(error["errors"][0]["pointer"], "/param");
    assert!(
        error["errors"][0]["detail"]
            .as_str()
            .expect("detail")
            .contains("aardgasverbruik_m3"),
        "{error}"
    );
    // Every missing required parameter at once, not one per attempt.
    let details: Vec<&str> = error["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| e["detail"].as_str().expect("detail"))
        .collect();
    assert_eq!(details.len(), 2, "{details:?}");
    assert!(
        details[1].contains("alleen_hernieuwbare_energie_op_locatie"),
        "{details:?}"
    );
    let records = sandbox.audit_records();
    assert_eq!(records[0]["attributes"]["error.code"], "ONTBREEKT");
}

#[test]
fn a_cross_law_refusal_from_an_external_source_is_an_error() {
    test_support::conformance_dir!();
    let corpus = corpus_dir().display().to_string();
    let error = run(
        Sandbox::new().cmd(),
        [
            "evalueer",
            "wet_op_de_zorgtoeslag",
            "--uitvoer",
            "hoogte_zorgtoeslag",
            "--param",
            "bsn=999993653",
            "--peildatum",
            "2025-01-01",
            "--corpus",
            &corpus,
        ],
    )
    .error(65);
    assert!(error["errors"][0]["detail"].as_str().expect("detail").len() > 10);
    assert!(error.get("hint").is_some(), "{error}");
}

#[test]
fn unknown_output_is_65_and_lists_the_outputs() {
    let error = run(
        Sandbox::new().cmd(),
        evalueer(&["--uitvoer", "bestaat_niet"]),
    )
    .error(65);
    assert_eq!(error["errors"][0]["pointer"], "/uitvoer");
    assert!(
        error["hint"]
            .as_str()
            .expect("hint")
            .contains("heeft_informatieplicht")
    );
}

#[test]
fn unknown_law_is_66() {
    let error = run(
        Sandbox::new().cmd(),
        ["evalueer", "geen_wet", "--uitvoer", "x"],
    )
    .error(66);
    assert_eq!(error["code"], "NIET_GEVONDEN");
}

#[test]
fn a_law_not_in_force_on_the_date_is_66() {
    let error = run(
        Sandbox::new().cmd(),
        [
            "evalueer",
            "besluit_activiteiten_leefomgeving",
            "--uitvoer",
            "heeft_informatieplicht",
            "--peildatum",
            "2025-12-31",
        ],
    )
    .error(66);
    assert!(error["hint"].as_str().expect("hint").contains("2026-01-01"));
}

#[test]
fn a_cross_law_output_with_the_whole_corpus() {
    test_support::conformance_dir!();
    let corpus = corpus_dir().display().to_string();
    let v = run(
        Sandbox::new().cmd(),
        [
            "evalueer",
            "wet_op_de_zorgtoeslag",
            "--uitvoer",
            "standaardpremie",
            "--peildatum",
            "2025-01-01",
            "--corpus",
            &corpus,
            "--provenance",
        ],
    )
    .json();
    assert_eq!(v["data"]["uitvoer"]["standaardpremie"], 211200);
    let reached: Vec<&str> = v["provenance"]["wetten"]
        .as_array()
        .expect("wetten")
        .iter()
        .map(|w| w["law_id"].as_str().expect("id"))
        .collect();
    assert!(reached.contains(&"regeling_standaardpremie"), "{reached:?}");
    assert!(
        v["provenance"]["source_url"]
            .as_str()
            .expect("url")
            .starts_with("file:///")
    );
}

/// Whether `schema` rejects `instance` (the validator of the published schemas panics on an
/// invalid instance).
fn rejects(schema: &Value, instance: &Value) -> bool {
    std::panic::catch_unwind(|| assert_valid_against(schema, instance, "inputSchema")).is_err()
}

/// DISC-4: the repeatable `--uitvoer` and `--param` are arrays in discovery, with `minItems`
/// on the array and the NAAM=WAARDE `pattern` on its items (not nested one level too deep).
#[test]
fn repeatable_options_have_their_constraints_in_the_right_place() {
    let input = Sandbox::new().tool_entry("evalueer")["inputSchema"].clone();
    let param = &input["properties"]["param"];
    assert_eq!(param["type"], "array", "{param}");
    assert_eq!(param["items"]["type"], "string", "{param}");
    assert!(param["items"]["pattern"].is_string(), "{param}");
    assert!(param["items"].get("items").is_none(), "{param}");
    assert!(
        param.get("minItems").is_none(),
        "param is optional: {param}"
    );
    let uitvoer = &input["properties"]["uitvoer"];
    assert_eq!(uitvoer["type"], "array", "{uitvoer}");
    assert_eq!(uitvoer["minItems"], 1, "{uitvoer}");
    assert_eq!(uitvoer["items"]["type"], "string", "{uitvoer}");
    assert_eq!(uitvoer["items"]["minLength"], 1, "{uitvoer}");
    assert!(uitvoer["items"].get("minItems").is_none(), "{uitvoer}");
    assert!(uitvoer["items"].get("items").is_none(), "{uitvoer}");
    for prop in [param, uitvoer] {
        assert!(prop["description"].is_string(), "{prop}");
    }

    let call =
        |uitvoer: Value, param: Value| json!({"law_id": BAL, "uitvoer": uitvoer, "param": param});
    assert_valid_against(
        &input,
        &call(
            json!(["heeft_onderzoeksplicht"]),
            json!(["a=1", "b=", " c = x=y"]),
        ),
        "inputSchema",
    );
    assert_valid_against(&input, &call(json!(["o"]), json!([])), "inputSchema");
    for (uitvoer, param) in [
        (json!([]), json!(["a=1"])),
        (json!([""]), json!(["a=1"])),
        (json!(["o"]), json!(["zonder-is"])),
        (json!(["o"]), json!(["=1"])),
        (json!(["o"]), json!(["  =1"])),
        (json!(["o"]), json!("a=1")),
    ] {
        assert!(
            rejects(&input, &call(uitvoer.clone(), param.clone())),
            "{uitvoer} {param}"
        );
    }
}

/// The tool itself refuses what the schema refuses: a blank NAAM is exit 65.
#[test]
fn a_param_without_a_name_is_refused() {
    for param in ["=1", "  =1", "zonder-is"] {
        let run = run(
            Sandbox::new().cmd(),
            evalueer(&["--uitvoer", "heeft_onderzoeksplicht", "--param", param]),
        );
        let error = run.error(65);
        assert_eq!(error["errors"][0]["pointer"], "/param", "{param}: {error}");
    }
}

#[test]
fn a_misspelled_param_is_65_with_the_name_meant_and_an_unrelated_one_a_warning() {
    let sandbox = Sandbox::new();
    let mut extra = PARAMS.to_vec();
    extra.extend([
        "--uitvoer",
        "heeft_informatieplicht",
        "--param",
        "aardgasverbruk_m3=5",
    ]);
    let args = evalueer(&extra);
    let error = run(sandbox.cmd(), &args).error(65);
    let detail = error["errors"][0]["detail"].as_str().expect("detail");
    assert!(
        detail.contains("bedoelt u 'aardgasverbruik_m3'?"),
        "{detail}"
    );
    assert_eq!(error["errors"][0]["pointer"], "/param");

    let mut extra = PARAMS.to_vec();
    extra.extend([
        "--uitvoer",
        "heeft_informatieplicht",
        "--param",
        "iets_heel_anders=5",
    ]);
    let args = evalueer(&extra);
    let outcome = run(sandbox.cmd(), &args);
    assert_eq!(outcome.code, 0, "{outcome:?}");
    assert!(
        outcome.stderr.contains("niet gedeclareerd"),
        "{}",
        outcome.stderr
    );
}

/// A law comparing a `type: string` parameter with 42 and with "42", and a number parameter.
const TYPING_LAW: &str = "$id: typering\nregulatory_layer: WET\nvalid_from: '2025-01-01'\narticles:\n  - number: '1'\n    text: Typering.\n    machine_readable:\n      execution:\n        parameters:\n          - name: waarde\n            type: string\n          - name: grens\n            type: number\n        output:\n          - name: is_getal\n            type: boolean\n          - name: is_tekst\n            type: boolean\n        actions:\n          - output: is_getal\n            value:\n              operation: EQUALS\n              subject: $waarde\n              value: 42\n          - output: is_tekst\n            value:\n              operation: EQUALS\n              subject: $waarde\n              value: '42'\n";

#[test]
fn one_typing_rule_for_typed_values_in_evalueer_batch_and_scenario() {
    let sandbox = Sandbox::new();
    sandbox.write("typ/typering.yaml", TYPING_LAW);
    let dir = sandbox.path().join("typ").display().to_string();
    let base = [
        "evalueer",
        "typering",
        "--uitvoer",
        "is_getal",
        "--uitvoer",
        "is_tekst",
        "--peildatum",
        "2025-06-01",
        "--corpus",
        &dir,
    ];
    // A JSON number for a `type: string` parameter stays that number, in every command.
    let number = sandbox
        .write("getal.json", r#"{"waarde": 42}"#)
        .display()
        .to_string();
    let mut args = base.to_vec();
    args.extend(["--param-json", &number]);
    let done = run(sandbox.cmd(), &args);
    let v = done.json_after_warnings();
    assert_eq!(v["uitvoer"], json!({"is_getal": true, "is_tekst": false}));
    assert!(
        done.stderr.contains("'waarde'") && done.stderr.contains("als getal doorgegeven"),
        "{}",
        done.stderr
    );
    let cases = sandbox
        .write("cases.jsonl", "{\"id\": 1, \"params\": {\"waarde\": 42}}\n{\"id\": 2, \"params\": {\"waarde\": \"42\"}}\n{\"id\": 3, \"params\": {\"grens\": \"veel\"}}\n")
        .display()
        .to_string();
    let mut args = base.to_vec();
    args.extend(["--batch", &cases]);
    let out = run(sandbox.cmd(), &args);
    let lines: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines[0]["resultaat"]["uitvoer"],
        json!({"is_getal": true, "is_tekst": false})
    );
    assert_eq!(
        lines[1]["resultaat"]["uitvoer"],
        json!({"is_getal": false, "is_tekst": true})
    );
    assert_eq!(lines[2]["fout"]["code"], "ONGELDIGE_INVOER", "{}", lines[2]);
    let feature = sandbox.write(
        "typering.feature",
        "@tier:core\nFeature: typering\n  Background:\n    Given the calculation date is \"2025-06-01\"\n  Scenario: getal\n    Given parameter \"waarde\" is 42\n    When I evaluate outputs \"is_getal, is_tekst\" of \"typering\"\n    Then the execution succeeds\n    Then output \"is_getal\" is true\n    Then output \"is_tekst\" is false\n  Scenario: tekst waar een getal hoort\n    Given parameter \"grens\" is \"veel\"\n    When I evaluate outputs \"is_getal\" of \"typering\"\n    Then the execution fails\n",
    );
    let out = run(
        sandbox.cmd(),
        ["scenario", &feature.display().to_string(), "--corpus", &dir],
    );
    assert_eq!(out.code, 0, "{out:?}");
    // The misfit a scenario's step gives is refused as evalueer refuses it.
    let text = sandbox
        .write("tekst.json", r#"{"grens": "veel"}"#)
        .display()
        .to_string();
    let mut args = base.to_vec();
    args.extend(["--param-json", &text]);
    assert_eq!(
        run(sandbox.cmd(), &args).error(65)["code"],
        "ONGELDIGE_INVOER"
    );
}

/// A law adding one year to a date parameter.
const YEAR_LATER_LAW: &str = "$id: jaar_later\nregulatory_layer: WET\nvalid_from: '2025-01-01'\narticles:\n  - number: '1'\n    text: Een jaar later.\n    machine_readable:\n      execution:\n        parameters:\n          - name: datum\n            type: date\n        output:\n          - name: een_jaar_later\n            type: date\n        actions:\n          - output: een_jaar_later\n            value:\n              operation: DATE_ADD\n              date: $datum\n              years: 1\n";

#[test]
fn a_computed_date_beyond_year_9999_is_refused_as_input_is() {
    let sandbox = Sandbox::new();
    sandbox.write("j/jaar_later.yaml", YEAR_LATER_LAW);
    let dir = sandbox.path().join("j").display().to_string();
    let later = |date: &str| {
        let param = format!("datum={date}");
        run(
            sandbox.cmd(),
            [
                "evalueer",
                "jaar_later",
                "--uitvoer",
                "een_jaar_later",
                "--param",
                &param,
                "--peildatum",
                "2025-06-01",
                "--corpus",
                &dir,
            ],
        )
    };
    // What the engine emits reads back as input.
    let v = later("9998-12-31").json();
    assert_eq!(v["uitvoer"]["een_jaar_later"], "9999-12-31");
    let error = later("9999-01-01").error(65);
    let detail = error["detail"].as_str().expect("detail");
    assert!(
        detail.contains("10000-01-01") && detail.contains("9999"),
        "{detail}"
    );
    // As input, a five-digit year is refused too.
    let error = later("10000-01-01").error(65);
    assert!(error.to_string().contains("datum"), "{error}");
}

/// Errors are Dutch throughout: a cut-off `--param-json` names the place, not serde_json's
/// English ("EOF while parsing a string").
#[test]
fn a_cut_off_param_json_is_explained_in_dutch() {
    let sandbox = Sandbox::new();
    let cut = sandbox.write("kort.json", r#"{"elektriciteitsverbruik_kwh": "62"#);
    let cut = cut.display().to_string();
    let error = run(
        sandbox.cmd(),
        evalueer(&[
            "--param-json",
            &cut,
            "--uitvoer",
            "heeft_energiebesparingsplicht",
        ]),
    )
    .error(65);
    let text = error.to_string();
    assert!(
        text.contains("houdt halverwege op (regel 1, kolom"),
        "{text}"
    );
    assert!(
        !text.contains("EOF") && !text.contains("while parsing"),
        "{text}"
    );
}

//! `wet valideer`: law files against the format — the JSON Schema shipped in the program, the
//! `$schema` version, the engine's reading and the unit checks — every violation with its path;
//! exit 1 (`WET_ONGELDIG`) after the data when a file is invalid; no value of a file echoed.

use serde_json::Value;
use test_support::cli::compact_document;

use crate::support::{Sandbox, assert_valid_against, output_schema, run};

/// A small law that satisfies the schema.
const VALID: &str = "$schema: https://raw.githubusercontent.com/MinBZK/regelrecht/refs/tags/schema-v0.5.6/schema/v0.5.6/schema.json\n$id: geldige_wet\nregulatory_layer: WET\nbwb_id: BWBR0000001\npublication_date: '2025-01-01'\nvalid_from: '2025-01-01'\nurl: https://example.org/w\narticles:\n  - number: '1'\n    text: Het bedrag is tien euro.\n    url: https://example.org/w/1\n    machine_readable:\n      definitions:\n        bedrag:\n          value: 1000\n          type_spec:\n            unit: eurocent\n      execution:\n        parameters:\n          - name: dagen\n            type: number\n            type_spec:\n              unit: days\n        output:\n          - name: bedrag_eurocent\n            type: amount\n        actions:\n          - output: bedrag_eurocent\n            value: $bedrag\n";

fn valideer(sandbox: &Sandbox, paths: &[&str]) -> test_support::cli::Run {
    let mut args = vec!["wet", "valideer"];
    args.extend_from_slice(paths);
    run(sandbox.cmd(), &args)
}

fn errors_of(result: &Value) -> Vec<(String, String)> {
    result["fouten"]
        .as_array()
        .expect("fouten")
        .iter()
        .map(|f| {
            (
                f["soort"].as_str().unwrap().to_string(),
                f["pad"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_valid_law_passes_and_a_directory_is_read_as_a_corpus() {
    let sandbox = Sandbox::new();
    let file = sandbox.write("w/geldige_wet/2025-01-01.yaml", VALID);
    sandbox.write("w/geldige_wet/status.yaml", "status: harvested\n");
    sandbox.write("w/annotations.yaml", "annotations: []\n");
    let v = valideer(&sandbox, &[&file.display().to_string()]).json();
    assert_valid_against(&output_schema("wet_valideer"), &v, "wet_valideer");
    assert_eq!(v["geldig"], true, "{v}");
    assert_eq!(v["schema"], "v0.5.6");
    assert_eq!(v["resultaten"][0]["law_id"], "geldige_wet");
    let dir = sandbox.path().join("w").display().to_string();
    let v = valideer(&sandbox, &[&dir]).json();
    assert_eq!(v["bestanden"], 1, "{v}");
}

#[test]
fn every_violation_is_listed_with_its_path_and_the_run_ends_with_1() {
    let sandbox = Sandbox::new();
    let schema_errors = VALID
        .replace("regulatory_layer: WET", "regulatory_layer: GEHEIME_LAAG")
        .replace("    text: Het bedrag is tien euro.\n", "")
        .replace("            type: amount", "            type: bedrag");
    let bad = sandbox.write("a/schema.yaml", &schema_errors);
    let units = VALID
        .replace(
            "      execution:",
            "        termijn:\n          value: 3\n          type_spec:\n            unit: days\n      execution:",
        )
        .replace(
            "value: $bedrag",
            "value:\n              operation: ADD\n              values: [$bedrag, $termijn]",
        );
    let units = sandbox.write("a/eenheden.yaml", &units);
    let version = sandbox.write(
        "a/versie.yaml",
        &VALID.replace("schema-v0.5.6/schema/v0.5.6", "schema-v0.7.1/schema/v0.7.1"),
    );
    let yaml = sandbox.write("a/kapot.yaml", "$id: kapot\narticles: [\n");
    let good = sandbox.write("a/goed.yaml", VALID);
    let paths: Vec<String> = [&bad, &units, &version, &yaml, &good]
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
    let out = valideer(&sandbox, &refs);
    assert_eq!(out.code, 1, "{out:?}");
    let data = compact_document(&out.stdout);
    assert_valid_against(&output_schema("wet_valideer"), &data, "wet_valideer");
    assert_eq!(data["geldig"], false);
    assert_eq!(data["ongeldig"], 4);
    let results = data["resultaten"].as_array().unwrap();

    let found = errors_of(&results[0]);
    for path in [
        "/regulatory_layer",
        "/articles/0",
        "/articles/0/machine_readable/execution/output/0/type",
    ] {
        assert!(
            found.iter().any(|(kind, p)| kind == "schema" && p == path),
            "{path}: {found:?}"
        );
    }
    assert!(
        !out.stdout.contains("GEHEIME_LAAG"),
        "a value of the file is echoed"
    );

    let found = errors_of(&results[1]);
    assert_eq!(
        found,
        [(
            "eenheden".to_string(),
            "/articles/0/machine_readable".to_string()
        )]
    );
    let found = errors_of(&results[2]);
    assert!(
        found.contains(&("schemaversie".to_string(), "/$schema".to_string())),
        "{found:?}"
    );
    assert!(
        results[2]["fouten"][0]["melding"]
            .as_str()
            .unwrap()
            .contains("v0.7.1")
    );
    let found = errors_of(&results[3]);
    assert_eq!(found, [("yaml".to_string(), String::new())]);
    assert!(
        results[3]["fouten"][0]["regel"].as_u64().unwrap() >= 2,
        "{}",
        results[3]
    );
    assert_eq!(results[4]["geldig"], true);

    let error = compact_document(&format!("{}\n", out.stderr.lines().last().unwrap()));
    assert_eq!(error["code"], "WET_ONGELDIG");
    assert_eq!(error["exit_code"], 1);
}

#[test]
fn a_missing_path_is_65() {
    let sandbox = Sandbox::new();
    let missing = sandbox.path().join("nergens.yaml").display().to_string();
    let error = valideer(&sandbox, &[&missing]).error(65);
    assert_eq!(error["errors"][0]["pointer"], "/paden");
}

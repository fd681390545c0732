//! `wet valideer`: law files against the format — the JSON Schema of the version each file's
//! `$schema` declares (v0.2.0 to v0.5.6 shipped in the program; none, or another, is invalid),
//! the engine's reading and the unit checks — every violation with its path; exit 1
//! (`WET_ONGELDIG`) after the data when a file is invalid; no value of a file echoed.

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
    assert_eq!(v["schema"], "v0.2.0 t/m v0.5.6");
    assert_eq!(v["resultaten"][0]["law_id"], "geldige_wet");
    assert_eq!(v["resultaten"][0]["schemaversie"], "v0.5.6");
    assert_eq!(v["resultaten"][0]["inhoud"], "wet");
    let dir = sandbox.path().join("w").display().to_string();
    let v = valideer(&sandbox, &[&dir]).json();
    // The law and the notes file; the status file is passed over.
    assert_eq!(v["bestanden"], 2, "{v}");
    let inhoud: Vec<&str> = v["resultaten"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["inhoud"].as_str().unwrap())
        .collect();
    assert_eq!(inhoud, ["notities", "wet"], "{v}");
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

/// VALID with an `untranslatables` list on its article: in the schema since v0.5.1.
fn with_untranslatable(version: &str) -> String {
    VALID
        .replace("v0.5.6", version)
        .replace(
            "      execution:\n",
            "      untranslatables:\n        - construct: afronden\n          reason: geen operatie\n          accepted: true\n      execution:\n",
        )
}

#[test]
fn each_file_is_checked_against_the_schema_version_it_declares() {
    let sandbox = Sandbox::new();
    let newer = sandbox.write("v/nieuw.yaml", &with_untranslatable("v0.5.6"));
    let older = sandbox.write("v/oud.yaml", &with_untranslatable("v0.5.0"));
    let plain_old = sandbox.write("v/oud_zonder.yaml", &VALID.replace("v0.5.6", "v0.3.1"));
    let paths: Vec<String> = [&newer, &older, &plain_old]
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
    let out = valideer(&sandbox, &refs);
    assert_eq!(out.code, 1, "{out:?}");
    let data = compact_document(&out.stdout);
    let results = data["resultaten"].as_array().unwrap();
    assert_eq!(
        (
            results[0]["schemaversie"].as_str(),
            results[0]["geldig"].as_bool()
        ),
        (Some("v0.5.6"), Some(true)),
        "{data}"
    );
    assert_eq!(results[1]["schemaversie"], "v0.5.0");
    assert_eq!(results[1]["geldig"], false, "{data}");
    let found = errors_of(&results[1]);
    assert!(
        found
            .iter()
            .any(|(kind, path)| kind == "schema" && path == "/articles/0/machine_readable"),
        "{found:?}"
    );
    assert_eq!(results[2]["schemaversie"], "v0.3.1");
    assert_eq!(results[2]["geldig"], true, "{data}");
}

#[test]
fn a_file_without_schema_or_with_an_unknown_schema_url_is_invalid_naming_it() {
    let sandbox = Sandbox::new();
    let without = sandbox.write(
        "s/zonder.yaml",
        &VALID.replace(
            "$schema: https://raw.githubusercontent.com/MinBZK/regelrecht/refs/tags/schema-v0.5.6/schema/v0.5.6/schema.json\n",
            "",
        ),
    );
    let url = "https://example.org/regelrecht/schema/latest/schema.json";
    let unknown = sandbox.write(
        "s/onbekend.yaml",
        &VALID.replace(
            "https://raw.githubusercontent.com/MinBZK/regelrecht/refs/tags/schema-v0.5.6/schema/v0.5.6/schema.json",
            url,
        ),
    );
    let paths = [without.display().to_string(), unknown.display().to_string()];
    let out = valideer(&sandbox, &[&paths[0], &paths[1]]);
    assert_eq!(out.code, 1, "{out:?}");
    let data = compact_document(&out.stdout);
    for (index, named) in [(0, "ontbreekt"), (1, url)] {
        let result = &data["resultaten"][index];
        assert_eq!(result["geldig"], false, "{result}");
        assert_eq!(result["schemaversie"], Value::Null);
        let fout = &result["fouten"][0];
        assert_eq!(fout["soort"], "schemaversie", "{result}");
        assert!(
            fout["melding"].as_str().unwrap().contains(named),
            "{result}"
        );
    }
}

/// The reference's `validate` agrees on the shared corpus re-declared to every shipped version:
/// pinned here as the counts it gave (bench/regelrecht/valideer.sh runs both side by side).
#[test]
fn the_shared_corpus_re_declared_to_each_version_gives_the_reference_s_verdicts() {
    test_support::conformance_dir!();
    // Invalid files per version, as the reference's validate (regelrecht-engine 0.3.0) found
    // them on the 26 law files of the shared corpus.
    let expected = [
        ("v0.2.0", 16),
        ("v0.3.0", 16),
        ("v0.3.1", 15),
        ("v0.3.2", 15),
        ("v0.4.0", 13),
        ("v0.5.0", 3),
        ("v0.5.1", 2),
        ("v0.5.2", 2),
        ("v0.5.3", 2),
        ("v0.5.4", 1),
        ("v0.5.5", 0),
        ("v0.5.6", 0),
    ];
    let sandbox = Sandbox::new();
    let corpus = crate::support::corpus_dir();
    let mut laws = Vec::new();
    collect_yaml(&corpus, &mut laws);
    assert_eq!(laws.len(), 26);
    for (version, invalid) in expected {
        let url = format!(
            "https://raw.githubusercontent.com/MinBZK/regelrecht/refs/tags/schema-{version}/schema/{version}/schema.json"
        );
        for (index, law) in laws.iter().enumerate() {
            let text = std::fs::read_to_string(law).unwrap();
            sandbox.write(&format!("{version}/{index}.yaml"), &redeclared(&text, &url));
        }
        let dir = sandbox.path().join(version).display().to_string();
        let data = compact_document(&valideer(&sandbox, &[&dir]).stdout);
        assert_eq!(data["bestanden"], 26, "{version}");
        assert_eq!(data["ongeldig"], invalid, "{version}: {data}");
        for result in data["resultaten"].as_array().unwrap() {
            assert_eq!(result["schemaversie"], version);
        }
    }
}

fn collect_yaml(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect_yaml(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml") {
            out.push(path);
        }
    }
}

/// `text` with its `$schema` (plain or folded on the next line) set to `url`.
fn redeclared(text: &str, url: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.starts_with("$schema:") {
            if line.trim_end().ends_with(">-") {
                lines.next();
            }
            out.push_str(&format!("$schema: {url}\n"));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

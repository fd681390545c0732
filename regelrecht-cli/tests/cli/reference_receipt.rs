//! `ontvangstbewijs controleer` reads the reference engine's execution receipt (RFC-013, what
//! its `evaluate --receipt` prints): unsealed, law hashes as `sha256:<hex>` of the file's bytes,
//! numbers as binary floating point, every loaded law version in its scope. The fixture follows
//! that shape, for a law of our own; the reference's own receipts over the shared corpus are
//! each confirmed, and refused when a value, a law's hash, the scope, the engine configuration
//! or the schema version is changed.

use serde_json::{Value, json};

use crate::support::{Sandbox, assert_valid_against, output_schema};

const LAW: &str = "$id: kleine_toeslag\nname: Kleine toeslag\nregulatory_layer: WET\nvalid_from: '2025-01-01'\narticles:\n  - number: '1'\n    text: De toeslag is anderhalf maal het aantal maal tien euro.\n    machine_readable:\n      definitions:\n        bedrag: 1000\n        factor: 1.5\n      execution:\n        parameters:\n          - name: aantal\n            type: number\n        output:\n          - name: toeslag\n            type: amount\n          - name: deel\n            type: number\n        actions:\n          - output: toeslag\n            value:\n              operation: MULTIPLY\n              values: [$aantal, $bedrag]\n          - output: deel\n            value:\n              operation: MULTIPLY\n              values: [$aantal, $factor]\n";

fn sha256(text: &str) -> String {
    common::digest::sha256_hex(text.as_bytes())
}

/// An older version of the same law, in force in 2024: the reference lists it in its scope too.
const OLDER: &str = "$id: kleine_toeslag\nname: Kleine toeslag\nregulatory_layer: WET\nvalid_from: '2024-01-01'\narticles:\n  - number: '1'\n    machine_readable:\n      execution:\n        parameters:\n          - name: aantal\n            type: number\n        output:\n          - name: toeslag\n            type: amount\n          - name: deel\n            type: number\n        actions:\n          - output: toeslag\n            value: 0\n          - output: deel\n            value: 0\n";

/// A receipt as the reference engine writes it for `aantal` on 2025-06-01, asking `toeslag`
/// only (`deel` comes with its article), both versions of the law in its scope.
fn reference_receipt(hash: &str, aantal: u32, toeslag: u32, deel: f64) -> Value {
    json!({
        "provenance": {
            "engine": "regelrecht",
            "engine_version": "0.3.0",
            "schema_version": null,
            "regulation_id": "kleine_toeslag",
            "regulation_valid_from": "2025-01-01",
            "regulation_hash": format!("sha256:{hash}"),
        },
        "engine_config": {
            "connectivity": "solo",
            "legal_status": "simulation",
            "untranslatable_mode": "error",
        },
        "scope": {
            "sources": [],
            "loaded_regulations": [
                {"id": "kleine_toeslag", "valid_from": "2025-01-01", "hash": format!("sha256:{hash}")},
                {"id": "kleine_toeslag", "valid_from": "2024-01-01", "hash": format!("sha256:{}", sha256(OLDER))},
            ],
        },
        "execution": {
            "calculation_date": "2025-06-01",
            "parameters": {"aantal": aantal},
        },
        "results": {
            "requested_outputs": ["toeslag"],
            "outputs": {"toeslag": toeslag, "deel": deel},
            "output_provenance": {},
        },
        "accepted_values": [],
        "timestamp": "2026-12-04T06:00:00+00:00",
    })
}

/// A sandbox with both versions of the law in `w/`.
fn law_sandbox() -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.write("w/kleine_toeslag/2025-01-01.yaml", LAW);
    sandbox.write("w/kleine_toeslag/2024-01-01.yaml", OLDER);
    sandbox
}

fn check(sandbox: &Sandbox, receipt: &Value) -> test_support::cli::Run {
    let file = sandbox.write("bewijs.json", &receipt.to_string());
    let dir = sandbox.path().join("w").display().to_string();
    sandbox.run([
        "ontvangstbewijs",
        "controleer",
        file.to_str().unwrap(),
        "--corpus",
        &dir,
    ])
}

#[test]
fn a_reference_receipt_reruns_to_the_same_result() {
    let sandbox = law_sandbox();
    let run = check(&sandbox, &reference_receipt(&sha256(LAW), 3, 3000, 4.5));
    assert_eq!(run.code, 0, "{run:?}");
    let data: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_valid_against(
        &output_schema("ontvangstbewijs_controleer"),
        &data,
        "controleer",
    );
    assert_eq!(data["gelijk"], true, "{data}");
    assert_eq!(data["formaat"], "referentie-engine");
    assert_eq!(data["verzegeling"], "geen");
    assert_eq!(data["engine"]["bewijs"], "regelrecht 0.3.0");
    assert_eq!(data["gewijzigd"], json!([]));
    // Every version of the scope is resolved by its hash: the older one is another version,
    // not a changed one.
    let wetten = data["wetten"].as_array().unwrap();
    assert_eq!(wetten.len(), 2, "{data}");
    assert_eq!(wetten[0]["sha256_nu"], sha256(LAW));
    assert_eq!(wetten[1]["sha256_nu"], sha256(OLDER));
    assert!(wetten.iter().all(|w| w["gelijk"] == true), "{data}");
    // The co-product `deel` is listed and compared too.
    assert_eq!(data["uitvoer"].as_array().unwrap().len(), 2, "{data}");
    // 4.5 written as a float by the reference is the same amount as ours.
    assert!(
        data["uitvoer"]
            .as_array()
            .unwrap()
            .iter()
            .all(|o| o["gelijk"] == true),
        "{data}"
    );
}

#[test]
fn a_reference_receipt_of_another_law_version_or_result_differs() {
    let sandbox = law_sandbox();
    let changed = LAW.replace("bedrag: 1000", "bedrag: 1100");
    let stale = check(
        &sandbox,
        &reference_receipt(&sha256(&changed), 2, 2000, 3.0),
    );
    assert_eq!(stale.code, 1, "{stale:?}");
    let data: Value = serde_json::from_str(&stale.stdout).unwrap();
    assert_eq!(data["gelijk"], false);
    assert_eq!(data["wetten"][0]["gelijk"], false);
    assert_eq!(data["gewijzigd"], json!(["wet"]), "{data}");
    assert!(
        stale.stderr.contains("ONTVANGSTBEWIJS_AFWIJKEND"),
        "{stale:?}"
    );

    let wrong = check(&sandbox, &reference_receipt(&sha256(LAW), 2, 2001, 3.0));
    assert_eq!(wrong.code, 1, "{wrong:?}");
    let data: Value = serde_json::from_str(&wrong.stdout).unwrap();
    let toeslag = data["uitvoer"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["naam"] == "toeslag")
        .unwrap();
    assert_eq!(toeslag["gelijk"], false);
    assert_eq!(toeslag["nu"], 2000);
    assert_eq!(data["gewijzigd"], json!(["waarde"]), "{data}");

    // A value the receipt lists beside the requested one is compared as well.
    let co_product = check(&sandbox, &reference_receipt(&sha256(LAW), 2, 2000, 3.5));
    assert_eq!(co_product.code, 1, "{co_product:?}");
    assert!(co_product.stderr.contains("uitvoer deel"), "{co_product:?}");
}

/// The receipt with one change made by `change`; the result's `gewijzigd`.
fn changed(sandbox: &Sandbox, change: impl FnOnce(&mut Value)) -> Value {
    let mut receipt = reference_receipt(&sha256(LAW), 3, 3000, 4.5);
    change(&mut receipt);
    let run = check(sandbox, &receipt);
    assert_eq!(run.code, 1, "{run:?}");
    let data: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(data["gelijk"], false);
    assert!(run.stderr.contains("ONTVANGSTBEWIJS_AFWIJKEND"), "{run:?}");
    data["gewijzigd"].clone()
}

#[test]
fn a_changed_scope_configuration_or_schema_version_is_named() {
    let sandbox = law_sandbox();
    let scope = |receipt: &mut Value| {
        receipt["scope"]["loaded_regulations"]
            .as_array_mut()
            .unwrap()
            .clone()
    };
    // A version left out of the scope is loaded now all the same.
    let left_out = changed(&sandbox, |r| {
        let mut laws = scope(r);
        laws.pop();
        r["scope"]["loaded_regulations"] = laws.into();
    });
    assert_eq!(left_out, json!(["bereik"]));
    // A law in the scope that is not loaded now.
    let added = changed(&sandbox, |r| {
        let mut laws = scope(r);
        laws.push(json!({"id": "een_andere_wet", "valid_from": "2024-01-01", "hash": "sha256:00"}));
        r["scope"]["loaded_regulations"] = laws.into();
    });
    assert_eq!(added, json!(["bereik"]));
    // The hash of a version that was not reached.
    let older_hash = changed(&sandbox, |r| {
        r["scope"]["loaded_regulations"][1]["hash"] = format!("sha256:{}", sha256("x")).into();
    });
    assert_eq!(older_hash, json!(["wet"]));
    // Its valid_from, the hash kept.
    let dates = changed(&sandbox, |r| {
        r["scope"]["loaded_regulations"][1]["valid_from"] = "2023-01-01".into();
    });
    assert_eq!(dates, json!(["bereik"]));
    let config = changed(&sandbox, |r| {
        r["engine_config"]["legal_status"] = "binding".into();
    });
    assert_eq!(config, json!(["configuratie"]));
    let sources = changed(&sandbox, |r| {
        r["scope"]["sources"] = json!([{"id": "elders"}]);
    });
    assert_eq!(sources, json!(["bereik"]));
    let schema = changed(&sandbox, |r| {
        r["provenance"]["schema_version"] = "v0.5.1".into();
    });
    assert_eq!(schema, json!(["schemaversie"]));
}

#[test]
fn a_receipt_of_an_unknown_engine_or_schema_version_is_invalid_input() {
    let sandbox = law_sandbox();
    for (key, value, named) in [
        ("engine_version", "0.4.0", "regelrecht 0.4.0"),
        ("engine", "andere-engine", "andere-engine"),
        ("schema_version", "v0.7.0", "v0.7.0"),
    ] {
        let mut receipt = reference_receipt(&sha256(LAW), 3, 3000, 4.5);
        receipt["provenance"][key] = value.into();
        let error = check(&sandbox, &receipt).error(65);
        assert!(
            error["detail"].as_str().unwrap().contains(named),
            "{key}: {error}"
        );
    }
}

/// One change made to a receipt.
type Change<'a> = Box<dyn Fn(&mut Value) + 'a>;

/// The shared receipts, each as the reference wrote it over the shared corpus.
fn shared_receipts() -> Vec<(String, Value)> {
    let dir = crate::support::shared().join("receipts");
    let mut receipts: Vec<(String, Value)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            (name, serde_json::from_str(&text).unwrap())
        })
        .collect();
    receipts.sort_by(|a, b| a.0.cmp(&b.0));
    receipts
}

fn check_shared(sandbox: &Sandbox, name: &str, receipt: &Value) -> test_support::cli::Run {
    let file = sandbox.write(name, &receipt.to_string());
    let corpus = crate::support::corpus_dir().display().to_string();
    sandbox.run([
        "ontvangstbewijs",
        "controleer",
        file.to_str().unwrap(),
        "--corpus",
        &corpus,
    ])
}

#[test]
fn every_reference_receipt_over_the_shared_corpus_is_confirmed() {
    test_support::conformance_dir!();
    let sandbox = Sandbox::new();
    let schema = output_schema("ontvangstbewijs_controleer");
    let receipts = shared_receipts();
    assert!(receipts.len() >= 38, "{}", receipts.len());
    for (name, receipt) in &receipts {
        let run = check_shared(&sandbox, name, receipt);
        assert_eq!(run.code, 0, "{name}: {run:?}");
        let data: Value = serde_json::from_str(&run.stdout).unwrap();
        assert_valid_against(&schema, &data, name);
        assert_eq!(data["gelijk"], true, "{name}");
        // Every value the receipt lists was compared, not only the requested ones.
        let listed = receipt["results"]["outputs"].as_object().unwrap().len();
        assert_eq!(data["uitvoer"].as_array().unwrap().len(), listed, "{name}");
    }
}

#[test]
fn every_reference_receipt_over_the_shared_corpus_is_refused_when_changed() {
    test_support::conformance_dir!();
    let sandbox = Sandbox::new();
    for (name, receipt) in shared_receipts() {
        let outputs = receipt["results"]["outputs"].as_object().unwrap();
        let (output, value) = outputs.iter().next().unwrap();
        let other = match value {
            Value::Bool(b) => Value::Bool(!b),
            Value::Number(n) => json!(n.as_f64().unwrap() + 1.0),
            Value::String(s) => Value::String(format!("{s}x")),
            _ => json!("anders"),
        };
        let laws = receipt["scope"]["loaded_regulations"].as_array().unwrap();
        let last = laws.len() - 1;
        let cases: Vec<(&str, Change)> = vec![
            (
                "waarde",
                Box::new(|r: &mut Value| r["results"]["outputs"][output] = other.clone()),
            ),
            (
                "wet",
                Box::new(move |r: &mut Value| {
                    r["scope"]["loaded_regulations"][last]["hash"] =
                        format!("sha256:{}", "0".repeat(64)).into()
                }),
            ),
            (
                "bereik",
                Box::new(move |r: &mut Value| {
                    r["scope"]["loaded_regulations"]
                        .as_array_mut()
                        .unwrap()
                        .remove(last);
                }),
            ),
            (
                "configuratie",
                Box::new(|r: &mut Value| r["engine_config"]["connectivity"] = "federated".into()),
            ),
        ];
        for (kind, change) in cases {
            let mut tampered = receipt.clone();
            change(&mut tampered);
            let run = check_shared(&sandbox, &name, &tampered);
            assert_eq!(run.code, 1, "{name} {kind}: {run:?}");
            let data: Value = serde_json::from_str(&run.stdout).unwrap();
            assert_eq!(data["gewijzigd"], json!([kind]), "{name} {kind}: {data}");
        }
    }
}

#[test]
fn a_reference_receipt_without_a_law_hash_is_invalid_input() {
    let sandbox = law_sandbox();
    let mut receipt = reference_receipt(&sha256(LAW), 1, 1000, 1.5);
    receipt["provenance"]
        .as_object_mut()
        .unwrap()
        .remove("regulation_hash");
    let error = check(&sandbox, &receipt).error(65);
    assert!(
        error["detail"]
            .as_str()
            .unwrap()
            .contains("provenance.regulation_hash"),
        "{error}"
    );
    let mut no_date = reference_receipt(&sha256(LAW), 1, 1000, 1.5);
    no_date["execution"]["calculation_date"] = "1 juni".into();
    let error = check(&sandbox, &no_date).error(65);
    assert!(
        error["detail"].as_str().unwrap().contains("geen datum"),
        "{error}"
    );
}

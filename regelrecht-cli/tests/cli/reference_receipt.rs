//! `ontvangstbewijs controleer` reads the reference engine's execution receipt (RFC-013, what
//! its `evaluate --receipt` prints): unsealed, law hashes as `sha256:<hex>` of the file's bytes,
//! numbers as binary floating point. The fixture follows that shape, for a law of our own.

use serde_json::{Value, json};

use crate::support::{Sandbox, assert_valid_against, output_schema};

const LAW: &str = "$id: kleine_toeslag\nname: Kleine toeslag\nregulatory_layer: WET\nvalid_from: '2025-01-01'\narticles:\n  - number: '1'\n    text: De toeslag is anderhalf maal het aantal maal tien euro.\n    machine_readable:\n      definitions:\n        bedrag: 1000\n        factor: 1.5\n      execution:\n        parameters:\n          - name: aantal\n            type: number\n        output:\n          - name: toeslag\n            type: amount\n          - name: deel\n            type: number\n        actions:\n          - output: toeslag\n            value:\n              operation: MULTIPLY\n              values: [$aantal, $bedrag]\n          - output: deel\n            value:\n              operation: MULTIPLY\n              values: [$aantal, $factor]\n";

fn sha256(text: &str) -> String {
    use sha2::Digest;
    format!("{:x}", sha2::Sha256::digest(text.as_bytes()))
}

/// A receipt as the reference engine writes it for `aantal` on 2025-06-01.
fn reference_receipt(hash: &str, aantal: u32, toeslag: u32, deel: f64) -> Value {
    json!({
        "provenance": {
            "engine": "regelrecht",
            "engine_version": "0.9.0",
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
                {"id": "een_andere_wet", "valid_from": "2024-01-01", "hash": "sha256:00"},
            ],
        },
        "execution": {
            "calculation_date": "2025-06-01",
            "parameters": {"aantal": aantal},
        },
        "results": {
            "requested_outputs": ["toeslag", "deel"],
            "outputs": {"toeslag": toeslag, "deel": deel},
            "output_provenance": {},
        },
        "accepted_values": [],
        "timestamp": "2026-12-04T06:00:00+00:00",
    })
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
    let sandbox = Sandbox::new();
    sandbox.write("w/kleine_toeslag.yaml", LAW);
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
    assert_eq!(data["engine"]["bewijs"], "regelrecht 0.9.0");
    // Only the version reached is compared; a law the reference merely loaded is not listed.
    let wetten = data["wetten"].as_array().unwrap();
    assert_eq!(wetten.len(), 1, "{data}");
    assert_eq!(wetten[0]["sha256_nu"], sha256(LAW));
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
    let sandbox = Sandbox::new();
    sandbox.write("w/kleine_toeslag.yaml", LAW);
    let changed = LAW.replace("bedrag: 1000", "bedrag: 1100");
    let stale = check(
        &sandbox,
        &reference_receipt(&sha256(&changed), 2, 2000, 3.0),
    );
    assert_eq!(stale.code, 1, "{stale:?}");
    let data: Value = serde_json::from_str(&stale.stdout).unwrap();
    assert_eq!(data["gelijk"], false);
    assert_eq!(data["wetten"][0]["gelijk"], false);
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
}

#[test]
fn a_reference_receipt_without_a_law_hash_is_invalid_input() {
    let sandbox = Sandbox::new();
    sandbox.write("w/kleine_toeslag.yaml", LAW);
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

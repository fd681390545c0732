//! `evalueer --onvertaalbaar`, `--fase`, `type_spec` bounds, and execution receipts re-run by
//! `ontvangstbewijs controleer`.

use serde_json::Value;

use crate::support::{Sandbox, assert_valid_against, corpus_dir, output_schema, run};

fn corpus() -> String {
    corpus_dir().display().to_string()
}

fn untranslatable(sandbox: &Sandbox, output: &str, mode: Option<&str>) -> test_support::cli::Run {
    let mut args = vec![
        "evalueer".to_string(),
        "test_untranslatables".into(),
        "--uitvoer".into(),
        output.into(),
        "--param".into(),
        "bedrag=1234".into(),
        "--corpus".into(),
        corpus(),
        "--peildatum".into(),
        "2025-06-01".into(),
    ];
    if let Some(mode) = mode {
        args.extend(["--onvertaalbaar".to_string(), mode.to_string()]);
    }
    run(sandbox.cmd(), &args)
}

#[test]
fn untranslatable_modes_refuse_taint_or_warn() {
    test_support::conformance_dir!();
    let sandbox = Sandbox::new();
    let schema = output_schema("evalueer");
    for mode in [None, Some("error"), Some("ignore")] {
        let error = untranslatable(&sandbox, "afgerond_bedrag", mode).error(65);
        assert_eq!(error["code"], "ONVERTAALBAAR", "{mode:?}");
    }
    let tainted = untranslatable(&sandbox, "afgerond_bedrag", Some("propagate")).json();
    assert_valid_against(&schema, &tainted, "evalueer");
    // The mark is the value, as the reference's sentinel (not the partial amount).
    assert_eq!(
        tainted["uitvoer"]["afgerond_bedrag"],
        serde_json::json!({"__untranslatable": true, "article": "2", "construct": "afronden op hele euro's"})
    );
    assert_eq!(
        tainted["onvertaalbaar"]["gemarkeerd"],
        serde_json::json!(["afgerond_bedrag"])
    );
    let accepted = untranslatable(&sandbox, "som_deeltoeslagen", Some("propagate")).json();
    assert_eq!(
        accepted["onvertaalbaar"]["gemarkeerd"],
        serde_json::json!(["som_deeltoeslagen"])
    );
    let clean = untranslatable(&sandbox, "toegekende_toeslag", Some("propagate")).json();
    assert_eq!(clean["onvertaalbaar"]["gemarkeerd"], serde_json::json!([]));
    let warned = untranslatable(&sandbox, "afgerond_bedrag", Some("warn"));
    let data = warned.json_after_warnings();
    assert!(
        warned.stderr.contains("onvertaalbare constructie"),
        "{}",
        warned.stderr
    );
    assert_eq!(data["onvertaalbaar"]["gemarkeerd"], serde_json::json!([]));
    assert_eq!(
        data["onvertaalbaar"]["waarschuwingen"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let accepted_in_error_mode = untranslatable(&sandbox, "som_deeltoeslagen", None).json();
    assert!(accepted_in_error_mode.get("onvertaalbaar").is_none());
    assert_eq!(
        untranslatable(&sandbox, "basistoeslag", Some("vaag")).code,
        2
    );
}

#[test]
fn type_spec_bounds_list_every_violation() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "w/begrensd.yaml",
        "$id: begrensd\nregulatory_layer: WET\nvalid_from: '2025-01-01'\narticles:\n  - number: '1'\n    machine_readable:\n      execution:\n        parameters:\n          - {name: leeftijd, type: number, type_spec: {min: 0, max: 130}}\n          - {name: uren, type: number, type_spec: {max: 24}}\n        output: [{name: som, type: number}]\n        actions:\n          - output: som\n            value: {operation: ADD, values: [$leeftijd, $uren]}\n",
    );
    let dir = sandbox.path().join("w").display().to_string();
    let base = [
        "evalueer",
        "begrensd",
        "--uitvoer",
        "som",
        "--corpus",
        &dir,
        "--peildatum",
        "2025-06-01",
    ];
    let error = sandbox
        .run(
            base.iter()
                .copied()
                .chain(["--param", "leeftijd=-1", "--param", "uren=25"]),
        )
        .error(65);
    let details: Vec<&str> = error["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["detail"].as_str().unwrap())
        .collect();
    assert_eq!(details.len(), 2, "{details:?}");
    assert!(
        details[0].contains("minimum is 0") && details[1].contains("maximum is 24"),
        "{details:?}"
    );
    let ok = sandbox
        .run(
            base.iter()
                .copied()
                .chain(["--param", "leeftijd=130", "--param", "uren=24"]),
        )
        .json();
    assert_eq!(ok["uitvoer"]["som"], 154);
}

#[test]
fn fase_runs_the_procedure_stage_by_stage() {
    test_support::conformance_dir!();
    let sandbox = Sandbox::new();
    let corpus = corpus();
    let base = [
        "evalueer",
        "vreemdelingenwet_2000",
        "--uitvoer",
        "minister_is_bevoegd",
        "--corpus",
        &corpus,
        "--peildatum",
        "2026-01-01",
        "--fase",
        "BEKENDMAKING",
        "--param",
        "aanvraag_datum=2025-11-01",
        "--param",
        "beslistermijn_start=2025-11-02",
    ];
    let waiting = sandbox.run(base).json_after_warnings();
    assert_valid_against(&output_schema("evalueer"), &waiting, "evalueer");
    let fasen = waiting["procedure"]["fasen"].as_array().unwrap();
    let statuses: Vec<&str> = fasen
        .iter()
        .map(|f| f["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        [
            "uitgevoerd",
            "uitgevoerd",
            "wacht",
            "niet_bereikt",
            "niet_bereikt"
        ]
    );
    assert_eq!(fasen[2]["ontbreekt"], serde_json::json!(["besluit_datum"]));
    assert_eq!(waiting["procedure"]["wacht_op"], "BESLUIT");

    let done = sandbox
        .run(base.iter().copied().chain([
            "--param",
            "besluit_datum=2025-12-01",
            "--param",
            "bekendmaking_datum=2025-12-02",
        ]))
        .json_after_warnings();
    let fasen = done["procedure"]["fasen"].as_array().unwrap();
    assert_eq!(fasen[3]["status"], "uitgevoerd");
    assert!(
        fasen[3]["nieuwe_uitvoer"]
            .as_array()
            .unwrap()
            .contains(&"bezwaartermijn_einddatum".into())
    );
    assert_eq!(done["procedure"]["wacht_op"], Value::Null);

    let none = sandbox
        .run([
            "evalueer",
            "vreemdelingenwet_2000",
            "--uitvoer",
            "minister_is_bevoegd",
            "--corpus",
            &corpus,
            "--peildatum",
            "2026-01-01",
            "--fase",
            "BESLUIT",
        ])
        .error_after_warnings(65);
    assert!(
        none["detail"].as_str().unwrap().contains("aanvraag_datum"),
        "{none}"
    );
    let unknown = sandbox
        .run(base.iter().copied().map(|a| {
            if a == "BEKENDMAKING" {
                "HOGER_BEROEP"
            } else {
                a
            }
        }))
        .error_after_warnings(65);
    assert!(
        unknown["detail"].as_str().unwrap().contains("HOGER_BEROEP"),
        "{unknown}"
    );
}

#[test]
fn a_receipt_reruns_to_the_same_result_and_a_changed_law_or_seal_is_caught() {
    test_support::conformance_dir!();
    let sandbox = Sandbox::new();
    let law =
        std::fs::read_to_string(corpus_dir().join("nl/wet/test_untranslatables/2025-01-01.yaml"))
            .unwrap();
    sandbox.write("w/test_untranslatables/2025-01-01.yaml", &law);
    let dir = sandbox.path().join("w").display().to_string();
    let data = sandbox
        .run([
            "evalueer",
            "test_untranslatables",
            "--uitvoer",
            "toegekende_toeslag",
            "--corpus",
            &dir,
            "--peildatum",
            "2025-06-01",
            "--ontvangstbewijs",
        ])
        .json();
    assert_valid_against(&output_schema("evalueer"), &data, "evalueer");
    let receipt = &data["ontvangstbewijs"];
    assert_eq!(receipt["resultaat"]["toegekende_toeslag"], 2000);
    assert_eq!(receipt["wetten"][0]["sha256"], data["regulation_sha256"]);
    let file = sandbox.write("r.json", &data.to_string());
    let check = [
        "ontvangstbewijs",
        "controleer",
        file.to_str().unwrap(),
        "--corpus",
        &dir,
    ];

    let same = sandbox.run(check);
    assert_eq!(same.code, 0, "{same:?}");
    assert_eq!(
        same.stderr,
        "ontvangstbewijs bevestigd: zelfde wetten, zelfde uitkomst\n"
    );
    let same: Value = serde_json::from_str(&same.stdout).unwrap();
    assert_valid_against(
        &output_schema("ontvangstbewijs_controleer"),
        &same,
        "controleer",
    );
    assert_eq!(same["gelijk"], true);

    sandbox.write(
        "w/test_untranslatables/2025-01-01.yaml",
        &law.replace("value: 1000", "value: 1100"),
    );
    let changed = sandbox.run(check);
    assert_eq!(changed.code, 1, "{changed:?}");
    let changed_data: Value = serde_json::from_str(&changed.stdout).unwrap();
    assert_eq!(changed_data["gelijk"], false);
    assert_eq!(changed_data["wetten"][0]["gelijk"], false);
    assert_eq!(changed_data["uitvoer"][0]["nu"], 2200);
    assert!(
        changed.stderr.contains("ONTVANGSTBEWIJS_AFWIJKEND"),
        "{}",
        changed.stderr
    );

    let mut tampered = data.clone();
    tampered["ontvangstbewijs"]["resultaat"]["toegekende_toeslag"] = 1.into();
    let tampered_file = sandbox.write("t.json", &tampered.to_string());
    let error = sandbox
        .run([
            "ontvangstbewijs",
            "controleer",
            tampered_file.to_str().unwrap(),
            "--corpus",
            &dir,
        ])
        .error(65);
    assert!(
        error["detail"].as_str().unwrap().contains("verzegeling"),
        "{error}"
    );
}

//! Procedures (RFC-008): the Awb `beschikking` procedure run stage by stage for a decision of
//! the Vreemdelingenwet: stages wait for their required inputs, and each stage fires its hooks.

mod common;

use common::full_corpus;
use regelrecht_engine::eval::stages::StageStatus;
use regelrecht_engine::{Engine, Request, Value, parse_iso_date};

fn request(params: &[(&str, &str)]) -> Request {
    Request {
        law_id: "vreemdelingenwet_2000".into(),
        outputs: vec!["minister_is_bevoegd".into()],
        params: params
            .iter()
            .map(|(k, v)| (k.to_string(), Value::str(*v)))
            .collect(),
        date: parse_iso_date("2026-01-01").unwrap(),
    }
}

#[test]
fn a_stage_without_its_inputs_waits_and_says_for_what() {
    test_support::conformance_dir!();
    let corpus = full_corpus();
    let staged = Engine::new(&corpus)
        .evaluate_stages(
            &request(&[("aanvraag_datum", "2025-11-01")]),
            Some("BESLUIT"),
        )
        .unwrap();
    assert_eq!(
        (staged.procedure_law.as_str(), staged.procedure_id.as_str()),
        ("algemene_wet_bestuursrecht", "beschikking")
    );
    assert_eq!(staged.stages[0].status, StageStatus::Done);
    assert_eq!(
        staged.stages[1].status,
        StageStatus::Waiting(vec!["beslistermijn_start".into()])
    );
    assert_eq!(staged.stages[2].status, StageStatus::NotReached);
    assert_eq!(staged.waiting().unwrap().name, "BEHANDELING");
}

#[test]
fn each_stage_fires_its_own_hooks_and_sees_the_earlier_ones() {
    test_support::conformance_dir!();
    let corpus = full_corpus();
    let all = [
        ("aanvraag_datum", "2025-11-01"),
        ("beslistermijn_start", "2025-11-02"),
        ("besluit_datum", "2025-12-01"),
        ("bekendmaking_datum", "2025-12-02"),
    ];
    let engine = Engine::new(&corpus);
    let until_besluit = engine
        .evaluate_stages(&request(&all), Some("BESLUIT"))
        .unwrap();
    let besluit = until_besluit.evaluation.unwrap();
    assert_eq!(besluit.all_outputs["motivering_vereist"], Value::Bool(true));
    assert!(!besluit.all_outputs.contains_key("bezwaartermijn_einddatum"));
    assert_eq!(until_besluit.stages[3].status, StageStatus::NotReached);

    let until_bekendmaking = engine
        .evaluate_stages(&request(&all), Some("BEKENDMAKING"))
        .unwrap();
    let stage = &until_bekendmaking.stages[3];
    assert_eq!(stage.status, StageStatus::Done);
    assert!(
        stage
            .new_outputs
            .contains(&"bezwaartermijn_einddatum".to_string()),
        "{stage:?}"
    );
    let done = until_bekendmaking.evaluation.unwrap();
    assert_eq!(done.all_outputs["motivering_vereist"], Value::Bool(true));
    assert!(done.all_outputs.contains_key("bezwaartermijn_startdatum"));

    let unknown = engine
        .evaluate_stages(&request(&all), Some("HOGER_BEROEP"))
        .unwrap_err();
    assert!(
        unknown.to_string().contains("AANVRAAG, BEHANDELING"),
        "{unknown}"
    );
}

#[test]
fn a_law_without_legal_character_has_no_procedure() {
    test_support::conformance_dir!();
    let corpus = full_corpus();
    let mut r = request(&[]);
    r.law_id = "test_untranslatables".into();
    r.outputs = vec!["basistoeslag".into()];
    r.date = parse_iso_date("2025-06-01").unwrap();
    let err = Engine::new(&corpus).evaluate_stages(&r, None).unwrap_err();
    assert!(err.to_string().contains("rechtskarakter"), "{err}");
}

//! The built-in Besluit activiteiten leefomgeving 5.15–5.15b: thresholds ("kleiner dan",
//! "groter dan"), every exclusion, lid 2 of 5.15a, the reporting date and the legal basis.

use regelrecht_engine::builtin::BAL_ID;
use regelrecht_engine::{Corpus, Engine, Evaluation, Request, TraceNode, Value, parse_iso_date};
use std::collections::BTreeMap;

struct Case {
    kwh: i64,
    m3: i64,
    bbl: bool,
    renewable_only: bool,
    a33a_a: bool,
    a33a_b: bool,
    date: &'static str,
}

const BASE: Case = Case {
    kwh: 0,
    m3: 0,
    bbl: false,
    renewable_only: false,
    a33a_a: false,
    a33a_b: false,
    date: "2026-01-01",
};

fn eval(case: Case) -> Evaluation {
    let corpus = Corpus::with_builtins();
    Engine::new(&corpus)
        .evaluate(&request(case))
        .expect("Bal evaluates")
}

fn request(case: Case) -> Request {
    let params: BTreeMap<String, Value> = [
        ("elektriciteitsverbruik_kwh", Value::int(case.kwh)),
        ("aardgasverbruik_m3", Value::int(case.m3)),
        ("betreft_gebruiksfunctie_bbl", Value::Bool(case.bbl)),
        (
            "alleen_hernieuwbare_energie_op_locatie",
            Value::Bool(case.renewable_only),
        ),
        (
            "is_activiteit_artikel_3_3a_lid_1_onder_a",
            Value::Bool(case.a33a_a),
        ),
        (
            "is_activiteit_artikel_3_3a_lid_1_onder_b",
            Value::Bool(case.a33a_b),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    Request {
        law_id: BAL_ID.to_string(),
        outputs: [
            "heeft_energiebesparingsplicht",
            "heeft_informatieplicht",
            "heeft_onderzoeksplicht",
            "volgende_rapportagedatum",
            "rapportagefrequentie_jaren",
        ]
        .map(String::from)
        .to_vec(),
        params,
        date: parse_iso_date(case.date).unwrap(),
    }
}

fn duties(e: &Evaluation) -> (bool, bool, bool) {
    let b = |name: &str| e.outputs[name] == Value::Bool(true);
    (
        b("heeft_energiebesparingsplicht"),
        b("heeft_informatieplicht"),
        b("heeft_onderzoeksplicht"),
    )
}

#[test]
fn electricity_threshold_is_kleiner_dan_50000() {
    assert_eq!(
        duties(&eval(Case {
            kwh: 49_999,
            m3: 24_999,
            ..BASE
        })),
        (false, false, false)
    );
    assert_eq!(
        duties(&eval(Case {
            kwh: 50_000,
            m3: 0,
            ..BASE
        })),
        (true, true, false)
    );
}

#[test]
fn gas_threshold_is_kleiner_dan_25000() {
    assert_eq!(
        duties(&eval(Case {
            kwh: 0,
            m3: 24_999,
            ..BASE
        })),
        (false, false, false)
    );
    assert_eq!(
        duties(&eval(Case {
            kwh: 0,
            m3: 25_000,
            ..BASE
        })),
        (true, true, false)
    );
}

#[test]
fn research_duty_is_groter_dan_and_replaces_information_duty() {
    assert_eq!(
        duties(&eval(Case {
            kwh: 10_000_000,
            m3: 0,
            ..BASE
        })),
        (true, true, false)
    );
    assert_eq!(
        duties(&eval(Case {
            kwh: 10_000_001,
            m3: 0,
            ..BASE
        })),
        (true, false, true)
    );
    assert_eq!(
        duties(&eval(Case {
            kwh: 60_000,
            m3: 170_000,
            ..BASE
        })),
        (true, true, false)
    );
    assert_eq!(
        duties(&eval(Case {
            kwh: 60_000,
            m3: 170_001,
            ..BASE
        })),
        (true, false, true)
    );
}

#[test]
fn each_exclusion_of_lid_3() {
    let big = Case {
        kwh: 20_000_000,
        m3: 200_000,
        ..BASE
    };
    assert_eq!(
        duties(&eval(Case { bbl: true, ..big })),
        (false, false, false)
    );
    assert_eq!(
        duties(&eval(Case {
            kwh: 20_000_000,
            m3: 200_000,
            renewable_only: true,
            ..BASE
        })),
        (false, false, false)
    );
    // Lid 3d excludes 5.15 lid 1, but 5.15a lid 3 keeps the information duty; 5.15b lid 3 excludes research.
    assert_eq!(
        duties(&eval(Case {
            kwh: 20_000_000,
            m3: 200_000,
            a33a_b: true,
            ..BASE
        })),
        (false, true, false)
    );
    // 5.15a lid 2 onder a and 5.15b lid 3 exclude 3.3a lid 1 onder a activities.
    assert_eq!(
        duties(&eval(Case {
            kwh: 20_000_000,
            m3: 200_000,
            a33a_a: true,
            ..BASE
        })),
        (true, false, false)
    );
}

#[test]
fn reporting_date_is_next_1_december_every_four_years() {
    let date = |d: &'static str| {
        eval(Case {
            kwh: 60_000,
            date: d,
            ..BASE
        })
        .outputs["volgende_rapportagedatum"]
            .clone()
    };
    assert_eq!(date("2026-01-01"), Value::str("2027-12-01"));
    assert_eq!(date("2027-11-30"), Value::str("2027-12-01"));
    assert_eq!(date("2027-12-01"), Value::str("2027-12-01"));
    assert_eq!(date("2027-12-02"), Value::str("2031-12-01"));
    assert_eq!(date("2031-12-01"), Value::str("2031-12-01"));
    assert_eq!(
        eval(Case {
            kwh: 60_000,
            ..BASE
        })
        .outputs["rapportagefrequentie_jaren"],
        Value::int(4)
    );
}

#[test]
fn legal_basis_is_each_outputs_own_article() {
    let e = eval(Case {
        kwh: 60_000,
        ..BASE
    });
    let basis = |output: &str| e.basis.iter().find(|b| b.output == output).unwrap();
    for (output, article) in [
        ("heeft_energiebesparingsplicht", "5.15"),
        ("heeft_informatieplicht", "5.15a"),
        ("heeft_onderzoeksplicht", "5.15b"),
    ] {
        let b = basis(output);
        assert_eq!(b.article, article);
        assert_eq!(b.bwb_id.as_deref(), Some("BWBR0041330"));
        assert_eq!(
            b.url.as_deref(),
            Some(
                format!("https://wetten.overheid.nl/BWBR0041330/2026-01-01#Artikel{article}")
                    .as_str()
            )
        );
    }
}

#[test]
fn missing_exclusion_parameter_is_an_error_naming_it() {
    let corpus = Corpus::with_builtins();
    let request = Request {
        law_id: BAL_ID.to_string(),
        outputs: vec!["heeft_energiebesparingsplicht".to_string()],
        params: [
            ("elektriciteitsverbruik_kwh".to_string(), Value::int(60_000)),
            ("aardgasverbruik_m3".to_string(), Value::int(0)),
        ]
        .into(),
        date: parse_iso_date("2026-01-01").unwrap(),
    };
    let err = Engine::new(&corpus).evaluate(&request).unwrap_err();
    assert_eq!(err.missing(), Some("betreft_gebruiksfunctie_bbl"), "{err}");
}

#[test]
fn bal_is_not_in_force_before_its_valid_from() {
    let corpus = Corpus::with_builtins();
    let request = Request {
        law_id: BAL_ID.to_string(),
        outputs: vec!["heeft_energiebesparingsplicht".to_string()],
        params: BTreeMap::new(),
        date: parse_iso_date("2025-12-31").unwrap(),
    };
    assert!(matches!(
        Engine::new(&corpus).evaluate(&request).unwrap_err().kind,
        regelrecht_engine::ErrorKind::LawNotInForce { .. }
    ));
}

/// Every node of the trace with its depth, as `depth kind name`.
fn trace_lines(node: &TraceNode, depth: usize, out: &mut Vec<String>) {
    out.push(format!("{depth} {} {}", node.kind.as_str(), node.name));
    for child in &node.children {
        trace_lines(child, depth + 1, out);
    }
}

#[test]
fn article_5_15_runs_once_and_is_reused_the_second_time() {
    let corpus = Corpus::with_builtins();
    let only_information_duty = Request {
        outputs: vec!["heeft_informatieplicht".to_string()],
        ..request(Case {
            kwh: 60_000,
            ..BASE
        })
    };
    let evaluation = Engine::new(&corpus)
        .evaluate(&only_information_duty)
        .unwrap();
    let mut lines = Vec::new();
    trace_lines(&evaluation.trace, 0, &mut lines);
    let executed = lines
        .iter()
        .filter(|l| l.ends_with(" artikel besluit_activiteiten_leefomgeving"))
        .count();
    let reused = lines.iter().filter(|l| l.contains(" hergebruikt ")).count();
    // 5.15a, 5.15 (for 5.15a) and 5.15b run once each; 5.15b's reading of 5.15 is reused.
    assert_eq!((executed, reused), (3, 1), "{lines:#?}");
}

#[test]
fn without_tracing_the_answer_is_the_same_and_the_trace_only_its_root() {
    let corpus = Corpus::with_builtins();
    for kwh in [0, 60_000, 20_000_000] {
        let case = || Case { kwh, ..BASE };
        let traced = Engine::new(&corpus).evaluate(&request(case())).unwrap();
        let plain = Engine::new(&corpus)
            .tracing(false)
            .evaluate(&request(case()))
            .unwrap();
        assert_eq!(plain.outputs, traced.outputs);
        assert_eq!(plain.all_outputs, traced.all_outputs);
        assert_eq!(plain.resolved_inputs, traced.resolved_inputs);
        assert_eq!(plain.basis, traced.basis);
        assert_eq!(plain.provenance, traced.provenance);
        assert!(traced.trace.children.len() >= 3);
        assert!(plain.trace.children.is_empty());
        assert_eq!(
            (&plain.trace.name, &plain.trace.law, plain.trace.kind),
            (&traced.trace.name, &traced.trace.law, traced.trace.kind)
        );
    }
    let missing = Request {
        params: BTreeMap::new(),
        ..request(BASE)
    };
    let error = Engine::new(&corpus)
        .tracing(false)
        .evaluate(&missing)
        .unwrap_err();
    assert!(error.trace.is_some_and(|t| t.children.is_empty()));
}

//! Differential test against the reference RegelRecht engine: runs every vector in
//! `../shared/regelrecht/vectors/` with the full corpus loaded, compares outputs (numbers
//! numerically) or the refusal, and reports agreement per file and per conformance level.
#![allow(
    clippy::too_many_lines,
    reason = "a test is one scenario read top to bottom; the lint holds production code (issue 42.5)"
)]

mod common;

use common::{full_corpus, shared_regelrecht, trace_has};
use regelrecht_engine::{
    Corpus, Engine, ErrorKind, EvalError, Request, TraceKind, Value, parse_iso_date,
};
use rust_decimal::Decimal;
use std::collections::BTreeMap;
use std::str::FromStr;

/// Minimum agreement (percent) per level; the test fails below it.
const REQUIRED: &[(&str, f64)] = &[
    ("core", 100.0),
    ("cross_law", 100.0),
    ("ioc", 100.0),
    ("temporal", 100.0),
];

fn same(ours: &Value, expected: &serde_json::Value) -> bool {
    match (ours, expected) {
        (Value::Number(a), serde_json::Value::Number(b)) => Decimal::from_str(&b.to_string())
            .or_else(|_| Decimal::from_scientific(&b.to_string()))
            .is_ok_and(|b| *a == b),
        (Value::List(a), serde_json::Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
        }
        (Value::Object(a), serde_json::Value::Object(b)) => {
            a.len() == b.len() && a.iter().all(|(k, v)| b.get(k).is_some_and(|w| same(v, w)))
        }
        _ => ours.to_json() == *expected,
    }
}

/// The conformance level a case exercises, judged from what the evaluation reached.
fn level(
    corpus: &Corpus,
    law_id: &str,
    result: &Result<regelrecht_engine::Evaluation, EvalError>,
) -> &'static str {
    let trace = match result {
        Ok(e) => Some(&e.trace),
        Err(e) => e.trace.as_deref(),
    };
    let advanced_error = matches!(&result, Err(e) if matches!(e.kind, ErrorKind::Untranslatable { .. } | ErrorKind::MissingExternalData { .. }));
    let text = corpus
        .versions(law_id)
        .next()
        .map(|f| f.text().unwrap().to_string())
        .unwrap_or_default();
    let has = |k| trace.is_some_and(|t| trace_has(t, k));
    if advanced_error
        || has(TraceKind::Hook)
        || has(TraceKind::Override)
        || text.contains("untranslatables:")
        || has(TraceKind::Input)
    {
        "advanced"
    } else if has(TraceKind::OpenTerm) {
        "ioc"
    } else if has(TraceKind::CrossLaw) {
        "cross_law"
    } else if corpus.versions(law_id).count() > 1
        || text.contains("valid_to:")
        || [
            "operation: AGE",
            "operation: DATE",
            "operation: DAY_OF_WEEK",
            "$referencedate",
        ]
        .iter()
        .any(|p| text.contains(p))
    {
        "temporal"
    } else {
        "core"
    }
}

#[test]
fn every_vector_agrees_with_the_reference_engine() {
    test_support::conformance_dir!();
    let corpus = full_corpus();
    let engine = Engine::new(&corpus);
    let mut files: Vec<_> = std::fs::read_dir(shared_regelrecht().join("vectors"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut per_level: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut disagreements = Vec::new();
    for path in &files {
        let cases: Vec<serde_json::Value> =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let (mut ok, mut total) = (0, 0);
        for case in &cases {
            let id = case["id"].as_str().unwrap();
            let law_id = case["law"].as_str().unwrap();
            let request = Request {
                law_id: law_id.to_string(),
                outputs: case["outputs"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|o| o.as_str().unwrap().to_string())
                    .collect(),
                params: case["params"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(k, v)| (k.clone(), Value::from_json(v).expect("exact number")))
                    .collect(),
                date: parse_iso_date(case["date"].as_str().unwrap()).unwrap(),
            };
            let result = engine.evaluate(&request);
            let expect_error = case
                .get("expected_error")
                .and_then(|v| v.as_bool())
                .unwrap_or(false);
            let verdict = match (&result, expect_error) {
                (Err(_), true) => Ok(()),
                (Ok(e), true) => Err(format!(
                    "reference refused, we computed {:?}",
                    e.outputs
                        .iter()
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect::<Vec<_>>()
                )),
                (Err(e), false) => Err(format!("we refused: {e}")),
                (Ok(e), false) => {
                    let expected = case["expected"].as_object().unwrap();
                    let wrong: Vec<String> = expected
                        .iter()
                        .filter(|(k, v)| !e.outputs.get(*k).is_some_and(|ours| same(ours, v)))
                        .map(|(k, v)| {
                            format!(
                                "{k}: reference {v}, ours {}",
                                e.outputs.get(k).map_or("-".to_string(), |o| o.to_string())
                            )
                        })
                        .collect();
                    if wrong.is_empty() {
                        Ok(())
                    } else {
                        Err(wrong.join("; "))
                    }
                }
            };
            let lvl = level(&corpus, law_id, &result);
            let entry = per_level.entry(lvl).or_default();
            entry.1 += 1;
            total += 1;
            match verdict {
                Ok(()) => {
                    entry.0 += 1;
                    ok += 1;
                }
                Err(reason) => disagreements.push(format!("{id} [{lvl}]: {reason}")),
            }
        }
        println!(
            "{:<50} {ok:>3}/{total:<3}",
            path.file_name().unwrap().to_string_lossy()
        );
    }
    println!("--- per level ---");
    for (lvl, (ok, total)) in &per_level {
        println!(
            "{lvl:<10} {ok:>3}/{total:<3} ({:.1}%)",
            100.0 * *ok as f64 / *total as f64
        );
    }
    for d in &disagreements {
        println!("DISAGREE {d}");
    }
    for (lvl, required) in REQUIRED {
        if let Some((ok, total)) = per_level.get(lvl) {
            let pct = 100.0 * *ok as f64 / *total as f64;
            assert!(
                pct >= *required,
                "level {lvl}: {pct:.1}% agreement, required {required}%"
            );
        }
    }
}

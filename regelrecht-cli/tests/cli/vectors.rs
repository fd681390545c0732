//! A sample of the differential vectors (every fourth case of every file) through the CLI:
//! `evalueer --param-json` with the whole shared corpus gives the reference engine's outputs,
//! numbers compared numerically, or exit 65 (66 for a law not in force on the date) where the reference refused.
//! The engine's own test runs every vector.

use std::str::FromStr;

use rust_decimal::Decimal;
use serde_json::Value;

use crate::support::{Sandbox, corpus_dir, run, shared};

fn number(v: &Value) -> Option<Decimal> {
    let text = v.as_number()?.to_string();
    Decimal::from_str(&text)
        .or_else(|_| Decimal::from_scientific(&text))
        .ok()
}

fn same(ours: &Value, expected: &Value) -> bool {
    match (ours, expected) {
        (Value::Number(_), Value::Number(_)) => number(ours) == number(expected),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len() && a.iter().all(|(k, v)| b.get(k).is_some_and(|w| same(v, w)))
        }
        _ => ours == expected,
    }
}

#[test]
fn a_sample_of_the_vectors_agrees_with_the_reference_engine() {
    test_support::conformance_dir!();
    let sandbox = Sandbox::new();
    let mut files: Vec<_> = std::fs::read_dir(shared().join("vectors"))
        .expect("vectors")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    let (mut checked, mut refusals) = (0, 0);
    let mut disagreements = Vec::new();
    for path in &files {
        let cases: Vec<Value> =
            serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("JSON");
        for case in cases.iter().step_by(4) {
            let id = case["id"].as_str().expect("id");
            let params = sandbox.write(&format!("{id}.json"), &case["params"].to_string());
            let mut args = vec![
                "evalueer".to_string(),
                case["law"].as_str().expect("law").to_string(),
                "--peildatum".into(),
                case["date"].as_str().expect("date").to_string(),
                "--param-json".into(),
                params.display().to_string(),
                "--corpus".into(),
                corpus_dir().display().to_string(),
            ];
            for output in case["outputs"].as_array().expect("outputs") {
                args.push("--uitvoer".into());
                args.push(output.as_str().expect("name").to_string());
            }
            let result = run(sandbox.cmd(), &args);
            checked += 1;
            if case["expected_error"] == true {
                refusals += 1;
                // 65: not computable; 66: no version of the law on that date.
                if matches!(result.code, 65 | 66) {
                    result.error_after_warnings(result.code);
                } else {
                    disagreements.push(format!(
                        "{id}: reference refused, we exited {}",
                        result.code
                    ));
                }
                continue;
            }
            if result.code != 0 {
                disagreements.push(format!("{id}: we failed: {}", result.stderr));
                continue;
            }
            let data = result.json_after_warnings();
            for (name, expected) in case["expected"].as_object().expect("expected") {
                if !same(&data["uitvoer"][name], expected) {
                    disagreements.push(format!(
                        "{id}: {name}: reference {expected}, ours {}",
                        data["uitvoer"][name]
                    ));
                }
            }
        }
    }
    assert!(
        checked >= 50 && refusals >= 5,
        "{checked} cases, {refusals} refusals"
    );
    assert!(disagreements.is_empty(), "{disagreements:#?}");
}

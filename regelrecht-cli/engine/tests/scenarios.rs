//! Runs the corpus's BDD scenarios (`*.feature`) that use only parameters (scenarios that load
//! external data tables are skipped) against the full corpus, and reports the result of each.

mod common;

use common::{full_corpus, shared_regelrecht};
use regelrecht_engine::params::declarations;
use regelrecht_engine::{
    Corpus, Engine, EvalError, Evaluation, FieldType, Request, Value, parse_iso_date,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Minimum share of runnable scenarios that must pass.
const REQUIRED_PASS_PERCENT: f64 = 100.0;

fn features(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            features(&path, out);
        } else if path.extension().is_some_and(|e| e == "feature") {
            out.push(path);
        }
    }
}

fn quoted(line: &str) -> Vec<String> {
    line.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// A table or step value typed by the law's declaration, else inferred.
fn typed(corpus: &Corpus, law_id: &str, name: &str, text: &str) -> Value {
    let declared = corpus
        .versions(law_id)
        .next()
        .and_then(|f| f.law().ok())
        .and_then(|law| {
            declarations(law)
                .into_iter()
                .find(|d| d.name == name)
                .map(|d| d.field_type)
        });
    if let Some(FieldType::String | FieldType::Date) = declared {
        return Value::str(text);
    }
    match text {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        "null" => Value::Null,
        _ => regelrecht_engine::value::number_from_text(text)
            .map_or_else(|| Value::str(text), Value::Number),
    }
}

struct Scenario {
    name: String,
    steps: Vec<String>,
}

fn parse(text: &str) -> (Vec<String>, Vec<Scenario>) {
    let mut background = Vec::new();
    let mut scenarios: Vec<Scenario> = Vec::new();
    let mut in_background = false;
    for raw in text.lines() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with("Background:") {
            in_background = true;
        } else if let Some(name) = line.strip_prefix("Scenario:") {
            in_background = false;
            scenarios.push(Scenario {
                name: name.trim().to_string(),
                steps: Vec::new(),
            });
        } else if in_background {
            background.push(line.to_string());
        } else if let Some(s) = scenarios.last_mut() {
            s.steps.push(line.to_string());
        }
    }
    (background, scenarios)
}

fn run(corpus: &Corpus, steps: &[String]) -> Result<(), String> {
    let engine = Engine::new(corpus);
    let mut date = None;
    let mut params: BTreeMap<String, String> = BTreeMap::new();
    let mut last: Option<Result<Evaluation, EvalError>> = None;
    let mut in_table = false;
    for step in steps {
        let words: Vec<&str> = step.split_whitespace().collect();
        let body = words[1..].join(" ");
        let q = quoted(step);
        if step.starts_with('|') {
            if in_table {
                let cells: Vec<&str> = step.trim_matches('|').split('|').map(str::trim).collect();
                params.insert(cells[0].to_string(), cells[1].to_string());
            }
            continue;
        }
        in_table = false;
        if body.starts_with("the calculation date is") {
            date = parse_iso_date(&q[0]);
        } else if body.starts_with("law ") && body.ends_with("is loaded") {
        } else if body.starts_with("the following parameters:") {
            in_table = true;
        } else if body.starts_with("parameter ") {
            params.insert(q[0].clone(), q[1].clone());
        } else if body.starts_with("I evaluate") {
            let (output, law_id) = (&q[0], &q[1]);
            let request = Request {
                law_id: law_id.clone(),
                outputs: vec![output.clone()],
                params: params
                    .iter()
                    .map(|(k, v)| (k.clone(), typed(corpus, law_id, k, v)))
                    .collect(),
                date: date.ok_or("geen rekendatum")?,
            };
            last = Some(engine.evaluate(&request));
        } else if body == "the execution succeeds" {
            if let Some(Err(e)) = &last {
                return Err(format!("evaluation failed: {e}"));
            }
        } else if body.starts_with("the execution fails") {
            if let Some(Ok(_)) = &last {
                return Err("evaluation succeeded, scenario expects a failure".into());
            }
        } else if body.starts_with("output ") {
            let evaluation = match &last {
                Some(Ok(e)) => e,
                Some(Err(e)) => return Err(format!("evaluation failed: {e}")),
                None => return Err("no evaluation".into()),
            };
            let name = &q[0];
            let actual = evaluation
                .all_outputs
                .get(name)
                .ok_or_else(|| format!("output {name} missing"))?;
            let expected = if body.ends_with("is true") {
                Value::Bool(true)
            } else if body.ends_with("is false") {
                Value::Bool(false)
            } else if body.ends_with("is null") {
                Value::Null
            } else {
                let text = body
                    .rsplit(' ')
                    .next()
                    .unwrap_or_default()
                    .trim_matches('"');
                regelrecht_engine::value::number_from_text(text)
                    .map_or_else(|| Value::str(text), Value::Number)
            };
            let equal = match (actual, &expected) {
                (Value::Number(a), Value::Number(b)) => a == b,
                _ => *actual == expected,
            };
            if !equal {
                return Err(format!("output {name}: expected {expected}, got {actual}"));
            }
        } else {
            return Err(format!("unsupported step: {step}"));
        }
    }
    Ok(())
}

#[test]
fn parameter_only_scenarios_pass() {
    let corpus = full_corpus();
    let mut paths = Vec::new();
    features(&shared_regelrecht().join("corpus"), &mut paths);
    paths.sort();
    let (mut passed, mut runnable, mut skipped) = (0, 0, 0);
    let mut failures = Vec::new();
    for path in &paths {
        let (background, scenarios) = parse(&std::fs::read_to_string(path).unwrap());
        for scenario in scenarios {
            let steps: Vec<String> = background.iter().chain(&scenario.steps).cloned().collect();
            if steps.iter().any(|s| s.contains(" data with key ")) {
                skipped += 1;
                continue;
            }
            runnable += 1;
            let file = path.file_name().unwrap().to_string_lossy();
            match run(&corpus, &steps) {
                Ok(()) => {
                    passed += 1;
                    println!("ok      {file}: {}", scenario.name);
                }
                Err(reason) => {
                    println!("FAILED  {file}: {} — {reason}", scenario.name);
                    failures.push(reason);
                }
            }
        }
    }
    println!(
        "{passed} of {runnable} parameter-only scenarios pass ({skipped} skipped: they need external data tables)"
    );
    assert!(runnable > 0, "no scenarios found");
    let pct = 100.0 * passed as f64 / runnable as f64;
    assert!(
        pct >= REQUIRED_PASS_PERCENT,
        "{pct:.1}% of scenarios pass, required {REQUIRED_PASS_PERCENT}%"
    );
}

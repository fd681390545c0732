//! RegelRecht's own BDD suites through this engine's runner: every conformance feature in
//! every tier (`bdd/conformance`, bucket B) and every law scenario of the corpus (bucket A).
//! Each must pass; the only scenarios not run are those the suite itself marks `@wip`, and
//! they are listed.

mod common;

use common::{full_corpus, shared_regelrecht};
use regelrecht_engine::scenario::{self, Outcome, RunOptions, feature};
use std::path::{Path, PathBuf};

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

/// Every scenario that did not pass, one line each (for assertion messages).
fn not_passed(results: &[scenario::ScenarioResult]) -> String {
    results
        .iter()
        .filter_map(|r| match &r.outcome {
            Outcome::Passed => None,
            Outcome::Skipped { reason } => {
                Some(format!("skipped {}: {} — {reason}", r.file, r.name))
            }
            Outcome::Failed { line, step, reason } => Some(format!(
                "FAILED {}:{line}: {} — {step}: {reason}",
                r.file, r.name
            )),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn run(dir: &str) -> Vec<scenario::ScenarioResult> {
    let corpus = full_corpus();
    let mut paths = Vec::new();
    features(&shared_regelrecht().join(dir), &mut paths);
    paths.sort();
    assert!(!paths.is_empty(), "no features under {dir}");
    let mut results = Vec::new();
    for path in &paths {
        let parsed = feature::parse(&std::fs::read_to_string(path).unwrap());
        let name = path.file_name().unwrap().to_string_lossy();
        results.extend(scenario::run_feature(
            &corpus,
            &parsed,
            &name,
            RunOptions::default(),
        ));
    }
    results
}

#[test]
fn every_conformance_scenario_passes_in_every_tier() {
    test_support::conformance_dir!();
    let results = run("bdd/conformance");
    let (total, tiers) = scenario::summarize(&results);
    let shown: Vec<String> = tiers
        .iter()
        .map(|(t, c)| format!("{t} {}/{}", c.passed, c.passed + c.failed + c.skipped))
        .collect();
    assert_eq!(
        (total.failed, total.skipped),
        (0, 0),
        "{}\n{}",
        shown.join(", "),
        not_passed(&results)
    );
    let names: Vec<&str> = tiers.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(names, scenario::SUPPORTED_TIERS);
    assert_eq!(total.passed, 44);
}

#[test]
fn every_law_scenario_passes_except_the_suites_own_wip() {
    test_support::conformance_dir!();
    let results = run("corpus");
    let (total, _) = scenario::summarize(&results);
    assert_eq!(total.failed, 0, "{}", not_passed(&results));
    let skipped: Vec<&str> = results
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::Skipped { .. }))
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(skipped, ["Minderjarige heeft geen recht op zorgtoeslag"]);
    assert_eq!(total.passed, 38, "{total:?}");
}

#[test]
fn the_shipped_grammar_is_regelrechts_own() {
    test_support::conformance_dir!();
    let upstream = std::fs::read_to_string(shared_regelrecht().join("bdd/grammar.yaml")).unwrap();
    assert_eq!(
        scenario::grammar::GRAMMAR_YAML,
        upstream,
        "bdd/grammar.yaml changed upstream: copy it to regelrecht-cli/engine/bdd/"
    );
}

#[test]
fn the_shipped_schemas_are_regelrechts_own() {
    test_support::conformance_dir!();
    let shared = shared_regelrecht().join("schema");
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schema");
    let mut versions = 0;
    for version in std::fs::read_dir(&shared).unwrap() {
        let version = version.unwrap().path();
        for file in std::fs::read_dir(&version).unwrap() {
            let file = file.unwrap().path();
            let relative = file.strip_prefix(&shared).unwrap();
            let ours = std::fs::read_to_string(shipped.join(relative)).unwrap_or_default();
            assert_eq!(
                ours,
                std::fs::read_to_string(&file).unwrap(),
                "schema/{} differs from the shared copy: copy it to regelrecht-cli/engine/schema/",
                relative.display()
            );
        }
        versions += 1;
    }
    assert_eq!(
        versions,
        regelrecht_engine::validate::schema_versions().count()
    );
}

//! `scenario`: RegelRecht's own suites through the command people use — every conformance
//! feature in every tier and every law scenario of the shared corpus — plus the shipped
//! scenarios of the built-in law, failures (exit 1 after the data) and the closing line.

use crate::support::{Sandbox, assert_valid_against, corpus_dir, output_schema, run, shared};
use test_support::cli::compact_document;

fn scenario(sandbox: &Sandbox, args: &[&str]) -> test_support::cli::Run {
    run(
        sandbox.cmd(),
        std::iter::once("scenario").chain(args.iter().copied()),
    )
}

#[test]
fn every_conformance_feature_passes_in_every_tier() {
    test_support::conformance_dir!();
    let sandbox = Sandbox::new();
    let conformance = shared().join("bdd/conformance").display().to_string();
    let corpus = corpus_dir().display().to_string();
    let out = scenario(&sandbox, &[&conformance, "--corpus", &corpus]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let data = compact_document(&out.stdout);
    assert_valid_against(&output_schema("scenario"), &data, "scenario");
    let line = "44 passed, 0 failed; core 15/15, notes 15/15, untranslatable 10/10, provenance 4/4";
    assert_eq!(data["samenvatting"]["regel"], line);
    assert_eq!(
        out.stderr,
        format!("{line}\n"),
        "the closing line follows the data on stderr"
    );
    assert_eq!(data["bestanden"], 7);
}

#[test]
fn every_law_scenario_passes_and_the_suites_wip_is_listed() {
    test_support::conformance_dir!();
    let sandbox = Sandbox::new();
    let corpus = corpus_dir().display().to_string();
    let out = scenario(&sandbox, &[&corpus, "--corpus", &corpus]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let data = compact_document(&out.stdout);
    assert_eq!(
        data["samenvatting"]["regel"],
        "38 passed, 0 failed, 1 skipped; core 38/39"
    );
    let skipped: Vec<&serde_json::Value> = data["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["resultaat"] == "skipped")
        .collect();
    assert_eq!(skipped.len(), 1);
    assert!(skipped[0]["reden"].as_str().unwrap().contains("@wip"));
}

#[test]
fn the_shipped_scenarios_of_the_built_in_law_pass_without_a_corpus_and_built_in() {
    let sandbox = Sandbox::new();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios");
    let out = scenario(&sandbox, &[dir]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stderr, "3 passed, 0 failed; core 3/3\n");
    let builtin = scenario(&sandbox, &["--ingebouwd"]);
    assert_eq!(
        builtin.stderr, out.stderr,
        "--ingebouwd runs the same shipped file"
    );
    assert_eq!(
        compact_document(&builtin.stdout)["scenarios"][0]["bestand"],
        "ingebouwd:energiebesparing.feature"
    );
    assert_eq!(
        scenario(&sandbox, &[]).code,
        2,
        "a path or --ingebouwd is required"
    );
}

#[test]
fn a_failed_or_unrunnable_scenario_is_listed_with_its_reason_and_exits_1() {
    let sandbox = Sandbox::new();
    let file = sandbox.write(
        "s/kapot.feature",
        "@tier:core\nFeature: kapot\n  Scenario: onbekende stap\n    Given iets buiten de grammatica\n  Scenario: verkeerde verwachting\n    Given the calculation date is \"2026-01-01\"\n    When I evaluate \"bestaat_niet\" of \"besluit_activiteiten_leefomgeving\"\n    Then the execution succeeds\n  Scenario: goed\n    Given the calculation date is \"2026-01-01\"\n    When I evaluate \"bestaat_niet\" of \"besluit_activiteiten_leefomgeving\"\n    Then the execution fails\n\n@tier:onbekend\n",
    );
    let out = scenario(&sandbox, &[&file.display().to_string()]);
    assert_eq!(out.code, 1, "{out:?}");
    let data = compact_document(&out.stdout);
    assert_valid_against(&output_schema("scenario"), &data, "scenario");
    let s = data["scenarios"].as_array().unwrap();
    assert_eq!(s[0]["resultaat"], "failed");
    assert_eq!(s[0]["stap"]["regel"], 4);
    assert!(s[0]["reden"].as_str().unwrap().contains("grammatica"));
    assert!(s[1]["reden"].as_str().unwrap().contains("evaluatie faalde"));
    assert_eq!(s[2]["resultaat"], "passed");
    let mut lines = out.stderr.lines();
    assert_eq!(lines.next(), Some("1 passed, 2 failed; core 1/3"));
    let error = compact_document(&format!("{}\n", lines.next().unwrap()));
    assert_eq!(error["code"], "SCENARIO_GEFAALD");
    assert_eq!(error["exit_code"], 1);
    assert_eq!(error["detail"], "1 passed, 2 failed; core 1/3");
}

#[test]
fn an_unsupported_tier_fails_every_scenario_of_the_feature() {
    let sandbox = Sandbox::new();
    let file = sandbox.write(
        "s/tier.feature",
        "@tier:stemmen\nFeature: t\n  Scenario: s\n    Given the calculation date is \"2026-01-01\"\n",
    );
    let out = scenario(&sandbox, &[&file.display().to_string()]);
    assert_eq!(out.code, 1);
    let data = compact_document(&out.stdout);
    assert!(
        data["scenarios"][0]["reden"]
            .as_str()
            .unwrap()
            .contains("stemmen")
    );
    assert_eq!(data["samenvatting"]["per_tier"]["stemmen"]["failed"], 1);
}

#[test]
fn a_missing_path_is_65() {
    let sandbox = Sandbox::new();
    let error = scenario(&sandbox, &["bestaat/niet.feature"]).error(65);
    assert_eq!(error["errors"][0]["pointer"], "/paden");
}

//! The spec's conformance section (§17) is generated from the checker's own catalogue
//! (`profile-check --list-rules --output json`); this test fails when they drift apart.
//! Regenerate with `GOLDEN_BLESS=1 cargo test -p profile-check --test spec_section`.

mod support;

use std::process::Command;

use serde_json::Value;

const START: &str = "## 17. Conformance";
const END: &str = "## 18. References";

/// Rules the checker cannot test from outside, with the repository test that covers them.
const TESTED_ELSEWHERE: &[(&str, &str)] = &[
    ("EXIT-11", "kvk-cli/tests/terminal.rs"),
    ("MUT-13", "rvo-cli/tests/cli/crash.rs"),
    ("MUT-15", "rvo-cli/tests/cli/voorstel.rs"),
    ("MUT-16", "rvo-cli/tests/cli/voorstel.rs"),
    ("MUT-17", "records/tests/store.rs"),
    ("MUT-18", "rvo-cli/tests/cli/voorstel.rs"),
    ("MUT-19", "rvo-cli/tests/cli/goedkeuring.rs"),
    ("MUT-20", "rvo-cli/tests/cli/goedkeuring.rs"),
    ("AUDIT-20", "kvk-cli/tests/cli/otlp.rs"),
    ("AUDIT-21", "tests/otlp/test_otlp.py"),
    ("AUDIT-22", "overheid-mcp/tests/http.rs"),
    ("CONV-5", "tests/conformance/tests/family_vocabulary.rs"),
    ("CONV-6", "kvk-cli/tests/terminal.rs"),
    ("CONV-8", "regelrecht-cli/tests/cli/energy.rs"),
    ("CONV-9", "rvo-cli/tests/cli/regeling.rs"),
    ("CACHE-1", "koop-cli/tests/cli/cache.rs"),
    ("CACHE-2", "koop-cli/tests/cli/cache.rs"),
    ("CACHE-3", "koop-cli/tests/cli/cache.rs"),
    ("CACHE-4", "koop-cli/tests/cli/cache.rs"),
    ("CACHE-6", "koop-cli/tests/cli/cache.rs"),
    ("NET-12", "kvk-cli/tests/cli/tls.rs"),
];

fn catalogue() -> Vec<Value> {
    let output = Command::new(env!("CARGO_BIN_EXE_profile-check"))
        .args(["--list-rules", "--output", "json"])
        .output()
        .expect("profile-check runs");
    assert!(output.status.success());
    serde_json::from_slice::<Value>(&output.stdout)
        .expect("JSON")
        .as_array()
        .expect("list")
        .clone()
}

/// `(id, level)` of every rule row of the current §17 table.
fn rules(section: &str) -> Vec<(String, String)> {
    section
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line
                .trim()
                .trim_matches('|')
                .split('|')
                .map(str::trim)
                .collect();
            let looks_like_rule = cells.len() >= 3
                && cells[0].contains('-')
                && cells[0]
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-');
            (looks_like_rule && (cells[1] == "MUST" || cells[1] == "SHOULD"))
                .then(|| (cells[0].to_string(), cells[1].to_string()))
        })
        .collect()
}

fn generate(rules: &[(String, String)], checks: &[Value], summary: &str) -> String {
    let mut text = format!(
        "{START}\n\n\
A program conforms to profile 2.0 when it meets every MUST rule below. SHOULD rules are reported but do not fail\n\
conformance. The conformance checker `profile-check` (workspace package `tests/conformance`) tests any program from\n\
its own discovery document, in any language; see `tests/conformance/README.md`.\n\
The column *checks* names the checker's checks for each rule (`profile-check --rule <id>` runs them); *not automated*\n\
marks a rule that needs review or a source-specific test (named where this repository has one). This table is\n\
generated from `profile-check --list-rules --output json`, and a test fails when the two differ\n\
(`GOLDEN_BLESS=1 cargo test -p profile-check --test spec_section` regenerates it).\n\n\
{summary}\n\n| id | level | checks |\n|---|---|---|\n"
    );
    for (rule, level) in rules {
        let ids: Vec<String> = checks
            .iter()
            .filter(|c| {
                c["rules"]
                    .as_array()
                    .is_some_and(|r| r.iter().any(|r| r == rule.as_str()))
            })
            .map(|c| format!("`{}`", c["id"].as_str().unwrap()))
            .collect();
        let elsewhere = TESTED_ELSEWHERE.iter().find(|(id, _)| id == rule);
        let cell = if let (true, Some((_, test))) = (ids.is_empty(), elsewhere) {
            format!("*not automated*; tested by `{test}`")
        } else if ids.is_empty() {
            "*not automated*".to_string()
        } else {
            ids.join(", ")
        };
        text.push_str(&format!("| {rule} | {level} | {cell} |\n"));
    }
    text.push('\n');
    text
}

#[test]
fn spec_section_matches_the_checkers_catalogue() {
    let path = support::manifest_dir().join("../../spec/CLI-PROFILE.md");
    let spec = std::fs::read_to_string(&path).expect("spec readable");
    let start = spec.find(START).expect("§17 present");
    let end = spec.find(END).expect("§18 present");
    let section = &spec[start..end];
    let rules = rules(section);
    assert!(rules.len() > 100, "§17 lists the rules ({})", rules.len());
    let summary = section
        .lines()
        .find(|l| l.contains(" rules: "))
        .expect("rule count line")
        .to_string();
    let checks = catalogue();
    for check in &checks {
        for rule in check["rules"].as_array().unwrap() {
            assert!(
                rules.iter().any(|(id, _)| rule == id.as_str()),
                "check {} cites {rule}, which §17 does not list",
                check["id"]
            );
        }
    }
    for (rule, test) in TESTED_ELSEWHERE {
        assert!(
            support::manifest_dir().join("../..").join(test).is_file(),
            "{rule} is said to be tested by {test}, which does not exist"
        );
        assert!(
            !checks
                .iter()
                .any(|c| c["rules"].as_array().unwrap().iter().any(|r| r == rule)),
            "{rule} has a check now; drop it from TESTED_ELSEWHERE"
        );
    }
    let expected = generate(&rules, &checks, &summary);
    // The workspace's one bless mechanism: GOLDEN_BLESS=1 rewrites §17 in place.
    test_support::golden::assert_golden(
        &path,
        &format!("{}{}{}", &spec[..start], expected, &spec[end..]),
    );
}

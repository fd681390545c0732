//! Proof that the checker can fail: the legacy fixture fails on the right rules, the conforming
//! fixture passes, and each one-rule variation of it fails exactly that rule's check.

mod support;

use support::{checks_with, failed_rules, fake_source, fixture, profile_check, with_source};

/// Run profile-check on the conforming fixture (with its source) and extra `arguments` before `--`.
fn check_good_cli(
    options: &[&str],
    fixture_arguments: &[&str],
) -> (i32, serde_json::Value, String) {
    let script = fixture("good-cli.sh");
    let mut arguments = with_source(options);
    arguments.extend(["--".into(), "bash".into(), script]);
    arguments.extend(fixture_arguments.iter().map(|a| a.to_string()));
    let arguments: Vec<&str> = arguments.iter().map(String::as_str).collect();
    profile_check(&arguments)
}

#[test]
fn legacy_tool_fails_on_the_right_rules() {
    let script = fixture("legacy-cli.sh");
    let (status, report, stderr) = profile_check(&[
        "--example",
        "item get 1234",
        "--mutating-example",
        "item put 1234",
        "--",
        "bash",
        &script,
    ]);
    assert_eq!(status, 1, "a failing MUST exits 1; stderr: {stderr}");
    let rules = failed_rules(&report);
    for rule in [
        "DISC-1", "ERR-1", "ERR-11", "DRY-1", "MUT-2", "MUT-6", "AUDIT-1", "OUT-3",
    ] {
        assert!(
            rules.contains(&rule.to_string()),
            "{rule} should fail; failed: {rules:?}"
        );
    }
    let failed = checks_with(&report, "FAIL");
    for check in [
        "discovery-document",
        "usage-unknown-command",
        "usage-unknown-option",
        "error-object",
        "dry-run-examples",
        "mutation-refused",
    ] {
        assert!(
            failed.contains(&check.to_string()),
            "{check} should fail; failed: {failed:?}"
        );
    }
    let evidence = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "mutation-refused")
        .unwrap()["evidence"][0]
        .clone();
    assert!(
        evidence["command"]
            .as_str()
            .unwrap()
            .contains("item put 1234"),
        "{evidence}"
    );
    assert_eq!(evidence["status"], "exit 0");
}

#[test]
fn legacy_tool_without_examples_still_fails_discovery() {
    let (status, report, _) = profile_check(&["--", "bash", &fixture("legacy-cli.sh")]);
    assert_eq!(status, 1);
    assert!(checks_with(&report, "FAIL").contains(&"discovery-document".to_string()));
    assert!(checks_with(&report, "SKIP").contains(&"mutation-refused".to_string()));
}

#[test]
fn conforming_fixture_passes_every_check_it_can_run() {
    let (status, report, stderr) = check_good_cli(&[], &[]);
    assert_eq!(
        checks_with(&report, "FAIL"),
        Vec::<String>::new(),
        "{report:#}"
    );
    assert_eq!(status, 0, "stderr: {stderr}");
    let passed = checks_with(&report, "PASS");
    for check in [
        "mutation-refused",
        "mutation-stale",
        "fields-two",
        "provenance-envelope",
        "secrets-canary",
        "trace-context",
        "invalid-pattern",
        "usage-bad-enum",
        "plain-http-refused",
        "upstream-5xx",
        "upstream-503",
        "upstream-429",
        "upstream-401",
        "upstream-400",
        "upstream-422",
        "upstream-410",
        "upstream-garbage",
        "upstream-timeout",
        "upstream-timeout-on-time",
        "upstream-redirect",
        "upstream-headers",
        "upstream-base-url",
        "audit-upstream",
        "live-examples",
    ] {
        assert!(
            passed.contains(&check.to_string()),
            "{check} should run and pass; passed: {passed:?}"
        );
    }
}

#[test]
fn an_env_that_is_not_the_programs_base_url_keeps_the_run_offline() {
    let script = fixture("good-cli.sh");
    let other = format!("ANDER_API_BASE={}", fake_source());
    let (status, report, stderr) = profile_check(&["--env", &other, "--", "bash", &script]);
    assert_eq!(status, 0, "stderr: {stderr}");
    assert_eq!(report["live"], false, "{report:#}");
    let skipped = checks_with(&report, "SKIP");
    assert!(
        skipped.contains(&"live-examples".to_string()),
        "skipped: {skipped:?}"
    );
}

/// Each variation of the conforming fixture breaks one rule; only that check may fail.
const VARIATIONS: &[(&str, &str)] = &[
    ("pattern-exit-1", "invalid-pattern"),
    ("stdout-on-error", "error-stdout-empty"),
    ("two-errors", "error-object"),
    ("no-audit-dry", "audit-records"),
    ("bad-digest", "plan-content"),
    ("confirm-ignored", "mutation-refused"),
    ("stale-executes", "mutation-stale"),
    ("ansi", "no-ansi"),
    ("leak", "secrets-canary"),
    ("fields-extra", "fields-two"),
    ("fields-silent", "fields-unknown"),
    ("reuse-span", "trace-context"),
    ("version-mismatch", "discovery-identity"),
    ("untyped-members", "command-discovery"),
    ("help-json", "plain-help"),
    ("unknown-flag-exit-1", "usage-unknown-option"),
    ("pretty-compact", "output-pretty"),
    ("bad-provenance", "provenance-envelope"),
    ("400-invalid-input", "upstream-400"),
    ("401-no-status", "upstream-401"),
    ("gone-unavailable", "upstream-410"),
    ("503-retry-forever", "upstream-503"),
    ("deadline-late", "upstream-timeout-on-time"),
    ("deadline-unsent", "upstream-timeout"),
];

#[test]
fn each_variation_fails_exactly_its_rule() {
    let wrong = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for chunk in VARIATIONS.chunks(VARIATIONS.len().div_ceil(3)) {
            let wrong = &wrong;
            scope.spawn(move || {
                for (variation, check) in chunk {
                    let argument = format!("break:{variation}");
                    let (status, report, _) = check_good_cli(&["--jobs", "4"], &[&argument]);
                    let failed = checks_with(&report, "FAIL");
                    if failed != [check.to_string()] || status != 1 {
                        wrong.lock().unwrap().push(format!(
                            "break:{variation}: expected only {check} to fail (exit 1), got {failed:?} (exit {status})"
                        ));
                    }
                }
            });
        }
    });
    let wrong = wrong.into_inner().unwrap();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn rule_option_runs_only_matching_checks() {
    let (status, report, _) = profile_check(&[
        "--rule",
        "MUT-2",
        "--",
        "bash",
        &fixture("good-cli.sh"),
        "break:confirm-ignored",
    ]);
    assert_eq!(status, 1);
    let ids: Vec<&str> = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["mutation-refused"]);
}

#[test]
fn usage_errors_exit_2_with_an_error_object() {
    let (status, _, stderr) = profile_check(&["--rule", "GEEN-1", "--", "true"]);
    assert_eq!(status, 2);
    let object: serde_json::Value = serde_json::from_str(stderr.trim()).expect("error object");
    assert_eq!(object["code"], "ONGELDIG_GEBRUIK");
    let (status, _, _) = profile_check(&[]);
    assert_eq!(status, 2, "no program is a usage error");
}

#[test]
fn a_hanging_tool_is_killed_at_the_deadline() {
    let started = std::time::Instant::now();
    let (status, report, _) = profile_check(&[
        "--timeout",
        "0.5",
        "--rule",
        "DISC-1",
        "--",
        "sh",
        "-c",
        "sleep 30 & sleep 30",
    ]);
    assert_eq!(status, 1);
    assert!(
        started.elapsed().as_secs() < 10,
        "took {:?}",
        started.elapsed()
    );
    let evidence = &report["checks"][0]["evidence"][0];
    assert!(
        evidence["status"]
            .as_str()
            .unwrap()
            .starts_with("afgebroken"),
        "{evidence}"
    );
}

/// The result of check `id` in a report, and its reason when skipped.
fn result_of(report: &serde_json::Value, id: &str) -> (String, String) {
    let check = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no check {id}: {report:#}"));
    (
        check["result"].as_str().unwrap_or("").to_string(),
        check["reason"].as_str().unwrap_or("").to_string(),
    )
}

#[test]
fn under_an_emulator_only_the_wall_clock_check_does_not_apply() {
    let (_, natively, _) = check_good_cli(&[], &[]);
    let (status, report, stderr) = check_good_cli(&["--emulated"], &[]);
    assert_eq!(status, 0, "stderr: {stderr}; {report:#}");
    assert_eq!(report["emulated"], true);
    assert_eq!(natively["emulated"], false);
    let (result, reason) = result_of(&report, "upstream-timeout-on-time");
    assert_eq!(result, "SKIP");
    assert!(
        reason.contains("niet van toepassing onder een emulator"),
        "{reason}"
    );
    let mut expected = checks_with(&natively, "SKIP");
    expected.push("upstream-timeout-on-time".into());
    expected.sort();
    let mut skipped = checks_with(&report, "SKIP");
    skipped.sort();
    assert_eq!(
        skipped, expected,
        "nothing else is skipped for the emulator"
    );
    // Counted apart from the skips of what a program lacks, in the summary and on the check.
    assert_eq!(
        report["summary"]["not_applicable"], 1,
        "{:#}",
        report["summary"]
    );
    assert_eq!(natively["summary"]["not_applicable"], 0);
    for check in report["checks"].as_array().expect("checks") {
        let unjudged = check["id"] == "upstream-timeout-on-time";
        assert_eq!(check["not_applicable"] == true, unjudged, "{check:#}");
    }
    // The deadline itself is still checked: exit 124 by the program's own doing.
    assert_eq!(result_of(&report, "upstream-timeout").0, "PASS");

    // A late stop is then not judged, and said so; any other broken rule still fails.
    let (status, report, _) = check_good_cli(&["--emulated"], &["break:deadline-late"]);
    assert_eq!(status, 0, "{report:#}");
    assert_eq!(result_of(&report, "upstream-timeout-on-time").0, "SKIP");
    let (status, report, _) = check_good_cli(&["--emulated"], &["break:400-invalid-input"]);
    assert_eq!(status, 1);
    assert_eq!(checks_with(&report, "FAIL"), ["upstream-400"]);
}

#[test]
fn under_an_emulator_a_program_without_a_source_is_skipped_not_left_unjudged() {
    // The legacy fixture declares no source, so there is no silence to time: skipped for that,
    // emulated or not, and not counted as not applicable.
    let script = fixture("legacy-cli.sh");
    let (_, report, stderr) =
        profile_check(&["--emulated", "--rule", "NET-2", "--", "bash", &script]);
    let (result, reason) = result_of(&report, "upstream-timeout-on-time");
    assert_eq!(result, "SKIP", "stderr: {stderr}; {report:#}");
    assert!(!reason.contains("emulator"), "{reason}");
    assert_eq!(
        report["summary"]["not_applicable"], 0,
        "{:#}",
        report["summary"]
    );
}

#[test]
fn the_table_counts_what_the_emulator_left_unjudged_apart() {
    let table = |options: &[&str]| {
        let mut arguments = with_source(&["--output", "table", "--rule", "NET-2"]);
        arguments.extend(options.iter().map(|o| o.to_string()));
        arguments.extend(["--".into(), "bash".into(), fixture("good-cli.sh")]);
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_profile-check"))
            .args(&arguments)
            .output()
            .expect("profile-check runs");
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        stdout.lines().last().unwrap_or_default().to_string()
    };
    let emulated = table(&["--emulated"]);
    assert!(
        emulated.ends_with("SKIP (waarvan 1 niet van toepassing onder --emulated)"),
        "{emulated}"
    );
    let natively = table(&[]);
    assert!(natively.ends_with(" SKIP"), "{natively}");
}

#[test]
fn under_an_emulator_the_checkers_time_limits_are_ten_times_wider() {
    // 0.3 s kills a program that answers after 1 s; with --emulated the limit is 3 s.
    let slow = ["--", "sh", "-c", "sleep 1; echo '{}'"];
    let status_of = |options: &[&str]| {
        let mut arguments = vec!["--timeout", "0.3", "--rule", "DISC-1"];
        arguments.extend(options);
        arguments.extend(slow);
        let (_, report, _) = profile_check(&arguments);
        report["checks"][0]["evidence"][0]["status"]
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    assert!(
        status_of(&[]).starts_with("afgebroken"),
        "{}",
        status_of(&[])
    );
    assert_eq!(status_of(&["--emulated"]), "exit 0");
}

//! The template of a new tool (`dist/template/`, issue 42.4) passes profile-check as it stands:
//! every MUST, with nothing known to fail. Needs `sjabloon` built next to this test (`cargo
//! test --workspace` builds it).

mod support;

use std::path::PathBuf;

/// The template's program in this build (the test runs as `target/<profile>/deps/…`).
fn sjabloon() -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its own path");
    let path = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("the test runs from target/<profile>/deps")
        .join(format!("sjabloon{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "sjabloon is missing at {}: build it with `cargo build -p sjabloon` (or run `cargo test \
         --workspace`)",
        path.display()
    );
    path
}

#[test]
fn the_template_passes_every_must() {
    let program = sjabloon();
    let (status, report, stderr) = support::profile_check(&["--", &program.display().to_string()]);
    let failed: Vec<&serde_json::Value> = report["checks"]
        .as_array()
        .map(|checks| {
            checks
                .iter()
                .filter(|c| c["result"] == "FAIL" && c["level"] == "MUST")
                .collect()
        })
        .unwrap_or_default();
    assert!(
        failed.is_empty(),
        "the template fails MUST checks (exit {status}, {stderr}):\n{failed:#?}"
    );
    assert_eq!(status, 0, "{stderr}");
    let passed = report["checks"].as_array().map_or(0, |checks| {
        checks.iter().filter(|c| c["result"] == "PASS").count()
    });
    assert!(passed > 20, "{passed} checks passed only: {report:#}");
}

/// The template is no program of the family until it is copied and renamed `<bron>-cli`.
#[test]
fn the_template_is_no_program_of_the_family() {
    assert!(
        !test_support::cli::programs()
            .iter()
            .any(|p| p == "sjabloon"),
        "{:?}",
        test_support::cli::programs()
    );
}

//! fake-upstream's `--help` is Dutch throughout, also where clap writes its own words
//! (issue 13.5).

use std::process::Command;

#[test]
fn help_has_no_english_left() {
    let out = Command::new(env!("CARGO_BIN_EXE_fake-upstream"))
        .arg("--help")
        .output()
        .expect("fake-upstream runs");
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(help.contains("Gebruik: fake-upstream [OPTIES]"), "{help}");
    for english in [
        "Usage:",
        "Options:",
        "[OPTIONS]",
        "[possible values",
        "[default:",
        "Print help",
        "Print version",
    ] {
        assert!(!help.contains(english), "{english:?} in:\n{help}");
    }
}

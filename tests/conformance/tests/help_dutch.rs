//! profile-check's own `--help` is Dutch throughout, also where clap writes its own words
//! (issue 13.5; DISC-20 for the family's tools).

use std::process::Command;

#[test]
fn help_has_no_english_left() {
    let out = Command::new(env!("CARGO_BIN_EXE_profile-check"))
        .arg("--help")
        .output()
        .expect("profile-check runs");
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(help.contains("Gebruik: profile-check [OPTIES]"), "{help}");
    for english in [
        "Usage:",
        "Options:",
        "Arguments:",
        "[OPTIONS]",
        "[possible values",
        "[default:",
        "Print help",
        "Print version",
    ] {
        assert!(!help.contains(english), "{english:?} in:\n{help}");
    }
}

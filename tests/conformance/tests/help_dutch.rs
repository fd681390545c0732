//! profile-check's own `--help` is Dutch throughout, also where clap writes its own words
//! (issue 13.5; DISC-20 for the family's tools).

#[test]
fn help_has_no_english_left() {
    test_support::cli::assert_dutch_help(
        env!("CARGO_BIN_EXE_profile-check"),
        "profile-check [OPTIES] [-- <PROGRAMMA>...]",
    );
}

/// The family's tools: their help's usage lines and their man pages are Dutch where clap and
/// clap_mangen write their own words (`[OPTIONS]`, `<COMMAND>`, NAME, SYNOPSIS, OPTIONS, …).
#[test]
fn the_family_s_usage_lines_and_man_pages_are_dutch() {
    let exe = std::env::current_exe().expect("the test knows its own path");
    let dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>");
    for tool in test_support::cli::programs() {
        let program = dir.join(tool);
        assert!(program.is_file(), "{tool}: run `cargo test --workspace`");
        let program = program.to_str().expect("UTF-8 path");
        // A command of the tool: the first word of its first discovery entry.
        let discovery = std::process::Command::new(program)
            .args(["--help", "--json"])
            .env_clear()
            .output()
            .expect("runs");
        let discovery: serde_json::Value =
            serde_json::from_slice(&discovery.stdout).expect("discovery is JSON");
        let command = test_support::cli::argv_of(&discovery["tools"][0])
            .first()
            .map(|word| word.to_string())
            .expect("a command");
        test_support::cli::assert_dutch_help(program, &format!("{tool} [OPTIES] <OPDRACHT>"));
        let out = std::process::Command::new(program)
            .args([command.as_str(), "--help"])
            .env_clear()
            .output()
            .expect("runs");
        let help = String::from_utf8_lossy(&out.stdout);
        let usage = help
            .lines()
            .find(|l| l.starts_with("Gebruik: "))
            .unwrap_or_else(|| panic!("{tool} {command} --help: {help}"));
        for english in ["[OPTIONS]", "<COMMAND>", "[ARGS]", "Usage"] {
            assert!(!usage.contains(english), "{tool} {command}: {usage}");
        }
        test_support::cli::assert_dutch_man(program);
    }
}

//! fake-upstream's `--help` is Dutch throughout, also where clap writes its own words
//! (issue 13.5).

#[test]
fn help_has_no_english_left() {
    test_support::cli::assert_dutch_help(
        env!("CARGO_BIN_EXE_fake-upstream"),
        "fake-upstream [OPTIES]",
    );
}

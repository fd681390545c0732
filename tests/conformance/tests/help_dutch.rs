//! profile-check's own `--help` is Dutch throughout, also where clap writes its own words
//! (issue 13.5; DISC-20 for the family's tools).

#[test]
fn help_has_no_english_left() {
    test_support::cli::assert_dutch_help(
        env!("CARGO_BIN_EXE_profile-check"),
        "profile-check [OPTIES] [-- <PROGRAMMA>...]",
    );
}

//! Golden discovery (issue 11.9): `profile-check --help --json` and its human `--help` as
//! checked-in files in `tests/golden/`; any drift fails here. Refresh with
//! `GOLDEN_BLESS=1 cargo test -p profile-check golden` and review the diff.

use std::path::Path;

use test_support::cli::Sandbox;

#[test]
fn golden_discovery_and_help() {
    // profile-check writes no audit log; the variable only satisfies the sandbox.
    let sandbox = Sandbox::new(
        env!("CARGO_BIN_EXE_profile-check"),
        "PROFILE_CHECK_AUDIT_LOG",
    );
    test_support::golden::assert_discovery(
        &sandbox,
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden"),
        &[],
    );
}

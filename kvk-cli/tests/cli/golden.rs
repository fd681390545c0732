//! Golden discovery (issue 11.9): `--help --json` and the human `--help` of kvk-cli, top level
//! and a subcommand, as checked-in files in `tests/golden/`; any drift fails here. Refresh
//! with `GOLDEN_BLESS=1 cargo test -p kvk-cli golden` and review the diff.

use std::path::Path;

use crate::support::Sandbox;

#[test]
fn golden_discovery_and_help() {
    test_support::golden::assert_discovery(
        &Sandbox::new(),
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden"),
        &[&["basisprofiel"], &["basisprofiel", "toon"], &["zoek"]],
    );
}

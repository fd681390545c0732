//! The library's parsers without a process: SRU answers and toestand XML against hand-written
//! fixtures, the generated large law and property tests. They
//! share this test binary with the command tests so the workspace links one binary for koop-cli.

mod bal;
mod fuzz;
mod large_law;
mod sru;
mod toestand;

use std::path::Path;

/// A fixture under `koop-cli/tests/fixtures/` by relative path.
pub(crate) fn fixture(path: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(path);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

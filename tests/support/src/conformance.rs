//! RegelRecht's own conformance material (its law corpus, the reference engine's differential
//! vectors, its BDD features), which the repository does not hold: a test that needs it gets the
//! directory from [`dir`] or, through [`conformance_dir!`](crate::conformance_dir), skips.
//!
//! The directory is `REGELRECHT_CONFORMANCE_DIR`, else `../shared/regelrecht` beside the
//! checkout where it exists. Without it a test is skipped with one line on stderr that names the
//! test and how to run it; the line is written past libtest's output capture, so a plain
//! `cargo test` shows it. With `REGELRECHT_CONFORMANCE_REQUIRED=1` (CI) a missing directory fails
//! the test instead.

use std::path::{Path, PathBuf};

/// Names the directory that holds `corpus/`, `vectors/` and `bdd/`.
pub const DIR_VAR: &str = "REGELRECHT_CONFORMANCE_DIR";

/// Set to `1` where the material must be present (CI): then a test never skips.
pub const REQUIRED_VAR: &str = "REGELRECHT_CONFORMANCE_REQUIRED";

/// The conformance directory, or `None` when there is none (and skipping is allowed).
///
/// # Panics
/// When `REGELRECHT_CONFORMANCE_DIR` names no directory, or when the material is missing and
/// `REGELRECHT_CONFORMANCE_REQUIRED=1`.
pub fn dir() -> Option<PathBuf> {
    let found = match std::env::var_os(DIR_VAR).filter(|v| !v.is_empty()) {
        Some(named) => {
            let named = PathBuf::from(named);
            assert!(
                named.is_dir(),
                "{DIR_VAR}={} is geen bestaande map",
                named.display()
            );
            Some(named)
        }
        None => Some(default_dir()).filter(|d| d.is_dir()),
    };
    if found.is_none() && std::env::var_os(REQUIRED_VAR).is_some_and(|v| v == "1") {
        panic!(
            "RegelRecht-conformancemateriaal ontbreekt ({} bestaat niet) terwijl {REQUIRED_VAR}=1",
            default_dir().display()
        );
    }
    found
}

/// `<repository>/../shared/regelrecht`.
pub fn default_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/regelrecht")
}

/// Reports that the running test was skipped, on stderr past the test harness's capture. libtest
/// names a test's thread after the test; `fallback` (the module) serves where it does not.
pub fn skipped(fallback: &str) {
    crate::skip::skipped_in(
        fallback,
        &format!(
            "RegelRecht-conformancemateriaal ontbreekt; \
         zet {DIR_VAR}=<map met corpus/, vectors/ en bdd/> (in CI: ../shared/regelrecht)"
        ),
    );
}

/// The conformance directory, or skip the calling test (return from it) with one visible line.
///
/// ```ignore
/// let shared = test_support::conformance_dir!();
/// ```
#[macro_export]
macro_rules! conformance_dir {
    () => {
        match $crate::conformance::dir() {
            Some(dir) => dir,
            None => {
                $crate::conformance::skipped(module_path!());
                return;
            }
        }
    };
}

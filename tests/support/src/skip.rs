//! A test that needs what this machine lacks (a shell, `script`, PostgreSQL, RegelRecht's
//! material, Prism) never passes having tested nothing unseen: it skips with one line
//! `overgeslagen: <test>: <reason>` on stderr, written past libtest's output capture (which
//! shows a passing test's `eprintln!` to nobody), so a plain `cargo test` shows it and
//! `tests/run.sh` counts it at the end. With `OVERHEID_TEST_NO_SKIP=1` (as `.ci/run` sets) a skip
//! fails the test instead: there everything runs.

use std::io::Write as _;
use std::process::{Command, Stdio};

/// Set to `1` where nothing may be skipped (CI).
pub const NO_SKIP_VAR: &str = "OVERHEID_TEST_NO_SKIP";

/// The line a skip writes starts with this (what `tests/run.sh` counts).
pub const MARK: &str = "overgeslagen: ";

/// Reports that the running test skips for `reason`, visibly; fails it under
/// `OVERHEID_TEST_NO_SKIP=1`. The caller then returns.
///
/// # Panics
/// Under `OVERHEID_TEST_NO_SKIP=1`.
pub fn skipped(reason: &str) {
    skipped_in("test", reason);
}

/// [`skipped`], naming the test `fallback` where its thread has no name of its own.
///
/// # Panics
/// Under `OVERHEID_TEST_NO_SKIP=1`.
pub fn skipped_in(fallback: &str, reason: &str) {
    let thread = std::thread::current();
    // libtest names a test's thread after the test.
    let test = thread.name().filter(|n| *n != "main").unwrap_or(fallback);
    assert!(
        std::env::var_os(NO_SKIP_VAR).is_none_or(|v| v != "1"),
        "{NO_SKIP_VAR}=1, maar {test} zou worden overgeslagen: {reason}"
    );
    let line = format!("{MARK}{test}: {reason}\n");
    // `eprintln!` would be captured by libtest and shown only for a failing test.
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}

/// Whether `program` runs here (`program --version`); if not, the test skips visibly
/// ([`skipped`]) and the caller returns.
pub fn program(program: &str) -> bool {
    let found = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    if !found {
        skipped(&format!("{program} is niet geïnstalleerd"));
    }
    found
}

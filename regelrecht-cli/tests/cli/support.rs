//! Helpers for the regelrecht-cli integration tests; the tool-independent ones live in
//! [`test_support::cli`].
//!
//! - [`Sandbox`]: the shared sandbox for `regelrecht-cli`.
//! - [`shared`] and [`corpus_dir`]: the shared regelrecht material (read only).
//! - [`discovery`] and [`output_schema`]: the discovery document and a command's outputSchema.

use std::ops::Deref;
use std::path::PathBuf;

use serde_json::Value;

pub(crate) use test_support::cli::{assert_valid, assert_valid_against, run};

/// A small law of our own (one article, one output), for tests that need a corpus file but not
/// RegelRecht's.
pub(crate) const SMALL_LAW: &str = "$id: kleine_wet\nname: Kleine wet\nregulatory_layer: WET\nvalid_from: '2025-01-01'\narticles:\n  - number: '1'\n    text: Het bedrag is tien euro.\n    machine_readable:\n      definitions:\n        bedrag: 1000\n      execution:\n        output:\n          - name: bedrag_eurocent\n            type: amount\n        actions:\n          - output: bedrag_eurocent\n            value: $bedrag\n";

/// The `$id` of the built-in Bal.
pub(crate) const BAL: &str = "besluit_activiteiten_leefomgeving";

/// RegelRecht's own conformance material (`../shared/regelrecht`, or
/// `REGELRECHT_CONFORMANCE_DIR`). A test calls `test_support::conformance_dir!()` first, which
/// skips it visibly where the material is missing.
pub(crate) fn shared() -> PathBuf {
    test_support::conformance::dir()
        .expect("call test_support::conformance_dir!() at the start of the test")
}

/// The shared corpus directory.
pub(crate) fn corpus_dir() -> PathBuf {
    shared().join("corpus")
}

/// The shared sandbox for `regelrecht-cli` (audit log in `REGELRECHT_AUDIT_LOG`).
pub(crate) struct Sandbox(test_support::cli::Sandbox);

impl Sandbox {
    pub(crate) fn new() -> Self {
        Sandbox(test_support::cli::Sandbox::new(
            env!("CARGO_BIN_EXE_regelrecht-cli"),
            "REGELRECHT_AUDIT_LOG",
        ))
    }
}

impl Deref for Sandbox {
    type Target = test_support::cli::Sandbox;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

/// `evalueer kleine_wet --uitvoer bedrag_eurocent --peildatum 2025-06-01 --corpus CORPUS`, plus
/// `extra`: the small test law of several modules.
pub(crate) fn evalueer_kleine_wet(
    sandbox: &Sandbox,
    corpus: &str,
    extra: &[&str],
) -> test_support::cli::Run {
    let mut args = vec![
        "evalueer",
        "kleine_wet",
        "--uitvoer",
        "bedrag_eurocent",
        "--peildatum",
        "2025-06-01",
        "--corpus",
        corpus,
    ];
    args.extend_from_slice(extra);
    run(sandbox.cmd(), &args)
}

/// The discovery document.
pub(crate) fn discovery() -> Value {
    Sandbox::new().discovery()
}

/// The output schema of tool `name`.
pub(crate) fn output_schema(name: &str) -> Value {
    Sandbox::new().tool_entry(name)["outputSchema"].clone()
}

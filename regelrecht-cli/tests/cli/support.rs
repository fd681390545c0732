//! Helpers for the regelrecht-cli integration tests; the tool-independent ones live in
//! [`test_support::cli`].
//!
//! - [`Sandbox`]: the shared sandbox for `regelrecht-cli`.
//! - [`shared`] and [`corpus_dir`]: the shared regelrecht material (read only).
//! - [`discovery`] and [`output_schema`]: the discovery document and a command's outputSchema.

use std::ops::Deref;
use std::path::{Path, PathBuf};

use serde_json::Value;

pub use test_support::cli::{assert_valid, assert_valid_against, run};

/// The `$id` of the built-in Bal.
pub const BAL: &str = "besluit_activiteiten_leefomgeving";

/// `<repo>/../shared/regelrecht`.
pub fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/regelrecht")
}

/// The shared corpus directory.
pub fn corpus_dir() -> PathBuf {
    shared().join("corpus")
}

/// The shared sandbox for `regelrecht-cli` (audit log in `REGELRECHT_AUDIT_LOG`).
pub struct Sandbox(test_support::cli::Sandbox);

impl Sandbox {
    pub fn new() -> Self {
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
pub fn evalueer_kleine_wet(
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
pub fn discovery() -> Value {
    Sandbox::new().discovery()
}

/// The output schema of tool `name`.
pub fn output_schema(name: &str) -> Value {
    Sandbox::new().tool_entry(name)["outputSchema"].clone()
}

//! Shared helpers for the integration tests: RegelRecht's conformance material (through
//! `test_support::conformance`) and loading the corpus.

#![allow(dead_code, reason = "each test binary uses part of these helpers")]

use regelrecht_engine::{Corpus, TraceKind, TraceNode};
use std::path::PathBuf;

/// RegelRecht's conformance material (`../shared/regelrecht`, or `REGELRECHT_CONFORMANCE_DIR`).
/// A test calls `test_support::conformance_dir!()` first, which skips it visibly without it.
pub(crate) fn shared_regelrecht() -> PathBuf {
    test_support::conformance::dir()
        .expect("call test_support::conformance_dir!() at the start of the test")
}

/// The built-in laws plus the shared corpus.
pub(crate) fn full_corpus() -> Corpus {
    let mut corpus = Corpus::with_builtins();
    corpus
        .add_dir(&shared_regelrecht().join("corpus"))
        .expect("corpus laadt");
    corpus
}

/// Whether any node in the trace has this kind.
pub(crate) fn trace_has(node: &TraceNode, kind: TraceKind) -> bool {
    node.kind == kind || node.children.iter().any(|c| trace_has(c, kind))
}

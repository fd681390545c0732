//! Shared helpers for the integration tests: locating `../shared/regelrecht` and loading the corpus.

#![allow(dead_code)]

use regelrecht_engine::{Corpus, TraceKind, TraceNode};
use std::path::PathBuf;

/// `<repo root>/../shared/regelrecht` (the repo root is two levels above this crate).
pub fn shared_regelrecht() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/regelrecht");
    assert!(
        dir.is_dir(),
        "gedeelde RegelRecht-data niet gevonden op {}",
        dir.display()
    );
    dir
}

/// The built-in laws plus the shared corpus.
pub fn full_corpus() -> Corpus {
    let mut corpus = Corpus::with_builtins();
    corpus
        .add_dir(&shared_regelrecht().join("corpus"))
        .expect("corpus laadt");
    corpus
}

/// Whether any node in the trace has this kind.
pub fn trace_has(node: &TraceNode, kind: TraceKind) -> bool {
    node.kind == kind || node.children.iter().any(|c| trace_has(c, kind))
}

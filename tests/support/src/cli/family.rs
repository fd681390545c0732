//! The other CLIs of the family, for tests of a tool that runs them as children
//! (`common::child`): they are found next to the tool under test, where `cargo test --workspace`
//! (and `cargo build --workspace --bins`) put them.

use std::path::{Path, PathBuf};

/// The directory of `program` (the tool under test), checked to hold every one of `needed`.
/// Panics with the command that builds a missing one.
pub fn family_dir(program: &str, needed: &[&str]) -> PathBuf {
    let dir = Path::new(program)
        .parent()
        .expect("the program has a directory")
        .to_path_buf();
    for name in needed {
        assert!(
            dir.join(name).is_file(),
            "{name} ontbreekt in {}: bouw het eerst (cargo build -p {name}, of cargo test --workspace)",
            dir.display()
        );
    }
    dir
}

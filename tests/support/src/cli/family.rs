//! The family's programs, and the other CLIs of the family for tests of a tool that runs them as
//! children (`common::child`): they are found next to the tool under test, where `cargo test
//! --workspace` (and `cargo build --workspace --bins`) put them.
//!
//! [`programs`] is the one list of the family: every workspace package named `*-cli` with a
//! program, as `cargo metadata` describes the workspace (the rule of `dist/build.sh --list`,
//! which scripts ask). No test, script or default keeps a list of its own but the bridge's
//! `DEFAULT_TOOLS`, which a test holds equal to it; `tests/conformance/tests/family_list.rs`
//! fails on any other.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The family's programs, in the workspace's order: every package named `*-cli` with a program.
/// Asks `cargo metadata` once per test process.
pub fn programs() -> &'static [String] {
    static PROGRAMS: OnceLock<Vec<String>> = OnceLock::new();
    PROGRAMS.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let output = Command::new(env!("CARGO"))
            .args(["metadata", "--no-deps", "--format-version", "1"])
            .current_dir(&root)
            .output()
            .expect("cargo metadata runs");
        assert!(
            output.status.success(),
            "cargo metadata: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let metadata: serde_json::Value =
            serde_json::from_slice(&output.stdout).expect("cargo metadata is JSON");
        of_metadata(&metadata)
    })
}

/// The family in `cargo metadata`'s description of a workspace (see [`programs`]).
pub fn of_metadata(metadata: &serde_json::Value) -> Vec<String> {
    let has_program = |package: &serde_json::Value| {
        package["targets"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|target| {
                target["kind"]
                    .as_array()
                    .is_some_and(|kinds| kinds.iter().any(|k| k == "bin"))
            })
    };
    metadata["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|package| has_program(package))
        .filter_map(|package| package["name"].as_str())
        .filter(|name| name.ends_with("-cli"))
        .map(String::from)
        .collect()
}

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

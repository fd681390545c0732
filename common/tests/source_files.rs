//! Conventions over every Rust file of the workspace: each starts with a `//!` header that says
//! what it is, and only `common/src/entry.rs`, the process entry point, allows `unsafe_code`
//! (the workspace denies it, Cargo.toml).

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir)
        .expect("readable directory")
        .flatten()
    {
        let path = entry.path();
        let name = entry.file_name();
        let hidden_or_built =
            name.to_string_lossy().starts_with('.') || name == "target" || name == "node_modules";
        if path.is_dir() && !hidden_or_built {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
}

/// Every Rust file of the workspace (not under `target/`, `node_modules/` or a hidden directory).
fn workspace_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    assert!(files.len() > 100, "{} Rust files only", files.len());
    files
}

#[test]
fn every_file_starts_with_a_module_header() {
    let headless: Vec<PathBuf> = workspace_files()
        .into_iter()
        .filter(|path| {
            !std::fs::read_to_string(path)
                .unwrap_or_default()
                .starts_with("//!")
        })
        .collect();
    assert!(headless.is_empty(), "no `//!` header: {headless:#?}");
}

#[test]
fn only_the_entry_point_allows_unsafe_code() {
    let files = workspace_files();
    let this = Path::new(file!()).file_name().expect("a file name");
    let allowed: Vec<&PathBuf> = files
        .iter()
        .filter(|path| path.file_name() != Some(this))
        .filter(|path| {
            std::fs::read_to_string(path)
                .unwrap_or_default()
                .contains("unsafe_code")
        })
        .collect();
    assert_eq!(allowed.len(), 1, "{allowed:#?}");
    assert!(allowed[0].ends_with("common/src/entry.rs"), "{allowed:#?}");
}

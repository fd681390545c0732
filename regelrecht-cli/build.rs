//! Embeds every file of `regelingen/` (the regulation definitions and the source register), so
//! that no code names a regulation: adding a definition is adding a file.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    // Read when the script runs, not when it was compiled: a build script built in another
    // checkout sharing the target directory must not read that checkout's files.
    #[allow(
        clippy::disallowed_methods,
        reason = "build scripts get their paths from cargo"
    )]
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest_dir).join("regelingen");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("regelingen/ is readable")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    names.sort();
    let mut code = String::from("&[\n");
    for path in names {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("UTF-8 name");
        writeln!(code, "    ({name:?}, include_str!({:?})),", path.display()).expect("write");
    }
    code.push(']');
    #[allow(
        clippy::disallowed_methods,
        reason = "build scripts get OUT_DIR from cargo"
    )]
    let out_dir = std::env::var("OUT_DIR").expect("OUT_DIR");
    let out = Path::new(&out_dir).join("regelingen.rs");
    std::fs::write(out, code).expect("write regelingen.rs");
}

//! Checks of a tool linked for a quick start (`common/build/startup_link.rs`): its
//! `startup.order` as `bench/startup-order.sh` writes it, and its packed relocations.

use std::path::Path;

/// `startup.order` of the package at `manifest_dir` names mangled symbols (the names the linker
/// knows, not names for people), each once, among them C's `main` (common::entry!) and the
/// tool's own code (`crate_symbol`, the crate's name as a mangled path has it, e.g.
/// `7kvk_cli`).
pub fn assert_startup_order(manifest_dir: &str, crate_symbol: &str) {
    let path = Path::new(manifest_dir).join("startup.order");
    let order = std::fs::read_to_string(&path).expect("startup.order");
    let names: Vec<&str> = order.lines().collect();
    assert!(names.len() > 100, "{} names only", names.len());
    for name in &names {
        // A demangled name (`a::b`, `<T as U>`) is no symbol: the linker would skip them all.
        assert!(
            !name.is_empty() && !name.contains([' ', ':', '<', '>']),
            "not a symbol: {name:?}"
        );
    }
    let distinct: std::collections::HashSet<_> = names.iter().collect();
    assert_eq!(distinct.len(), names.len(), "a name twice");
    assert!(names.contains(&"main"), "main is not in the order");
    assert!(
        names.iter().any(|n| n.contains(crate_symbol)),
        "no function of {crate_symbol} in the order"
    );
}

/// Where the build script has the linker pack the relative relocations (rust-lld, a native
/// build on glibc 2.36 or later; it then sets `OVERHEID_PACKED_RELOCATIONS`, which the caller
/// passes as `packed`), `program` has a `DT_RELR` table and asks its loader for the glibc
/// version that reads it; elsewhere it has neither.
pub fn assert_packed_relocations(program: &str, packed: bool) {
    let readelf = |option: &str| {
        let output = std::process::Command::new("readelf")
            .args([option, "--wide", program])
            .output()
            .expect("readelf (binutils) runs");
        assert!(output.status.success());
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let sections = readelf("--sections");
    assert_eq!(sections.contains(".relr.dyn"), packed, "{sections}");
    let versions = readelf("--version-info");
    assert_eq!(versions.contains("GLIBC_ABI_DT_RELR"), packed, "{versions}");
}

//! `startup.order`, the linker's order of the functions a call runs (`build.rs`), as
//! `bench/regelrecht/startup-order.sh` writes it: the names the linker knows, not names for
//! people, and this program's own code among them.

use std::path::Path;

#[test]
fn the_startup_order_names_mangled_symbols_of_this_program() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("startup.order");
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
    // The program's entry point (C's `main`, common::entry!) and its own code.
    assert!(names.contains(&"main"), "main is not in the order");
    assert!(
        names.iter().any(|n| n.contains("14regelrecht_cli")),
        "no function of regelrecht-cli in the order"
    );
}

/// Where `build.rs` has the linker pack the relative relocations (rust-lld, a native build on
/// glibc 2.36 or later), the program has a `DT_RELR` table and asks its loader for the glibc
/// version that reads it; elsewhere it has neither. Every other test runs this same program.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn the_program_packs_its_relocations_where_the_build_says_so() {
    let program = env!("CARGO_BIN_EXE_regelrecht-cli");
    let readelf = |option: &str| {
        let output = std::process::Command::new("readelf")
            .args([option, "--wide", program])
            .output()
            .expect("readelf (binutils) runs");
        assert!(output.status.success());
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let packed = option_env!("REGELRECHT_PACKED_RELOCATIONS").is_some();
    let sections = readelf("--sections");
    assert_eq!(sections.contains(".relr.dyn"), packed, "{sections}");
    let versions = readelf("--version-info");
    assert_eq!(versions.contains("GLIBC_ABI_DT_RELR"), packed, "{versions}");
}

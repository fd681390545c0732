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
    assert!(
        names
            .iter()
            .any(|n| n.starts_with("_ZN14regelrecht_cli4main")),
        "main is not in the order"
    );
}

//! The start-up link (`common/build/startup_link.rs`): `startup.order` as
//! `bench/startup-order.sh` writes it, and packed relocations where the build says so.

#[test]
fn the_startup_order_names_mangled_symbols_of_this_program() {
    test_support::startup::assert_startup_order(env!("CARGO_MANIFEST_DIR"), "14regelrecht_cli");
}

/// Every other test runs this same program.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn the_program_packs_its_relocations_where_the_build_says_so() {
    test_support::startup::assert_packed_relocations(
        env!("CARGO_BIN_EXE_regelrecht-cli"),
        option_env!("OVERHEID_PACKED_RELOCATIONS").is_some(),
    );
}

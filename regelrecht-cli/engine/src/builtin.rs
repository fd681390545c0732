//! The laws compiled into the binary: written for this tool in the v0.5 format.

/// `(file name, YAML text)` of every built-in law.
pub const BUILTIN_LAWS: &[(&str, &str)] = &[
    (
        "besluit_activiteiten_leefomgeving/2026-01-01.yaml",
        include_str!("../laws/besluit_activiteiten_leefomgeving/2026-01-01.yaml"),
    ),
    (
        "erkende_maatregelenlijst_energiebesparing/2024-01-01.yaml",
        include_str!("../laws/erkende_maatregelenlijst_energiebesparing/2024-01-01.yaml"),
    ),
];

/// `(file name, JSON text)` of every built-in law: the same data as its YAML, converted when
/// the crate is built (`build.rs`), since JSON reads several times faster. Sorted by name.
pub const BUILTIN_JSON: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/builtin_json.rs"));

/// `(file name, [implements, hooks, overrides, procedure])` of every built-in law: whether its text names
/// each key of [`crate::load`]'s `Declares::KEYS`, read when the crate is built (`build.rs`).
pub const BUILTIN_DECLARES: &[(&str, [bool; 4])] =
    include!(concat!(env!("OUT_DIR"), "/builtin_declares.rs"));

/// `$id` of the built-in Besluit activiteiten leefomgeving (BWBR0041330).
pub const BAL_ID: &str = "besluit_activiteiten_leefomgeving";

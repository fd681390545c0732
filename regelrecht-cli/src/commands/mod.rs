//! One module per command: its arguments, its tool entry, its `run`.

pub mod check_energiebesparing;
pub mod evalueer;
pub mod wet_lijst;
pub mod wet_toon;

/// `--peildatum` in every tool entry: a date `YYYY-MM-DD`.
pub const PEILDATUM: common::ArgSchema = common::ArgSchema {
    name: "peildatum",
    schema: common::validate::PEILDATUM_SCHEMA,
};

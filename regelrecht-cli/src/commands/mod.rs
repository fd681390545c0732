//! One module per command: its arguments, its tool entry, its `run`.

pub mod check_energiebesparing;
pub mod evalueer;
pub mod wet_lijst;
pub mod wet_toon;

/// `--peildatum` in every tool entry: a date `YYYY-MM-DD`.
pub const PEILDATUM: common::ArgSchema = common::ArgSchema {
    name: "peildatum",
    schema: r#"{"type": "string", "format": "date", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}"#,
};

//! One module per top-level command: its arguments, its tool entries, its `run`.

pub mod check;
pub mod evalueer;
pub mod wet;

/// `--peildatum` in every tool entry: a date `YYYY-MM-DD`.
pub const PEILDATUM: common::ArgSchema = common::ArgSchema {
    name: "peildatum",
    schema: common::validate::PEILDATUM_SCHEMA,
};

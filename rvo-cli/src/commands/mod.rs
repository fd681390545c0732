//! One module per command: its arguments, its metadata, its `run`; shared argument helpers here.

pub mod rapportage;
pub mod regeling;

use chrono::NaiveDate;
use common::Context;
use common::validate::{Validation, parse_date};

/// The schema of a `--peildatum` option.
pub const PEILDATUM_SCHEMA: &str =
    r#"{"pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "format": "date", "examples": ["2026-11-30"]}"#;

/// The date to compute statuses for: `--peildatum`, else today. An invalid date is recorded in
/// `validation` (and today is returned so the other checks can still run).
pub fn peildatum(ctx: &Context<'_>, given: Option<&str>, validation: &mut Validation) -> NaiveDate {
    match given.map(str::trim) {
        None => ctx.today(),
        Some(text) => parse_date(text).unwrap_or_else(|| {
            validation.push(
                "peildatum",
                format!("peildatum {text:?} is geen geldige datum van de vorm JJJJ-MM-DD"),
            );
            ctx.today()
        }),
    }
}

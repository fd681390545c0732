//! Arguments several tools share, each with one home: its clap definition (flattened into a
//! command's `Args` with `#[command(flatten)]`), its help text, its published schema and its check.
//!
//! The published `pattern` of an argument is exactly the set of values its check accepts
//! (rule DISC-22): nothing is trimmed or otherwise repaired before the check, so a host that
//! validates against the schema and the tool agree on every value.

use chrono::NaiveDate;

pub use crate::call::session::{KvkNummer, check_kvk_nummer, is_kvk_nummer, kvk_nummer_problem};
use crate::call::tool::ArgSchema;
use crate::data::validate::Validation;

arguments! {
    /// `--peildatum`: the date a question is asked on (the law in force, a scheme's status, …).
    #[derive(clap::Args, Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
    pub struct Peildatum {
        /// Standaard vandaag (NL)
        #[arg(long, value_name = "JJJJ-MM-DD")]
        pub peildatum: Option<String> => {
            "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "format": "date", "examples": ["2026-11-30"]
        },
    }
}

impl Peildatum {
    /// The published schema of `--peildatum`.
    pub const SCHEMA: ArgSchema = Self::SCHEMAS[0];

    /// Whether `--peildatum` was given.
    pub fn is_given(&self) -> bool {
        self.peildatum.is_some()
    }

    /// The given date, else `today` (see [`crate::call::context::Context::today`]). An invalid date is recorded in
    /// `validation` and `today` returned, so the other checks still run.
    pub fn date(&self, today: NaiveDate, validation: &mut Validation) -> NaiveDate {
        match self.peildatum.as_deref() {
            None => today,
            Some(text) => parse_date(text).unwrap_or_else(|| {
                validation.push(
                    "peildatum",
                    format!("peildatum {text:?} is geen geldige datum van de vorm JJJJ-MM-DD"),
                );
                today
            }),
        }
    }
}

arguments! {
    /// `--lang`: every member, where a command prints a compact form by default (issue 40 item 4):
    /// a list a row per item with its key members, an article its text once. `--fields` and `--jq`
    /// choose from the long form too, so every member of the output schema can be asked for.
    #[derive(clap::Args, Debug, Clone, Copy, Default, serde::Serialize)]
    pub struct Lang {
        /// Alle velden
        #[arg(long)]
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        pub lang: bool,
    }
}

impl Lang {
    /// Whether this call prints the long form: `--lang`, or a selection or filter that may name
    /// any member (`--fields`, `--jq`).
    pub fn wanted(&self, ctx: &crate::call::context::Context<'_>) -> bool {
        self.lang || ctx.globals.fields.is_some() || ctx.globals.jq.is_some()
    }
}

/// A calendar date written `YYYY-MM-DD` with ASCII digits, nothing around it: exactly what
/// [`Peildatum::SCHEMA`] describes (its pattern, and `format: date` for a real day).
pub fn parse_date(text: &str) -> Option<NaiveDate> {
    let b = text.as_bytes();
    let shape = b.len() == 10
        && b.iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        });
    shape
        .then(|| NaiveDate::parse_from_str(text, "%Y-%m-%d").ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_exactly_the_pattern_and_a_real_day() {
        assert_eq!(
            parse_date("2027-12-01"),
            NaiveDate::from_ymd_opt(2027, 12, 1)
        );
        assert!(parse_date("2024-02-29").is_some());
        for bad in [
            "2027-2-1",
            "2027-02-30",
            "2025-02-29",
            " 2027-1-01",
            "2027- 1-01",
            "2027-01-1 ",
            "-001-01-01",
            "+202-01-01",
            "2027-01-01\n",
            "2027/01/01",
            "٢٠٢٧-٠١-٠١",
            "",
        ] {
            assert_eq!(parse_date(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn an_invalid_peildatum_is_recorded_and_today_returned() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 30).unwrap();
        let mut validation = Validation::new();
        let given = |text: &str| Peildatum {
            peildatum: Some(text.into()),
        };
        assert_eq!(Peildatum::default().date(today, &mut validation), today);
        assert_eq!(
            given("2026-01-01").date(today, &mut validation).to_string(),
            "2026-01-01"
        );
        validation.finish().unwrap();
        let mut validation = Validation::new();
        assert_eq!(given("morgen").date(today, &mut validation), today);
        let problem = validation.finish().unwrap_err();
        let errors = &problem.errors;
        assert_eq!(errors[0].pointer, "/peildatum");
        assert_eq!(
            errors[0].detail,
            "peildatum \"morgen\" is geen geldige datum van de vorm JJJJ-MM-DD"
        );
    }
}

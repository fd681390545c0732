//! Input validation helpers: collect every problem, then fail once (rule ERR-8).

use crate::error::{FieldError, Problem, Result};

/// Collects validation errors so all of them are reported at once (exit 65).
#[derive(Debug, Default)]
pub struct Validation {
    errors: Vec<FieldError>,
}

impl Validation {
    pub fn new() -> Self {
        Self::default()
    }

    /// Record an error about argument `name` unless `ok`.
    pub fn check(&mut self, ok: bool, name: &str, detail: impl FnOnce() -> String) -> &mut Self {
        if !ok {
            self.errors.push(FieldError::new(name, detail()));
        }
        self
    }

    /// Record an error.
    pub fn push(&mut self, name: &str, detail: impl Into<String>) {
        self.errors.push(FieldError::new(name, detail));
    }

    /// Fail with all recorded errors, if any.
    pub fn finish(self) -> Result<(), Problem> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(Problem::invalid(self.errors))
        }
    }
}

/// `^\d{n}$`.
pub fn is_digits(value: &str, n: usize) -> bool {
    value.len() == n && value.bytes().all(|b| b.is_ascii_digit())
}

/// A KvK number: eight digits.
pub fn is_kvk_nummer(value: &str) -> bool {
    is_digits(value, 8)
}

/// The schema of a `--peildatum` option.
pub const PEILDATUM_SCHEMA: &str =
    r#"{"pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "format": "date", "examples": ["2026-11-30"]}"#;

/// `--peildatum`, else `today`. An invalid date is recorded in `validation`
/// (and `today` returned, so the other checks still run).
pub fn peildatum(
    given: Option<&str>,
    today: chrono::NaiveDate,
    validation: &mut Validation,
) -> chrono::NaiveDate {
    match given {
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

/// Parse `YYYY-MM-DD`.
pub fn parse_date(value: &str) -> Option<chrono::NaiveDate> {
    chrono::NaiveDate::parse_from_str(value, "%Y-%m-%d")
        .ok()
        .filter(|_| value.len() == 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collects_all_errors() {
        let mut v = Validation::new();
        v.check(false, "a", || "a fout".into())
            .check(true, "b", || unreachable!())
            .check(false, "c", || "c fout".into());
        let err = v.finish().unwrap_err();
        assert_eq!(err.errors.len(), 2);
        assert_eq!(err.exit.code(), 65);
    }

    #[test]
    fn kvk_numbers_and_dates() {
        assert!(is_kvk_nummer("68750110"));
        assert!(!is_kvk_nummer("6875011"));
        assert!(!is_kvk_nummer("6875011a"));
        assert!(!is_kvk_nummer("٦٨٧٥٠١١٠"));
        assert!(parse_date("2027-12-01").is_some());
        assert!(parse_date("2027-2-1").is_none());
        assert!(parse_date("2027-02-30").is_none());
    }
}

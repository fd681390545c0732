//! Input validation helpers: collect every problem, then fail once (rule ERR-8).

use crate::problem::error::{FieldError, Problem, Result};

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
}

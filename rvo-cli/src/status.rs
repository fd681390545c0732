//! The status of a scheme on a given date, computed from its opening period or deadline.
//!
//! Status is never stored: a catalogue entry says when a scheme is open, and this module says what
//! that means on the date of the call (`--peildatum` overrides the date). Both ends of an opening
//! period are inclusive; a deadline is the last day on which the scheme is open.

use std::fmt;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::catalogue::Regeling;

/// Whether a scheme accepts applications or reports on a date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Open on the date.
    Open,
    /// Closed: the period or deadline has passed.
    Gesloten,
    /// Not yet open: the period starts after the date.
    BinnenkortOpen,
}

impl Status {
    /// All statuses, in display order.
    pub const ALL: [Status; 3] = [Status::Open, Status::BinnenkortOpen, Status::Gesloten];

    /// The wire name: `open`, `gesloten` or `binnenkort_open`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Gesloten => "gesloten",
            Status::BinnenkortOpen => "binnenkort_open",
        }
    }

    /// Parses a status given on the command line (case-insensitive; `-` and ` ` count as `_`).
    pub fn parse(input: &str) -> Option<Status> {
        let normalised = input.trim().to_lowercase().replace(['-', ' '], "_");
        Status::ALL
            .into_iter()
            .find(|status| status.as_str() == normalised)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The status of `regeling` on `date`.
///
/// With an opening period: before `van` → binnenkort_open, `van..=tot` → open, after `tot` →
/// gesloten. With only a deadline: up to and including the deadline → open, after it → gesloten.
pub fn status_on(regeling: &Regeling, date: NaiveDate) -> Status {
    let (first_day, last_day) = match (regeling.openstelling, regeling.deadline) {
        (Some(periode), _) => (Some(periode.van), Some(periode.tot)),
        (None, deadline) => (None, deadline),
    };
    if first_day.is_some_and(|van| date < van) {
        Status::BinnenkortOpen
    } else if last_day.is_some_and(|tot| date > tot) {
        Status::Gesloten
    } else {
        Status::Open
    }
}

/// A scheme as shown to users: the catalogue entry plus the status computed for `peildatum`.
#[derive(Debug, Clone, Serialize)]
pub struct RegelingOpDatum<'a> {
    /// The catalogue entry.
    #[serde(flatten)]
    pub regeling: &'a Regeling,
    /// Status on `peildatum`.
    pub status: Status,
    /// The date the status was computed for.
    pub status_op: NaiveDate,
}

impl<'a> RegelingOpDatum<'a> {
    /// Computes the status of `regeling` on `date`.
    pub fn new(regeling: &'a Regeling, date: NaiveDate) -> Self {
        RegelingOpDatum {
            regeling,
            status: status_on(regeling, date),
            status_op: date,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::Catalogue;

    fn day(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    fn with_dates(openstelling: Option<(&str, &str)>, deadline: Option<&str>) -> Regeling {
        let mut regeling = Catalogue::embedded().get("EIA-2026").unwrap().clone();
        regeling.openstelling = openstelling.map(|(van, tot)| crate::catalogue::Openstelling {
            van: day(van),
            tot: day(tot),
        });
        regeling.deadline = deadline.map(day);
        regeling
    }

    #[test]
    fn opening_period_is_inclusive_at_both_ends() {
        let regeling = with_dates(Some(("2026-01-01", "2026-12-31")), None);
        assert_eq!(
            status_on(&regeling, day("2025-12-31")),
            Status::BinnenkortOpen
        );
        assert_eq!(status_on(&regeling, day("2026-01-01")), Status::Open);
        assert_eq!(status_on(&regeling, day("2026-12-31")), Status::Open);
        assert_eq!(status_on(&regeling, day("2027-01-01")), Status::Gesloten);
    }

    #[test]
    fn deadline_day_is_still_open() {
        let regeling = with_dates(None, Some("2027-12-01"));
        assert_eq!(status_on(&regeling, day("2000-01-01")), Status::Open);
        assert_eq!(status_on(&regeling, day("2027-12-01")), Status::Open);
        assert_eq!(status_on(&regeling, day("2027-12-02")), Status::Gesloten);
    }

    #[test]
    fn embedded_information_duty_rounds_at_their_deadlines() {
        let catalogue = Catalogue::embedded();
        let ebr_2027 = catalogue.get("EBR-2027").unwrap();
        let ebr_2023 = catalogue.get("EBR-2023").unwrap();
        assert_eq!(
            status_on(ebr_2027, day("2023-12-01")),
            Status::BinnenkortOpen
        );
        assert_eq!(status_on(ebr_2027, day("2027-12-01")), Status::Open);
        assert_eq!(status_on(ebr_2027, day("2027-12-02")), Status::Gesloten);
        assert_eq!(status_on(ebr_2023, day("2023-12-01")), Status::Open);
        assert_eq!(status_on(ebr_2023, day("2023-12-02")), Status::Gesloten);
    }

    #[test]
    fn parses_status_names() {
        assert_eq!(
            Status::parse("Binnenkort-open"),
            Some(Status::BinnenkortOpen)
        );
        assert_eq!(Status::parse(" OPEN "), Some(Status::Open));
        assert_eq!(Status::parse("dicht"), None);
    }

    #[test]
    fn shown_scheme_carries_status_and_date() {
        let regeling = Catalogue::embedded().get("SDE-2026").unwrap();
        let shown =
            serde_json::to_value(RegelingOpDatum::new(regeling, day("2026-11-30"))).unwrap();
        assert_eq!(shown["status"], "gesloten");
        assert_eq!(shown["status_op"], "2026-11-30");
        assert_eq!(shown["id"], "SDE-2026");
    }
}

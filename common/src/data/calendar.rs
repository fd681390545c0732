//! The calendar date in the Netherlands: what "today" means for a peildatum.
//!
//! Dutch law is read on Dutch dates, so the default peildatum is the date in Europe/Amsterdam,
//! not in UTC (a call at 00:30 in Amsterdam is still "yesterday" in UTC). The Netherlands keep
//! the EU rule (Directive 2000/84/EC): CET (UTC+1), and CEST (UTC+2) from 01:00 UTC on the last
//! Sunday of March until 01:00 UTC on the last Sunday of October. The rule is these few lines
//! rather than a time-zone database crate; should the EU drop summer time, this is the one place
//! to change.

use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveTime, Utc};

/// The date in Europe/Amsterdam at `instant`.
pub fn dutch_date(instant: DateTime<Utc>) -> NaiveDate {
    dutch_local(instant).0.date()
}

/// The wall-clock time in Europe/Amsterdam at `instant`, and whether it is summer time.
fn dutch_local(instant: DateTime<Utc>) -> (chrono::NaiveDateTime, bool) {
    let year = instant.year();
    let switch =
        |month| last_sunday(year, month).and_time(NaiveTime::MIN).and_utc() + Duration::hours(1);
    let summer = switch(3) <= instant && instant < switch(10);
    let offset = Duration::hours(if summer { 2 } else { 1 });
    ((instant + offset).naive_utc(), summer)
}

/// `instant` as a person in the Netherlands reads it: `6 december 2026, 11:15 (CET)`.
pub fn dutch_display(instant: DateTime<Utc>) -> String {
    const MONTHS: [&str; 12] = [
        "januari",
        "februari",
        "maart",
        "april",
        "mei",
        "juni",
        "juli",
        "augustus",
        "september",
        "oktober",
        "november",
        "december",
    ];
    let (local, summer) = dutch_local(instant);
    format!(
        "{} {} {}, {} ({})",
        local.day(),
        MONTHS[local.month0() as usize],
        local.year(),
        local.format("%H:%M"),
        if summer { "CEST" } else { "CET" }
    )
}

/// The last Sunday of `month` (March or October) in `year`.
fn last_sunday(year: i32, month: u32) -> NaiveDate {
    let last = NaiveDate::from_ymd_opt(year, month, 31).unwrap_or(NaiveDate::MIN);
    let back = last.weekday().num_days_from_sunday();
    last - Duration::days(i64::from(back))
}

#[cfg(test)]
mod tests {
    use chrono::Weekday;

    use super::*;

    #[test]
    fn a_time_is_shown_as_in_amsterdam() {
        assert_eq!(
            dutch_display(at("2026-12-06T10:15:00Z")),
            "6 december 2026, 11:15 (CET)"
        );
        assert_eq!(
            dutch_display(at("2026-07-01T22:30:00Z")),
            "2 juli 2026, 00:30 (CEST)"
        );
    }

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text).unwrap().to_utc()
    }

    fn date(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn last_sundays() {
        assert_eq!(last_sunday(2026, 3), date("2026-03-29"));
        assert_eq!(last_sunday(2026, 10), date("2026-10-25"));
        assert_eq!(last_sunday(2027, 3), date("2027-03-28"));
        assert_eq!(last_sunday(2027, 10), date("2027-10-31"));
        assert_eq!(last_sunday(2020, 3), date("2020-03-29"));
        for year in 1996..2100 {
            for month in [3, 10] {
                let sunday = last_sunday(year, month);
                assert_eq!(sunday.weekday(), Weekday::Sun);
                assert_eq!(sunday.month(), month);
                assert!(sunday.day() > 24, "{sunday}");
            }
        }
    }

    #[test]
    fn evening_in_utc_is_the_next_day_in_amsterdam() {
        // Winter: 23:30 UTC is 00:30 CET the next day; summer: 22:30 UTC is 00:30 CEST.
        assert_eq!(dutch_date(at("2026-12-31T23:30:00Z")), date("2027-01-01"));
        assert_eq!(dutch_date(at("2026-01-15T23:30:00Z")), date("2026-01-16"));
        assert_eq!(dutch_date(at("2026-07-15T22:30:00Z")), date("2026-07-16"));
        assert_eq!(dutch_date(at("2026-07-15T21:59:59Z")), date("2026-07-15"));
        assert_eq!(dutch_date(at("2026-01-15T22:59:59Z")), date("2026-01-15"));
        assert_eq!(dutch_date(at("2026-01-15T00:00:00Z")), date("2026-01-15"));
    }

    #[test]
    fn summer_time_starts_at_one_utc_on_the_last_sunday_of_march() {
        // 2027-03-28 is the last Sunday of March: at 01:00 UTC clocks go from 02:00 CET to 03:00 CEST.
        assert_eq!(dutch_date(at("2027-03-27T22:59:59Z")), date("2027-03-27"));
        assert_eq!(dutch_date(at("2027-03-27T23:00:00Z")), date("2027-03-28"));
        assert_eq!(dutch_date(at("2027-03-28T00:59:59Z")), date("2027-03-28"));
        assert_eq!(dutch_date(at("2027-03-28T01:00:00Z")), date("2027-03-28"));
        // The first evening of summer time: midnight is at 22:00 UTC.
        assert_eq!(dutch_date(at("2027-03-28T21:59:59Z")), date("2027-03-28"));
        assert_eq!(dutch_date(at("2027-03-28T22:00:00Z")), date("2027-03-29"));
        // The evening before the switch is still winter time: midnight at 23:00 UTC.
        assert_eq!(dutch_date(at("2027-03-27T22:30:00Z")), date("2027-03-27"));
    }

    #[test]
    fn summer_time_ends_at_one_utc_on_the_last_sunday_of_october() {
        // 2026-10-25 is the last Sunday of October: at 01:00 UTC clocks go from 03:00 CEST to 02:00 CET.
        assert_eq!(dutch_date(at("2026-10-24T21:59:59Z")), date("2026-10-24"));
        assert_eq!(dutch_date(at("2026-10-24T22:00:00Z")), date("2026-10-25"));
        assert_eq!(dutch_date(at("2026-10-25T00:59:59Z")), date("2026-10-25"));
        assert_eq!(dutch_date(at("2026-10-25T01:00:00Z")), date("2026-10-25"));
        // The first evening of winter time: midnight is at 23:00 UTC again.
        assert_eq!(dutch_date(at("2026-10-25T22:30:00Z")), date("2026-10-25"));
        assert_eq!(dutch_date(at("2026-10-25T23:00:00Z")), date("2026-10-26"));
        // October 31st as the last Sunday (2027), the switch at the end of the month.
        assert_eq!(dutch_date(at("2027-10-30T22:30:00Z")), date("2027-10-31"));
        assert_eq!(dutch_date(at("2027-10-31T22:30:00Z")), date("2027-10-31"));
        assert_eq!(dutch_date(at("2027-10-31T23:00:00Z")), date("2027-11-01"));
    }

    #[test]
    fn new_year_in_amsterdam_comes_an_hour_before_utc() {
        assert_eq!(dutch_date(at("2027-12-31T22:59:59Z")), date("2027-12-31"));
        assert_eq!(dutch_date(at("2027-12-31T23:00:00Z")), date("2028-01-01"));
    }
}

//! Dates as the law format writes them: exactly `YYYY-MM-DD`, read and written by hand (this is
//! on the hot path of version selection and date operations).

use chrono::NaiveDate;

/// Parses a canonical `YYYY-MM-DD` date.
pub fn parse_iso_date(text: &str) -> Option<NaiveDate> {
    // Exactly `YYYY-MM-DD` (the canonical form), read by hand: this is on the hot path of
    // version selection and date operations, where chrono's format parser dominated.
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let digits = |range: std::ops::Range<usize>| -> Option<u32> {
        b[range].iter().try_fold(0u32, |acc, c| {
            c.is_ascii_digit().then(|| acc * 10 + u32::from(c - b'0'))
        })
    };
    let year = i32::try_from(digits(0..4)?).ok()?;
    NaiveDate::from_ymd_opt(year, digits(5..7)?, digits(8..10)?)
}

/// A date in canonical `YYYY-MM-DD` form (years 0–9999), without chrono's format parser.
pub fn iso_date(date: NaiveDate) -> String {
    use chrono::Datelike;
    let (year, month, day) = (date.year(), date.month(), date.day());
    let Some(year) = u32::try_from(year).ok().filter(|y| *y <= 9999) else {
        return format!("{year:04}-{month:02}-{day:02}");
    };
    // Digit by digit (no formatting machinery): this runs for every date an evaluation makes.
    let mut out = String::with_capacity(10);
    for (n, width) in [(year, 4), (month, 2), (day, 2)] {
        if !out.is_empty() {
            out.push('-');
        }
        for place in (0..width).rev() {
            out.push(char::from_digit(n / 10u32.pow(place) % 10, 10).unwrap_or('0'));
        }
    }
    out
}

#[cfg(test)]
mod date_tests {
    use super::*;

    #[test]
    fn dates_format_as_the_padded_format_does() {
        for (y, m, d) in [
            (2024, 2, 29),
            (1, 1, 1),
            (9999, 12, 31),
            (10000, 1, 2),
            (-5, 3, 4),
            (0, 10, 10),
        ] {
            let date = NaiveDate::from_ymd_opt(y, m, d).unwrap();
            assert_eq!(iso_date(date), format!("{y:04}-{m:02}-{d:02}"));
        }
    }

    #[test]
    fn only_canonical_real_dates_parse_and_format_back() {
        for good in ["2024-02-29", "0001-01-01", "9999-12-31", "2025-07-01"] {
            let date = parse_iso_date(good).unwrap();
            assert_eq!(iso_date(date), good);
        }
        for bad in [
            "2023-02-29",
            "2024-1-01",
            "1-1-2024",
            "2024-13-01",
            "2024-00-10",
            "2024-01-32",
            "２０２４-01-01",
            "+2024-01-01",
            "2024/01/01",
            "",
        ] {
            assert!(parse_iso_date(bad).is_none(), "{bad}");
        }
    }
}

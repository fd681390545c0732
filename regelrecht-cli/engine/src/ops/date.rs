//! Date operations: AGE, DATE_ADD (years → months → weeks → days, day clamped to the end of the
//! month), DATE, DAY_OF_WEEK (0 = Monday) and DATE_DIFF (days, or complete months/years).

use crate::dates::parse_iso_date;
use crate::error::{ErrorKind, EvalError};
use crate::value::Value;
use chrono::{Datelike, Duration, NaiveDate};

/// A date from a canonical `YYYY-MM-DD` string or an object with an `iso` field.
pub(crate) fn try_date(v: &Value) -> Option<NaiveDate> {
    match v {
        Value::String(s) => parse_iso_date(s),
        Value::Object(o) => match o.get("iso") {
            Some(Value::String(s)) => parse_iso_date(s),
            _ => None,
        },
        _ => None,
    }
}

/// Reads a date operand; anything else is an error naming the operation.
pub fn parse_date(op: &str, v: &Value) -> Result<NaiveDate, EvalError> {
    try_date(v).ok_or_else(|| match v {
        Value::String(s) => EvalError::new(ErrorKind::InvalidDate { value: s.clone() }),
        other => EvalError::type_error(
            op,
            format!("datum verwacht, kreeg {} ({other})", other.type_name()),
        ),
    })
}

/// A computed date as a value: `YYYY-MM-DD`, the form every date is read in, so a date outside
/// years 0000–9999 (which that form cannot hold) is an error, never a five-digit year that
/// would then be refused as input.
fn to_value(d: NaiveDate) -> Result<Value, EvalError> {
    if (0..=9999).contains(&d.year()) {
        Ok(Value::String(crate::dates::iso_date(d)))
    } else {
        Err(EvalError::invalid(format!(
            "datum {} ligt buiten de jaren 0000 t/m 9999",
            crate::dates::iso_date(d)
        )))
    }
}

fn days_in_month(year: i32, month: u32) -> u32 {
    let (ny, nm) = if month == 12 {
        (year + 1, 1)
    } else {
        (year, month + 1)
    };
    NaiveDate::from_ymd_opt(ny, nm, 1)
        .and_then(|d| d.pred_opt())
        .map_or(28, |d| d.day())
}

/// Adds months, clamping the day to the last day of the target month (31 Jan + 1 month = 28/29 Feb).
pub fn add_months(date: NaiveDate, months: i64) -> Option<NaiveDate> {
    let total = i64::from(date.year()) * 12 + i64::from(date.month0()) + months;
    let year = i32::try_from(total.div_euclid(12)).ok()?;
    let month = u32::try_from(total.rem_euclid(12)).ok()? + 1;
    NaiveDate::from_ymd_opt(year, month, date.day().min(days_in_month(year, month)))
}

pub(super) fn date_add(
    start: NaiveDate,
    years: Option<i64>,
    months: Option<i64>,
    weeks: Option<i64>,
    days: Option<i64>,
) -> Result<Value, EvalError> {
    let out_of_range = || EvalError::invalid("DATE_ADD: datum buiten bereik");
    let mut d = start;
    if let Some(y) = years {
        d = add_months(d, y.checked_mul(12).ok_or_else(out_of_range)?).ok_or_else(out_of_range)?;
    }
    if let Some(m) = months {
        d = add_months(d, m).ok_or_else(out_of_range)?;
    }
    if let Some(w) = weeks {
        d = d
            .checked_add_signed(Duration::try_weeks(w).ok_or_else(out_of_range)?)
            .ok_or_else(out_of_range)?;
    }
    if let Some(n) = days {
        d = d
            .checked_add_signed(Duration::try_days(n).ok_or_else(out_of_range)?)
            .ok_or_else(out_of_range)?;
    }
    to_value(d)
}

pub(super) fn construct(year: i64, month: i64, day: i64) -> Result<Value, EvalError> {
    i32::try_from(year)
        .ok()
        .zip(u32::try_from(month).ok())
        .zip(u32::try_from(day).ok())
        .and_then(|((y, m), d)| NaiveDate::from_ymd_opt(y, m, d))
        .ok_or_else(|| {
            EvalError::new(ErrorKind::InvalidDate {
                value: format!("{year}-{month}-{day}"),
            })
        })
        .and_then(to_value)
}

pub(super) fn day_of_week(v: &Value) -> Result<Value, EvalError> {
    let d = parse_date("DAY_OF_WEEK", v)?;
    Ok(Value::int(i64::from(d.weekday().num_days_from_monday())))
}

/// Complete calendar months from `from` to `to` (negative when `to` is earlier).
pub fn months_between(from: NaiveDate, to: NaiveDate) -> i64 {
    let (early, late, sign) = if to >= from {
        (from, to, 1)
    } else {
        (to, from, -1)
    };
    let mut months = i64::from(late.year() - early.year()) * 12 + i64::from(late.month())
        - i64::from(early.month());
    if late.day() < early.day().min(days_in_month(late.year(), late.month())) {
        months -= 1;
    }
    sign * months
}

/// Complete years from `from` to `to`; a 29 February birthday counts on 28 February in
/// non-leap years (negative when `to` is earlier).
pub fn age_in_years(from: NaiveDate, to: NaiveDate) -> i64 {
    let (early, late, sign) = if to >= from {
        (from, to, 1)
    } else {
        (to, from, -1)
    };
    let mut years = i64::from(late.year() - early.year());
    let anniversary_day = early.day().min(days_in_month(late.year(), early.month()));
    if late.month() < early.month()
        || (late.month() == early.month() && late.day() < anniversary_day)
    {
        years -= 1;
    }
    sign * years
}

pub(super) fn date_diff(from: NaiveDate, to: NaiveDate, unit: &Value) -> Result<Value, EvalError> {
    let diff = match unit {
        Value::String(u) if u == "days" => (to - from).num_days(),
        Value::String(u) if u == "months" => months_between(from, to),
        Value::String(u) if u == "years" => age_in_years(from, to),
        other => {
            return Err(EvalError::type_error(
                "DATE_DIFF",
                format!("'in' moet days, months of years zijn, kreeg {other}"),
            ));
        }
    };
    Ok(Value::int(diff))
}

#[cfg(test)]
mod tests {
    use crate::error::ErrorKind;
    use crate::ops::testing::run;
    use crate::value::Value;

    fn s(v: &str) -> Value {
        Value::str(v)
    }

    #[test]
    fn age_counts_complete_years_across_leap_days() {
        let age = "{operation: AGE, date_of_birth: $b, reference_date: $r}";
        assert_eq!(
            run(age, &[("b", s("2000-02-29")), ("r", s("2018-02-28"))]).unwrap(),
            Value::int(18)
        );
        assert_eq!(
            run(age, &[("b", s("2000-02-29")), ("r", s("2020-02-28"))]).unwrap(),
            Value::int(19)
        );
        assert_eq!(
            run(age, &[("b", s("2000-02-29")), ("r", s("2020-02-29"))]).unwrap(),
            Value::int(20)
        );
        assert_eq!(
            run(age, &[("b", s("1990-06-15")), ("r", s("2025-06-14"))]).unwrap(),
            Value::int(34)
        );
        assert!(run(age, &[("b", Value::Null), ("r", s("2025-06-14"))]).is_err());
    }

    #[test]
    fn date_add_clamps_to_month_end() {
        assert_eq!(
            run("{operation: DATE_ADD, date: '2023-01-31', months: 1}", &[]).unwrap(),
            s("2023-02-28")
        );
        assert_eq!(
            run("{operation: DATE_ADD, date: '2024-01-31', months: 1}", &[]).unwrap(),
            s("2024-02-29")
        );
        assert_eq!(
            run("{operation: DATE_ADD, date: '2024-02-29', years: 1}", &[]).unwrap(),
            s("2025-02-28")
        );
        assert_eq!(
            run("{operation: DATE_ADD, date: '2024-12-31', days: 1}", &[]).unwrap(),
            s("2025-01-01")
        );
        assert_eq!(
            run(
                "{operation: DATE_ADD, date: '2024-01-01', weeks: 6, days: -1}",
                &[]
            )
            .unwrap(),
            s("2024-02-11")
        );
        assert_eq!(
            run("{operation: DATE_ADD, date: '2023-12-01', years: 4}", &[]).unwrap(),
            s("2027-12-01")
        );
    }

    #[test]
    fn date_construct_and_day_of_week() {
        assert_eq!(
            run("{operation: DATE, year: 2024, month: 2, day: 29}", &[]).unwrap(),
            s("2024-02-29")
        );
        assert!(matches!(
            run("{operation: DATE, year: 2023, month: 2, day: 29}", &[])
                .unwrap_err()
                .kind,
            ErrorKind::InvalidDate { .. }
        ));
        assert_eq!(
            run("{operation: DAY_OF_WEEK, date: '2025-01-06'}", &[]).unwrap(),
            Value::int(0)
        );
        assert_eq!(
            run("{operation: DAY_OF_WEEK, date: '2025-01-05'}", &[]).unwrap(),
            Value::int(6)
        );
    }

    #[test]
    fn date_diff_units() {
        let diff = |unit: &str, a: &str, b: &str| {
            run(
                &format!("{{operation: DATE_DIFF, from: '{a}', to: '{b}', in: {unit}}}"),
                &[],
            )
            .unwrap()
        };
        assert_eq!(diff("days", "2024-02-28", "2024-03-01"), Value::int(2));
        assert_eq!(diff("days", "2023-02-28", "2023-03-01"), Value::int(1));
        assert_eq!(diff("months", "2024-01-31", "2024-02-29"), Value::int(1));
        assert_eq!(diff("months", "2024-01-31", "2024-02-28"), Value::int(0));
        assert_eq!(diff("years", "2026-12-31", "2025-01-01"), Value::int(-1));
        assert!(
            run(
                "{operation: DATE_DIFF, from: '2024-1-1', to: '2024-01-02', in: days}",
                &[]
            )
            .is_err()
        );
        assert!(
            run(
                "{operation: DATE_DIFF, from: '2024-01-01', to: '2024-01-02', in: weeks}",
                &[]
            )
            .is_err()
        );
    }
}

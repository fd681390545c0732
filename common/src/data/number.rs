//! The one rule for a number a person types (NUM-3): Dutch notation, read exactly, never guessed.
//!
//! - `250000`, `250.000`, `1.250.000` are whole numbers: a `.` separates groups of exactly three
//!   digits (so `250.000` is 250000, never 250);
//! - `,` is the decimal comma: `1.234,5` is 1234.5, `12,5` is 12.5;
//! - anything else is refused with the reason: `250.5` and `250.00` (a `.` not followed by groups
//!   of three), `250,000` (a decimal comma with exactly three digits and no `.`: it reads as an
//!   English thousands separator too), `1,234.5` (English notation), `2,5e3`;
//! - a unit may follow when the value has one (`250.000 kWh`); it must be that unit (`kWh` and
//!   `kwh` are the same, so are `m3`, `m³` and `m^3`) and is never converted (`250 MWh` is refused).
//!
//! Every command that takes a number from a person reads it here, so one text never means two
//! things in two commands.

use rust_decimal::Decimal;

/// `text` (trimmed) as a number in Dutch notation, optionally followed by `unit`; the reason in
/// Dutch when it is not one.
pub fn parse(text: &str, unit: Option<&str>) -> Result<Decimal, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | ',' | '-' | '+')))
        .unwrap_or(text.len());
    let (digits, written_unit) = (text[..split].trim(), text[split..].trim());
    let not_a_number = || {
        format!(
            "{text:?} is geen getal in Nederlandse schrijfwijze (bijv. 250000, 250.000 of 1.234,5)"
        )
    };
    if digits.is_empty() {
        return Err(not_a_number());
    }
    if !written_unit.is_empty() {
        match unit {
            Some(expected) if unit_key(written_unit) == unit_key(expected) => {}
            Some(expected) => {
                return Err(format!(
                    "{text:?}: verkeerde eenheid {written_unit:?}; geef de waarde in {expected} (er wordt niet omgerekend)"
                ));
            }
            None => return Err(format!("{text:?}: dit gegeven heeft geen eenheid")),
        }
    }
    dutch(digits).ok_or_else(not_a_number)
}

/// A unit compared loosely (`kWh` = `kwh`, `m³` = `m3` = `m^3`).
fn unit_key(unit: &str) -> String {
    unit.trim()
        .to_lowercase()
        .replace('³', "3")
        .replace("^3", "3")
}

/// Digits in Dutch notation, or `None` when the notation is invalid or ambiguous.
fn dutch(text: &str) -> Option<Decimal> {
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (whole, fraction) = match body.split_once(',') {
        Some((w, f)) => (w, Some(f)),
        None => (body, None),
    };
    if let Some(f) = fraction
        && (f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    // `250,000` without any `.`: an English thousands separator or three decimals? Refuse.
    if fraction.is_some_and(|f| f.len() == 3) && !whole.contains('.') {
        return None;
    }
    let groups: Vec<&str> = whole.split('.').collect();
    let well_grouped = !groups[0].is_empty()
        && groups[0].len() <= if groups.len() > 1 { 3 } else { usize::MAX }
        && groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_digit()))
        && groups[1..].iter().all(|g| g.len() == 3);
    if !well_grouped {
        return None;
    }
    let mut plain: String = groups.concat();
    if let Some(f) = fraction {
        plain.push('.');
        plain.push_str(f);
    }
    let value: Decimal = plain.parse().ok()?;
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str, unit: Option<&str>, expected: &str) {
        assert_eq!(
            parse(text, unit),
            Ok(expected.parse().unwrap()),
            "{text} {unit:?}"
        );
    }

    #[test]
    fn dutch_numbers_are_read_exactly() {
        ok("250000", None, "250000");
        ok("250.000", None, "250000");
        ok("62.000", None, "62000");
        ok("1.250.000", None, "1250000");
        ok("1.234,5", None, "1234.5");
        ok("12,5", None, "12.5");
        ok("-5000", None, "-5000");
        ok(" +7 ", None, "7");
    }

    #[test]
    fn what_could_be_read_two_ways_is_refused() {
        for bad in [
            "250.5",
            "250.00",
            "250,000",
            "1,234.5",
            "2,5e3",
            "",
            ".5",
            "1..000",
            "12.34.567",
            "1.2345",
            "veel",
            "12,",
            "-",
        ] {
            assert!(parse(bad, None).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_refusal_says_how_to_write_it() {
        let err = parse("62.5", None).unwrap_err();
        assert!(err.contains("250.000 of 1.234,5"), "{err}");
    }

    #[test]
    fn a_unit_must_be_the_values_own_and_is_never_converted() {
        ok("250.000 kWh", Some("kWh"), "250000");
        ok("250000kwh", Some("kWh"), "250000");
        ok("31.000 m³", Some("m3"), "31000");
        ok("31.000 m^3", Some("m3"), "31000");
        assert!(
            parse("250 MWh", Some("kWh"))
                .unwrap_err()
                .contains("verkeerde eenheid")
        );
        assert!(parse("250 kWh", None).unwrap_err().contains("geen eenheid"));
    }
}

//! An opgave (the entrepreneur's answer, `--opgave NAAM=WAARDE`) normalised by the declared type
//! of its law parameter before the engine sees it (spec/concept.md §5).
//!
//! Numbers are read the Dutch way, and nothing is ever guessed:
//! - `250000`, `250.000`, `1.250.000` are whole numbers: a `.` separates groups of exactly three
//!   digits (so `250.000` is 250000, never 250);
//! - `,` is the decimal comma: `1.234,5` is 1234.5;
//! - anything else is an error with the reason: `250.5` and `250.00` (a `.` not followed by
//!   groups of three), `250,000` (decimal comma with exactly three digits and no `.`: ambiguous
//!   with an English thousands separator), `1,234.5` (English notation), `2,5e3`;
//! - the unit, if written, must be the field's (`250.000 kWh`; `kwh` and `KWh` are the same unit;
//!   `m3`, `m³` and `m^3` too); another unit (`250 MWh`) is an error, never converted;
//! - below the field's `minimum` (e.g. `-5000` for a consumption) is an error.
//!
//! Booleans: `ja`/`nee`, `j`/`n`, `true`/`false` (any case). Texts are trimmed and, when the field
//! lists its `waarden`, must be one of them. Dates are `JJJJ-MM-DD`.

use regelrecht_engine::FieldType;
use rust_decimal::Decimal;
use serde_json::Value;

use super::definition::Field;

/// `text` as the JSON value of a parameter of `field_type`, or why it is not one.
pub fn normalise(
    text: &str,
    field_type: FieldType,
    field: &Field,
) -> std::result::Result<Value, String> {
    let text = text.trim();
    match field_type {
        FieldType::Number | FieldType::Amount => number(text, field),
        FieldType::Boolean => match text.to_lowercase().as_str() {
            "ja" | "j" | "true" => Ok(Value::Bool(true)),
            "nee" | "n" | "false" => Ok(Value::Bool(false)),
            _ => Err(format!("{text:?} is geen ja of nee")),
        },
        FieldType::Date => common::args::parse_date(text)
            .map(|d| Value::String(d.to_string()))
            .ok_or_else(|| format!("{text:?} is geen datum JJJJ-MM-DD")),
        _ => {
            if text.is_empty() {
                return Err("de waarde is leeg".into());
            }
            if let Some(allowed) = &field.waarden
                && !allowed.iter().any(|a| a == text)
            {
                return Err(format!(
                    "{text:?} is geen toegestane waarde; kies uit {}",
                    allowed.join(", ")
                ));
            }
            Ok(Value::String(text.to_string()))
        }
    }
}

/// A unit written after a number, compared loosely (`kWh` = `kwh`, `m³` = `m3`).
fn unit_key(unit: &str) -> String {
    unit.trim()
        .to_lowercase()
        .replace('³', "3")
        .replace("^3", "3")
}

fn number(text: &str, field: &Field) -> std::result::Result<Value, String> {
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | ',' | '-' | '+')))
        .unwrap_or(text.len());
    let (digits, unit) = (text[..split].trim(), text[split..].trim());
    let not_a_number = || {
        format!(
            "{text:?} is geen getal in Nederlandse schrijfwijze (bijv. 250000, 250.000 of 1.234,5)"
        )
    };
    if digits.is_empty() {
        return Err(not_a_number());
    }
    if !unit.is_empty() {
        match &field.eenheid {
            Some(expected) if unit_key(unit) == unit_key(expected) => {}
            Some(expected) => {
                return Err(format!(
                    "{text:?}: verkeerde eenheid {unit:?}; geef de waarde in {expected} (er wordt niet omgerekend)"
                ));
            }
            None => return Err(format!("{text:?}: dit gegeven heeft geen eenheid")),
        }
    }
    let value = dutch_number(digits).ok_or_else(not_a_number)?;
    if let Some(minimum) = field.minimum
        && value < Decimal::try_from(minimum).unwrap_or(Decimal::ZERO)
    {
        return Err(format!(
            "{text:?} is kleiner dan {minimum}; een verbruik kan niet negatief zijn"
        ));
    }
    serde_json::from_str::<Value>(&value.normalize().to_string())
        .map_err(|e| format!("{text:?}: {e}"))
}

/// A number in Dutch notation, or `None` when the notation is invalid or ambiguous.
pub fn dutch_number(text: &str) -> Option<Decimal> {
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

    fn field(unit: Option<&str>, minimum: Option<f64>) -> Field {
        serde_json::from_value(serde_json::json!({
            "naam": "x", "opgave": true, "eenheid": unit, "minimum": minimum
        }))
        .unwrap()
    }

    #[test]
    fn dutch_numbers_are_read_exactly_or_refused() {
        let ok = |t: &str, v: &str| assert_eq!(dutch_number(t), Some(v.parse().unwrap()), "{t}");
        ok("250000", "250000");
        ok("250.000", "250000");
        ok("1.250.000", "1250000");
        ok("1.234,5", "1234.5");
        ok("12,5", "12.5");
        ok("-5000", "-5000");
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
        ] {
            assert_eq!(dutch_number(bad), None, "{bad}");
        }
    }

    #[test]
    fn units_and_minimum_are_checked_never_converted() {
        let kwh = field(Some("kWh"), Some(0.0));
        let n = |t: &str| normalise(t, FieldType::Number, &kwh);
        assert_eq!(n("250.000").unwrap(), serde_json::json!(250000));
        assert_eq!(n("250.000 kWh").unwrap(), serde_json::json!(250000));
        assert_eq!(n("250000kwh").unwrap(), serde_json::json!(250000));
        assert!(n("250 MWh").unwrap_err().contains("verkeerde eenheid"));
        assert!(n("-5000").unwrap_err().contains("negatief"));
        let m3 = field(Some("m3"), None);
        assert_eq!(
            normalise("31.000 m³", FieldType::Number, &m3).unwrap(),
            serde_json::json!(31000)
        );
    }

    #[test]
    fn booleans_and_texts() {
        let f = field(None, None);
        assert_eq!(
            normalise("Ja", FieldType::Boolean, &f).unwrap(),
            Value::Bool(true)
        );
        assert_eq!(
            normalise("nee", FieldType::Boolean, &f).unwrap(),
            Value::Bool(false)
        );
        assert!(normalise("misschien", FieldType::Boolean, &f).is_err());
    }
}

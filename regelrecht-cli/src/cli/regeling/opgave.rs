//! An opgave (the entrepreneur's answer, `--opgave NAAM=WAARDE`) normalised by the declared type
//! of its law parameter before the engine sees it (spec/concept.md §5).
//!
//! Numbers follow the family's one rule for a number a person types ([`common::number`]: Dutch
//! notation, the field's unit, never guessed); below the field's `minimum` (e.g. `-5000` for a
//! consumption) is an error.
//!
//! Booleans: `ja`/`nee`, `j`/`n`, `true`/`false` (any case). Texts are trimmed and, when the field
//! lists its `waarden`, must be one of them. Dates are `JJJJ-MM-DD`.

use regelrecht_engine::FieldType;
use rust_decimal::Decimal;
use serde_json::Value;

use super::definition::Field;

/// `text` as the JSON value of a parameter of `field_type`, or why it is not one.
pub(crate) fn normalise(
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

fn number(text: &str, field: &Field) -> std::result::Result<Value, String> {
    let value = common::number::parse(text, field.eenheid.as_deref())?;
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

//! Runtime values of the law format: null, booleans, exact decimal numbers, strings (dates are
//! ISO `YYYY-MM-DD` strings, as in the reference engine), lists and objects.

use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// A value produced or consumed by an evaluation.
///
/// Numbers are exact decimals (`amount` values are eurocents); there is no binary floating point.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Value {
    /// Absence of a value (YAML/JSON `null`, an IF without matching case or default).
    #[default]
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// Any number, integer or not.
    Number(Decimal),
    /// Text; dates are strings in canonical `YYYY-MM-DD` form.
    String(String),
    /// A list of values.
    List(Vec<Value>),
    /// A structured value (e.g. `$referencedate` with `year`, `month`, `day`, `iso`).
    Object(BTreeMap<String, Value>),
}

impl Value {
    /// A number from an integer.
    pub fn int(i: i64) -> Self {
        Value::Number(Decimal::from(i))
    }

    /// A string value.
    pub fn str(s: impl Into<String>) -> Self {
        Value::String(s.into())
    }

    /// Short type name used in error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::List(_) => "list",
            Value::Object(_) => "object",
        }
    }

    /// Truthiness as the reference engine defines it (null, 0, "", [] and {} are false).
    pub fn truthy(&self) -> bool {
        match self {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::Number(d) => !d.is_zero(),
            Value::String(s) => !s.is_empty(),
            Value::List(l) => !l.is_empty(),
            Value::Object(o) => !o.is_empty(),
        }
    }

    /// The number, if this is one.
    pub fn as_number(&self) -> Option<Decimal> {
        match self {
            Value::Number(d) => Some(*d),
            _ => None,
        }
    }

    /// Converts from JSON. Numbers keep their decimal text exactly (no float round trip); a
    /// number without an exact decimal (beyond 28 significant digits or the decimal range) is an
    /// error, never a rounded value.
    pub fn from_json(json: &serde_json::Value) -> Result<Value, InexactNumber> {
        Ok(match json {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => {
                let text = n.to_string();
                Value::Number(number_from_text(&text).ok_or(InexactNumber(text))?)
            }
            serde_json::Value::String(s) => Value::String(s.clone()),
            serde_json::Value::Array(items) => Value::List(
                items
                    .iter()
                    .map(Value::from_json)
                    .collect::<Result<_, _>>()?,
            ),
            serde_json::Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| Ok((k.clone(), Value::from_json(v)?)))
                    .collect::<Result<_, _>>()?,
            ),
        })
    }

    /// Converts to JSON. Whole numbers become JSON integers, others JSON numbers with their exact
    /// decimal digits.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Number(d) => number_to_json(*d),
            Value::String(s) => serde_json::Value::String(s.clone()),
            Value::List(items) => {
                serde_json::Value::Array(items.iter().map(Value::to_json).collect())
            }
            Value::Object(map) => serde_json::Value::Object(
                map.iter().map(|(k, v)| (k.clone(), v.to_json())).collect(),
            ),
        }
    }
}

/// A number (its text as given) that has no exact decimal value: more than 28 significant
/// digits, or beyond ±79228162514264337593543950335.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InexactNumber(pub String);

impl fmt::Display for InexactNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "getal niet exact als decimaal voor te stellen (ten hoogste 28 significante cijfers, \
             absoluut kleiner dan 7,9·10^28)"
        )
    }
}

/// Parses a decimal number in plain or exponent notation (`12`, `-0.5`, `1e3`), exactly: a text
/// that would have to be rounded (or is out of range) is `None`.
pub fn number_from_text(text: &str) -> Option<Decimal> {
    if let Ok(d) = Decimal::from_str_exact(text) {
        return Some(d);
    }
    let (mantissa, exponent) = text.split_once(['e', 'E'])?;
    let mantissa = Decimal::from_str_exact(mantissa).ok()?;
    let exponent: i32 = exponent.parse().ok()?;
    let scale = i64::from(mantissa.scale()) - i64::from(exponent);
    if scale >= 0 {
        // Move the point left: exact while the scale fits.
        let scale = u32::try_from(scale).ok().filter(|s| *s <= 28)?;
        let mut d = mantissa;
        d.set_scale(scale).ok()?;
        Some(d)
    } else {
        // Whole number: multiply by a power of ten, refusing overflow.
        let mut d = mantissa;
        d.set_scale(0).ok()?;
        (0..-scale).try_fold(d, |acc, _| acc.checked_mul(Decimal::TEN))
    }
}

fn number_to_json(d: Decimal) -> serde_json::Value {
    let d = d.normalize();
    if d.scale() == 0
        && let Some(i) = d.to_i64()
    {
        return serde_json::Value::from(i);
    }
    serde_json::Number::from_str(&d.to_string())
        .map(serde_json::Value::Number)
        .unwrap_or_else(|_| serde_json::Value::from(d.to_f64().unwrap_or_default()))
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Number(d) => write!(f, "{}", d.normalize()),
            Value::String(s) => write!(f, "\"{s}\""),
            Value::List(_) | Value::Object(_) => write!(f, "{}", self.to_json()),
        }
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Self {
        Value::int(i)
    }
}

impl From<Decimal> for Value {
    fn from(d: Decimal) -> Self {
        Value::Number(d)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(s.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_numbers_round_trip_exactly() {
        let json: serde_json::Value = serde_json::from_str("[2, 2.0, 0.1, 1e2, -3.25]").unwrap();
        let value = Value::from_json(&json).unwrap();
        assert_eq!(value.to_json().to_string(), "[2,2,0.1,100,-3.25]");
    }

    #[test]
    fn numbers_beyond_the_decimal_range_are_refused_not_rounded() {
        let exact = "12345678901234567890.123456789";
        let json: serde_json::Value = serde_json::from_str(exact).unwrap();
        assert_eq!(
            Value::from_json(&json).unwrap().to_json().to_string(),
            exact
        );
        let big = "123456789012345678901234567890";
        let json: serde_json::Value = serde_json::from_str(big).unwrap();
        assert_eq!(Value::from_json(&json), Err(InexactNumber(big.to_string())));
        for text in [
            "0.12345678901234567890123456789",
            "1e29",
            "1e-29",
            "79228162514264337593543950336",
        ] {
            assert_eq!(number_from_text(text), None, "{text}");
        }
        assert_eq!(number_from_text("1.5e3"), Some(Decimal::from(1500)));
        assert_eq!(number_from_text("25e-2"), Decimal::from_str("0.25").ok());
        assert_eq!(number_from_text("-1E2"), Some(Decimal::from(-100)));
    }

    #[test]
    fn truthiness_follows_reference() {
        assert!(!Value::Null.truthy());
        assert!(!Value::int(0).truthy());
        assert!(Value::int(-1).truthy());
        assert!(!Value::str("").truthy());
        assert!(Value::str("x").truthy());
        assert!(!Value::List(vec![]).truthy());
    }
}

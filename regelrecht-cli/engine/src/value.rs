//! Runtime values of the law format: null, booleans, exact decimal numbers, strings (dates are
//! ISO `YYYY-MM-DD` strings, as in the reference engine), lists and objects.

use rust_decimal::Decimal;
use rust_decimal::prelude::{FromPrimitive, ToPrimitive};
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

    /// Converts from JSON. Numbers keep their decimal text exactly (no float round trip).
    pub fn from_json(json: &serde_json::Value) -> Value {
        match json {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => number_from_text(&n.to_string())
                .or_else(|| n.as_f64().and_then(Decimal::from_f64))
                .map(Value::Number)
                .unwrap_or(Value::Null),
            serde_json::Value::String(s) => Value::String(s.clone()),
            serde_json::Value::Array(items) => {
                Value::List(items.iter().map(Value::from_json).collect())
            }
            serde_json::Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), Value::from_json(v)))
                    .collect(),
            ),
        }
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

/// Parses a decimal number in plain or exponent notation (`12`, `-0.5`, `1e3`).
pub fn number_from_text(text: &str) -> Option<Decimal> {
    Decimal::from_str(text)
        .ok()
        .or_else(|| Decimal::from_scientific(text).ok())
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
        let value = Value::from_json(&json);
        assert_eq!(value.to_json().to_string(), "[2,2,0.1,100,-3.25]");
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

//! Typed parameters: values for `--param NAAM=WAARDE` (text) and `--param-json` (JSON) are
//! checked against the law's declarations (`parameters`, and `input`s that may be given
//! directly). A value of the wrong type is an error naming the parameter and the expected type.

use crate::dates::parse_iso_date;
use crate::law::{Field, FieldType, Law};
use crate::value::{InexactNumber, Value, number_from_text};
use std::collections::BTreeMap;
use std::fmt;

/// A parameter value that does not fit its declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamError {
    /// Parameter name.
    pub name: String,
    /// Declared type.
    pub expected: FieldType,
    /// What was given: a short excerpt (at most [`GIVEN_EXCERPT_CHARS`] characters).
    pub given: String,
    /// Why it does not fit.
    pub problem: String,
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "parameter '{}' ({}): {} (gegeven: {})",
            self.name,
            self.expected.as_str(),
            self.problem,
            self.given
        )
    }
}

impl std::error::Error for ParamError {}

/// Parameters checked against a law.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TypedParams {
    /// The values by name.
    pub values: BTreeMap<String, Value>,
    /// Names the law does not declare (kept as given; other laws reached may use them).
    pub undeclared: Vec<String>,
}

/// Every parameter and input a law declares, by name (first declaration wins), in article order.
pub fn declarations(law: &Law) -> Vec<&Field> {
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for article in &law.articles {
        if let Some(exec) = article.execution() {
            for field in exec.parameters.iter().chain(&exec.input) {
                if seen.insert(field.name.as_str()) {
                    out.push(field);
                }
            }
        }
    }
    out
}

/// Parameters (`required: true` first) of the articles producing `outputs`.
pub fn parameters_for<'l>(law: &'l Law, outputs: &[String]) -> Vec<&'l Field> {
    let mut out: Vec<&Field> = Vec::new();
    for article in &law.articles {
        let Some(exec) = article.execution() else {
            continue;
        };
        if outputs
            .iter()
            .any(|o| exec.output.iter().any(|f| &f.name == o))
        {
            for p in &exec.parameters {
                if !out.iter().any(|f| f.name == p.name) {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// The most characters of a given value an error quotes: errors name the offending value, they
/// do not repeat a file's contents.
pub const GIVEN_EXCERPT_CHARS: usize = 40;

fn error(
    name: &str,
    expected: FieldType,
    given: impl Into<String>,
    problem: impl Into<String>,
) -> ParamError {
    ParamError {
        name: name.to_string(),
        expected,
        given: excerpt(&given.into()),
        problem: problem.into(),
    }
}

/// The first [`GIVEN_EXCERPT_CHARS`] characters of a value, marked with `…` when cut.
fn excerpt(text: &str) -> String {
    let mut chars = text.chars();
    let mut out: String = chars.by_ref().take(GIVEN_EXCERPT_CHARS).collect();
    if chars.next().is_some() {
        out.push('…');
    }
    out
}

/// A JSON value as an engine value; a number without an exact decimal is an error.
fn from_json(
    name: &str,
    expected: FieldType,
    json: &serde_json::Value,
) -> Result<Value, ParamError> {
    Value::from_json(json).map_err(|InexactNumber(text)| {
        let problem = InexactNumber(text.clone()).to_string();
        error(name, expected, text, problem)
    })
}

/// Parses a command-line text value as the declared type.
pub fn parse_text(name: &str, field_type: FieldType, text: &str) -> Result<Value, ParamError> {
    let err = |problem: &str| error(name, field_type, text, problem);
    let t = text.trim();
    match field_type {
        FieldType::String => Ok(Value::String(text.to_string())),
        FieldType::Number | FieldType::Amount => {
            let bytes = t.trim_start_matches('-').as_bytes();
            let thousands = bytes.len() > 4
                && bytes.iter().filter(|b| **b == b'.').count() >= 1
                && t.split('.')
                    .skip(1)
                    .all(|g| g.len() == 3 && g.bytes().all(|b| b.is_ascii_digit()));
            if thousands {
                return Err(err(
                    "dubbelzinnig getal: schrijf het zonder scheidingstekens voor duizendtallen (bijv. 50000)",
                ));
            }
            let normal = if t.contains(',') && !t.contains('.') {
                t.replace(',', ".")
            } else {
                t.to_string()
            };
            let n = number_from_text(&normal).ok_or_else(|| {
                let numeric = normal
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b));
                if numeric && normal.bytes().any(|b| b.is_ascii_digit()) {
                    err(&InexactNumber(normal.clone()).to_string())
                } else {
                    err("geen getal")
                }
            })?;
            if field_type == FieldType::Amount && !n.fract().is_zero() {
                return Err(err("bedrag in eurocent moet een geheel getal zijn"));
            }
            Ok(Value::Number(n))
        }
        FieldType::Boolean => match t.to_ascii_lowercase().as_str() {
            "true" | "ja" | "waar" | "1" => Ok(Value::Bool(true)),
            "false" | "nee" | "onwaar" | "0" => Ok(Value::Bool(false)),
            _ => Err(err("verwacht true/false (of ja/nee)")),
        },
        FieldType::Date => parse_iso_date(t)
            .map(|_| Value::String(t.to_string()))
            .ok_or_else(|| err("verwacht een datum JJJJ-MM-DD")),
        FieldType::Object | FieldType::Array => {
            let json: serde_json::Value =
                serde_json::from_str(t).map_err(|e| err(&format!("geen geldige JSON: {e}")))?;
            check_json(name, field_type, &json)
        }
    }
}

/// Checks a JSON value against the declared type ([`check_value`]).
pub fn check_json(
    name: &str,
    field_type: FieldType,
    json: &serde_json::Value,
) -> Result<Value, ParamError> {
    let value = from_json(name, field_type, json)?;
    check_value(name, field_type, value, || json.to_string())
}

/// Checks a typed value (from JSON, or a scenario step) against the declared type: the one
/// typing rule of every command. A value keeps its own type; a declared type refuses what
/// does not fit it, except that a number where text is declared stays that number, as the
/// reference engine and RegelRecht's BDD language have it (`bdd/grammar.yaml` `value_typing`:
/// the content decides). `given` shows the value in an error.
pub fn check_value(
    name: &str,
    field_type: FieldType,
    value: Value,
    given: impl FnOnce() -> String,
) -> Result<Value, ParamError> {
    let fits = match (&value, field_type) {
        (Value::Null, _) => true,
        (Value::String(_) | Value::Number(_), FieldType::String) => true,
        (Value::String(s), FieldType::Date) => parse_iso_date(s).is_some(),
        (Value::Number(_), FieldType::Number) => true,
        (Value::Number(n), FieldType::Amount) => n.fract().is_zero(),
        (Value::Bool(_), FieldType::Boolean) => true,
        (Value::Object(_), FieldType::Object) => true,
        (Value::List(_), FieldType::Array) => true,
        _ => false,
    };
    if fits {
        Ok(value)
    } else {
        let problem = match field_type {
            FieldType::Amount => "verwacht een geheel aantal eurocent".to_string(),
            FieldType::Date => "verwacht een datum JJJJ-MM-DD".to_string(),
            other => format!("verwacht {}, kreeg {}", other.as_str(), value.type_name()),
        };
        Err(error(name, field_type, given(), problem))
    }
}

/// The errors of typed `values` against what `law` declares: each declared parameter's type
/// ([`check_value`]) and bounds, as [`typed_params`] checks them (for values that come typed,
/// as a scenario's do).
pub fn check_values(law: &Law, values: &BTreeMap<String, Value>) -> Vec<ParamError> {
    let fields = declared_fields(law);
    let mut errors = Vec::new();
    for (name, value) in values {
        let Some(field) = fields.get(name) else {
            continue;
        };
        match check_value(name, field.field_type, value.clone(), || value.to_string()) {
            Ok(value) => errors.extend(bound_violation(field, &value)),
            Err(e) => errors.push(e),
        }
    }
    errors
}

/// Every parameter and input `law` declares, by name (collected once per law).
fn declared_fields(law: &Law) -> &BTreeMap<String, Field> {
    law.declared.get_or_init(|| {
        declarations(law)
            .into_iter()
            .map(|f| (f.name.clone(), f.clone()))
            .collect()
    })
}

/// Builds typed parameters from a JSON object (`--param-json`) and `NAAM=WAARDE` texts
/// (`--param`, which win over JSON). All type errors are returned together.
pub fn typed_params(
    law: &Law,
    json: Option<&serde_json::Map<String, serde_json::Value>>,
    texts: &[(String, String)],
) -> Result<TypedParams, Vec<ParamError>> {
    let fields = declared_fields(law);
    let declared_type = |name: &str| fields.get(name).map(|f| f.field_type);
    let mut out = TypedParams::default();
    let mut errors = Vec::new();
    let mut put =
        |name: &str, result: Result<Value, ParamError>, out: &mut TypedParams| match result {
            Ok(v) => {
                out.values.insert(name.to_string(), v);
            }
            Err(e) => errors.push(e),
        };
    for (name, json) in json.into_iter().flatten() {
        let result = match declared_type(name) {
            Some(t) => check_json(name, t, json),
            None => from_json(name, FieldType::Number, json),
        };
        put(name, result, &mut out);
    }
    for (name, text) in texts {
        let result = match declared_type(name) {
            Some(t) => parse_text(name, t, text),
            None => Ok(Value::String(text.clone())),
        };
        put(name, result, &mut out);
    }
    for (name, value) in &out.values {
        if let Some(field) = fields.get(name) {
            errors.extend(bound_violation(field, value));
        }
    }
    out.undeclared = out
        .values
        .keys()
        .filter(|k| !fields.contains_key(*k))
        .cloned()
        .collect();
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// A declared bound (`type_spec.min` / `max`) as an exact decimal: the shortest text that reads
/// back as the YAML number, so `0.1` is 0.1.
fn bound(value: f64) -> Option<rust_decimal::Decimal> {
    value.to_string().parse().ok()
}

/// The violation of `field`'s `type_spec` minimum or maximum by a number, if any.
pub fn bound_violation(field: &Field, value: &Value) -> Option<ParamError> {
    let (Value::Number(n), Some(spec)) = (value, &field.type_spec) else {
        return None;
    };
    let violated = |limit: Option<f64>, below: bool| {
        let limit = bound(limit?)?;
        let outside = if below { *n < limit } else { *n > limit };
        outside.then(|| {
            let word = if below { "minimum" } else { "maximum" };
            error(
                &field.name,
                field.field_type,
                n.to_string(),
                format!(
                    "buiten het bereik van de wet: het {word} is {limit} (type_spec.{})",
                    if below { "min" } else { "max" }
                ),
            )
        })
    };
    violated(spec.min, true).or_else(|| violated(spec.max, false))
}

/// Required parameters not in `values` of every article of `law` that producing `outputs`
/// reaches through same-law inputs (`source: {output}`), in the order they are reached: what
/// the caller must give, all at once, before the evaluation can succeed.
pub fn missing_required_reachable(
    law: &Law,
    outputs: &[String],
    values: &BTreeMap<String, Value>,
) -> Vec<String> {
    let mut missing: Vec<String> = Vec::new();
    let mut seen_articles: Vec<&str> = Vec::new();
    let mut queue: Vec<String> = outputs.to_vec();
    while let Some(output) = queue.pop() {
        let Some(article) = law.article_for_output(&output) else {
            continue;
        };
        if seen_articles.contains(&article.number.as_str()) {
            continue;
        }
        seen_articles.push(&article.number);
        let Some(exec) = article.execution() else {
            continue;
        };
        for p in &exec.parameters {
            if p.required == Some(true)
                && !values.contains_key(&p.name)
                && !missing.contains(&p.name)
            {
                missing.push(p.name.clone());
            }
        }
        for input in &exec.input {
            if let Some(source) = &input.source
                && source.regulation.is_none()
                && !values.contains_key(&input.name)
                && let Some(out) = &source.output
            {
                queue.push(out.clone());
            }
        }
    }
    missing
}

/// Required parameters of the articles producing `outputs` that are not given.
pub fn missing_required(
    law: &Law,
    outputs: &[String],
    values: &BTreeMap<String, Value>,
) -> Vec<String> {
    parameters_for(law, outputs)
        .into_iter()
        .filter(|p| p.required == Some(true) && !values.contains_key(&p.name))
        .map(|p| p.name.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_values_are_typed() {
        assert_eq!(
            parse_text("x", FieldType::Number, "12,5").unwrap(),
            Value::Number("12.5".parse().unwrap())
        );
        assert_eq!(
            parse_text("x", FieldType::Boolean, "ja").unwrap(),
            Value::Bool(true)
        );
        assert_eq!(
            parse_text("x", FieldType::Date, "2024-02-29").unwrap(),
            Value::str("2024-02-29")
        );
        assert_eq!(
            parse_text("x", FieldType::String, "42").unwrap(),
            Value::str("42")
        );
        assert_eq!(
            parse_text("x", FieldType::Amount, "211200").unwrap(),
            Value::int(211200)
        );
    }

    #[test]
    fn wrong_text_values_are_errors() {
        assert!(parse_text("x", FieldType::Number, "veel").is_err());
        assert!(parse_text("x", FieldType::Number, "50.000").is_err());
        assert!(parse_text("x", FieldType::Amount, "12.5").is_err());
        assert!(parse_text("x", FieldType::Boolean, "misschien").is_err());
        assert!(parse_text("x", FieldType::Date, "2023-02-29").is_err());
        assert!(parse_text("x", FieldType::Date, "1-1-2024").is_err());
    }

    #[test]
    fn json_values_are_checked() {
        let j = |s: &str| serde_json::from_str::<serde_json::Value>(s).unwrap();
        // A number where text is declared stays that number (the one typing rule).
        assert_eq!(
            check_json("x", FieldType::String, &j("42")).unwrap(),
            Value::int(42)
        );
        assert!(check_json("x", FieldType::String, &j("true")).is_err());
        assert!(check_json("x", FieldType::Number, &j("\"42\"")).is_err());
        assert!(check_json("x", FieldType::Boolean, &j("1")).is_err());
        assert_eq!(
            check_json("x", FieldType::Number, &j("42")).unwrap(),
            Value::int(42)
        );
        assert_eq!(
            check_json("x", FieldType::Array, &j("[1]")).unwrap(),
            Value::List(vec![Value::int(1)])
        );
    }

    #[test]
    fn type_spec_bounds_are_enforced_and_every_violation_is_reported() {
        let law = crate::parse::parse_law(
            &crate::origin::Origin::File("t.yaml".into()),
            "$id: t\nregulatory_layer: WET\narticles:\n  - number: '1'\n    machine_readable:\n      execution:\n        parameters:\n          - name: leeftijd\n            type: number\n            type_spec: {min: 0, max: 130}\n          - name: percentage\n            type: number\n            type_spec: {min: 0.5}\n        output: [{name: o, type: number}]\n        actions: [{output: o, value: $leeftijd}]\n",
        )
        .unwrap();
        let texts = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
            pairs
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        assert!(
            typed_params(
                &law,
                None,
                &texts(&[("leeftijd", "130"), ("percentage", "0.5")])
            )
            .is_ok()
        );
        let errors = typed_params(
            &law,
            None,
            &texts(&[("leeftijd", "131"), ("percentage", "0.49")]),
        )
        .unwrap_err();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(
            errors[0].problem.contains("maximum is 130"),
            "{}",
            errors[0]
        );
        assert!(
            errors[1].problem.contains("minimum is 0.5"),
            "{}",
            errors[1]
        );
        let below = typed_params(&law, None, &texts(&[("leeftijd", "-1")])).unwrap_err();
        assert!(below[0].problem.contains("minimum is 0"));
    }
}

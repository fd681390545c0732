//! Variable resolution inside one article: `$referencedate`, outputs computed so far, the
//! article's definitions, then parameters, inputs and open terms; dotted paths read properties
//! of objects and items of lists. Every resolved variable is recorded for the trace.

use crate::error::{ErrorKind, EvalError};
use crate::law::Definition;
use crate::ops::Scope;
use crate::value::Value;
use chrono::{Datelike, NaiveDate};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

/// No variables.
static NONE: BTreeMap<String, Value> = BTreeMap::new();

/// The variables of an article in layers, each hiding the ones before it: parameters, inputs
/// resolved from a source and open terms, outputs of hooks before the actions, and (for hooks
/// after the actions and overrides) the article's outputs. Read in place: an article's
/// variables are never copied into one map.
#[derive(Clone, Copy)]
pub(crate) struct Vars<'a> {
    pub params: &'a BTreeMap<String, Value>,
    pub inputs: &'a BTreeMap<String, Value>,
    pub hooks: &'a BTreeMap<String, Value>,
    pub outputs: &'a BTreeMap<String, Value>,
}

impl<'a> Vars<'a> {
    /// Only `params`.
    pub(crate) fn params(params: &'a BTreeMap<String, Value>) -> Vars<'a> {
        Vars {
            params,
            inputs: &NONE,
            hooks: &NONE,
            outputs: &NONE,
        }
    }

    /// The value of `name` in the topmost layer that has it.
    pub(crate) fn get(&self, name: &str) -> Option<&'a Value> {
        self.outputs
            .get(name)
            .or_else(|| self.hooks.get(name))
            .or_else(|| self.inputs.get(name))
            .or_else(|| self.params.get(name))
    }

    /// All variables in one map (for a data source's key lookup).
    pub(crate) fn to_map(self) -> BTreeMap<String, Value> {
        let mut all = self.params.clone();
        for layer in [self.inputs, self.hooks, self.outputs] {
            all.extend(layer.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        all
    }
}

/// The values visible to the actions of one article.
pub(crate) struct ArticleScope<'a> {
    pub outputs: &'a BTreeMap<String, Value>,
    pub definitions: &'a BTreeMap<String, Definition>,
    pub values: Vars<'a>,
    pub unresolved_external: &'a BTreeSet<String>,
    pub date: NaiveDate,
    /// `date` as `YYYY-MM-DD`.
    pub date_iso: &'a str,
    pub law: &'a str,
    pub article: &'a str,
    /// The variables read, in order (only when the evaluation is traced).
    pub used: RefCell<Option<Vec<(String, Value)>>>,
}

/// The properties of `$referencedate`.
const REFERENCE_DATE_PARTS: [&str; 4] = ["year", "month", "day", "iso"];

/// One property of `$referencedate` (`year`, `month`, `day` or `iso`, which is `iso`).
fn reference_date_part(date: NaiveDate, iso: &str, part: &str) -> Option<Value> {
    Some(match part {
        "year" => Value::int(i64::from(date.year())),
        "month" => Value::int(i64::from(date.month())),
        "day" => Value::int(i64::from(date.day())),
        "iso" => Value::str(iso),
        _ => return None,
    })
}

/// `$referencedate` as an object with `year`, `month`, `day` and `iso`.
fn reference_date_value(date: NaiveDate, iso: &str) -> Value {
    Value::Object(
        REFERENCE_DATE_PARTS
            .iter()
            .filter_map(|p| Some((p.to_string(), reference_date_part(date, iso, p)?)))
            .collect(),
    )
}

impl ArticleScope<'_> {
    fn base(&self, name: &str) -> Result<Value, EvalError> {
        if name == "referencedate" {
            return Ok(reference_date_value(self.date, self.date_iso));
        }
        if let Some(v) = self.outputs.get(name) {
            return Ok(v.clone());
        }
        if let Some(d) = self.definitions.get(name) {
            return Ok(d.value.clone());
        }
        if let Some(v) = self.values.get(name) {
            return Ok(v.clone());
        }
        let (law, article) = (self.law.to_string(), self.article.to_string());
        let name = name.to_string();
        Err(EvalError::new(
            if self.unresolved_external.contains(&name) {
                ErrorKind::MissingExternalData { name, law, article }
            } else {
                ErrorKind::MissingValue { name, law, article }
            },
        ))
    }
}

fn property(value: &Value, key: &str, path: &str) -> Result<Value, EvalError> {
    let missing = || {
        EvalError::invalid(format!(
            "'{path}': '{key}' bestaat niet in {}",
            value.type_name()
        ))
    };
    match value {
        Value::Object(map) => map.get(key).cloned().ok_or_else(missing),
        Value::List(items) => key
            .parse::<usize>()
            .ok()
            .and_then(|i| items.get(i).cloned())
            .ok_or_else(missing),
        _ => Err(missing()),
    }
}

impl Scope for ArticleScope<'_> {
    fn resolve(&self, path: &str) -> Result<Value, EvalError> {
        // A property of `$referencedate` directly, without building the whole object.
        let direct = path
            .strip_prefix("referencedate.")
            .and_then(|part| reference_date_part(self.date, self.date_iso, part));
        let value = match direct {
            Some(value) => value,
            None if !path.contains('.') => self.base(path)?,
            None => {
                let mut parts = path.split('.');
                let mut value = self.base(parts.next().unwrap_or_default())?;
                for key in parts {
                    value = property(&value, key, path)?;
                }
                value
            }
        };
        if let Some(used) = self.used.borrow_mut().as_mut() {
            used.push((path.to_string(), value.clone()));
        }
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(path: &str) -> Result<Value, EvalError> {
        let none = BTreeMap::new();
        let defs = BTreeMap::new();
        let external = BTreeSet::new();
        let scope = ArticleScope {
            outputs: &none,
            definitions: &defs,
            values: Vars::params(&none),
            unresolved_external: &external,
            date: NaiveDate::from_ymd_opt(2026, 3, 9).expect("date"),
            date_iso: "2026-03-09",
            law: "wet",
            article: "1",
            used: RefCell::new(Some(Vec::new())),
        };
        let value = scope.resolve(path);
        if let Ok(v) = &value {
            assert_eq!(
                scope.used.into_inner().expect("recorded"),
                vec![(path.to_string(), v.clone())]
            );
        }
        value
    }

    #[test]
    fn reference_date_parts_read_directly_equal_the_objects_properties() {
        let whole = resolve("referencedate").unwrap();
        for (part, expected) in [
            ("year", Value::int(2026)),
            ("month", Value::int(3)),
            ("day", Value::int(9)),
            ("iso", Value::str("2026-03-09")),
        ] {
            let direct = resolve(&format!("referencedate.{part}")).unwrap();
            assert_eq!(direct, expected);
            assert_eq!(property(&whole, part, part).unwrap(), expected);
        }
        assert!(resolve("referencedate.week").is_err());
        assert!(resolve("referencedate.iso.x").is_err());
    }
}

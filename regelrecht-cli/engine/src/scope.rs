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

/// The values visible to the actions of one article.
pub(crate) struct ArticleScope<'a> {
    pub outputs: &'a BTreeMap<String, Value>,
    pub definitions: &'a BTreeMap<String, Definition>,
    pub values: &'a BTreeMap<String, Value>,
    pub unresolved_external: &'a BTreeSet<String>,
    pub date: NaiveDate,
    pub law: &'a str,
    pub article: &'a str,
    /// The variables read, in order (only when the evaluation is traced).
    pub used: RefCell<Option<Vec<(String, Value)>>>,
}

/// `$referencedate` as an object with `year`, `month`, `day` and `iso`.
pub(crate) fn reference_date_value(date: NaiveDate) -> Value {
    let mut map = BTreeMap::new();
    map.insert("year".to_string(), Value::int(i64::from(date.year())));
    map.insert("month".to_string(), Value::int(i64::from(date.month())));
    map.insert("day".to_string(), Value::int(i64::from(date.day())));
    map.insert(
        "iso".to_string(),
        Value::String(crate::load::iso_date(date)),
    );
    Value::Object(map)
}

impl ArticleScope<'_> {
    fn base(&self, name: &str) -> Result<Value, EvalError> {
        if name == "referencedate" {
            return Ok(reference_date_value(self.date));
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
        let mut parts = path.split('.');
        let mut value = self.base(parts.next().unwrap_or_default())?;
        for key in parts {
            value = property(&value, key, path)?;
        }
        if let Some(used) = self.used.borrow_mut().as_mut() {
            used.push((path.to_string(), value.clone()));
        }
        Ok(value)
    }
}

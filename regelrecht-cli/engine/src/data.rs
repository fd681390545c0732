//! External data sources for inputs with `source: {}`: named tables of records, each looked up
//! by one key field (a scenario's `the following "personal_data" data with key "bsn":`).
//!
//! An external input that is not given as a parameter is looked up by its name (case-insensitive)
//! in every source that has such a field, with the key taken from the article's parameters; the
//! first source (in registration order) with a record for that key answers. A parameter always
//! wins over a data source.

use crate::value::Value;
use std::collections::{BTreeMap, HashMap};

/// One table: records by the text of their key field.
#[derive(Debug, Clone)]
struct Source {
    name: String,
    key_field: String,
    records: HashMap<String, BTreeMap<String, Value>>,
}

/// Named data sources, in registration order.
#[derive(Debug, Clone, Default)]
pub struct DataSources {
    sources: Vec<Source>,
}

/// The lookup text of a key value: a text as written, anything else as displayed.
fn key_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.to_string(),
        other => other.to_string(),
    }
}

impl DataSources {
    /// No sources.
    pub fn new() -> DataSources {
        DataSources::default()
    }

    /// Whether no source is registered.
    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
    }

    /// Registers (or replaces) the source `name`, keyed by `key_field`; field names are
    /// compared case-insensitively. A record without the key field is an error naming the row.
    pub fn insert(
        &mut self,
        name: &str,
        key_field: &str,
        rows: Vec<BTreeMap<String, Value>>,
    ) -> Result<(), String> {
        let key_field = key_field.to_lowercase();
        let mut records = HashMap::new();
        for (i, row) in rows.into_iter().enumerate() {
            let row: BTreeMap<String, Value> = row
                .into_iter()
                .map(|(k, v)| (k.to_lowercase(), v))
                .collect();
            let key = row.get(&key_field).map(key_text).ok_or_else(|| {
                format!(
                    "gegevensbron '{name}': rij {} heeft geen sleutelveld '{key_field}'",
                    i + 1
                )
            })?;
            records.insert(key, row);
        }
        self.sources.retain(|s| s.name != name);
        self.sources.push(Source {
            name: name.to_string(),
            key_field,
            records,
        });
        Ok(())
    }

    /// The value of `field` for the record whose key is the parameter of the same name as the
    /// source's key field, from the first source that has one.
    pub fn lookup(&self, field: &str, params: &BTreeMap<String, Value>) -> Option<Value> {
        let field = field.to_lowercase();
        self.sources.iter().find_map(|source| {
            let key = params
                .iter()
                .find(|(k, _)| k.to_lowercase() == source.key_field)
                .map(|(_, v)| key_text(v))?;
            source.records.get(&key)?.get(&field).cloned()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(pairs: &[(&str, Value)]) -> BTreeMap<String, Value> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    #[test]
    fn looks_up_by_key_parameter_case_insensitively() {
        let mut data = DataSources::new();
        data.insert(
            "personen",
            "BSN",
            vec![row(&[
                ("bsn", Value::str("123")),
                ("Geboortedatum", Value::str("2000-01-01")),
            ])],
        )
        .unwrap();
        let params = row(&[("bsn", Value::str("123"))]);
        assert_eq!(
            data.lookup("geboortedatum", &params),
            Some(Value::str("2000-01-01"))
        );
        assert_eq!(data.lookup("onbekend", &params), None);
        assert_eq!(
            data.lookup("geboortedatum", &row(&[("bsn", Value::str("9"))])),
            None
        );
        assert_eq!(data.lookup("geboortedatum", &BTreeMap::new()), None);
    }

    #[test]
    fn a_row_without_its_key_is_refused() {
        let mut data = DataSources::new();
        let err = data
            .insert("t", "bsn", vec![row(&[("x", Value::int(1))])])
            .unwrap_err();
        assert!(err.contains("rij 1"), "{err}");
    }
}

//! JSON helpers for output checks: the one-compact-document rule, canonical JSON for plan
//! digests, SHA-256 and an object's member names.

use serde_json::{Map, Value};

/// Lower-case hex SHA-256 (the profile's digest format).
pub use common::digest::sha256_hex;

/// `text` must be exactly one compact JSON document and one newline (OUT-3, ERR-1).
pub fn compact_document(text: &str) -> Value {
    let line = text
        .strip_suffix('\n')
        .unwrap_or_else(|| panic!("output must end with one newline: {text:?}"));
    assert!(!line.contains('\n'), "output must be one line: {text}");
    let value: Value =
        serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    assert_eq!(value.to_string(), line, "output must be compact JSON");
    value
}

/// Canonical JSON (sorted keys, no whitespace) as the profile's plan digest uses it.
///
/// Written independently of `common::digest::canonical_json` on purpose: the tests check the
/// tools' digests against it, so it must not share their code.
pub fn canonical(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let members: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{}:{}", Value::from(k.as_str()), canonical(&map[k])))
                .collect();
            format!("{{{}}}", members.join(","))
        }
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(canonical).collect::<Vec<_>>().join(",")
        ),
        other => other.to_string(),
    }
}

/// The members of an object in order, for readable assertions on key order.
pub fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .map(Map::keys)
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect()
}

/// The command words of a discovery entry (`_meta.argv`).
pub fn argv_of(entry: &Value) -> Vec<&str> {
    entry["_meta"]["argv"]
        .as_array()
        .expect("_meta.argv")
        .iter()
        .map(|word| word.as_str().expect("a word"))
        .collect()
}

/// The words that ask for an entry's full entry: its command, then `--help --json` (DISC-17).
pub fn full_entry_words(entry: &Value) -> Vec<&str> {
    let mut words = argv_of(entry);
    words.extend(["--help", "--json"]);
    words
}

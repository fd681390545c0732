//! Canonical JSON (object keys sorted, no whitespace) and its SHA-256, as the profile uses for
//! plan digests. The local store uses it to recognise "same idempotency key, other request".

use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// `value` as canonical JSON: object keys sorted by code point, no insignificant whitespace.
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

/// Lower-case hex SHA-256 of the canonical JSON of `value`.
pub fn canonical_sha256<T: Serialize>(value: &T) -> Result<String, serde_json::Error> {
    let json = canonical_json(&serde_json::to_value(value)?);
    Ok(sha256_hex(json.as_bytes()))
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (index, (key, item)) in entries.into_iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(item, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sorts_keys_at_every_level_without_whitespace() {
        let value = json!({"b": 1, "a": {"d": [true, null], "c": "x é"}});
        assert_eq!(
            canonical_json(&value),
            r#"{"a":{"c":"x é","d":[true,null]},"b":1}"#
        );
    }

    #[test]
    fn digest_ignores_key_order() {
        let one = canonical_sha256(&json!({"a": 1, "b": 2})).unwrap();
        let other = canonical_sha256(&json!({"b": 2, "a": 1})).unwrap();
        assert_eq!(one, other);
        assert_eq!(one.len(), 64);
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}

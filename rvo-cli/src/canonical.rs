//! Canonical JSON (object keys sorted, no whitespace) and its SHA-256, as the profile uses for
//! plan digests. The local store uses it to recognise "same idempotency key, other request".

use serde::Serialize;

pub use common::plan::{canonical_json, sha256_hex};

/// Lower-case hex SHA-256 of the canonical JSON of `value`.
pub fn canonical_sha256<T: Serialize>(value: &T) -> Result<String, serde_json::Error> {
    let json = canonical_json(&serde_json::to_value(value)?);
    Ok(sha256_hex(json.as_bytes()))
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

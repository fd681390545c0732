//! The plan digest of MUT-3: SHA-256 of the canonical JSON ([`crate::jcs`]) of
//! `{"command","arguments"}`.

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::jcs::canonical;

/// Lower-case hex SHA-256 of `text`.
pub(crate) fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// The digest a plan must carry: SHA-256 of the canonical `{"command","arguments"}`.
pub(crate) fn plan_digest(command: &Value, arguments: &Value) -> String {
    let mut object = serde_json::Map::new();
    object.insert("command".into(), command.clone());
    object.insert("arguments".into(), arguments.clone());
    sha256_hex(&canonical(&Value::Object(object)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn worked_digest_of_the_spec() {
        let arguments = json!({"regeling_id":"EBR-2027","kvk_nummer":"68750110","maatregelen":["led-verlichting","warmtepomp"]});
        assert_eq!(
            plan_digest(&json!("rvo-cli rapportage indienen"), &arguments),
            "1f4f39fc2c5b136013af29e53af88b72ef6bc9e77764d641b038a84f285ecc53"
        );
    }
}

//! Canonical JSON (RFC 8785 for the values a plan holds) and the plan digest of MUT-3.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// The canonical serialisation: members sorted by UTF-16 code units, no whitespace.
pub(crate) fn canonical(value: &Value) -> String {
    let mut out = String::new();
    write(value, &mut out);
    out
}

fn write(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            members.sort_by(|(a, _), (b, _)| a.encode_utf16().cmp(b.encode_utf16()));
            out.push('{');
            for (index, (name, member)) in members.into_iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(name.clone()).to_string());
                out.push(':');
                write(member, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

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

    #[test]
    fn sorts_by_utf16_and_escapes() {
        assert_eq!(
            canonical(&json!({"b":1,"a":"x\n\"","\u{e000}":0,"\u{1f600}":0})),
            "{\"a\":\"x\\n\\\"\",\"b\":1,\"\u{1f600}\":0,\"\u{e000}\":0}"
        );
    }
}

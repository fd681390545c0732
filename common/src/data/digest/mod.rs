//! Hashes and canonical JSON: the bytes behind every digest the profile publishes
//! (`plan_digest`, `response_sha256`, a filing's idempotency key, a concept's digest, a receipt's
//! seal).
//!
//! Canonical JSON is RFC 8785 (JCS): object members sorted by the UTF-16 code units of their
//! names, no insignificant whitespace, the string escaping of ECMAScript's `JSON.stringify`, and
//! numbers written by ECMAScript's `Number::toString` rules ([`number`]). So `1`, `1.0`, `1e0`
//! and `10e-1` are one value with one digest. Every crate of the family digests JSON through
//! [`canonical_sha256`] (or [`canonical_json`] where it needs the text); there is no other copy.

mod number;

use serde_json::Value;
use sha2::{Digest, Sha256};

/// SHA-256 of bytes, lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Bytes as lower-case hex, two digits each (one allocation, not one per byte).
pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    out
}

/// Lower-case hex SHA-256 of the canonical JSON of `value`: the one digest of a JSON value.
/// The text is hashed as it is written, a chunk at a time, never held whole (a listing's
/// answer is some 12 MB of it).
pub fn canonical_sha256(value: &Value) -> String {
    let mut out = Hashing {
        text: String::with_capacity(2 * CHUNK),
        hasher: Sha256::new(),
    };
    write_canonical(value, &mut out, &mut Vec::new());
    out.hasher.update(out.text.as_bytes());
    hex(&out.hasher.finalize())
}

/// Canonical JSON (RFC 8785) of `value`; numbers as [`number`] describes, exact decimals kept.
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out, &mut Vec::new());
    out
}

/// How much canonical text [`canonical_sha256`] gathers before it hashes it.
const CHUNK: usize = 64 * 1024;

/// Where canonical JSON is written: a whole text, or a hash fed as the text grows.
trait Out {
    /// The text written so far (or since it was last passed on).
    fn text(&mut self) -> &mut String;
    /// Between two values: a moment to pass on what was written.
    fn settle(&mut self) {}
}

impl Out for String {
    fn text(&mut self) -> &mut String {
        self
    }
}

/// Canonical text on its way into SHA-256.
struct Hashing {
    text: String,
    hasher: Sha256,
}

impl Out for Hashing {
    fn text(&mut self) -> &mut String {
        &mut self.text
    }

    fn settle(&mut self) {
        if self.text.len() >= CHUNK {
            self.hasher.update(self.text.as_bytes());
            self.text.clear();
        }
    }
}

/// Writes `value` canonically. `members` is one list for every object on the way down: each
/// object sorts its own members at the end of it and takes them off again when written, so an
/// answer of 47,000 objects makes no list of its own for each.
fn write_canonical<'v>(
    value: &'v Value,
    out: &mut impl Out,
    members: &mut Vec<(&'v String, &'v Value)>,
) {
    match value {
        Value::Object(map) => {
            // RFC 8785 orders member names by their UTF-16 code units (for ASCII names, which
            // nearly all are, their bytes' order).
            let start = members.len();
            members.extend(map.iter());
            members[start..].sort_by(|(a, _), (b, _)| {
                if a.is_ascii() && b.is_ascii() {
                    a.cmp(b)
                } else {
                    a.encode_utf16().cmp(b.encode_utf16())
                }
            });
            out.text().push('{');
            for at in start..members.len() {
                let (name, member) = members[at];
                if at > start {
                    out.text().push(',');
                }
                write_string(name, out.text());
                out.text().push(':');
                write_canonical(member, out, members);
                out.settle();
            }
            members.truncate(start);
            out.text().push('}');
        }
        Value::Array(items) => {
            out.text().push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.text().push(',');
                }
                write_canonical(item, out, members);
                out.settle();
            }
            out.text().push(']');
        }
        Value::String(text) => write_string(text, out.text()),
        Value::Number(n) => number::write(&n.to_string(), out.text()),
        Value::Bool(true) => out.text().push_str("true"),
        Value::Bool(false) => out.text().push_str("false"),
        Value::Null => out.text().push_str("null"),
    }
}

/// A string as `JSON.stringify` writes it (RFC 8785 §3.2.2.2): `\"`, `\\`, the short escapes
/// `\b \t \n \f \r`, other controls as `\u00xx` (lower-case hex), everything else as itself
/// (as serde_json writes it; a test below pins both). Written in place: a listing digests
/// some 200,000 strings.
fn write_string(text: &str, out: &mut String) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    let mut plain = 0;
    for (at, byte) in text.bytes().enumerate() {
        let escape = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            b'\t' => "\\t",
            b'\n' => "\\n",
            0x0c => "\\f",
            b'\r' => "\\r",
            0x00..=0x1f => "",
            _ => continue,
        };
        out.push_str(&text[plain..at]);
        if escape.is_empty() {
            out.push_str("\\u00");
            out.push(char::from(DIGITS[usize::from(byte >> 4)]));
            out.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
        } else {
            out.push_str(escape);
        }
        plain = at + 1;
    }
    out.push_str(&text[plain..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn hex_is_two_lower_case_digits_a_byte() {
        assert_eq!(hex(&[0x00, 0xff, 0x0a, 0xb3]), "00ff0ab3");
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn canonical_json_sorts_keys_at_every_depth() {
        let v = json!({"b": 1, "a": {"d": [1, {"z": 1, "y": 2}], "c": null}});
        assert_eq!(
            canonical_json(&v),
            r#"{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}"#
        );
    }

    #[test]
    fn keys_sort_by_utf16_code_units() {
        // U+FB01 (one UTF-16 unit) sorts after U+1F600 (a surrogate pair, 0xD83D…); in UTF-8
        // (or by code point) the order is the other way round.
        let v = json!({"\u{fb01}": 1, "\u{1f600}": 2, "\u{e000}": 3, "a": 4});
        assert_eq!(
            canonical_json(&v),
            "{\"a\":4,\"\u{1f600}\":2,\"\u{e000}\":3,\"\u{fb01}\":1}"
        );
    }

    #[test]
    fn strings_are_escaped_as_json_stringify_does() {
        let v = json!(["\u{8}\t\n\u{c}\r\"\\/", "\u{1}\u{1f}\u{7f}é€😀"]);
        assert_eq!(
            canonical_json(&v),
            "[\"\\b\\t\\n\\f\\r\\\"\\\\/\",\"\\u0001\\u001f\u{7f}é€😀\"]"
        );
        // Every character below U+0080 and some above, alone and between others: as serde_json
        // writes them.
        for c in (0..0x80u8)
            .map(char::from)
            .chain(['é', '€', '😀', '\u{2028}'])
        {
            for text in [c.to_string(), format!("a{c}b{c}")] {
                let mut out = String::new();
                write_string(&text, &mut out);
                assert_eq!(out, Value::from(text.as_str()).to_string(), "{c:?}");
            }
        }
    }

    #[test]
    fn the_digest_hashed_in_chunks_is_the_digest_of_the_whole_text() {
        // Far more than one chunk, objects inside arrays inside objects, so that members are
        // sorted at several depths at once and chunks end in the middle of objects.
        let rows: Vec<Value> = (0..4000)
            .map(|i| json!({"z": i, "a": {"y": [i, "é\n"], "b": null}, "m": format!("rij {i}")}))
            .collect();
        let value = json!({"rijen": rows, "aantal": 4000});
        let text = canonical_json(&value);
        assert!(text.len() > 3 * CHUNK, "{}", text.len());
        assert!(text.starts_with(
            r#"{"aantal":4000,"rijen":[{"a":{"b":null,"y":[0,"é\n"]},"m":"rij 0","z":0}"#
        ));
        assert_eq!(canonical_sha256(&value), sha256_hex(text.as_bytes()));
    }

    #[test]
    fn equal_numbers_have_one_digest() {
        let spellings: Vec<Value> = ["1", "1.0", "1e0", "10e-1", "0.1e1", "1.000E+0"]
            .iter()
            .map(|text| serde_json::from_str(&format!("{{\"bedrag\":{text}}}")).unwrap())
            .collect();
        let digests: Vec<String> = spellings.iter().map(canonical_sha256).collect();
        assert!(digests.iter().all(|d| *d == digests[0]), "{digests:?}");
        assert_eq!(canonical_json(&spellings[1]), r#"{"bedrag":1}"#);
        let other: Value = serde_json::from_str(r#"{"bedrag":1.5}"#).unwrap();
        assert_ne!(canonical_sha256(&other), digests[0]);
    }
}

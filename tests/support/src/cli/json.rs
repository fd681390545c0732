//! JSON helpers for output checks: the one-compact-document rule, canonical JSON for plan
//! digests (the oracle of `tests/conformance/src/jcs.rs`), SHA-256 and an object's member names.

use serde_json::{Map, Value};

#[path = "../../../conformance/src/jcs.rs"]
mod jcs;

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

/// Canonical JSON as the profile's digests use it (§2): the test oracle shared with
/// profile-check, written apart from `common::digest` on purpose so that the tests check the
/// tools' digests against code they do not share.
pub fn canonical(value: &Value) -> String {
    jcs::canonical(value)
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

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::canonical;

    /// The oracle and the tools' one implementation agree: on member order by UTF-16 code units,
    /// on escapes, and on every spelling of numbers (doubles over their whole range, in plain and
    /// exponent form, and decimals with more digits than a double keeps).
    #[test]
    fn the_oracle_agrees_with_common() {
        let mut cases = vec![
            json!({"\u{fb01}": 1, "\u{1f600}": [true, null], "\u{e000}": "\u{1}\n\"", "a": {}}),
            serde_json::from_str::<Value>(
                r#"[1.0,1e2,-0,1E30,4.50,2e-3,333333333.33333329,9007199254740993,1e-7,0.000001,1e400]"#,
            )
            .unwrap(),
        ];
        let mut bits: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..5_000 {
            bits = bits
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let x = f64::from_bits(bits);
            if x.is_finite() {
                let text = format!("[{x},{x:e},{x:E}]");
                cases.push(serde_json::from_str(&text).unwrap());
            }
        }
        for case in &cases {
            assert_eq!(
                canonical(case),
                common::digest::canonical_json(case),
                "{case}"
            );
        }
    }
}

//! One incoming JSON-RPC message (a stdio line, an HTTP body), checked as text before rmcp
//! parses it, so that no message goes unanswered for its encoding:
//!
//! - bytes that are not UTF-8 are a parse error (-32700, `id: null`; RFC 8259 §8.1);
//! - a lone UTF-16 surrogate in a `\u` escape (valid JSON text, which JavaScript produces when
//!   it cuts a string inside an emoji) becomes U+FFFD, as a JavaScript or Python client's own
//!   decoder would show it; serde_json refuses such a string, rmcp then drops the message;
//! - any other text that is not JSON is a parse error as well.
//!
//! A message that is JSON but no JSON-RPC message is rmcp's (or the stdio reader's) to refuse.

use std::borrow::Cow;

use serde_json::{Value, json};

/// JSON-RPC 2.0 "Parse error".
pub(crate) const PARSE_ERROR: i64 = -32700;

/// Why a message is no JSON text (the detail goes into the error message, never the bytes).
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Unparsable {
    NotUtf8 { offset: usize },
    NotJson(String),
}

impl Unparsable {
    /// The JSON-RPC error response: -32700 with `id: null` (no id can be read from such text).
    pub(crate) fn response(&self) -> Value {
        let message = match self {
            Unparsable::NotUtf8 { offset } => {
                format!("Parse error: het bericht is geen geldige UTF-8 (byte {offset})")
            }
            Unparsable::NotJson(why) => format!("Parse error: het bericht is geen JSON ({why})"),
        };
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": PARSE_ERROR, "message": message}})
    }
}

/// UTF-8 byte order mark, which RFC 8259 §8.1 lets a parser ignore.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The message as JSON text that serde_json accepts: borrowed when nothing had to change.
pub(crate) fn check(message: &[u8]) -> Result<Cow<'_, [u8]>, Unparsable> {
    let message = message.strip_prefix(BOM).unwrap_or(message);
    if let Err(e) = std::str::from_utf8(message) {
        return Err(Unparsable::NotUtf8 {
            offset: e.valid_up_to(),
        });
    }
    let text = replace_lone_surrogates(message);
    match serde_json::from_slice::<serde::de::IgnoredAny>(&text) {
        Ok(_) => Ok(text),
        Err(e) => Err(Unparsable::NotJson(format!(
            "regel {}, kolom {}",
            e.line(),
            e.column()
        ))),
    }
}

/// `\uD800`–`\uDFFF` escapes that are not a high-low pair become `\uFFFD`. Outside a string a
/// backslash is no JSON at all, so every backslash starts an escape and the scan needs no
/// string state.
fn replace_lone_surrogates(text: &[u8]) -> Cow<'_, [u8]> {
    let escape_at = |i: usize| -> Option<u16> {
        let hex = text.get(i..i + 6)?;
        if hex[0] != b'\\' || hex[1] != b'u' {
            return None;
        }
        u16::from_str_radix(std::str::from_utf8(&hex[2..]).ok()?, 16).ok()
    };
    let high = |u: u16| (0xD800..0xDC00).contains(&u);
    let low = |u: u16| (0xDC00..0xE000).contains(&u);
    let mut out: Option<Vec<u8>> = None;
    let mut copied = 0;
    let mut i = 0;
    while i < text.len() {
        if text[i] != b'\\' {
            i += 1;
            continue;
        }
        match escape_at(i) {
            Some(u) if high(u) && escape_at(i + 6).is_some_and(low) => i += 12,
            Some(u) if high(u) || low(u) => {
                let out = out.get_or_insert_with(|| Vec::with_capacity(text.len()));
                out.extend_from_slice(&text[copied..i]);
                out.extend_from_slice(b"\\ufffd");
                i += 6;
                copied = i;
            }
            Some(_) => i += 6,
            // `\\`, `\"`, `\n`, …: the escaped character is never the start of another escape.
            None => i += 2,
        }
    }
    match out {
        None => Cow::Borrowed(text),
        Some(mut out) => {
            out.extend_from_slice(&text[copied..]);
            Cow::Owned(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(text: &str) -> String {
        let checked = check(text.as_bytes()).unwrap();
        serde_json::from_slice::<String>(&checked).unwrap()
    }

    #[test]
    fn lone_surrogates_become_the_replacement_character_and_pairs_stay() {
        assert_eq!(string(r#""a\ud83d""#), "a\u{fffd}");
        assert_eq!(string(r#""\ude00b""#), "\u{fffd}b");
        assert_eq!(string(r#""\ud83d\ude00""#), "\u{1f600}");
        assert_eq!(string(r#""\ud83d\ud83d\ude00""#), "\u{fffd}\u{1f600}");
        assert_eq!(string(r#""\\ud83d""#), "\\ud83d");
        assert_eq!(string(r#""\\\ud83d""#), "\\\u{fffd}");
        assert!(matches!(check(br#""ok""#).unwrap(), Cow::Borrowed(_)));
    }

    #[test]
    fn bytes_that_are_not_utf8_or_not_json_are_parse_errors_with_a_null_id() {
        let refused = check(b"{\"a\": \"\xff\"}").unwrap_err();
        assert_eq!(refused, Unparsable::NotUtf8 { offset: 7 });
        let response = refused.response();
        assert_eq!(response["error"]["code"], PARSE_ERROR);
        assert_eq!(response["id"], Value::Null);
        assert!(matches!(check(b"{\"a\": 1"), Err(Unparsable::NotJson(_))));
        assert!(check(b"\xEF\xBB\xBF{}").is_ok());
    }
}

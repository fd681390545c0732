//! The secrets a tool holds, and their removal from everything it prints or
//! records (rules SEC-2, ERR-13).
//!
//! An upstream may echo a credential back (`"Onjuiste apikey: <key>"`, a
//! backend repeating the bearer token). Every secret the tool holds is held
//! here: the values of its declared variables of kind `secret`
//! ([`hold_declared`]) and every value sent as a secret header
//! ([`crate::Request::secret_header`]). [`scrub`] replaces each of them, in
//! every form it can travel in (raw, after an auth scheme such as `Bearer`,
//! percent-encoded, form-encoded, JSON-escaped), by `***`. The printer, the
//! error object and the audit record apply it, so no path has to remember to.

use std::borrow::Cow;
use std::sync::{Mutex, PoisonError};

use serde_json::Value;

use crate::env::{Env, EnvVar};

/// What a secret is replaced by.
pub const MASK: &str = "***";

/// Authorization schemes whose credential is a secret of its own.
const AUTH_SCHEMES: &[&str] = &["Bearer", "Basic", "Token", "Digest", "ApiKey"];

/// Every form of every held secret, longest first.
static HELD: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Hold `secret` (and, for a header value like `Bearer <token>`, the token).
pub fn hold(secret: &str) {
    let secret = secret.trim();
    if secret.is_empty() {
        return;
    }
    let mut held = HELD.lock().unwrap_or_else(PoisonError::into_inner);
    let mut add = |form: String| {
        if !form.is_empty() && !held.contains(&form) {
            held.push(form);
        }
    };
    let credential = secret
        .split_once(' ')
        .filter(|(scheme, _)| AUTH_SCHEMES.iter().any(|s| s.eq_ignore_ascii_case(scheme)))
        .map(|(_, rest)| rest.trim());
    for raw in std::iter::once(secret).chain(credential) {
        add(raw.to_string());
        add(percent_encoded(raw, true));
        add(percent_encoded(raw, false));
        add(url::form_urlencoded::byte_serialize(raw.as_bytes()).collect());
        let json = Value::from(raw).to_string();
        add(json[1..json.len() - 1].to_string());
    }
    held.sort_by_key(|form| std::cmp::Reverse(form.len()));
}

/// Hold the values of the declared variables of kind `secret`.
pub fn hold_declared(declared: &[EnvVar], env: &Env) {
    for var in declared.iter().filter(|v| v.secret) {
        if let Some(value) = env.get(var.name) {
            hold(value);
        }
    }
}

/// `text` with every held secret replaced by [`MASK`].
pub fn scrub(text: &str) -> Cow<'_, str> {
    let held = HELD.lock().unwrap_or_else(PoisonError::into_inner);
    let mut text = Cow::Borrowed(text);
    for form in held.iter() {
        if text.contains(form.as_str()) {
            text = Cow::Owned(text.replace(form.as_str(), MASK));
        }
    }
    text
}

/// Whether `bytes` (a body as received) contain a held secret in any of its forms.
pub fn occurs_in(bytes: &[u8]) -> bool {
    let held = HELD.lock().unwrap_or_else(PoisonError::into_inner);
    if held.is_empty() {
        return false;
    }
    let text = String::from_utf8_lossy(bytes);
    held.iter().any(|form| text.contains(form.as_str()))
}

/// Whether any string (or key) in `value` holds a secret. Looks once at what is held: with
/// nothing held (most calls) the document is not walked at all.
pub fn leaks(value: &Value) -> bool {
    let held = HELD.lock().unwrap_or_else(PoisonError::into_inner);
    !held.is_empty() && holds_any(value, &held)
}

fn holds_any(value: &Value, held: &[String]) -> bool {
    let in_text = |text: &str| held.iter().any(|form| text.contains(form.as_str()));
    match value {
        Value::String(s) => in_text(s),
        Value::Array(items) => items.iter().any(|item| holds_any(item, held)),
        Value::Object(map) => map.iter().any(|(k, v)| in_text(k) || holds_any(v, held)),
        _ => false,
    }
}

/// Scrub every string and key in `value` in place.
pub fn scrub_value(value: &mut Value) {
    match value {
        Value::String(s) => {
            if let Cow::Owned(clean) = scrub(s) {
                *s = clean;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(scrub_value),
        Value::Object(map) if map.keys().any(|k| matches!(scrub(k), Cow::Owned(_))) => {
            let old = std::mem::take(map);
            for (k, mut v) in old {
                scrub_value(&mut v);
                map.insert(scrub(&k).into_owned(), v);
            }
        }
        Value::Object(map) => map.values_mut().for_each(scrub_value),
        _ => {}
    }
}

/// `value` itself when it holds no secret, else a scrubbed copy.
pub fn scrubbed(value: &Value) -> Cow<'_, Value> {
    if leaks(value) {
        let mut copy = value.clone();
        scrub_value(&mut copy);
        Cow::Owned(copy)
    } else {
        Cow::Borrowed(value)
    }
}

/// RFC 3986 percent-encoding of everything but the unreserved characters.
fn percent_encoded(raw: &str, upper: bool) -> String {
    let mut out = String::with_capacity(raw.len());
    for byte in raw.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(char::from(byte));
        } else if upper {
            out.push_str(&format!("%{byte:02X}"));
        } else {
            out.push_str(&format!("%{byte:02x}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_form_of_a_held_secret_is_masked() {
        hold("Bearer can/ary+tok en\"9");
        let raw = "can/ary+tok en\"9";
        for text in [
            format!("Onjuiste sleutel: {raw}."),
            format!("Authorization: Bearer {raw}"),
            "q=can%2Fary%2Btok%20en%229".to_string(),
            "q=can%2fary%2btok%20en%229".to_string(),
            "q=can%2Fary%2Btok+en%229".to_string(),
            r#"{"k":"can/ary+tok en\"9"}"#.to_string(),
        ] {
            let clean = scrub(&text);
            assert!(clean.contains(MASK), "{text} → {clean}");
            assert!(!clean.contains("ary"), "{text} → {clean}");
        }
        assert_eq!(scrub("niets geheims"), "niets geheims");
    }

    #[test]
    fn values_are_scrubbed_in_strings_and_keys_only_when_needed() {
        hold("kanarie-7f3e");
        let clean = json!({"a": ["x kanarie-7f3e y"], "kanarie-7f3e": 1, "n": 2});
        assert!(leaks(&clean));
        let out = scrubbed(&clean);
        assert_eq!(*out, json!({"a": ["x *** y"], "***": 1, "n": 2}));
        assert!(matches!(scrubbed(&json!({"a": "b"})), Cow::Borrowed(_)));
    }
}

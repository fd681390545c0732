//! The secrets a tool holds, and their removal from everything it prints or
//! records (rules SEC-2, SEC-11, ERR-13).
//!
//! An upstream may echo a credential back (`"Onjuiste apikey: <key>"`, a
//! backend repeating the bearer token, a redirect to `…/<key>`). Every secret
//! the tool holds is held here: the values of its declared variables of kind
//! `secret` ([`hold_declared`], refused when shorter than [`MIN_SECRET_CHARS`])
//! and every value sent as a secret header ([`crate::net::http::Request::secret_header`]).
//! [`scrub`] replaces each of them by `***`, the printer, the error object and
//! the audit record apply it, so no path has to remember to.
//!
//! Text is decoded before it is matched, rather than the secret encoded in a
//! list of forms: percent-encoded bytes (`%2F`, `%2f`, also of letters and in
//! any mix with plain characters, so `encodeURI` and encodeURIComponent forms
//! alike), form encoding (`+` for a space), JSON escapes (`\"`, `\u0041`,
//! surrogate pairs) and HTML character references (`&amp;`, `&#x2F;`, `&#47;`: an
//! HTML error page quoting the key) are decoded, and the decoded text is compared
//! without regard to ASCII case. A URL parser changes a secret it puts in a URL
//! (a `\` becomes `/`, tabs and line breaks are dropped): those forms are looked
//! for too. The secret itself is also looked for as base64
//! (standard and URL-safe, at each of the three alignments it can have inside
//! a longer encoded text) and as hex. A match masks the whole span of the
//! original text it was decoded from. With nothing held (most calls), every
//! function returns after one atomic load.

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};
use serde_json::Value;

use crate::problem::error::Problem;
use crate::process::env::{Env, EnvVar};

/// What a secret is replaced by.
pub(crate) const MASK: &str = "***";

/// The shortest secret a declared variable may hold (SEC-11): a shorter one
/// cannot be masked without masking ordinary text (a key `7` would mask every
/// digit 7 of the output, plan digests included).
pub(crate) const MIN_SECRET_CHARS: usize = 8;

/// Authorization schemes whose credential is a secret of its own.
const AUTH_SCHEMES: &[&str] = &["Bearer", "Basic", "Token", "Digest", "ApiKey"];

/// Whether anything is held: the one check a call with nothing held pays.
static ANY: AtomicBool = AtomicBool::new(false);

/// The held secrets and the matcher over their forms.
static HELD: Mutex<Held> = Mutex::new(Held {
    raw: Vec::new(),
    matcher: None,
});

struct Held {
    /// Every held value as given (and the credential of `Bearer <token>`).
    raw: Vec<String>,
    /// Every form of every raw value, normalised ([`normalised`]), matched
    /// ASCII-case-insensitively, longest first.
    matcher: Option<AhoCorasick>,
}

/// Hold `secret` (and, for a header value like `Bearer <token>`, the token).
/// A form shorter than [`MIN_SECRET_CHARS`] is not matched on its own: it
/// would mask ordinary text (declared variables that short are refused, SEC-11).
pub fn hold(secret: &str) {
    let secret = secret.trim();
    if secret.is_empty() {
        return;
    }
    let mut held = HELD.lock().unwrap_or_else(PoisonError::into_inner);
    let credential = secret
        .split_once(' ')
        .filter(|(scheme, _)| AUTH_SCHEMES.iter().any(|s| s.eq_ignore_ascii_case(scheme)))
        .map(|(_, rest)| rest.trim());
    let before = held.raw.len();
    for raw in std::iter::once(secret).chain(credential) {
        if raw.chars().count() >= MIN_SECRET_CHARS && !held.raw.iter().any(|r| r == raw) {
            held.raw.push(raw.to_string());
        }
    }
    if held.raw.len() == before {
        return;
    }
    let mut forms: Vec<Vec<u8>> = held.raw.iter().flat_map(|raw| forms(raw)).collect();
    forms.sort_by_key(|form| std::cmp::Reverse(form.len()));
    forms.dedup();
    held.matcher = AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::LeftmostLongest)
        .build(&forms)
        .ok();
    ANY.store(held.matcher.is_some(), Ordering::Release);
}

/// Hold the values of the declared variables of kind `secret`. A value shorter
/// than [`MIN_SECRET_CHARS`] is refused with exit 78 naming the variable, never
/// the value (SEC-11); the lifecycle reports it before any work.
pub(crate) fn hold_declared(declared: &[EnvVar], env: &Env) -> Result<(), Problem> {
    let mut short = None;
    for var in declared.iter().filter(|v| v.secret) {
        if let Some(value) = env.get(var.name) {
            if value.trim().chars().count() < MIN_SECRET_CHARS {
                short.get_or_insert(var.name);
            } else {
                hold(value);
            }
        }
    }
    match short {
        None => Ok(()),
        Some(name) => Err(Problem::config(format!(
            "omgevingsvariabele {name} is korter dan {MIN_SECRET_CHARS} tekens"
        ))
        .with_hint(format!(
            "een geheim in {name} moet minstens {MIN_SECRET_CHARS} tekens hebben, anders kan het niet uit de uitvoer worden geweerd; controleer de waarde"
        ))),
    }
}

/// `text` with every held secret replaced by [`MASK`].
pub fn scrub(text: &str) -> Cow<'_, str> {
    if !ANY.load(Ordering::Acquire) {
        return Cow::Borrowed(text);
    }
    let held = HELD.lock().unwrap_or_else(PoisonError::into_inner);
    let Some(matcher) = &held.matcher else {
        return Cow::Borrowed(text);
    };
    let spans = spans(matcher, text);
    if spans.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end) in spans {
        out.push_str(&text[at..start]);
        out.push_str(MASK);
        at = end;
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

/// Whether `text` holds a secret in any form.
fn found(matcher: &AhoCorasick, text: &str) -> bool {
    if needs_decoding(text) {
        matcher.is_match(&decode(text).bytes)
    } else {
        matcher.is_match(text)
    }
}

/// The spans of `text` (byte offsets at character boundaries, in order, not
/// overlapping) that hold a secret in any form.
fn spans(matcher: &AhoCorasick, text: &str) -> Vec<(usize, usize)> {
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut add = |start: usize, end: usize| match spans.last_mut() {
        Some(last) if start <= last.1 => last.1 = last.1.max(end),
        _ => spans.push((start, end)),
    };
    if !needs_decoding(text) {
        for m in matcher.find_iter(text) {
            add(m.start(), m.end());
        }
        return spans;
    }
    let decoded = decode(text);
    for m in matcher.find_iter(&decoded.bytes) {
        let start = decoded.starts[m.start()] as usize;
        // The match may end inside the bytes of one decoded character: the
        // whole unit it came from is masked.
        let last = decoded.starts[m.end() - 1];
        let end = decoded.starts[m.end()..]
            .iter()
            .find(|&&s| s != last)
            .map_or(text.len(), |&s| s as usize);
        add(start, end);
    }
    spans
}

/// Whether `bytes` (a body as received) contain a held secret in any of its forms.
pub(crate) fn occurs_in(bytes: &[u8]) -> bool {
    if !ANY.load(Ordering::Acquire) {
        return false;
    }
    let held = HELD.lock().unwrap_or_else(PoisonError::into_inner);
    held.matcher
        .as_ref()
        .is_some_and(|m| found(m, &String::from_utf8_lossy(bytes)))
}

/// Whether any string (or key) in `value` holds a secret. Looks once at what is held: with
/// nothing held (most calls) the document is not walked at all.
pub(crate) fn leaks(value: &Value) -> bool {
    if !ANY.load(Ordering::Acquire) {
        return false;
    }
    let held = HELD.lock().unwrap_or_else(PoisonError::into_inner);
    held.matcher.as_ref().is_some_and(|m| holds_any(value, m))
}

fn holds_any(value: &Value, matcher: &AhoCorasick) -> bool {
    match value {
        Value::String(s) => found(matcher, s),
        Value::Array(items) => items.iter().any(|item| holds_any(item, matcher)),
        Value::Object(map) => map
            .iter()
            .any(|(k, v)| found(matcher, k) || holds_any(v, matcher)),
        _ => false,
    }
}

/// Scrub every string and key in `value` in place.
pub(crate) fn scrub_value(value: &mut Value) {
    if !ANY.load(Ordering::Acquire) {
        return;
    }
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
pub(crate) fn scrubbed(value: &Value) -> Cow<'_, Value> {
    if leaks(value) {
        let mut copy = value.clone();
        scrub_value(&mut copy);
        Cow::Owned(copy)
    } else {
        Cow::Borrowed(value)
    }
}

/// The forms `raw` is looked for in, normalised as decoded text is: the raw
/// value, the value decoded (a secret may itself hold `%41` or `\n`), the value
/// as a URL parser leaves it (WHATWG: `\` as `/`, tabs and line breaks dropped),
/// its hex and its base64 (standard and URL-safe, each alignment).
fn forms(raw: &str) -> Vec<Vec<u8>> {
    let mut out = vec![normalised(raw.as_bytes().to_vec())];
    out.push(normalised(decode(raw).bytes));
    let in_url: String = raw
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .map(|c| if c == '\\' { '/' } else { c })
        .collect();
    if in_url != raw {
        out.push(normalised(in_url.into_bytes()));
    }
    let bytes = raw.as_bytes();
    out.push(
        bytes
            .iter()
            .flat_map(|b| [HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]])
            .collect(),
    );
    // Inside a longer base64 text the secret starts at bit 0, 8 or 16 of a
    // 24-bit group; the characters that depend on its bytes alone are those
    // wholly inside its bits.
    for shift in 0..3usize {
        let mut padded = vec![0u8; shift];
        padded.extend_from_slice(bytes);
        let first = (8 * shift).div_ceil(6);
        let last = 8 * (shift + bytes.len()) / 6;
        for engine in [&STANDARD_NO_PAD, &URL_SAFE_NO_PAD] {
            let encoded = engine.encode(&padded);
            if let Some(core) = encoded.get(first..last) {
                out.push(normalised(core.as_bytes().to_vec()));
            }
        }
    }
    out.retain(|form| form.len() >= MIN_SECRET_CHARS);
    out
}

const HEX: [u8; 16] = *b"0123456789abcdef";

/// A form as compared: `+` (a space in form encoding, or itself) as a space.
/// ASCII case is ignored by the matcher.
fn normalised(mut bytes: Vec<u8>) -> Vec<u8> {
    for b in &mut bytes {
        if *b == b'+' {
            *b = b' ';
        }
    }
    bytes
}

/// Whether `text` holds anything [`decode`] would change.
fn needs_decoding(text: &str) -> bool {
    text.bytes()
        .any(|b| matches!(b, b'%' | b'\\' | b'+' | b'&'))
}

/// Text decoded for matching, and for each decoded byte the offset in the
/// original text of the unit (a character, `%XX`, a JSON escape) it came from.
struct Decoded {
    bytes: Vec<u8>,
    starts: Vec<u32>,
}

/// `text` with percent-encoded bytes, JSON escapes, HTML character references and `+`
/// decoded ([`normalised`]).
fn decode(text: &str) -> Decoded {
    let src = text.as_bytes();
    let mut out = Decoded {
        bytes: Vec::with_capacity(src.len()),
        starts: Vec::with_capacity(src.len()),
    };
    let push = |out: &mut Decoded, at: usize, bytes: &[u8]| {
        let at = u32::try_from(at).unwrap_or(u32::MAX);
        for &b in bytes {
            out.bytes.push(if b == b'+' { b' ' } else { b });
            out.starts.push(at);
        }
    };
    let hex = |at: usize, len: usize| -> Option<u32> {
        let digits = src.get(at..at + len)?;
        digits
            .iter()
            .try_fold(0u32, |acc, &d| Some(acc * 16 + char::from(d).to_digit(16)?))
    };
    let mut i = 0;
    while i < src.len() {
        let start = i;
        match src[i] {
            b'%' => {
                if let Some(byte) = hex(i + 1, 2) {
                    push(&mut out, start, &[byte as u8]);
                    i += 3;
                    continue;
                }
            }
            b'\\' => {
                let simple = match src.get(i + 1) {
                    Some(b'"') => Some(b'"'),
                    Some(b'\\') => Some(b'\\'),
                    Some(b'/') => Some(b'/'),
                    Some(b'b') => Some(8),
                    Some(b'f') => Some(12),
                    Some(b'n') => Some(b'\n'),
                    Some(b'r') => Some(b'\r'),
                    Some(b't') => Some(b'\t'),
                    _ => None,
                };
                if let Some(byte) = simple {
                    push(&mut out, start, &[byte]);
                    i += 2;
                    continue;
                }
                if src.get(i + 1) == Some(&b'u')
                    && let Some(unit) = hex(i + 2, 4)
                {
                    // A high surrogate followed by a low one is one character.
                    let pair =
                        (0xD800..0xDC00).contains(&unit) && src.get(i + 6..i + 8) == Some(b"\\u");
                    let low = pair
                        .then(|| hex(i + 8, 4))
                        .flatten()
                        .filter(|l| (0xDC00..0xE000).contains(l));
                    let (code, len) = match low {
                        Some(low) => (0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), 12),
                        None => (unit, 6),
                    };
                    let ch = char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER);
                    push(&mut out, start, ch.encode_utf8(&mut [0; 4]).as_bytes());
                    i += len;
                    continue;
                }
            }
            b'&' => {
                if let Some((ch, len)) = character_reference(&src[i..]) {
                    push(&mut out, start, ch.encode_utf8(&mut [0; 4]).as_bytes());
                    i += len;
                    continue;
                }
            }
            _ => {}
        }
        // A plain character: its bytes, all from its own start.
        let len = text[i..].chars().next().map_or(1, char::len_utf8);
        push(&mut out, start, &src[i..i + len]);
        i += len;
    }
    out
}

/// The character an HTML character reference at the start of `src` stands for, and its length:
/// `&#47;`, `&#x2F;`, or one of the names an HTML escaper writes for URL and text characters.
fn character_reference(src: &[u8]) -> Option<(char, usize)> {
    let end = src.iter().take(12).position(|&b| b == b';')?;
    let name = std::str::from_utf8(&src[1..end]).ok()?;
    let ch = match name.strip_prefix('#') {
        Some(number) => {
            let code = match number.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => number.parse().ok()?,
            };
            char::from_u32(code)?
        }
        None => match name {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            "sol" => '/',
            "bsol" => '\\',
            "equals" => '=',
            "quest" => '?',
            "num" => '#',
            "percnt" => '%',
            "plus" => '+',
            "colon" => ':',
            "commat" => '@',
            _ => return None,
        },
    };
    Some((ch, end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn assert_masked(text: &str, piece: &str) {
        let clean = scrub(text);
        assert!(clean.contains(MASK), "{text} → {clean}");
        assert!(!clean.contains(piece), "{text} → {clean}");
    }

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
            assert_masked(&text, "ary");
        }
        assert_eq!(scrub("niets geheims"), "niets geheims");
    }

    /// An HTML page that quotes the key escapes it; a URL parser changes it (a backslash
    /// becomes `/`, a tab is dropped): each form is masked (issue 42.8).
    #[test]
    fn html_escaped_and_url_normalised_forms_are_masked() {
        hold("sl\\eu&tel<9>\tgeheim");
        for text in [
            "<p>Onjuiste sleutel: sl&#x5C;eu&amp;tel&lt;9&gt;&#9;geheim</p>",
            "<p>Onjuiste sleutel: sl&bsol;eu&amp;tel&lt;9&gt;\tgeheim</p>",
            "sl&#92;eu&amp;tel&#60;9&#62;&#x9;geheim",
            "https://elders.invalid/sl/eu&tel%3C9%3Egeheim",
            "https://elders.invalid/sl/eu&tel<9>geheim?x=1",
        ] {
            assert_masked(text, "geheim");
        }
        // An ampersand that starts no reference is text as it is.
        assert_eq!(scrub("a &b; & c &amp d"), "a &b; & c &amp d");
    }

    /// Decoded before it is matched: every byte encoded, `encodeURI`'s mix of plain and
    /// encoded, JSON `\u` escapes (also of plain letters), upper case; and the secret's own
    /// base64 (each alignment, both alphabets) and hex.
    #[test]
    fn encoded_and_case_changed_forms_are_masked() {
        let key = "Sl/eut+el=Q7?x";
        hold(key);
        let every_byte: String = key.bytes().map(|b| format!("%{b:02X}")).collect();
        let json_escaped: String = key
            .chars()
            .map(|c| format!("\\u{:04x}", c as u32))
            .collect();
        let hex: String = key.bytes().map(|b| format!("{b:02X}")).collect();
        let b64 = |prefix: &str, engine: &base64::engine::GeneralPurpose| {
            engine.encode(format!("{prefix}{key}"))
        };
        use base64::engine::general_purpose::{STANDARD, URL_SAFE};
        for text in [
            format!("/steal/{every_byte}"),
            "http://elders.example/buit/Sl/eut+el=Q7%3Fx".to_string(),
            "Sl%2Feut+el%3dQ7?x".to_string(),
            format!("\"{json_escaped}\""),
            "sl/EUT+EL=q7?X".to_string(),
            "sl\\/eut%2bel=q7\\u003fx".to_string(),
            format!("hex {hex}"),
            // An emoji as a surrogate pair, then the secret.
            format!("\\ud83d\\ude00{json_escaped}"),
            format!("hex {}", hex.to_lowercase()),
            b64("", &STANDARD),
            b64("u:", &STANDARD),
            b64("us:", &URL_SAFE),
            format!("Basic {}", b64("gebruiker:", &STANDARD)),
        ] {
            let clean = scrub(&text);
            assert!(clean.contains(MASK), "{text} → {clean}");
            assert!(!clean.to_lowercase().contains("eut"), "{text} → {clean}");
            assert!(!clean.contains("%65%75"), "{text} → {clean}");
        }
        // A JSON escape is masked as a whole unit, the text around it kept.
        assert_eq!(scrub(&format!("a {json_escaped} b")), "a *** b");
        assert_eq!(scrub("a Sl%2Feut+el%3dQ7%3fx b"), "a *** b");
        assert!(occurs_in(format!("x{every_byte}x").as_bytes()));
        assert!(leaks(
            &json!({"u": format!("/steal/{}", key.to_uppercase())})
        ));
    }

    #[test]
    fn short_forms_are_not_held_and_nothing_held_changes_nothing() {
        hold("7");
        hold("Bearer abc");
        assert_eq!(scrub("7 abc 77"), "7 abc 77");
    }

    #[test]
    fn a_declared_secret_shorter_than_eight_characters_is_refused_by_name() {
        let declared = [crate::process::env::EnvVar::new(
            "TEST_SLEUTEL",
            crate::process::env::EnvKind::Secret,
            "",
        )];
        let err = hold_declared(&declared, &Env::from_pairs(&[("TEST_SLEUTEL", "1234567")]))
            .expect_err("SEC-11");
        assert_eq!(err.exit.code(), 78);
        let shown = format!("{err:?}");
        assert!(shown.contains("TEST_SLEUTEL"), "{shown}");
        assert!(!shown.contains("1234567"), "{shown}");
        assert!(
            hold_declared(&declared, &Env::from_pairs(&[("TEST_SLEUTEL", "12345678")])).is_ok()
        );
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

//! A canary secret for scrubbing tests (SEC-2, ERR-13): a fake upstream echoes it back in every
//! form, and a test checks that no piece of it reaches stdout, stderr, the audit log or an agent.

use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};

/// A canary API key or bearer token with characters that percent-encoding, form-encoding and
/// JSON escaping change (`/`, `+`, `=`, `"`).
pub const CANARY: &str = "Kan/arie+7Q=x9\"z";

/// Pieces of [`CANARY`] in every form it could leak in: raw (also inside a JSON string: the
/// pieces avoid the `"` that JSON escapes), percent-encoded in either case, form-encoded.
pub const CANARY_LEAKS: &[&str] = &[
    "arie+7Q",
    "arie%2B7Q",
    "arie%2b7Q",
    "Kan%2Farie",
    "Kan%2farie",
    "7Q=x9",
    "7Q%3Dx9",
];

/// `text` percent-encoded: every byte but ASCII letters and digits as `%XX` (upper case).
pub fn percent_encoded(text: &str) -> String {
    utf8_percent_encode(text, NON_ALPHANUMERIC).to_string()
}

/// A second canary for the encodings of SEC-2 (`?` and `"` are left alone by `encodeURI`
/// and changed by form and JSON encoding; `/` and `+` are not percent-encoded by it).
pub const CANARY_2: &str = "Sl/eut+el=Q7?x\"w";

/// `key` in each encoding an upstream may echo it in, with a label: every byte
/// percent-encoded (letters too), JavaScript's `encodeURI`, JSON `\u` escapes of every
/// character, upper case, hex, and base64 (standard and URL-safe) of a longer text holding it.
/// Written here independently of the program's decoder.
pub fn echo_forms(key: &str) -> Vec<(&'static str, String)> {
    use base64::Engine as _;
    use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
    const URI_KEEPS: &[u8] = b";,/?:@&=+$-_.!~*'()#";
    let encode_uri: String = key
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || URI_KEEPS.contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    vec![
        (
            "every byte percent-encoded",
            key.bytes().map(|b| format!("%{b:02x}")).collect(),
        ),
        ("encodeURI", encode_uri),
        (
            "JSON \\u escapes",
            key.chars()
                .map(|c| format!("\\u{:04X}", u32::from(c)))
                .collect(),
        ),
        ("upper case", key.to_uppercase()),
        ("hex", key.bytes().map(|b| format!("{b:02X}")).collect()),
        ("base64", STANDARD.encode(format!("gebruiker:{key}"))),
        (
            "base64url",
            URL_SAFE_NO_PAD.encode(format!("{{\"k\":\"{key}\"}}")),
        ),
    ]
}

/// Panics when `text` holds the middle half of `form` (ignoring case and backslashes, so
/// a form re-escaped inside a JSON string is found too), naming `label`.
pub fn assert_no_form(label: &str, text: &str, form: &str) {
    let form = form.replace('\\', "").to_lowercase();
    let piece = &form[form.len() / 4..form.len() * 3 / 4];
    let text = text.replace('\\', "").to_lowercase();
    assert!(!text.contains(piece), "{label}: {piece:?} leaked in {text}");
}

/// Panics when `text` holds a piece of [`CANARY`], naming `label` and the piece.
pub fn assert_no_canary(label: &str, text: &str) {
    for leak in CANARY_LEAKS {
        assert!(!text.contains(leak), "{label}: {leak:?} leaked in {text}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_the_canary_is_caught() {
        let forms = [
            CANARY.to_string(),
            serde_json::to_string(CANARY).unwrap(),
            percent_encoded(CANARY),
            // Lower-case hex digits, as some encoders write them.
            percent_encoded(CANARY)
                .replace("%2F", "%2f")
                .replace("%2B", "%2b")
                .replace("%3D", "%3d"),
            format!("Bearer {CANARY}"),
        ];
        for form in forms {
            let caught = std::panic::catch_unwind(|| assert_no_canary("form", &form));
            assert!(caught.is_err(), "{form} not caught");
        }
        assert_eq!(percent_encoded("a/+=\"1"), "a%2F%2B%3D%221");
        assert_no_canary("masked", "Onjuiste apikey: ***");
    }

    #[test]
    fn every_echo_form_is_caught_and_a_mask_is_not() {
        for (label, form) in echo_forms(CANARY_2) {
            let shown = format!("{{\"detail\":{}}}", serde_json::to_string(&form).unwrap());
            let caught = std::panic::catch_unwind(|| assert_no_form(label, &shown, &form));
            assert!(caught.is_err(), "{label}: {form} not caught");
            assert_no_form(label, "{\"detail\":\"***\"}", &form);
        }
        let forms = echo_forms(CANARY_2);
        assert_eq!(forms[1].1, "Sl/eut+el=Q7?x%22w");
        assert_eq!(forms[2].1[..12], *"\\u0053\\u006C");
    }
}

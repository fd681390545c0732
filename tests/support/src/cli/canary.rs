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
}

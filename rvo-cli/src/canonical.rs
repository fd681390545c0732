//! Canonical forms: of the user's text, so that one report has one plan digest whatever its
//! spelling (MUT-3, MUT-4), and the SHA-256 of a value's canonical JSON (`common::digest`, the
//! one implementation), which the local store uses to recognise "same idempotency key, other
//! request".
//!
//! Text is compared in Unicode NFC, so a composed and a decomposed `é` are the same. A measure is
//! a name from a list, not prose: its canonical form also folds case and collapses runs of white
//! space, so `Isolatie  dak`, `isolatie dak` and `ISOLATIE DAK` are one measure. (No scheme in
//! the catalogue has a closed measure list yet; the folded form is the canonical spelling.) A
//! measure a person describes in their own words (`--overige-maatregel`) is prose: it is filed as
//! written ([`canonical_words`]) and folded only to be compared.

use serde::Serialize;
use unicode_normalization::UnicodeNormalization;

/// Lower-case hex SHA-256 of the canonical JSON of `value` (`common::digest::canonical_sha256`).
pub fn canonical_sha256<T: Serialize>(value: &T) -> Result<String, serde_json::Error> {
    Ok(common::digest::canonical_sha256(&serde_json::to_value(
        value,
    )?))
}

/// `text` in Unicode NFC, trimmed.
pub fn canonical_text(text: &str) -> String {
    text.nfc().collect::<String>().trim().to_string()
}

/// The canonical spelling of a measure: NFC, lower case, runs of white space as one space,
/// trimmed.
pub fn canonical_maatregel(measure: &str) -> String {
    canonical_words(&canonical_text(measure).to_lowercase())
}

/// A person's own words as filed (`--overige-maatregel`): NFC, runs of white space as one
/// space, trimmed, and the case as typed. Compared with others in the folded form
/// ([`canonical_maatregel`]), never filed in it.
pub fn canonical_words(text: &str) -> String {
    let text = canonical_text(text);
    let words: Vec<&str> = text.split_whitespace().collect();
    words.join(" ").nfc().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_measure_has_one_spelling() {
        let composed = "Isolatie caf\u{e9}";
        let decomposed = "isolatie  cafe\u{301} ";
        assert_eq!(canonical_maatregel(composed), "isolatie caf\u{e9}");
        assert_eq!(canonical_maatregel(decomposed), "isolatie caf\u{e9}");
        assert_eq!(
            canonical_maatregel("ISOLATIE CAF\u{c9}"),
            "isolatie caf\u{e9}"
        );
        assert_eq!(canonical_text(" cafe\u{301}\n"), "caf\u{e9}");
        assert_eq!(
            canonical_words(" Isolatie  Cafe\u{301} "),
            "Isolatie Caf\u{e9}"
        );
    }
    use serde_json::json;

    #[test]
    fn digest_ignores_key_order_and_spelling_of_numbers() {
        let one = canonical_sha256(&json!({"a": 1, "b": 2})).unwrap();
        let other = canonical_sha256(&json!({"b": 2.0, "a": 1})).unwrap();
        assert_eq!(one, other);
        assert_eq!(one.len(), 64);
    }
}

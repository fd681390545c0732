//! Prepared laws: a law file's data as JSON, kept between processes so that a later evaluation
//! of the same text skips the YAML parser. Reading a small law's YAML (libyaml, through serde)
//! is about a third of a whole `evalueer` call; JSON with the same data model reads several
//! times faster. The built-in laws get theirs at build time (`build.rs`); a file from a corpus
//! gets it the first time it is parsed, from a [`PreparedStore`] the caller gives
//! ([`crate::Corpus::set_prepared`]; regelrecht-cli keeps them in the family's cache).
//!
//! A prepared form is named by the SHA-256 of the file's text, so an edited file never meets
//! an old one. It is only kept when it reads back as exactly the law the YAML gave; one that
//! does not read (damaged, or from another version's data model) is ignored and the YAML is
//! parsed. The answer is the same either way.

use std::fmt;
use std::sync::Arc;

use crate::error::LoadError;
use crate::law::Law;
use crate::origin::Origin;
use crate::parse::parse_law;

/// Where prepared forms are kept, by the SHA-256 (hex) of the law file's text.
pub trait PreparedStore: Send + Sync {
    /// The prepared form of the text with this digest, if one is kept.
    fn get(&self, text_sha256: &str) -> Option<String>;
    /// Keep `json` as the prepared form of the text with this digest. A store that cannot
    /// keep it says so its own way; loading goes on.
    fn put(&self, text_sha256: &str, json: &str);
}

/// A shared [`PreparedStore`], as each law file holds it.
#[derive(Clone)]
pub struct Prepared(pub Arc<dyn PreparedStore>);

impl fmt::Debug for Prepared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Prepared")
    }
}

impl Prepared {
    /// The law of `text` (whose `$id` line says `id`): from its prepared form when the store
    /// has one that reads as a law of that `$id`, else parsed from the YAML (and its prepared
    /// form kept for next time).
    pub(crate) fn law(
        &self,
        origin: &Origin,
        text: &str,
        text_sha256: &str,
        id: &str,
    ) -> Result<Law, LoadError> {
        if let Some(law) = self
            .0
            .get(text_sha256)
            .and_then(|json| parse_json(origin, &json).ok())
            .filter(|law| law.id == id)
        {
            return Ok(law);
        }
        let law = parse_law(origin, text)?;
        if let Some(json) = prepared_form(origin, text, &law) {
            self.0.put(text_sha256, &json);
        }
        Ok(law)
    }
}

/// A law from its prepared (JSON) form.
pub(crate) fn parse_json(origin: &Origin, json: &str) -> Result<Law, LoadError> {
    serde_json::from_str(json).map_err(|e| LoadError::new(origin, None, e.to_string()))
}

/// The JSON form of `text`, when it reads back as exactly `law` (the YAML's own parse); `None`
/// when YAML's data model does not carry over (a key that is no string, say).
pub fn prepared_form(origin: &Origin, text: &str, law: &Law) -> Option<String> {
    let value: serde_json::Value = serde_yaml_ng::from_str(text).ok()?;
    let json = serde_json::to_string(&value).ok()?;
    let back = parse_json(origin, &json).ok()?;
    (format!("{back:?}") == format!("{law:?}")).then_some(json)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::path::Path;
    use std::sync::Mutex;

    use super::*;
    use crate::load::Corpus;

    /// A store in memory that counts what is asked of it.
    #[derive(Default)]
    struct Memory {
        forms: Mutex<HashMap<String, String>>,
        gets: Mutex<usize>,
        puts: Mutex<usize>,
    }

    impl PreparedStore for Memory {
        fn get(&self, sha: &str) -> Option<String> {
            *self.gets.lock().unwrap() += 1;
            self.forms.lock().unwrap().get(sha).cloned()
        }
        fn put(&self, sha: &str, json: &str) {
            *self.puts.lock().unwrap() += 1;
            self.forms.lock().unwrap().insert(sha.into(), json.into());
        }
    }

    /// A law of our own (the built-in Bal), so these tests need no third-party corpus.
    const LAW: &str = "laws/besluit_activiteiten_leefomgeving";

    fn corpus(store: &Arc<Memory>) -> Corpus {
        let mut corpus = Corpus::new();
        corpus.set_prepared(Prepared(store.clone()));
        corpus
            .add_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join(LAW))
            .unwrap();
        corpus
    }

    #[test]
    fn every_corpus_law_has_a_prepared_form_that_reads_as_its_yaml() {
        let dir = test_support::conformance_dir!().join("corpus");
        let mut corpus = Corpus::new();
        corpus.add_dir(&dir).unwrap();
        assert!(corpus.files().len() > 20);
        for file in corpus.files() {
            let law = file.law().unwrap();
            assert!(
                prepared_form(&file.origin, file.text().unwrap(), law).is_some(),
                "{}",
                file.id
            );
        }
    }

    #[test]
    fn the_first_parse_keeps_the_prepared_form_and_the_next_reads_it() {
        let store = Arc::new(Memory::default());
        let first = corpus(&store);
        let from_yaml = format!("{:?}", first.files().next().unwrap().law().unwrap());
        assert_eq!(
            (*store.gets.lock().unwrap(), *store.puts.lock().unwrap()),
            (1, 1)
        );
        let sha = first.files().next().unwrap().sha256().to_string();
        assert!(store.forms.lock().unwrap().contains_key(&sha));

        let second = corpus(&store);
        assert_eq!(
            format!("{:?}", second.files().next().unwrap().law().unwrap()),
            from_yaml
        );
        assert_eq!(
            (*store.gets.lock().unwrap(), *store.puts.lock().unwrap()),
            (2, 1)
        );
    }

    #[test]
    fn a_prepared_form_is_what_is_read_when_it_is_sound() {
        // A kept form that differs from the YAML is read: the digest of the text is the only
        // link between them, so only the store's own integrity check protects it.
        let store = Arc::new(Memory::default());
        let first = corpus(&store);
        first.files().next().unwrap().law().unwrap();
        let sha = first.files().next().unwrap().sha256().to_string();
        let kept = store.forms.lock().unwrap()[&sha].clone();
        let changed = kept.replacen("Besluit activiteiten leefomgeving", "Gewijzigd", 1);
        assert_ne!(kept, changed);
        store.forms.lock().unwrap().insert(sha, changed);
        let second = corpus(&store);
        assert!(
            format!("{:?}", second.files().next().unwrap().law().unwrap()).contains("Gewijzigd")
        );
    }

    #[test]
    fn a_damaged_prepared_form_is_ignored_and_replaced() {
        let store = Arc::new(Memory::default());
        let first = corpus(&store);
        let from_yaml = format!("{:?}", first.files().next().unwrap().law().unwrap());
        let sha = first.files().next().unwrap().sha256().to_string();
        store
            .forms
            .lock()
            .unwrap()
            .insert(sha.clone(), "{\"$id\": 7".into());
        let second = corpus(&store);
        assert_eq!(
            format!("{:?}", second.files().next().unwrap().law().unwrap()),
            from_yaml
        );
        assert_eq!(*store.puts.lock().unwrap(), 2);
        assert!(store.forms.lock().unwrap()[&sha].starts_with('{'));
        assert_ne!(store.forms.lock().unwrap()[&sha], "{\"$id\": 7");
    }

    #[test]
    fn a_prepared_form_of_another_law_id_is_ignored_and_replaced() {
        let store = Arc::new(Memory::default());
        let first = corpus(&store);
        first.files().next().unwrap().law().unwrap();
        let sha = first.files().next().unwrap().sha256().to_string();
        let kept = store.forms.lock().unwrap()[&sha].clone();
        let other = kept.replacen("\"besluit_activiteiten_leefomgeving\"", "\"andere_wet\"", 1);
        assert_ne!(kept, other);
        store.forms.lock().unwrap().insert(sha.clone(), other);
        let second = corpus(&store);
        assert_eq!(
            second.files().next().unwrap().law().unwrap().id,
            "besluit_activiteiten_leefomgeving"
        );
        assert_eq!(store.forms.lock().unwrap()[&sha], kept);
    }
}

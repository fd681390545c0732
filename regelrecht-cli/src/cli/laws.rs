//! Where the laws of one command come from, and how they are named in provenance.
//!
//! Laws are the built-in set, then every `*.yaml` under the directories of
//! `REGELRECHT_CORPUS`, then those of `--corpus` (a later file with the same `$id` and
//! `valid_from` replaces an earlier one, with a warning). Loading is lazy: a file is only read and
//! scanned until an evaluation reaches it, so only commands that need laws pay; what the scan of
//! a directory found is kept in the cache (CACHE-5, the user's own only), so the next call reads
//! only the files that changed. The number of law files is bounded by `REGELRECHT_MAX_WETBESTANDEN`
//! (default 100,000: the whole upstream corpus, four times over).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use chrono::NaiveDate;
use common::cache::PreparedForms;
use common::output::Printer;
use common::validate::Validation;
use common::{Context, Problem, Result};
use regelrecht_engine::{
    Corpus, IndexStore, LawFile, Limits, Origin, Prepared, PreparedStore, Selection,
};
use serde_json::{Value, json};

use crate::cli::problems;
use crate::cli::settings::{CORPUS_ENV, MAX_FILES_ENV};

/// The provenance label of every result.
pub(crate) const SOURCE: &str = "RegelRecht";

/// The engine version named in provenance.
pub(crate) const ENGINE_VERSION: &str = concat!("regelrecht-engine ", env!("CARGO_PKG_VERSION"));

common::arguments! {
    /// `--corpus`, for every command that loads laws beyond the built-in set; it names local
    /// directories or law files (DISC-21).
    #[derive(clap::Args, Debug, Default, serde::Serialize)]
    pub(crate) struct CorpusArgs {
        /// Map met wetten (*.yaml) of één wetbestand, naast ingebouwde en REGELRECHT_CORPUS; herhaalbaar
        #[arg(long = "corpus", value_name = "PAD")]
        #[serde(serialize_with = "common::plan::paths")]
        pub corpus: Vec<PathBuf> => path,
    }
}

impl CorpusArgs {
    /// Every `--corpus` must be a directory or a regular file (exit 65, pointer `/corpus`; a FIFO
    /// or device is neither, LOCAL-1).
    pub(crate) fn validate(&self, validation: &mut Validation) {
        for path in &self.corpus {
            let usable = std::fs::metadata(path).is_ok_and(|m| m.is_dir() || m.is_file());
            validation.check(usable, "corpus", || {
                format!(
                    "--corpus {}: geen bestaande map of wetbestand",
                    path.display()
                )
            });
        }
    }

    /// The directories as plan arguments.
    pub(crate) fn arguments(&self) -> Value {
        self.corpus
            .iter()
            .map(|d| Value::from(d.display().to_string()))
            .collect()
    }

    /// The built-in laws plus `REGELRECHT_CORPUS` plus `--corpus`. A malformed file is exit 65
    /// naming the file and line; a `REGELRECHT_CORPUS` entry that is no directory is exit 78.
    /// What loading passed over or replaced is a warning each (a file that is no law, a schema
    /// version the engine does not read, a duplicate `$id` and `valid_from`, a built-in law
    /// replaced).
    /// Loading stops at the command's deadline (124) and within the engine's [`Limits`].
    pub(crate) fn load(&self, ctx: &Context<'_>) -> Result<Corpus> {
        let mut corpus = Corpus::with_builtins();
        corpus.set_limits(Limits {
            deadline: Some(ctx.deadline()),
            max_files: max_files(ctx)?,
            ..Limits::default()
        });
        if let Some(forms) = ctx.prepared_forms(PREPARED_LABEL) {
            let store = std::sync::Arc::new(PreparedLaws {
                forms,
                printer: ctx.printer,
                untrusted: AtomicBool::new(false),
            });
            corpus.set_prepared(Prepared(store.clone()));
            if let Some(forms) = ctx.prepared_forms(INDEX_LABEL) {
                corpus.set_index(std::sync::Arc::new(CorpusIndexes { forms, laws: store }));
            }
        }
        for dir in env_dirs(ctx) {
            if !dir.is_dir() {
                return Err(Problem::config(format!(
                    "{CORPUS_ENV} noemt {}, maar dat is geen bestaande map",
                    dir.display()
                ))
                .with_hint(format!(
                    "zet {CORPUS_ENV} op bestaande mappen, gescheiden door ':'"
                ))
                .into());
            }
            corpus.add_dir(&dir).map_err(|e| problems::load_error(&e))?;
        }
        for path in &self.corpus {
            // One law file is read as it is, whatever its name: no directory to walk (the
            // reader refuses anything but a regular file).
            let added = if path.is_dir() {
                corpus.add_dir(path).map(|_| ())
            } else {
                corpus.add_file(path)
            };
            added.map_err(|e| problems::load_error(&e))?;
        }
        for warning in corpus.warnings() {
            ctx.printer.warn(warning);
        }
        Ok(corpus)
    }
}

/// What a prepared law in the cache is (CACHE-5): the YAML's data as JSON, as this engine reads it.
const PREPARED_LABEL: &str = concat!("regelrecht-wet-json 1 ", env!("CARGO_PKG_VERSION"));

/// What a corpus index in the cache is (CACHE-5): the walk and the scan of one directory's law
/// files ([`regelrecht_engine::load`]), in the engine's binary form.
const INDEX_LABEL: &str = concat!("regelrecht-corpusindex 3 ", env!("CARGO_PKG_VERSION"));

/// `REGELRECHT_MAX_WETBESTANDEN`, or the engine's default; a value that is no positive number is
/// a configuration error (78).
fn max_files(ctx: &Context<'_>) -> Result<usize> {
    match ctx.env(MAX_FILES_ENV) {
        None => Ok(regelrecht_engine::load::DEFAULT_MAX_FILES),
        Some(text) => text
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| {
                Problem::config(format!(
                    "{MAX_FILES_ENV} is '{text}', geen positief aantal wetbestanden"
                ))
                .into()
            }),
    }
}

/// The cache as the engine's store of corpus indexes ([`regelrecht_engine::CorpusIndex`]), by
/// the same trust as the prepared laws (one warning, then neither read nor written).
struct CorpusIndexes {
    forms: PreparedForms,
    laws: std::sync::Arc<PreparedLaws>,
}

impl IndexStore for CorpusIndexes {
    fn get(&self, key: &str) -> Option<Vec<u8>> {
        if self.laws.untrusted.load(Ordering::Relaxed) {
            return None;
        }
        match self.forms.get(key) {
            Ok(form) => form,
            Err(warning) => {
                if !self.laws.untrusted.swap(true, Ordering::Relaxed) {
                    self.laws.printer.warn(&warning);
                }
                None
            }
        }
    }

    fn put(&self, key: &str, index: &[u8]) {
        if self.laws.untrusted.load(Ordering::Relaxed) {
            return;
        }
        if let Err(warning) = self.forms.put(key, index) {
            self.laws.printer.warn(&warning);
        }
    }
}

/// The cache as the engine's store of prepared laws ([`regelrecht_engine::prepared`]): a law
/// file read before is read from its JSON, not parsed from its YAML again. A cache that is not
/// the user's own (CACHE-6) is named in one warning and then neither read nor written.
struct PreparedLaws {
    forms: PreparedForms,
    printer: Printer,
    untrusted: AtomicBool,
}

impl PreparedStore for PreparedLaws {
    fn get(&self, text_sha256: &str) -> Option<String> {
        if self.untrusted.load(Ordering::Relaxed) {
            return None;
        }
        match self.forms.get(text_sha256) {
            Ok(form) => String::from_utf8(form?).ok(),
            Err(warning) => {
                if !self.untrusted.swap(true, Ordering::Relaxed) {
                    self.printer.warn(&warning);
                }
                None
            }
        }
    }

    fn put(&self, text_sha256: &str, json: &str) {
        if self.untrusted.load(Ordering::Relaxed) {
            return;
        }
        if let Err(warning) = self.forms.put(text_sha256, json.as_bytes()) {
            self.printer.warn(&warning);
        }
    }
}

/// The directories named by `REGELRECHT_CORPUS` (empty parts ignored).
pub(crate) fn env_dirs(ctx: &Context<'_>) -> Vec<PathBuf> {
    ctx.env(CORPUS_ENV)
        .map(|list| {
            std::env::split_paths(list)
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// The version of `law_id` in force on `date`; an unknown law or date without version is 66.
pub(crate) fn select<'c>(corpus: &'c Corpus, law_id: &str, date: NaiveDate) -> Result<&'c LawFile> {
    Ok(corpus.select(law_id, date).map_err(|reason| {
        let versions: Vec<String> = corpus
            .versions(law_id)
            .map(|f| f.valid_from.clone().unwrap_or_else(|| "?".into()))
            .collect();
        match reason {
            Selection::NotFound => Problem::not_found(format!("wet '{law_id}' is niet geladen"))
                .with_hint(
                    "zie regelrecht-cli wet lijst; laad meer wetten met --corpus MAP of REGELRECHT_CORPUS",
                ),
            Selection::NotYetInForce => Problem::not_found(format!(
                "geen versie van '{law_id}' is geldig op {date}"
            ))
            .with_hint(format!(
                "geladen versies gelden vanaf {}; kies een andere --peildatum",
                versions.join(", ")
            )),
            Selection::Ended(to) => Problem::not_found(format!(
                "'{law_id}' is vervallen na {to} (peildatum {date})"
            ))
            .with_hint("kies een --peildatum waarop de wet gold"),
        }
    })?)
}

/// The URI naming a law file in provenance: `file://…` or `urn:regelrecht:builtin:<id>`.
pub(crate) fn source_uri(file: &LawFile) -> String {
    match &file.origin {
        Origin::Builtin(_) => format!("urn:regelrecht:builtin:{}", file.id),
        Origin::File(path) => match file.canonical_path() {
            Some(canonical) => encoded_file_uri(canonical),
            None => file_uri(path),
        },
    }
}

/// As [`source_uri`], of a file as a listing shows it; and whether it is built in.
pub(crate) fn listed_source_uri(file: &regelrecht_engine::load::Listed<'_>) -> (String, bool) {
    use regelrecht_engine::load::ListedSource;
    match file.source() {
        ListedSource::Builtin => (format!("urn:regelrecht:builtin:{}", file.id()), true),
        ListedSource::Canonical(canonical) => (encoded_file_uri(&canonical), false),
        ListedSource::File(path) => (file_uri(&path), false),
    }
}

/// An absolute `file://` URI, percent-encoded; each path is resolved once per process (a batch
/// names the same law files for every case).
pub(crate) fn file_uri(path: &Path) -> String {
    static SEEN: std::sync::Mutex<Option<std::collections::HashMap<PathBuf, String>>> =
        std::sync::Mutex::new(None);
    let mut seen = SEEN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let map = seen.get_or_insert_with(Default::default);
    if let Some(uri) = map.get(path) {
        return uri.clone();
    }
    let uri = resolve_file_uri(path);
    map.insert(path.to_path_buf(), uri.clone());
    uri
}

fn resolve_file_uri(path: &Path) -> String {
    let absolute = std::fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf());
    encoded_file_uri(&absolute)
}

/// The `file://` URI of an absolute path, percent-encoded.
fn encoded_file_uri(absolute: &Path) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let text = absolute.to_string_lossy();
    // Made at its size at once: a listing of a whole checkout makes 25,000 of them.
    let mut uri = String::with_capacity("file://".len() + text.len());
    uri.push_str("file://");
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            uri.push(byte as char);
        } else {
            uri.push('%');
            uri.push(HEX[usize::from(byte >> 4)] as char);
            uri.push(HEX[usize::from(byte & 15)] as char);
        }
    }
    uri
}

/// Provenance members describing one law version.
pub(crate) fn law_json(file: &LawFile) -> Value {
    json!({
        "law_id": file.id,
        "valid_from": file.valid_from,
        "source_url": source_uri(file),
        "sha256": file.sha256(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_are_absolute_and_encoded() {
        let uri = file_uri(Path::new("/tmp/wet met spatie/2025-01-01.yaml"));
        assert_eq!(uri, "file:///tmp/wet%20met%20spatie/2025-01-01.yaml");
        assert!(file_uri(Path::new("relatief.yaml")).starts_with("file:///"));
        // Every byte outside the unreserved set as %XX, upper case, a UTF-8 character byte by byte.
        assert_eq!(
            encoded_file_uri(Path::new("/a b/é%#?~_.-Z9.yaml")),
            "file:///a%20b/%C3%A9%25%23%3F~_.-Z9.yaml"
        );
    }

    #[test]
    fn builtin_laws_are_named_by_urn() {
        let corpus = Corpus::with_builtins();
        let file = corpus
            .versions(regelrecht_engine::builtin::BAL_ID)
            .next()
            .unwrap();
        assert_eq!(
            source_uri(file),
            "urn:regelrecht:builtin:besluit_activiteiten_leefomgeving"
        );
    }
}

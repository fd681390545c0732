//! Loading law files: the built-in set plus every `*.yaml` under given directories.
//!
//! Loading is lazy. Adding a file only reads it and scans its lines ([`crate::scan`]): the
//! top-level `$id`, `$schema`, `valid_from` and `valid_to`, whether it declares `implements`,
//! `hooks`, `overrides` or a `procedure`, and what a listing shows. The text is then let go: the
//! full YAML parse (which reads the file again) happens the first time an evaluation reaches that
//! law version, so a law that is never needed is never parsed. [`Corpus::parse_all`] parses and
//! validates everything (for checks).
//!
//! With a [`CorpusIndex`] store ([`Corpus::set_index`]), what the scan found is kept per
//! directory with each file's size and modification time, and a later load reads only the files
//! that changed: a 25,000-file checkout is listed from the index and the `stat` of each file.
//!
//! All work is bounded by its input ([`Limits`]): directories are walked once each (a symlink
//! loop is visited once), only regular files are read (a FIFO or device is refused, never waited
//! on), and file size, file count, directory depth and bracket nesting are capped. Between steps
//! the deadline is checked. Error texts name the file and line, never the file's text.

use crate::dates::parse_iso_date;
use crate::error::LoadError;
use crate::format;
pub use crate::index::SummaryRef;
use crate::index::{IndexView, IndexWriter, IndexedLaw, WalkedDir, WrittenFile};
use crate::law::Law;
pub use crate::limits::{DEFAULT_MAX_FILES, Limits};
use crate::origin::Origin;
use crate::parse::{check_format, parse_law};
use crate::prepared::{Prepared, parse_json};
use crate::scan::Declares;
use crate::scan::{
    Header, Implements, Summary, scan_header, scan_implements, scan_summary, text_lines,
};
use crate::walk::Walk;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};
use std::ffi::OsStr;
use std::fmt::Write as _;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// One law file (one version of a law) known to the corpus.
#[derive(Debug)]
pub struct LawFile {
    /// Where it came from.
    pub origin: Origin,
    /// Its canonical path, when the walk that found it knew it (see [`LawFile::canonical_path`]).
    canonical: Option<PathBuf>,
    /// `$id` (from the cheap scan).
    pub id: String,
    /// `valid_from` as written (may be `#reference`).
    pub valid_from: Option<String>,
    /// `valid_to` as written.
    pub valid_to: Option<String>,
    /// The cross-law constructs the text names.
    pub(crate) declares: Declares,
    /// Why the file's declared `$schema` is not read, and its line ([`crate::format`]).
    refusal: Option<(String, Option<usize>)>,
    /// The text: given when added (built-in laws, [`Corpus::add_text`]), else read from the file
    /// the first time it is needed.
    text: OnceLock<Result<Cow<'static, str>, LoadError>>,
    /// For a text read later: the header it had when it was scanned, which it must still have.
    scanned_header: Option<Header>,
    /// What the scan read for a listing and for the search for implementations.
    scanned: Scanned,
    /// The same law as JSON, for a built-in law ([`crate::builtin::BUILTIN_JSON`]).
    json: Option<&'static str>,
    /// Where the JSON form of a file from disk is kept between processes ([`crate::prepared`]).
    prepared: Option<Prepared>,
    limits: Limits,
    /// The parsed law, boxed: a corpus holds 25,000 law files, most never parsed, and each
    /// file's entry is the smaller for it (816 bytes instead of 1,152).
    parsed: OnceLock<Result<Box<Law>, LoadError>>,
    sha256: OnceLock<String>,
    summary: OnceLock<Result<Summary, LoadError>>,
    /// `valid_from` and `valid_to` as dates, read once (version selection is on the hot path).
    dates: (Option<NaiveDate>, Option<NaiveDate>),
}

/// What the scan of a text read, each part only when it was sure ([`crate::scan`]).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct Scanned {
    summary: Option<Summary>,
    implements: Option<Vec<Implements>>,
}

impl Scanned {
    fn of(text: &str, declares: Declares) -> Scanned {
        Scanned {
            summary: scan_summary(text),
            implements: if declares.implements {
                scan_implements(text)
            } else {
                Some(Vec::new())
            },
        }
    }
}

impl LawFile {
    /// A law file whose text is at hand: checked and scanned now, and kept.
    fn new(origin: Origin, text: String, limits: Limits) -> Result<LawFile, LoadError> {
        check_flow_depth(&origin, &text, limits.max_flow_depth)?;
        let header = scan_header(&text);
        let declares = Declares::scan(&text);
        let scanned = Scanned::of(&text, declares);
        let file = LawFile::indexed(origin, header, declares, scanned, limits, Some(&text))?;
        let _ = file.text.set(Ok(Cow::Owned(text)));
        Ok(file)
    }

    /// A law file whose header is already known (from its scan, from the index, or from a
    /// built-in law's name); its text is set by the caller, or read when first needed. `text`
    /// is only looked at when the header has no `$id` (the full parser then says what is wrong).
    fn indexed(
        origin: Origin,
        header: Header,
        declares: Declares,
        scanned: Scanned,
        limits: Limits,
        text: Option<&str>,
    ) -> Result<LawFile, LoadError> {
        let id = match (&header.id, text) {
            (Some(id), _) => id.clone(),
            (None, Some(text)) => {
                // No plain `$id:` line: let the full parser say what is wrong.
                limits.check_deadline(&origin)?;
                let law = parse_law(&origin, text)?;
                law.id
            }
            (None, None) => {
                return Err(LoadError::new(&origin, None, "geen $id gevonden"));
            }
        };
        let valid_to_line = header.valid_to_line;
        let file = LawFile::known(
            origin,
            id,
            header,
            declares,
            scanned,
            limits,
            text.is_none(),
        );
        if file.valid_to.is_some() && file.dates.1.is_none() {
            return Err(LoadError::new(
                &file.origin,
                valid_to_line,
                "valid_to is geen datum (JJJJ-MM-DD)",
            ));
        }
        Ok(file)
    }

    /// A law file whose `$id` is known and whose `valid_to`, if any, is a date; its text is read
    /// when first needed when `later`.
    fn known(
        origin: Origin,
        id: String,
        header: Header,
        declares: Declares,
        scanned: Scanned,
        limits: Limits,
        later: bool,
    ) -> LawFile {
        let refusal = header
            .schema
            .as_deref()
            .and_then(format::schema_refusal)
            .map(|problem| (problem, header.schema_line));
        let dates = (
            header.valid_from.as_deref().and_then(parse_iso_date),
            header.valid_to.as_deref().and_then(parse_iso_date),
        );
        LawFile {
            declares,
            refusal,
            canonical: None,
            origin,
            id,
            valid_from: header.valid_from.clone(),
            valid_to: header.valid_to.clone(),
            text: OnceLock::new(),
            scanned_header: None,
            scanned,
            json: None,
            prepared: None,
            limits,
            parsed: OnceLock::new(),
            sha256: OnceLock::new(),
            summary: OnceLock::new(),
            dates,
        }
        .with_header(header, later)
    }

    /// Keeps the header the text must still have when it is read later.
    fn with_header(self, header: Header, later: bool) -> LawFile {
        LawFile {
            scanned_header: later.then_some(header),
            ..self
        }
    }

    /// The fully parsed law (parsed on first use).
    pub fn law(&self) -> Result<&Law, LoadError> {
        self.parsed
            .get_or_init(|| {
                if let Some((problem, line)) = &self.refusal {
                    return Err(LoadError::new(&self.origin, *line, problem.clone()));
                }
                self.limits.check_deadline(&self.origin)?;
                let law = match (self.json, &self.prepared) {
                    (Some(json), _) => parse_json(&self.origin, json)?,
                    (None, Some(prepared)) => {
                        let text = self.text()?;
                        prepared.law(&self.origin, text, self.sha256(), &self.id)?
                    }
                    (None, None) => parse_law(&self.origin, self.text()?)?,
                };
                if law.id != self.id {
                    return Err(LoadError::new(
                        &self.origin,
                        None,
                        format!("$id '{}' kon niet eenduidig gelezen worden", law.id),
                    ));
                }
                check_format(&self.origin, self.text()?, &law)?;
                Ok(Box::new(law))
            })
            .as_ref()
            .map(|law| &**law)
            .map_err(Clone::clone)
    }

    /// SHA-256 (hex) of the file's bytes; empty when the file can no longer be read (so it
    /// equals no digest), which [`LawFile::law`] reports as the error it is.
    pub fn sha256(&self) -> &str {
        self.sha256.get_or_init(|| {
            let Ok(text) = self.text() else {
                return String::new();
            };
            let digest = Sha256::digest(text.as_bytes());
            digest
                .iter()
                .fold(String::with_capacity(64), |mut hex, byte| {
                    let _ = write!(hex, "{byte:02x}");
                    hex
                })
        })
    }

    /// The raw YAML text, read from the file on first use when it was indexed. A text that no
    /// longer has the header it was indexed with (the file changed meanwhile) is an error.
    pub fn text(&self) -> Result<&str, LoadError> {
        self.text
            .get_or_init(|| {
                let Origin::File(path) = &self.origin else {
                    return Err(LoadError::new(&self.origin, None, "geen tekst"));
                };
                self.limits.check_deadline(&self.origin)?;
                let text = read_law_file(&self.origin, path, self.limits.max_file_bytes)?;
                check_flow_depth(&self.origin, &text, self.limits.max_flow_depth)?;
                if self
                    .scanned_header
                    .as_ref()
                    .is_some_and(|header| *header != scan_header(&text))
                {
                    return Err(LoadError::new(
                        &self.origin,
                        None,
                        "het bestand is gewijzigd sinds het werd ingelezen; probeer het opnieuw",
                    ));
                }
                Ok(Cow::Owned(text))
            })
            .as_ref()
            .map(|text| text.as_ref())
            .map_err(Clone::clone)
    }

    /// What a listing shows of the law: from the scan when it was sure, else from the parse.
    pub fn summary(&self) -> Result<&Summary, LoadError> {
        self.summary
            .get_or_init(|| match &self.scanned.summary {
                Some(summary) => Ok(summary.clone()),
                None => self.law().map(|law| Summary {
                    name: law.display_name(),
                    layer: Some(law.regulatory_layer.clone()),
                    bwb_id: law.bwb_id.clone(),
                    outputs: law.outputs().map(|(_, f)| f.name.clone()).collect(),
                }),
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Whether this law may implement open term `term` of article `article` of `law`: false
    /// only when its scan read every `implements` entry and none is that one.
    pub(crate) fn may_implement(&self, law: &str, article: &str, term: &str) -> bool {
        self.declares.implements
            && self.scanned.implements.as_ref().is_none_or(|entries| {
                entries
                    .iter()
                    .any(|i| i.law == law && i.article == article && i.open_term == term)
            })
    }

    /// Why this file is not read (its `$schema` names a version this engine does not read).
    pub fn refusal(&self) -> Option<&str> {
        self.refusal.as_ref().map(|(problem, _)| problem.as_str())
    }

    /// The file's canonical path as the directory walk that found it knew it (its directory's
    /// canonical path joined with its name), so that naming 25,000 files resolves none of them
    /// again; `None` for a file named on its own, a symlink or a built-in law.
    pub fn canonical_path(&self) -> Option<&Path> {
        self.canonical.as_deref()
    }

    /// Whether this file is part of the built-in set.
    pub fn is_builtin(&self) -> bool {
        matches!(self.origin, Origin::Builtin(_))
    }
}

/// All law files known to an evaluation, indexed by `$id`.
///
/// A file found in a directory's index is only a [`Slot::Indexed`] until it is used: its `$id`,
/// dates and what it declares are read from the index's record, and its [`LawFile`] is made the
/// first time a lookup by `$id` selects it (or a listing asks for every file).
#[derive(Debug, Default)]
pub struct Corpus {
    files: Vec<Slot>,
    /// Each `$id`'s files (foldhash: 25,000 inserts in a warm call over a whole checkout, where
    /// SipHash showed in the profile; seeded per process like the standard hasher).
    by_id: HashMap<String, Vec<usize>, foldhash::quality::RandomState>,
    limits: Limits,
    /// Where the files added after [`Corpus::set_prepared`] keep their JSON form.
    prepared: Option<Prepared>,
    /// Where what the scan found in each directory is kept between processes.
    index: Option<Arc<dyn IndexStore>>,
    /// The directories added, with the index each was read with.
    sources: Vec<Arc<Source>>,
    /// Files read from disk so far (counted against `limits.max_files`).
    files_read: usize,
    /// What loading passed over or replaced, for people ([`Corpus::warnings`]).
    warnings: Vec<String>,
}

/// One law file of a corpus: made when it was added, or described by a directory's index.
#[derive(Debug)]
enum Slot {
    Made(Box<LawFile>),
    Indexed(IndexedSlot),
}

/// A law file described by a directory's index ([`crate::index`]), made when first used.
#[derive(Debug)]
struct IndexedSlot {
    /// The directory (a position in [`Corpus::sources`]).
    source: u32,
    /// Its law record in that directory's index.
    law: u32,
    /// Its path below the directory: a range of the source's paths.
    path: (u32, u32),
    /// Whether its canonical path is the directory's joined with its path.
    plain: bool,
    /// `valid_from` and `valid_to` as dates.
    dates: (Option<NaiveDate>, Option<NaiveDate>),
    declares: Declares,
    /// Whether its `$schema` names a version this engine does not read.
    refused: bool,
    made: OnceLock<Box<LawFile>>,
}

/// One law file as a listing shows it ([`Corpus::listed`]).
pub struct Listed<'c> {
    corpus: &'c Corpus,
    slot: &'c Slot,
}

/// Where a listed law file was read.
pub enum ListedSource<'c> {
    /// Built into the program.
    Builtin,
    /// Its canonical path, as the directory walk that found it knew it.
    Canonical(Cow<'c, Path>),
    /// Its path as given (a file named on its own, or reached through a symlink).
    File(Cow<'c, Path>),
}

impl<'c> Listed<'c> {
    /// Its `$id`.
    pub fn id(&self) -> &'c str {
        self.corpus.slot_id(self.slot)
    }

    /// Its `valid_from`, as written.
    pub fn valid_from(&self) -> Option<&'c str> {
        self.corpus.slot_valid_from(self.slot)
    }

    /// Its `valid_to`, as written.
    pub fn valid_to(&self) -> Option<&'c str> {
        match self.slot {
            Slot::Made(file) => file.valid_to.as_deref(),
            Slot::Indexed(indexed) => self.corpus.view(indexed)?.valid_to(indexed.law),
        }
    }

    /// Where it was read.
    pub fn source(&self) -> ListedSource<'c> {
        match self.slot {
            Slot::Made(file) => match (&file.origin, file.canonical_path()) {
                (Origin::Builtin(_), _) => ListedSource::Builtin,
                (_, Some(canonical)) => ListedSource::Canonical(Cow::Borrowed(canonical)),
                (Origin::File(path), None) => ListedSource::File(Cow::Borrowed(path)),
            },
            Slot::Indexed(indexed) => {
                let Some(source) = self.corpus.sources.get(indexed.source as usize) else {
                    return ListedSource::File(Cow::Borrowed(Path::new("")));
                };
                let relative = source.path(indexed.path);
                if indexed.plain {
                    ListedSource::Canonical(Cow::Owned(source.canonical.join(relative)))
                } else {
                    ListedSource::File(Cow::Owned(source.root.join(relative)))
                }
            }
        }
    }

    /// What a listing shows of the law: from the index's record or the file's scan when it was
    /// sure, else from the parsed law (an error when it does not parse).
    pub fn summary(&self) -> Result<SummaryRef<'c>, LoadError> {
        if let Slot::Indexed(indexed) = self.slot
            && let Some(summary) = self
                .corpus
                .view(indexed)
                .and_then(|view| view.summary(indexed.law))
        {
            return Ok(summary);
        }
        let summary = self.corpus.made(self.slot).summary()?;
        Ok(SummaryRef {
            name: summary.name.as_deref(),
            layer: summary.layer.as_deref(),
            bwb_id: summary.bwb_id.as_deref(),
            outputs: summary.outputs.iter().map(String::as_str).collect(),
        })
    }
}

/// A directory added to a corpus: where it is, the index it was read with, and the paths of its
/// files, for making the law files its index describes.
#[derive(Debug)]
struct Source {
    root: PathBuf,
    canonical: PathBuf,
    view: Option<IndexView>,
    paths: Vec<u8>,
    limits: Limits,
    prepared: Option<Prepared>,
}

impl Source {
    fn path(&self, (start, end): (u32, u32)) -> &Path {
        Path::new(OsStr::from_bytes(
            self.paths
                .get(start as usize..end as usize)
                .unwrap_or_default(),
        ))
    }
}

impl Slot {
    fn dates(&self) -> (Option<NaiveDate>, Option<NaiveDate>) {
        match self {
            Slot::Made(file) => file.dates,
            Slot::Indexed(slot) => slot.dates,
        }
    }

    fn is_builtin(&self) -> bool {
        matches!(self, Slot::Made(file) if file.is_builtin())
    }

    fn refused(&self) -> bool {
        match self {
            Slot::Made(file) => file.refusal.is_some(),
            Slot::Indexed(slot) => slot.refused,
        }
    }

    fn declares(&self) -> Declares {
        match self {
            Slot::Made(file) => file.declares,
            Slot::Indexed(slot) => slot.declares,
        }
    }
}

impl Corpus {
    /// An empty corpus.
    pub fn new() -> Corpus {
        Corpus::default()
    }

    /// A corpus holding the built-in laws.
    pub fn with_builtins() -> Corpus {
        let mut corpus = Corpus::new();
        corpus.add_builtins();
        corpus
    }

    /// Sets the bounds for everything loaded after this call.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Keeps the JSON form of every file added after this call in `prepared`, and reads it
    /// from there next time ([`crate::prepared`]).
    pub fn set_prepared(&mut self, prepared: Prepared) {
        self.prepared = Some(prepared);
    }

    /// Keeps what the walk and the scan of each directory added after this call found in
    /// `index`, and reads it from there next time ([`crate::index`]).
    pub fn set_index(&mut self, index: Arc<dyn IndexStore>) {
        self.index = Some(index);
    }

    /// Adds the built-in laws (see [`crate::builtin`]). Their `$id` and `valid_from` are their
    /// file names (`ID/VALID_FROM.yaml`) and what they declare was read when the crate was built
    /// (all tested to agree with their text, which passes the nesting check), so indexing them
    /// scans no text: every call of the CLI does it.
    pub fn add_builtins(&mut self) {
        for (name, text) in crate::builtin::BUILTIN_LAWS {
            let origin = Origin::Builtin(name);
            // Built-in laws are tested to load; a failure here is a programming error.
            let json = crate::builtin::BUILTIN_JSON
                .iter()
                .find(|(json_name, _)| json_name == name)
                .map(|(_, json)| *json);
            let declares = crate::builtin::BUILTIN_DECLARES
                .iter()
                .find(|(declares_name, _)| declares_name == name)
                .map(|&(_, [implements, hooks, overrides, procedure])| Declares {
                    implements,
                    hooks,
                    overrides,
                    procedure,
                })
                .unwrap_or_else(|| Declares::scan(text));
            match LawFile::indexed(
                origin,
                builtin_header(name),
                declares,
                Scanned::default(),
                self.limits,
                Some(text),
            ) {
                Ok(file) => {
                    let _ = file.text.set(Ok(Cow::Borrowed(text)));
                    self.insert(Slot::Made(Box::new(LawFile { json, ..file })));
                }
                Err(e) => panic!("ingebouwde wet {name} is ongeldig: {e}"),
            }
        }
    }

    /// Adds one law text. A later file with the same `$id` and `valid_from` replaces an earlier one
    /// (a warning names both). A file whose `$schema` this engine does not read is kept, with a
    /// warning, so that evaluating that version is an error naming the version rather than a
    /// silent fall-back to an older one.
    pub fn add_text(&mut self, origin: Origin, text: String) -> Result<(), LoadError> {
        let file = LawFile::new(origin, text, self.limits)?;
        self.add_file_known(file);
        Ok(())
    }

    /// What loading passed over (files that are no law, versions this engine does not read) and
    /// replaced (a duplicate `$id` and `valid_from`, a built-in law), one sentence each naming
    /// the files.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The law file in `slot`, made now if the index described it.
    fn made<'c>(&'c self, slot: &'c Slot) -> &'c LawFile {
        match slot {
            Slot::Made(file) => file,
            Slot::Indexed(indexed) => indexed.made.get_or_init(|| Box::new(self.make(indexed))),
        }
    }

    /// The law file an index's record describes: its header and scan from the record, its text
    /// read (and checked to have that header) when first needed.
    fn make(&self, slot: &IndexedSlot) -> LawFile {
        let Some(source) = self.sources.get(slot.source as usize) else {
            unreachable!("a slot's source is added before the slot")
        };
        let relative = source.path(slot.path);
        let law = source
            .view
            .as_ref()
            .and_then(|view| view.law(slot.law))
            .unwrap_or_else(|| IndexedLaw {
                header: Header::default(),
                declares: slot.declares,
                summary: None,
                implements: None,
            });
        let id = law.header.id.clone().unwrap_or_default();
        let file = LawFile::known(
            Origin::File(source.root.join(relative)),
            id,
            law.header,
            law.declares,
            Scanned {
                summary: law.summary,
                implements: law.implements,
            },
            source.limits,
            true,
        );
        LawFile {
            canonical: slot.plain.then(|| source.canonical.join(relative)),
            prepared: source.prepared.clone(),
            ..file
        }
    }

    /// The `$id` of the file in `slot`, without making it.
    fn slot_id<'c>(&'c self, slot: &'c Slot) -> &'c str {
        match slot {
            Slot::Made(file) => &file.id,
            Slot::Indexed(indexed) => self.view(indexed).map_or("", |v| v.id(indexed.law)),
        }
    }

    /// `valid_from` of the file in `slot` as written, without making it.
    fn slot_valid_from<'c>(&'c self, slot: &'c Slot) -> Option<&'c str> {
        match slot {
            Slot::Made(file) => file.valid_from.as_deref(),
            Slot::Indexed(indexed) => self.view(indexed)?.valid_from(indexed.law),
        }
    }

    /// Where the file in `slot` came from, for a warning.
    fn slot_origin(&self, slot: &Slot) -> String {
        match slot {
            Slot::Made(file) => file.origin.display(),
            Slot::Indexed(indexed) => self
                .sources
                .get(indexed.source as usize)
                .map(|s| s.root.join(s.path(indexed.path)).display().to_string())
                .unwrap_or_default(),
        }
    }

    fn view(&self, slot: &IndexedSlot) -> Option<&IndexView> {
        self.sources.get(slot.source as usize)?.view.as_ref()
    }

    fn insert(&mut self, slot: Slot) {
        let id = self.slot_id(&slot).to_string();
        let replaced = self.by_id.get(&id).and_then(|versions| {
            versions
                .iter()
                .copied()
                .find(|&i| self.slot_valid_from(&self.files[i]) == self.slot_valid_from(&slot))
        });
        if let Some(index) = replaced {
            let old = &self.files[index];
            let since = self.slot_valid_from(&slot).unwrap_or("?");
            let warning = if old.is_builtin() {
                format!(
                    "{} vervangt de ingebouwde wet {id} (geldig vanaf {since})",
                    self.slot_origin(&slot),
                )
            } else {
                format!(
                    "{} en {} zijn allebei {id} geldig vanaf {since}; de eerste vervangt de tweede",
                    self.slot_origin(&slot),
                    self.slot_origin(old),
                )
            };
            self.warnings.push(warning);
            self.files[index] = slot;
        } else {
            let at = self.files.len();
            self.files.push(slot);
            let files = &self.files;
            let versions = self.by_id.entry(id).or_default();
            versions.push(at);
            // Newest first; versions without a parseable valid_from last.
            versions.sort_by_key(|&i| std::cmp::Reverse(files[i].dates().0));
        }
    }

    /// Reads a law file from disk: a regular file (after symlinks) of at most
    /// `limits.max_file_bytes`, counted against `limits.max_files`.
    /// A file named on its own whose `$schema` this engine does not read is an error naming
    /// the version.
    pub fn add_file(&mut self, path: &Path) -> Result<(), LoadError> {
        let origin = Origin::File(path.to_path_buf());
        self.count(|| origin.clone())?;
        let text = read_law_file(&origin, path, self.limits.max_file_bytes)?;
        let file = LawFile::new(origin, text, self.limits)?;
        if let Some((problem, line)) = &file.refusal {
            return Err(LoadError::new(&file.origin, *line, problem.clone()));
        }
        let prepared = self.prepared.clone();
        self.insert(Slot::Made(Box::new(LawFile { prepared, ..file })));
        Ok(())
    }

    /// Counts one file against `limits.max_files`, within the deadline (`origin` names it when
    /// either is passed).
    fn count(&mut self, origin: impl Fn() -> Origin) -> Result<(), LoadError> {
        if self.limits.past_deadline() {
            return Err(LoadError::deadline(&origin()));
        }
        self.files_read += 1;
        if self.files_read > self.limits.max_files {
            return Err(self.limits.too_many_files(&origin()));
        }
        Ok(())
    }

    /// Adds every `*.yaml` / `*.yml` file under `dir` (recursively, in sorted order; a directory
    /// reached twice, e.g. through a symlink loop, is walked once). Returns the number of files
    /// added.
    ///
    /// A checkout of the upstream corpus (MinBZK/regelrecht-corpus) loads as it is: hidden
    /// files and directories (`.enrichment.yaml`, `.git`, `.github`) and each law folder's
    /// `status.yaml` are skipped, and any other YAML without a top-level `$id` is no law: it
    /// is skipped with a warning, not refused.
    ///
    /// With an index store, the directory's index ([`crate::index`]) decides what is read: a
    /// directory whose stamp is the recorded one is not opened, and a file whose stamp is the
    /// recorded one is not read: it is added from its record, and made into a [`LawFile`] only
    /// when used. The others are read and scanned, and the index is written again when anything
    /// changed. Every file's text is let go after its scan and read again when the law is needed.
    pub fn add_dir(&mut self, dir: &Path) -> Result<usize, LoadError> {
        let origin = Origin::File(dir.to_path_buf());
        let canonical = canonical_dir(dir, &origin)?;
        let store = self.index.clone();
        let key = store.as_ref().map(|_| index_key(&canonical));
        let view = match (&store, &key) {
            (Some(store), Some(key)) => store.get(key).and_then(IndexView::open),
            _ => None,
        };
        let walk = Walk::new(
            &["yaml", "yml"],
            &CORPUS_METADATA,
            self.limits,
            true,
            view.as_ref(),
        )
        .run(dir)?;
        let writing = store.is_some() && walk.changed;
        // What each file's scan found, for writing the index again.
        let mut scans: Vec<Option<(IndexedLaw, bool)>> = Vec::new();
        let mut fresh: Vec<(usize, LawFile)> = Vec::new();
        let mut indexed: Vec<(usize, u32)> = Vec::new();
        for (at, walked) in walk.files.iter().enumerate() {
            let path = || dir.join(walk.path(walked));
            self.count(|| Origin::File(path()))?;
            let law = match (walked.known, &view) {
                (Some(known), Some(view)) => {
                    if let Some(law) = known.law {
                        indexed.push((at, law));
                    }
                    if writing {
                        scans.push(
                            known
                                .law
                                .and_then(|law| Some((view.law(law)?, view.declares(law).1))),
                        );
                    }
                    known.law.is_some()
                }
                _ => {
                    let origin = Origin::File(path());
                    let text = read_law_file(&origin, &path(), self.limits.max_file_bytes)?;
                    let scan = scan_law(&origin, &text, self.limits)?;
                    if let Some(law) = &scan {
                        let file = LawFile::indexed(
                            origin,
                            law.header.clone(),
                            law.declares,
                            Scanned {
                                summary: law.summary.clone(),
                                implements: law.implements.clone(),
                            },
                            self.limits,
                            None,
                        )?;
                        let canonical = walked.plain.then(|| canonical.join(walk.path(walked)));
                        fresh.push((at, LawFile { canonical, ..file }));
                    }
                    let found = scan.is_some();
                    if writing {
                        scans.push(scan.map(|law| {
                            let refused = law
                                .header
                                .schema
                                .as_deref()
                                .and_then(format::schema_refusal)
                                .is_some();
                            (law, refused)
                        }));
                    }
                    found
                }
            };
            if !law {
                self.warnings.push(format!(
                    "{}: geen wetbestand (geen $id); overgeslagen",
                    path().display()
                ));
            }
        }
        if let (true, Some(store), Some(key)) = (writing, &store, &key) {
            store.put(key, &write_index(&walk, &scans));
        }
        // The files in path order: those read now made, those from the index as slots.
        let source = self.sources.len() as u32;
        let paths: Vec<(u32, u32)> = walk.files.iter().map(Walk::path_range).collect();
        let plain: Vec<bool> = walk.files.iter().map(|w| w.plain).collect();
        let limits = self.limits;
        let walked_paths = walk.paths;
        self.sources.push(Arc::new(Source {
            root: dir.to_path_buf(),
            canonical,
            view,
            paths: walked_paths,
            limits,
            prepared: self.prepared.clone(),
        }));
        let added = fresh.len() + indexed.len();
        self.add_in_path_order(source, fresh, indexed, &paths, &plain)?;
        Ok(added)
    }

    /// Adds the files of one directory in path order (`at`, their place in its walk): those
    /// read now as made, those from source `source`'s index as slots.
    fn add_in_path_order(
        &mut self,
        source: u32,
        fresh: Vec<(usize, LawFile)>,
        indexed: Vec<(usize, u32)>,
        paths: &[(u32, u32)],
        plain: &[bool],
    ) -> Result<(), LoadError> {
        self.files.reserve(fresh.len() + indexed.len());
        let mut fresh = fresh.into_iter().peekable();
        let mut indexed = indexed.into_iter().peekable();
        loop {
            let from_index = match (fresh.peek(), indexed.peek()) {
                (None, None) => break,
                (Some((a, _)), Some((b, _))) => b < a,
                (None, Some(_)) => true,
                (Some(_), None) => false,
            };
            if from_index {
                let Some((at, law)) = indexed.next() else {
                    break;
                };
                self.add_indexed(source, law, paths[at], plain[at])?;
            } else {
                let Some((_, file)) = fresh.next() else { break };
                self.add_file_known(file);
            }
        }
        Ok(())
    }

    /// Adds the law file that record `law` of source `source`'s index describes, at `path`.
    fn add_indexed(
        &mut self,
        source: u32,
        law: u32,
        path: (u32, u32),
        plain: bool,
    ) -> Result<(), LoadError> {
        let Some(view) = self.sources[source as usize].view.as_ref() else {
            return Ok(());
        };
        let (declares, refused) = view.declares(law);
        let valid_to = view.valid_to(law);
        let dates = (
            view.valid_from(law).and_then(parse_iso_date),
            valid_to.and_then(parse_iso_date),
        );
        let origin = || {
            let source = &self.sources[source as usize];
            Origin::File(source.root.join(source.path(path)))
        };
        if valid_to.is_some() && dates.1.is_none() {
            let line = view.law(law).and_then(|l| l.header.valid_to_line);
            return Err(LoadError::new(
                &origin(),
                line,
                "valid_to is geen datum (JJJJ-MM-DD)",
            ));
        }
        if refused {
            let refusal = view
                .law(law)
                .and_then(|l| l.header.schema)
                .and_then(|schema| format::schema_refusal(&schema))
                .unwrap_or_default();
            let warning = format!("{}: {refusal}", origin().display());
            self.warnings.push(warning);
        }
        self.insert(Slot::Indexed(IndexedSlot {
            source,
            law,
            path,
            plain,
            dates,
            declares,
            refused,
            made: OnceLock::new(),
        }));
        Ok(())
    }

    /// Adds a law file whose header is known, warning about a schema version not read.
    fn add_file_known(&mut self, file: LawFile) {
        if let Some(refusal) = file.refusal() {
            self.warnings
                .push(format!("{}: {refusal}", file.origin.display()));
        }
        let prepared = self.prepared.clone();
        self.insert(Slot::Made(Box::new(LawFile { prepared, ..file })));
    }

    /// Adds the directories of a colon-separated list (as in `REGELRECHT_CORPUS`); empty parts
    /// are ignored. Returns the number of files added.
    pub fn add_dir_list(&mut self, list: &str) -> Result<usize, LoadError> {
        let mut count = 0;
        for dir in std::env::split_paths(list).filter(|p| !p.as_os_str().is_empty()) {
            count += self.add_dir(&dir)?;
        }
        Ok(count)
    }

    /// Every law file, in load order (each made now if an index described it).
    pub fn files(&self) -> impl ExactSizeIterator<Item = &LawFile> {
        self.files.iter().map(|slot| self.made(slot))
    }

    /// Every law file in a version this engine reads, as a listing shows it, in load order:
    /// read from its index record where one describes it (the file is not made), else from
    /// the file.
    pub fn listed(&self) -> impl Iterator<Item = Listed<'_>> {
        self.files
            .iter()
            .filter(|slot| !slot.refused())
            .map(|slot| Listed { corpus: self, slot })
    }

    /// All `$id`s, sorted.
    pub fn ids(&self) -> Vec<&str> {
        let mut ids: Vec<&str> = self.by_id.keys().map(String::as_str).collect();
        ids.sort_unstable();
        ids
    }

    /// The `$id`s of the laws with a file that declares what `wanted` asks for (from the scan,
    /// without making the files), sorted.
    pub(crate) fn ids_declaring(&self, wanted: impl Fn(&Declares) -> bool) -> BTreeSet<&str> {
        self.files
            .iter()
            .filter(|slot| wanted(&slot.declares()))
            .map(|slot| self.slot_id(slot))
            .collect()
    }

    /// The `$id`s of the laws with a file that may implement open term `term` of article
    /// `article` of `law` ([`LawFile::may_implement`], read from the index where it describes
    /// the file), sorted.
    pub(crate) fn ids_implementing(&self, law: &str, article: &str, term: &str) -> BTreeSet<&str> {
        self.files
            .iter()
            .filter(|slot| match slot {
                Slot::Made(file) => file.may_implement(law, article, term),
                Slot::Indexed(indexed) => {
                    indexed.declares.implements
                        && self
                            .view(indexed)
                            .is_none_or(|v| v.may_implement(indexed.law, law, article, term))
                }
            })
            .map(|slot| self.slot_id(slot))
            .collect()
    }

    /// The versions of a law, newest first.
    pub fn versions(&self, id: &str) -> impl Iterator<Item = &LawFile> {
        self.by_id
            .get(id)
            .into_iter()
            .flatten()
            .map(|&i| self.made(&self.files[i]))
    }

    /// Whether any version of `id` is loaded.
    pub fn contains(&self, id: &str) -> bool {
        self.by_id.contains_key(id)
    }

    /// The version of `id` in force on `date`: the newest with `valid_from <= date`, unless it
    /// ended (`valid_to < date`). Only that version's file is made.
    pub fn select(&self, id: &str, date: NaiveDate) -> Result<&LawFile, Selection> {
        let versions = self.by_id.get(id).ok_or(Selection::NotFound)?;
        let &at = versions
            .iter()
            .find(|&&i| self.files[i].dates().0.is_none_or(|from| from <= date))
            .ok_or(Selection::NotYetInForce)?;
        match self.files[at].dates().1 {
            Some(to) if date > to => Err(Selection::Ended(to)),
            _ => Ok(self.made(&self.files[at])),
        }
    }

    /// Parses every file; returns the first error (for `wet lijst` and validation). Files in
    /// a schema version this engine does not read are left out (loading warned about each).
    pub fn parse_all(&self) -> Result<Vec<&LawFile>, LoadError> {
        let readable = || {
            self.files
                .iter()
                .filter(|slot| !slot.refused())
                .map(|slot| self.made(slot))
        };
        for file in readable() {
            file.law()?;
        }
        Ok(readable().collect())
    }
}

/// The index of a walked directory, with what the scan of each of its files found (in walk
/// order; `None` for a file that is no law).
fn write_index(walk: &Walk<'_>, scans: &[Option<(IndexedLaw, bool)>]) -> Vec<u8> {
    let mut dirs: Vec<WalkedDir<'_>> = walk
        .dirs
        .iter()
        .map(|dir| WalkedDir {
            name: walk.dir_name(dir),
            stamp: dir.stamp,
            listed: dir.listed,
            subdirs: Vec::new(),
            files: Vec::new(),
        })
        .collect();
    for (at, dir) in walk.dirs.iter().enumerate() {
        if let Some(parent) = dirs.get_mut(dir.parent as usize) {
            parent.subdirs.push(at as u32);
        }
    }
    for (walked, scan) in walk.files.iter().zip(scans) {
        let (Some(dir), Some(stamp)) = (dirs.get_mut(walked.dir as usize), walked.stamp) else {
            continue;
        };
        dir.files.push(WrittenFile {
            name: walk.file_name(walked),
            stamp,
            law: scan.as_ref().map(|(law, _)| law),
            refused: scan.as_ref().is_some_and(|(_, refused)| *refused),
        });
    }
    IndexWriter::write(&dirs)
}

/// Why no version of a law could be selected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selection {
    /// No law with that `$id` is loaded.
    NotFound,
    /// All versions start after the date.
    NotYetInForce,
    /// The selected version ended on this date.
    Ended(NaiveDate),
}

/// Every file under `dir` whose extension is one of `extensions`, sorted, walked within
/// `limits` (depth, number of files, deadline; each directory once). Hidden files and
/// directories (a name starting with `.`) are passed over.
pub fn find_files(
    dir: &Path,
    extensions: &[&str],
    limits: Limits,
) -> Result<Vec<PathBuf>, LoadError> {
    walk(dir, extensions, &[], limits)
}

/// The files a corpus keeps beside its laws, by name: the upstream corpus's harvest status of
/// each law folder.
const CORPUS_METADATA: [&str; 1] = ["status.yaml"];

/// The YAML files of a corpus directory, sorted: every `*.yaml` / `*.yml` under `dir` but
/// hidden ones and the upstream corpus's `status.yaml` (see [`Corpus::add_dir`]).
pub fn corpus_files(dir: &Path, limits: Limits) -> Result<Vec<PathBuf>, LoadError> {
    walk(dir, &["yaml", "yml"], &CORPUS_METADATA, limits)
}

/// Whether a text has a top-level `$id` key (plain or quoted): a law file does, and the
/// upstream corpus's other YAML (status, enrichment, annotations) does not.
pub fn is_law_text(text: &str) -> bool {
    text_lines(text).any(|line| {
        ["$id", "\"$id\"", "'$id'"].iter().any(|key| {
            line.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
    })
}

/// Every file under `dir` whose extension is one of `extensions`, sorted, leaving out hidden
/// entries and files named in `skip`.
fn walk(
    dir: &Path,
    extensions: &[&str],
    skip: &[&str],
    limits: Limits,
) -> Result<Vec<PathBuf>, LoadError> {
    canonical_dir(dir, &Origin::File(dir.to_path_buf()))?;
    let walk = Walk::new(extensions, skip, limits, false, None).run(dir)?;
    Ok(walk
        .files
        .iter()
        .map(|file| dir.join(walk.path(file)))
        .collect())
}

/// The canonical path of a directory to walk.
fn canonical_dir(dir: &Path, origin: &Origin) -> Result<PathBuf, LoadError> {
    std::fs::canonicalize(dir)
        .map_err(|e| LoadError::new(origin, None, format!("kan de map niet lezen: {e}")))
}

/// The UTF-8 text of a regular file of at most `max_bytes` (as law files are read).
pub fn read_text_file(path: &Path, max_bytes: u64) -> Result<String, LoadError> {
    read_law_file(&Origin::File(path.to_path_buf()), path, max_bytes)
}

/// The text of a law file: only a regular file is opened (a FIFO or device would block or never
/// end), and at most `max_bytes` are read.
fn read_law_file(origin: &Origin, path: &Path, max_bytes: u64) -> Result<String, LoadError> {
    let unreadable = |e: std::io::Error| {
        LoadError::new(origin, None, format!("kan het bestand niet lezen: {e}"))
    };
    let not_regular = || {
        LoadError::new(
            origin,
            None,
            "geen gewoon bestand (bijv. een FIFO of apparaat)",
        )
    };
    if !std::fs::metadata(path).map_err(unreadable)?.is_file() {
        return Err(not_regular());
    }
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let metadata = file.metadata().map_err(unreadable)?;
    if !metadata.is_file() {
        return Err(not_regular());
    }
    // Sized up front: one read for the whole file instead of a doubling series.
    let capacity = usize::try_from(metadata.len().min(max_bytes) + 1).unwrap_or(0);
    let mut bytes = Vec::with_capacity(capacity);
    file.take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > max_bytes {
        return Err(LoadError::new(
            origin,
            None,
            format!("groter dan {max_bytes} bytes"),
        ));
    }
    String::from_utf8(bytes).map_err(|_| LoadError::new(origin, None, "geen UTF-8-tekst"))
}

/// Refuses flow collections (`[`, `{`) nested deeper than `max`, in time linear in the text.
/// Brackets in comments are skipped; brackets inside quoted scalars count, which only makes the
/// check stricter for texts nobody writes in a law.
fn check_flow_depth(origin: &Origin, text: &str, max: usize) -> Result<(), LoadError> {
    let mut depth = 0usize;
    for (index, line) in text_lines(text).enumerate() {
        // Most lines hold no bracket at all and cannot change the depth.
        if !line
            .bytes()
            .any(|byte| matches!(byte, b'[' | b'{' | b']' | b'}'))
        {
            continue;
        }
        let code = match line.find(" #") {
            Some(pos) => &line[..pos],
            None if line.trim_start().starts_with('#') => "",
            None => line,
        };
        for byte in code.bytes() {
            match byte {
                b'[' | b'{' => {
                    depth += 1;
                    if depth > max {
                        return Err(LoadError::new(
                            origin,
                            Some(index + 1),
                            format!("lijsten of mappings dieper genest dan {max} niveaus"),
                        ));
                    }
                }
                b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
    }
    Ok(())
}

/// The header of a built-in law from its name, `ID/VALID_FROM.yaml`.
fn builtin_header(name: &str) -> Header {
    let (id, file) = name.split_once('/').unwrap_or((name, ""));
    Header {
        id: Some(id.to_string()),
        valid_from: file.strip_suffix(".yaml").map(str::to_string),
        schema: None,
        schema_line: None,
        valid_to: None,
        valid_to_line: None,
    }
}

/// Where the index of each corpus directory ([`crate::index`]) is kept between processes, by a
/// key naming the directory. A store that cannot keep it says so its own way; loading goes on.
pub trait IndexStore: Send + Sync {
    /// The index kept under `key`, if any.
    fn get(&self, key: &str) -> Option<Vec<u8>>;
    /// Keep `index` under `key`.
    fn put(&self, key: &str, index: &[u8]);
}

impl std::fmt::Debug for dyn IndexStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("IndexStore")
    }
}

/// The key of a directory's index: the SHA-256 (hex) of its canonical path.
fn index_key(canonical: &Path) -> String {
    let digest = Sha256::digest(canonical.as_os_str().as_encoded_bytes());
    digest
        .iter()
        .fold(String::with_capacity(64), |mut hex, byte| {
            let _ = write!(hex, "{byte:02x}");
            hex
        })
}

/// What the scan of a text found, checked as every file added is (nesting, a readable `$id`);
/// `None` for a text that is no law.
fn scan_law(origin: &Origin, text: &str, limits: Limits) -> Result<Option<IndexedLaw>, LoadError> {
    if !is_law_text(text) {
        return Ok(None);
    }
    // The nesting check guards the parser; it runs when the text is read to be parsed.
    let mut header = scan_header(text);
    if header.id.is_none() {
        // No plain `$id:` line: the parser reads it, or says what is wrong.
        limits.check_deadline(origin)?;
        check_flow_depth(origin, text, limits.max_flow_depth)?;
        header.id = Some(parse_law(origin, text)?.id);
    }
    let declares = Declares::scan(text);
    let scanned = Scanned::of(text, declares);
    Ok(Some(IndexedLaw {
        header,
        declares,
        summary: scanned.summary,
        implements: scanned.implements,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_builtin_law_is_what_its_name_says_and_passes_the_nesting_check() {
        assert_eq!(
            crate::builtin::BUILTIN_DECLARES.len(),
            crate::builtin::BUILTIN_LAWS.len()
        );
        let keys = format!("{:?}", Declares::KEYS);
        assert!(
            include_str!("../build.rs").contains(&keys),
            "build.rs looks for {keys}"
        );
        let corpus = Corpus::with_builtins();
        for (name, text) in crate::builtin::BUILTIN_LAWS {
            // The header read from the name is the text's, but for `$schema`, which the text
            // declares in a version this engine reads.
            let scanned = scan_header(text);
            let schema = scanned.schema.as_deref().expect(name);
            assert_eq!(format::schema_refusal(schema), None, "{name}");
            let scanned = Header {
                schema: None,
                schema_line: None,
                ..scanned
            };
            assert_eq!(builtin_header(name), scanned, "{name}");
            let file = corpus
                .files()
                .find(|f| f.text().ok() == Some(*text))
                .expect(name);
            assert_eq!(file.declares, Declares::scan(text), "{name}");
            let origin = Origin::Builtin(name);
            check_flow_depth(&origin, text, Limits::default().max_flow_depth).expect(name);
        }
    }

    #[test]
    fn a_builtin_law_reads_the_same_from_its_json_as_from_its_yaml() {
        assert_eq!(
            crate::builtin::BUILTIN_JSON.len(),
            crate::builtin::BUILTIN_LAWS.len()
        );
        for (name, text) in crate::builtin::BUILTIN_LAWS {
            let origin = Origin::Builtin(name);
            let json = crate::builtin::BUILTIN_JSON
                .iter()
                .find(|(json_name, _)| json_name == name)
                .map(|(_, json)| *json)
                .expect(name);
            let from_yaml = parse_law(&origin, text).expect(name);
            let from_json = parse_json(&origin, json).expect(name);
            assert_eq!(format!("{from_yaml:?}"), format!("{from_json:?}"), "{name}");
        }
        let corpus = Corpus::with_builtins();
        assert!(corpus.files().all(|file| file.json.is_some()));
    }

    #[test]
    fn only_brackets_outside_comments_count_towards_the_depth() {
        let origin = Origin::Builtin("t");
        let deep = "a: [[\nb: x # ]]\nc: ]]\n";
        assert!(check_flow_depth(&origin, deep, 2).is_ok());
        let err = check_flow_depth(&origin, "a: [[\nb: plain\nc: [x]\n", 2).unwrap_err();
        assert_eq!(err.line, Some(3), "{err}");
    }

    /// An index store in memory.
    #[derive(Default)]
    struct Memory(std::sync::Mutex<HashMap<String, Vec<u8>>>);

    impl IndexStore for Memory {
        fn get(&self, key: &str) -> Option<Vec<u8>> {
            self.0.lock().unwrap().get(key).cloned()
        }
        fn put(&self, key: &str, index: &[u8]) {
            self.0.lock().unwrap().insert(key.into(), index.to_vec());
        }
    }

    fn write_law(path: &Path, id: &str, name: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(
            path,
            format!("$id: {id}\nname: {name}\nregulatory_layer: WET\nvalid_from: '2020-01-01'\narticles: []\n"),
        )
        .unwrap();
    }

    /// A corpus of `dir` loaded with `store`.
    fn load(dir: &Path, store: &Arc<Memory>) -> Corpus {
        let mut corpus = Corpus::new();
        corpus.set_index(store.clone());
        corpus.add_dir(dir).unwrap();
        corpus
    }

    /// The `$id`s whose file has been made (read from disk or from the index's record).
    fn made(corpus: &Corpus) -> Vec<&str> {
        let mut made: Vec<&str> = corpus
            .files
            .iter()
            .filter(|slot| match slot {
                Slot::Made(_) => true,
                Slot::Indexed(indexed) => indexed.made.get().is_some(),
            })
            .map(|slot| corpus.slot_id(slot))
            .collect();
        made.sort_unstable();
        made
    }

    #[test]
    fn a_warm_load_makes_only_the_law_it_selects_and_notices_what_changed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for id in ["a", "b", "c"] {
            write_law(&root.join(format!("wet/{id}/2020.yaml")), id, "Wet");
        }
        std::fs::write(root.join("wet/b/status.yaml"), "status: harvested\n").unwrap();
        let store = Arc::new(Memory::default());
        let cold = load(root, &store);
        assert_eq!(made(&cold), ["a", "b", "c"], "read and scanned");
        // Once settled, the index is believed: nothing is made until it is selected.
        std::thread::sleep(crate::index::SETTLED + std::time::Duration::from_millis(100));
        load(root, &store);
        let warm = load(root, &store);
        assert!(warm.files.iter().all(|s| matches!(s, Slot::Indexed(_))));
        assert!(made(&warm).is_empty());
        assert_eq!(warm.ids(), ["a", "b", "c"]);
        let date = NaiveDate::from_ymd_opt(2025, 1, 1).unwrap();
        let b = warm.select("b", date).unwrap();
        assert_eq!(b.summary().unwrap().name.as_deref(), Some("Wet"));
        assert_eq!(made(&warm), ["b"], "only the law selected");
        assert_eq!(
            b.canonical_path(),
            Some(
                root.canonicalize()
                    .unwrap()
                    .join("wet/b/2020.yaml")
                    .as_path()
            )
        );

        // A file changed in place (its directory unchanged) is read again by its own stamp.
        write_law(&root.join("wet/a/2020.yaml"), "a", "Andere");
        let changed = load(root, &store);
        assert_eq!(made(&changed), ["a"], "the changed file read");
        let a = changed.select("a", date).unwrap();
        assert_eq!(a.summary().unwrap().name.as_deref(), Some("Andere"));
        // A law added to a directory, and one removed from another, are seen.
        write_law(&root.join("wet/d/2020.yaml"), "d", "Wet");
        std::fs::remove_file(root.join("wet/c/2020.yaml")).unwrap();
        let moved = load(root, &store);
        assert_eq!(moved.ids(), ["a", "b", "d"]);
        // The new file is read; so is a's, changed less than two seconds ago (a change in the
        // same tick of the clock could hide behind its stamp); b's comes from the index.
        assert_eq!(made(&moved), ["a", "d"]);
        // Settled again, and believed; then a version added beside b's, a law folder that
        // became a file, and a file that became a directory are seen, each by its own stamp.
        std::thread::sleep(crate::index::SETTLED + std::time::Duration::from_millis(100));
        load(root, &store);
        assert!(made(&load(root, &store)).is_empty());
        std::fs::write(
            root.join("wet/b/2021.yaml"),
            "$id: b\nname: Wet\nregulatory_layer: WET\nvalid_from: '2021-01-01'\narticles: []\n",
        )
        .unwrap();
        std::fs::remove_dir_all(root.join("wet/d")).unwrap();
        std::fs::write(root.join("wet/d"), "geen map").unwrap();
        std::fs::remove_file(root.join("wet/a/2020.yaml")).unwrap();
        write_law(&root.join("wet/a/2020.yaml/2022.yaml"), "a", "Wet");
        let later = load(root, &store);
        assert_eq!(later.ids(), ["a", "b"]);
        assert_eq!(made(&later), ["a", "b"], "the new files read, b's 2020 not");
        assert_eq!(later.versions("b").count(), 2);
    }
}

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
use crate::error::{LoadError, LoadErrorKind};
use crate::format;
use crate::law::Law;
use crate::origin::Origin;
use crate::parse::{check_format, parse_law};
use crate::prepared::{Prepared, parse_json};
use crate::scan::{
    Header, Implements, Summary, scan_header, scan_implements, scan_summary, text_lines,
};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// Bounds on loading law files from disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest law file, in bytes.
    pub max_file_bytes: u64,
    /// Most law files read from disk, over all directories: a bound on the work, not on the
    /// corpus (the default admits the whole upstream corpus, some 25,000 files, four times over).
    pub max_files: usize,
    /// Deepest directory below a corpus directory.
    pub max_dir_depth: usize,
    /// Deepest nesting of YAML flow collections (`[`, `{`); the YAML parser is quadratic in it.
    pub max_flow_depth: usize,
    /// When loading (and parsing) must stop.
    pub deadline: Option<Instant>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_file_bytes: 1024 * 1024,
            max_files: DEFAULT_MAX_FILES,
            max_dir_depth: 16,
            max_flow_depth: 64,
            deadline: None,
        }
    }
}

/// The default bound on the number of law files ([`Limits::max_files`]).
pub const DEFAULT_MAX_FILES: usize = 100_000;

impl Limits {
    fn too_many_files(&self, origin: &Origin) -> LoadError {
        LoadError {
            kind: LoadErrorKind::TooManyFiles(self.max_files),
            ..LoadError::new(
                origin,
                None,
                format!(
                    "meer dan {} wetbestanden (de ingestelde grens)",
                    self.max_files
                ),
            )
        }
    }

    fn check_deadline(&self, origin: &Origin) -> Result<(), LoadError> {
        match self.deadline {
            Some(deadline) if Instant::now() >= deadline => Err(LoadError::deadline(origin)),
            _ => Ok(()),
        }
    }
}

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
        let refusal = header
            .schema
            .as_deref()
            .and_then(format::schema_refusal)
            .map(|problem| (problem, header.schema_line));
        let file = LawFile {
            declares,
            refusal,
            canonical: None,
            origin,
            id,
            valid_from: header.valid_from.clone(),
            valid_to: header.valid_to.clone(),
            text: OnceLock::new(),
            scanned_header: text.is_none().then(|| header.clone()),
            scanned,
            json: None,
            prepared: None,
            limits,
            parsed: OnceLock::new(),
            sha256: OnceLock::new(),
            summary: OnceLock::new(),
            dates: (
                header.valid_from.as_deref().and_then(parse_iso_date),
                header.valid_to.as_deref().and_then(parse_iso_date),
            ),
        };
        if let Some(valid_to) = &file.valid_to
            && parse_iso_date(valid_to).is_none()
        {
            return Err(LoadError::new(
                &file.origin,
                header.valid_to_line,
                "valid_to is geen datum (JJJJ-MM-DD)",
            ));
        }
        Ok(file)
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

    pub(crate) fn valid_from_date(&self) -> Option<NaiveDate> {
        self.dates.0
    }

    pub(crate) fn valid_to_date(&self) -> Option<NaiveDate> {
        self.dates.1
    }
}

/// All law files known to an evaluation, indexed by `$id`.
#[derive(Debug, Default)]
pub struct Corpus {
    files: Vec<LawFile>,
    by_id: HashMap<String, Vec<usize>>,
    limits: Limits,
    /// Where the files added after [`Corpus::set_prepared`] keep their JSON form.
    prepared: Option<Prepared>,
    /// Where what the scan found in each directory is kept between processes.
    index: Option<Arc<dyn IndexStore>>,
    /// Files read from disk so far (counted against `limits.max_files`).
    files_read: usize,
    /// What loading passed over or replaced, for people ([`Corpus::warnings`]).
    warnings: Vec<String>,
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

    /// Keeps what the scan of each directory added after this call found in `index`, and reads
    /// it from there next time ([`CorpusIndex`]).
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
                    self.insert(LawFile { json, ..file });
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

    fn insert(&mut self, file: LawFile) {
        let versions = self.by_id.entry(file.id.clone()).or_default();
        if let Some(pos) = versions
            .iter()
            .position(|&i| self.files[i].valid_from == file.valid_from)
        {
            let index = versions[pos];
            let old = &self.files[index];
            let since = file.valid_from.as_deref().unwrap_or("?");
            self.warnings.push(if old.is_builtin() {
                format!(
                    "{} vervangt de ingebouwde wet {} (geldig vanaf {since})",
                    file.origin.display(),
                    file.id
                )
            } else {
                format!(
                    "{} en {} zijn allebei {} geldig vanaf {since}; de eerste vervangt de tweede",
                    file.origin.display(),
                    old.origin.display(),
                    file.id
                )
            });
            self.files[index] = file;
        } else {
            versions.push(self.files.len());
            self.files.push(file);
            // Newest first; versions without a parseable valid_from last.
            let files = &self.files;
            versions.sort_by_key(|&i| std::cmp::Reverse(files[i].valid_from_date()));
        }
    }

    /// Reads a law file from disk: a regular file (after symlinks) of at most
    /// `limits.max_file_bytes`, counted against `limits.max_files`.
    /// A file named on its own whose `$schema` this engine does not read is an error naming
    /// the version.
    pub fn add_file(&mut self, path: &Path) -> Result<(), LoadError> {
        let (origin, text) = self.read(path)?;
        let file = LawFile::new(origin, text, self.limits)?;
        if let Some((problem, line)) = &file.refusal {
            return Err(LoadError::new(&file.origin, *line, problem.clone()));
        }
        let prepared = self.prepared.clone();
        self.insert(LawFile { prepared, ..file });
        Ok(())
    }

    /// Reads one file from disk, counted against `limits.max_files`.
    fn read(&mut self, path: &Path) -> Result<(Origin, String), LoadError> {
        let origin = Origin::File(path.to_path_buf());
        self.count(&origin)?;
        let text = read_law_file(&origin, path, self.limits.max_file_bytes)?;
        Ok((origin, text))
    }

    /// Counts one file against `limits.max_files`, within the deadline.
    fn count(&mut self, origin: &Origin) -> Result<(), LoadError> {
        self.limits.check_deadline(origin)?;
        self.files_read += 1;
        if self.files_read > self.limits.max_files {
            return Err(self.limits.too_many_files(origin));
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
    /// With an index store, a file whose size and modification time are those in the
    /// directory's index is not read: its scan comes from the index. The others are read and
    /// scanned, and the index is written again when anything changed. Every file's text is let go
    /// after its scan and read again when the law is needed.
    pub fn add_dir(&mut self, dir: &Path) -> Result<usize, LoadError> {
        let paths = walk_stamped(dir, &["yaml", "yml"], &CORPUS_METADATA, self.limits, true)?;
        let store = self.index.clone();
        let key = store.as_ref().and_then(|_| index_key(dir));
        let mut known: Vec<Option<IndexEntry>> = match (&store, &key) {
            (Some(store), Some(key)) => store
                .get(key)
                .and_then(|json| serde_json::from_str::<CorpusIndex>(&json).ok())
                .filter(|index| index.version == CorpusIndex::VERSION)
                .map(|index| index.entries.into_iter().map(Some).collect())
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        let position: HashMap<String, usize> = known
            .iter_mut()
            .enumerate()
            .filter_map(|(at, entry)| Some((std::mem::take(&mut entry.as_mut()?.path), at)))
            .collect();
        // Which file's scan the index holds (its position there), found by path and stamp.
        let mut matched: Vec<Option<usize>> = Vec::with_capacity(paths.len());
        for Walked { path, stamp, .. } in &paths {
            let relative = path.strip_prefix(dir).ok().and_then(Path::to_str);
            let at = relative
                .and_then(|r| position.get(r))
                .copied()
                .filter(|&at| {
                    stamp.is_some()
                        && known[at]
                            .as_ref()
                            .is_some_and(|entry| Some(entry.stamp) == *stamp)
                });
            matched.push(at);
        }
        // The index is written again when a file is new, changed or gone.
        let changed = store.is_some()
            && (matched.iter().any(Option::is_none)
                || matched.iter().flatten().count() != position.len());
        let mut entries = Vec::with_capacity(if changed { paths.len() } else { 0 });
        let mut added = 0;
        self.files.reserve(paths.len());
        for (
            Walked {
                path,
                stamp,
                canonical,
            },
            at,
        ) in paths.into_iter().zip(matched)
        {
            let origin = Origin::File(path.clone());
            self.count(&origin)?;
            let relative = path
                .strip_prefix(dir)
                .ok()
                .and_then(Path::to_str)
                .map(str::to_string);
            let entry = match at.and_then(|at| known[at].take()) {
                Some(entry) => IndexEntry {
                    path: relative.clone().unwrap_or_default(),
                    ..entry
                },
                None => {
                    let stamp = match stamp {
                        Some(stamp) => stamp,
                        None => Stamp::of(&origin, &path)?,
                    };
                    let text = read_law_file(&origin, &path, self.limits.max_file_bytes)?;
                    IndexEntry::scan(
                        relative.clone().unwrap_or_default(),
                        stamp,
                        &origin,
                        &text,
                        self.limits,
                    )?
                }
            };
            if changed && relative.is_some() {
                entries.push(entry.clone());
            }
            match entry.law {
                None => self.warnings.push(format!(
                    "{}: geen wetbestand (geen $id); overgeslagen",
                    origin.display()
                )),
                Some(law) => {
                    let file = LawFile::indexed(
                        origin,
                        law.header,
                        law.declares,
                        law.scanned,
                        self.limits,
                        None,
                    )?;
                    self.add_file_known(LawFile { canonical, ..file });
                    added += 1;
                }
            }
        }
        if let (true, Some(store), Some(key)) = (changed, store, key) {
            let index = CorpusIndex {
                version: CorpusIndex::VERSION,
                entries,
            };
            if let Ok(json) = serde_json::to_string(&index) {
                store.put(&key, &json);
            }
        }
        Ok(added)
    }

    /// Adds a law file whose header is known, warning about a schema version not read.
    fn add_file_known(&mut self, file: LawFile) {
        if let Some(refusal) = file.refusal() {
            self.warnings
                .push(format!("{}: {refusal}", file.origin.display()));
        }
        let prepared = self.prepared.clone();
        self.insert(LawFile { prepared, ..file });
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

    /// Every law file, in load order.
    pub fn files(&self) -> &[LawFile] {
        &self.files
    }

    /// All `$id`s, sorted.
    pub fn ids(&self) -> Vec<&str> {
        let mut ids: Vec<&str> = self.by_id.keys().map(String::as_str).collect();
        ids.sort_unstable();
        ids
    }

    /// The versions of a law, newest first.
    pub fn versions(&self, id: &str) -> impl Iterator<Item = &LawFile> {
        self.by_id
            .get(id)
            .into_iter()
            .flatten()
            .map(|&i| &self.files[i])
    }

    /// Whether any version of `id` is loaded.
    pub fn contains(&self, id: &str) -> bool {
        self.by_id.contains_key(id)
    }

    /// The version of `id` in force on `date`: the newest with `valid_from <= date`, unless it
    /// ended (`valid_to < date`).
    pub fn select(&self, id: &str, date: NaiveDate) -> Result<&LawFile, Selection> {
        let mut versions = self.versions(id).peekable();
        if versions.peek().is_none() {
            return Err(Selection::NotFound);
        }
        let file = versions
            .find(|f| f.valid_from_date().is_none_or(|from| from <= date))
            .ok_or(Selection::NotYetInForce)?;
        match file.valid_to_date() {
            Some(to) if date > to => Err(Selection::Ended(to)),
            _ => Ok(file),
        }
    }

    /// Parses every file; returns the first error (for `wet lijst` and validation). Files in
    /// a schema version this engine does not read are left out (loading warned about each).
    pub fn parse_all(&self) -> Result<Vec<&LawFile>, LoadError> {
        let readable = || self.files.iter().filter(|f| f.refusal.is_none());
        for file in readable() {
            file.law()?;
        }
        Ok(readable().collect())
    }
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

/// One directory walk: every directory is visited once (by canonical path). Each directory's
/// entries are taken in name order, so the files come out sorted as paths sort.
struct Walk<'e> {
    limits: Limits,
    extensions: &'e [&'e str],
    /// File names passed over wherever they are.
    skip: &'e [&'e str],
    /// The canonical paths visited, as bytes.
    visited: HashSet<Vec<u8>>,
    paths: Vec<Walked>,
    /// Whether each file's stamp is taken as it is found (one `stat` relative to its directory).
    stamps: bool,
}

/// What a directory holds that the walk takes: a file (with its stamp), or a directory to walk
/// (with its canonical path).
enum Found {
    File(Walked),
    Dir(PathBuf, PathBuf),
}

/// A file the walk found: its path, its stamp (when taken) and, for a regular file that is no
/// symlink, its canonical path (its directory's joined with its name: no system call).
struct Walked {
    path: PathBuf,
    stamp: Option<Stamp>,
    canonical: Option<PathBuf>,
}

impl Walk<'_> {
    /// Collects the files under `dir`, whose canonical path is `canonical`: the root is
    /// canonicalized once, a real subdirectory is its parent's canonical path joined with its
    /// name (no system call), and only a symlink is resolved again.
    fn collect(&mut self, dir: &Path, canonical: PathBuf, depth: usize) -> Result<(), LoadError> {
        let origin = Origin::File(dir.to_path_buf());
        self.limits.check_deadline(&origin)?;
        if depth > self.limits.max_dir_depth {
            return Err(LoadError::new(
                &origin,
                None,
                format!(
                    "mappen dieper dan {} niveaus; laad een minder diepe map",
                    self.limits.max_dir_depth
                ),
            ));
        }
        if !self
            .visited
            .insert(canonical.as_os_str().as_encoded_bytes().to_vec())
        {
            return Ok(());
        }
        let entries = std::fs::read_dir(dir)
            .map_err(|e| LoadError::new(&origin, None, format!("kan de map niet lezen: {e}")))?;
        // The directory stream is closed before its subdirectories are walked: one stream (and
        // its 32 KiB buffer) open at a time, however deep the corpus.
        let mut found: Vec<(std::ffi::OsString, Found)> = Vec::new();
        for entry in entries {
            self.limits.check_deadline(&origin)?;
            let entry = entry.map_err(|e| LoadError::new(&origin, None, e.to_string()))?;
            let name = entry.file_name();
            if name.as_encoded_bytes().starts_with(b".")
                || self.skip.iter().any(|skip| name == *skip)
            {
                continue;
            }
            let path = entry.path();
            let file_type = entry
                .file_type()
                .map_err(|e| LoadError::new(&origin, None, e.to_string()))?;
            if file_type.is_dir() {
                let child = canonical.join(&name);
                found.push((name, Found::Dir(path, child)));
            } else if file_type.is_symlink() && path.is_dir() {
                let child = canonical_dir(&path, &Origin::File(path.clone()))?;
                found.push((name, Found::Dir(path, child)));
            } else if path
                .extension()
                .is_some_and(|ext| self.extensions.iter().any(|e| ext == *e))
            {
                let stamp = if !self.stamps {
                    None
                } else if file_type.is_file() {
                    let origin = Origin::File(path.clone());
                    let metadata = entry.metadata().map_err(|e| {
                        LoadError::new(&origin, None, format!("kan het bestand niet lezen: {e}"))
                    })?;
                    Some(Stamp::from_metadata(&origin, &metadata)?)
                } else {
                    Some(Stamp::of(&Origin::File(path.clone()), &path)?)
                };
                let canonical = file_type.is_file().then(|| canonical.join(&name));
                found.push((
                    name,
                    Found::File(Walked {
                        path,
                        stamp,
                        canonical,
                    }),
                ));
            }
        }
        found.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        for (_, item) in found {
            match item {
                Found::File(walked) => {
                    if self.paths.len() >= self.limits.max_files {
                        return Err(self.limits.too_many_files(&origin));
                    }
                    self.paths.push(walked);
                }
                Found::Dir(path, canonical) => self.collect(&path, canonical, depth + 1)?,
            }
        }
        Ok(())
    }
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
    Ok(walk_stamped(dir, extensions, skip, limits, false)?
        .into_iter()
        .map(|walked| walked.path)
        .collect())
}

/// [`walk`], with each file's stamp when `stamps`.
fn walk_stamped(
    dir: &Path,
    extensions: &[&str],
    skip: &[&str],
    limits: Limits,
    stamps: bool,
) -> Result<Vec<Walked>, LoadError> {
    let mut walk = Walk {
        limits,
        extensions,
        skip,
        visited: HashSet::new(),
        paths: Vec::new(),
        stamps,
    };
    let origin = Origin::File(dir.to_path_buf());
    walk.collect(dir, canonical_dir(dir, &origin)?, 0)?;
    Ok(walk.paths)
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

/// Which cross-law constructs a law text names, found by the keys' text (a superset: a key in
/// a comment counts), so that looking for implementations, hooks, overrides and procedures
/// parses only the laws that may have them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Declares {
    pub(crate) implements: bool,
    pub(crate) hooks: bool,
    pub(crate) overrides: bool,
    pub(crate) procedure: bool,
}

impl Declares {
    /// The keys looked for; `build.rs` looks for the same in the built-in laws.
    pub(crate) const KEYS: [&str; 4] = ["implements:", "hooks:", "overrides:", "procedure:"];

    fn scan(text: &str) -> Declares {
        let [implements, hooks, overrides, procedure] =
            Declares::KEYS.map(|key| text.contains(key));
        Declares {
            implements,
            hooks,
            overrides,
            procedure,
        }
    }
}

/// Where the scan of each corpus directory is kept between processes, by a key naming the
/// directory ([`index_key`]). A store that cannot keep it says so its own way; loading goes on.
pub trait IndexStore: Send + Sync {
    /// The index kept under `key`, if any.
    fn get(&self, key: &str) -> Option<String>;
    /// Keep `json` as the index under `key`.
    fn put(&self, key: &str, json: &str);
}

impl std::fmt::Debug for dyn IndexStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("IndexStore")
    }
}

/// The key of a directory's index: the SHA-256 (hex) of its canonical path; `None` when that
/// cannot be found.
fn index_key(dir: &Path) -> Option<String> {
    let canonical = std::fs::canonicalize(dir).ok()?;
    let digest = Sha256::digest(canonical.as_os_str().as_encoded_bytes());
    Some(
        digest
            .iter()
            .fold(String::with_capacity(64), |mut hex, byte| {
                let _ = write!(hex, "{byte:02x}");
                hex
            }),
    )
}

/// What the scan of one corpus directory found, file by file, with the size and modification
/// time each file had: a file that still has both is not read again.
#[derive(Debug, Serialize, Deserialize)]
pub struct CorpusIndex {
    version: u32,
    entries: Vec<IndexEntry>,
}

impl CorpusIndex {
    /// The form of the index; another form is not read.
    const VERSION: u32 = 1;
}

/// One file of a [`CorpusIndex`]: its path below the directory, its stamp, and what the scan
/// found (`None`: no law).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct IndexEntry {
    path: String,
    stamp: Stamp,
    law: Option<IndexedLaw>,
}

/// What the scan found in a law file.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct IndexedLaw {
    header: Header,
    declares: Declares,
    scanned: Scanned,
}

impl IndexEntry {
    /// The scan of `text`, checked as every file added is (nesting, a readable `$id`).
    fn scan(
        path: String,
        stamp: Stamp,
        origin: &Origin,
        text: &str,
        limits: Limits,
    ) -> Result<IndexEntry, LoadError> {
        if !is_law_text(text) {
            return Ok(IndexEntry {
                path,
                stamp,
                law: None,
            });
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
        Ok(IndexEntry {
            path,
            stamp,
            law: Some(IndexedLaw {
                header,
                declares,
                scanned: Scanned::of(text, declares),
            }),
        })
    }
}

/// A file's size and modification time (seconds and nanoseconds since the epoch).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Stamp(u64, i64, u32);

impl Stamp {
    /// The stamp of the regular file at `path` (after symlinks; anything else is refused).
    fn of(origin: &Origin, path: &Path) -> Result<Stamp, LoadError> {
        let metadata = std::fs::metadata(path).map_err(|e| {
            LoadError::new(origin, None, format!("kan het bestand niet lezen: {e}"))
        })?;
        Stamp::from_metadata(origin, &metadata)
    }

    /// The stamp of a regular file's metadata (anything else is refused).
    fn from_metadata(origin: &Origin, metadata: &std::fs::Metadata) -> Result<Stamp, LoadError> {
        if !metadata.is_file() {
            return Err(LoadError::new(
                origin,
                None,
                "geen gewoon bestand (bijv. een FIFO of apparaat)",
            ));
        }
        let (seconds, nanos) = match metadata
            .modified()
            .map(|m| m.duration_since(std::time::UNIX_EPOCH))
        {
            Ok(Ok(since)) => (since.as_secs() as i64, since.subsec_nanos()),
            Ok(Err(before)) => (
                -(before.duration().as_secs() as i64),
                before.duration().subsec_nanos(),
            ),
            Err(_) => (0, 0),
        };
        Ok(Stamp(metadata.len(), seconds, nanos))
    }
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
                .files
                .iter()
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
        assert!(corpus.files.iter().all(|file| file.json.is_some()));
    }

    #[test]
    fn only_brackets_outside_comments_count_towards_the_depth() {
        let origin = Origin::Builtin("t");
        let deep = "a: [[\nb: x # ]]\nc: ]]\n";
        assert!(check_flow_depth(&origin, deep, 2).is_ok());
        let err = check_flow_depth(&origin, "a: [[\nb: plain\nc: [x]\n", 2).unwrap_err();
        assert_eq!(err.line, Some(3), "{err}");
    }
}

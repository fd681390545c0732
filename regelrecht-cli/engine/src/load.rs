//! Loading law files: the built-in set plus every `*.yaml` under given directories.
//!
//! Loading is lazy. Adding a file only reads it and scans its top-level `$id`, `valid_from` and
//! `valid_to` lines (and whether it declares `implements`, `hooks` or `overrides`); the full YAML
//! parse happens the first time an evaluation reaches that law version. [`Corpus::parse_all`]
//! parses and validates everything (for listings and checks).
//!
//! All work is bounded by its input ([`Limits`]): directories are walked once each (a symlink
//! loop is visited once), only regular files are read (a FIFO or device is refused, never waited
//! on), and file size, file count, directory depth and bracket nesting are capped. Between steps
//! the deadline is checked. Error texts name the file and line, never the file's text.

use crate::dates::parse_iso_date;
use crate::error::LoadError;
use crate::format;
use crate::law::Law;
use crate::origin::Origin;
use crate::parse::{check_format, parse_law};
use crate::prepared::{Prepared, parse_json};
use chrono::NaiveDate;
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

/// Bounds on loading law files from disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest law file, in bytes.
    pub max_file_bytes: u64,
    /// Most law files read from disk, over all directories.
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
            max_files: 2000,
            max_dir_depth: 16,
            max_flow_depth: 64,
            deadline: None,
        }
    }
}

impl Limits {
    fn too_many_files(&self, origin: &Origin) -> LoadError {
        LoadError::new(
            origin,
            None,
            format!(
                "meer dan {} wetbestanden; laad minder mappen",
                self.max_files
            ),
        )
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
    text: Cow<'static, str>,
    /// The same law as JSON, for a built-in law ([`crate::builtin::BUILTIN_JSON`]).
    json: Option<&'static str>,
    /// Where the JSON form of a file from disk is kept between processes ([`crate::prepared`]).
    prepared: Option<Prepared>,
    limits: Limits,
    parsed: OnceLock<Result<Law, LoadError>>,
    sha256: OnceLock<String>,
    /// `valid_from` and `valid_to` as dates, read once (version selection is on the hot path).
    dates: (Option<NaiveDate>, Option<NaiveDate>),
}

impl LawFile {
    fn new(origin: Origin, text: String, limits: Limits) -> Result<LawFile, LoadError> {
        check_flow_depth(&origin, &text, limits.max_flow_depth)?;
        let header = scan_header(&text);
        let declares = Declares::scan(&text);
        LawFile::indexed(origin, Cow::Owned(text), header, declares, limits)
    }

    /// A law file whose header is already known.
    fn indexed(
        origin: Origin,
        text: Cow<'static, str>,
        header: Header,
        declares: Declares,
        limits: Limits,
    ) -> Result<LawFile, LoadError> {
        let id = match header.id {
            Some(id) => id,
            None => {
                // No plain `$id:` line: let the full parser say what is wrong.
                limits.check_deadline(&origin)?;
                let law = parse_law(&origin, &text)?;
                law.id
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
            origin,
            id,
            valid_from: header.valid_from.clone(),
            valid_to: header.valid_to.clone(),
            text,
            json: None,
            prepared: None,
            limits,
            parsed: OnceLock::new(),
            sha256: OnceLock::new(),
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
                        prepared.law(&self.origin, &self.text, self.sha256(), &self.id)?
                    }
                    (None, None) => parse_law(&self.origin, &self.text)?,
                };
                if law.id != self.id {
                    return Err(LoadError::new(
                        &self.origin,
                        None,
                        format!("$id '{}' kon niet eenduidig gelezen worden", law.id),
                    ));
                }
                check_format(&self.origin, &self.text, &law)?;
                Ok(law)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// SHA-256 (hex) of the file's bytes.
    pub fn sha256(&self) -> &str {
        self.sha256.get_or_init(|| {
            let digest = Sha256::digest(self.text.as_bytes());
            digest
                .iter()
                .fold(String::with_capacity(64), |mut hex, byte| {
                    let _ = write!(hex, "{byte:02x}");
                    hex
                })
        })
    }

    /// The raw YAML text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Why this file is not read (its `$schema` names a version this engine does not read).
    pub fn refusal(&self) -> Option<&str> {
        self.refusal.as_ref().map(|(problem, _)| problem.as_str())
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
                .map(|&(_, [implements, hooks, overrides])| Declares {
                    implements,
                    hooks,
                    overrides,
                })
                .unwrap_or_else(|| Declares::scan(text));
            match LawFile::indexed(
                origin,
                Cow::Borrowed(text),
                builtin_header(name),
                declares,
                self.limits,
            ) {
                Ok(file) => self.insert(LawFile { json, ..file }),
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
        if let Some(refusal) = file.refusal() {
            self.warnings
                .push(format!("{}: {refusal}", file.origin.display()));
        }
        let prepared = self.prepared.clone();
        self.insert(LawFile { prepared, ..file });
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
        self.limits.check_deadline(&origin)?;
        self.files_read += 1;
        if self.files_read > self.limits.max_files {
            return Err(self.limits.too_many_files(&origin));
        }
        let text = read_law_file(&origin, path, self.limits.max_file_bytes)?;
        Ok((origin, text))
    }

    /// Adds every `*.yaml` / `*.yml` file under `dir` (recursively, in sorted order; a directory
    /// reached twice, e.g. through a symlink loop, is walked once). Returns the number of files
    /// added.
    ///
    /// A checkout of the upstream corpus (MinBZK/regelrecht-corpus) loads as it is: hidden
    /// files and directories (`.enrichment.yaml`, `.git`, `.github`) and each law folder's
    /// `status.yaml` are skipped, and any other YAML without a top-level `$id` is no law: it
    /// is skipped with a warning, not refused.
    pub fn add_dir(&mut self, dir: &Path) -> Result<usize, LoadError> {
        let paths = corpus_files(dir, self.limits)?;
        let mut added = 0;
        for path in &paths {
            let (origin, text) = self.read(path)?;
            if !is_law_text(&text) {
                self.warnings.push(format!(
                    "{}: geen wetbestand (geen $id); overgeslagen",
                    origin.display()
                ));
                continue;
            }
            self.add_text(origin, text)?;
            added += 1;
        }
        Ok(added)
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

/// One directory walk: every directory is visited once (by canonical path).
struct Walk<'e> {
    limits: Limits,
    extensions: &'e [&'e str],
    /// File names passed over wherever they are.
    skip: &'e [&'e str],
    visited: HashSet<PathBuf>,
    paths: Vec<PathBuf>,
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
        if !self.visited.insert(canonical.clone()) {
            return Ok(());
        }
        let entries = std::fs::read_dir(dir)
            .map_err(|e| LoadError::new(&origin, None, format!("kan de map niet lezen: {e}")))?;
        // Subdirectories are walked after this one is closed: one directory stream (and its
        // 32 KiB buffer) open at a time, however deep the corpus.
        let mut subdirectories = Vec::new();
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
                let child = canonical.join(entry.file_name());
                subdirectories.push((path, child));
            } else if file_type.is_symlink() && path.is_dir() {
                let child = canonical_dir(&path, &Origin::File(path.clone()))?;
                subdirectories.push((path, child));
            } else if path
                .extension()
                .is_some_and(|ext| self.extensions.iter().any(|e| ext == *e))
            {
                if self.paths.len() >= self.limits.max_files {
                    return Err(self.limits.too_many_files(&origin));
                }
                self.paths.push(path);
            }
        }
        for (path, canonical) in subdirectories {
            self.collect(&path, canonical, depth + 1)?;
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
    text.lines().any(|line| {
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
    let mut walk = Walk {
        limits,
        extensions,
        skip,
        visited: HashSet::new(),
        paths: Vec::new(),
    };
    let origin = Origin::File(dir.to_path_buf());
    walk.collect(dir, canonical_dir(dir, &origin)?, 0)?;
    walk.paths.sort();
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
    for (index, line) in text.lines().enumerate() {
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

#[derive(Debug, Default, PartialEq)]
struct Header {
    id: Option<String>,
    schema: Option<String>,
    schema_line: Option<usize>,
    valid_from: Option<String>,
    valid_to: Option<String>,
    valid_to_line: Option<usize>,
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
/// a comment counts), so that looking for implementations, hooks and overrides parses only
/// the laws that may have them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Declares {
    pub(crate) implements: bool,
    pub(crate) hooks: bool,
    pub(crate) overrides: bool,
}

impl Declares {
    /// The keys looked for; `build.rs` looks for the same in the built-in laws.
    pub(crate) const KEYS: [&str; 3] = ["implements:", "hooks:", "overrides:"];

    fn scan(text: &str) -> Declares {
        let [implements, hooks, overrides] = Declares::KEYS.map(|key| text.contains(key));
        Declares {
            implements,
            hooks,
            overrides,
        }
    }
}

/// Reads the top-level `$id`, `$schema`, `valid_from` and `valid_to` scalars without parsing
/// the YAML (`$schema` also as a folded scalar on the next line, as the upstream corpus writes
/// long URLs).
fn scan_header(text: &str) -> Header {
    let mut header = Header::default();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((index, line)) = lines.next() {
        let Some(first) = line.as_bytes().first() else {
            continue;
        };
        if !matches!(first, b'$' | b'v') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("$id:") {
            header.id = plain_scalar(rest);
        } else if let Some(rest) = line.strip_prefix("$schema:") {
            header.schema_line = Some(index + 1);
            header.schema = if matches!(rest.trim(), ">" | ">-" | "|" | "|-") {
                lines
                    .peek()
                    .filter(|(_, next)| next.starts_with(' '))
                    .and_then(|(_, next)| plain_scalar(next))
            } else {
                plain_scalar(rest)
            };
        } else if let Some(rest) = line.strip_prefix("valid_from:") {
            header.valid_from = plain_scalar(rest);
        } else if let Some(rest) = line.strip_prefix("valid_to:") {
            header.valid_to = plain_scalar(rest);
            header.valid_to_line = Some(index + 1);
        }
    }
    header
}

fn plain_scalar(rest: &str) -> Option<String> {
    let mut value = rest.trim();
    if let Some(pos) = value.find(" #") {
        value = value[..pos].trim_end();
    }
    let unquoted = if value.len() >= 2
        && ((value.starts_with('\'') && value.ends_with('\''))
            || (value.starts_with('"') && value.ends_with('"')))
    {
        &value[1..value.len() - 1]
    } else {
        value
    };
    let bad = unquoted.is_empty()
        || unquoted.contains(['\'', '"', '\\'])
        || matches!(
            value.as_bytes()[0],
            b'>' | b'|' | b'&' | b'*' | b'!' | b'[' | b'{'
        );
    (!bad).then(|| unquoted.to_string())
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
            let file = corpus.files.iter().find(|f| f.text == *text).expect(name);
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

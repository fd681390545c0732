//! Loading law files: the built-in set plus every `*.yaml` under given directories.
//!
//! Loading is lazy. Adding a file only reads it and scans its top-level `$id`, `valid_from` and
//! `valid_to` lines (and whether it declares `implements`, `hooks` or `overrides`); the full YAML
//! parse happens the first time an evaluation reaches that law version. [`Corpus::parse_all`]
//! parses and validates everything (for listings and checks).

use crate::error::LoadError;
use crate::law::Law;
use chrono::NaiveDate;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Where a law file came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Compiled into the binary, with its file name.
    Builtin(&'static str),
    /// Read from disk.
    File(PathBuf),
}

impl Origin {
    /// Display name (path, or `builtin:<name>`).
    pub fn display(&self) -> String {
        match self {
            Origin::Builtin(name) => format!("builtin:{name}"),
            Origin::File(path) => path.display().to_string(),
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
    pub(crate) declares_implements: bool,
    pub(crate) declares_hooks: bool,
    pub(crate) declares_overrides: bool,
    text: String,
    parsed: OnceLock<Result<Law, LoadError>>,
    sha256: OnceLock<String>,
}

impl LawFile {
    fn new(origin: Origin, text: String) -> Result<LawFile, LoadError> {
        let header = scan_header(&text);
        let id = match header.id {
            Some(id) => id,
            None => {
                // No plain `$id:` line: let the full parser say what is wrong.
                let law = parse_law(&origin, &text)?;
                law.id
            }
        };
        let file = LawFile {
            declares_implements: text.contains("implements:"),
            declares_hooks: text.contains("hooks:"),
            declares_overrides: text.contains("overrides:"),
            origin,
            id,
            valid_from: header.valid_from,
            valid_to: header.valid_to,
            text,
            parsed: OnceLock::new(),
            sha256: OnceLock::new(),
        };
        if let Some(valid_to) = &file.valid_to
            && parse_iso_date(valid_to).is_none()
        {
            return Err(LoadError::new(
                &file.origin,
                header.valid_to_line,
                format!("valid_to '{valid_to}' is geen datum (JJJJ-MM-DD)"),
            ));
        }
        Ok(file)
    }

    /// The fully parsed law (parsed on first use).
    pub fn law(&self) -> Result<&Law, LoadError> {
        self.parsed
            .get_or_init(|| {
                let law = parse_law(&self.origin, &self.text)?;
                if law.id != self.id {
                    return Err(LoadError::new(
                        &self.origin,
                        None,
                        format!("$id '{}' kon niet eenduidig gelezen worden", law.id),
                    ));
                }
                Ok(law)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// SHA-256 (hex) of the file's bytes.
    pub fn sha256(&self) -> &str {
        self.sha256.get_or_init(|| {
            let digest = Sha256::digest(self.text.as_bytes());
            digest.iter().map(|b| format!("{b:02x}")).collect()
        })
    }

    /// The raw YAML text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether this file is part of the built-in set.
    pub fn is_builtin(&self) -> bool {
        matches!(self.origin, Origin::Builtin(_))
    }

    pub(crate) fn valid_from_date(&self) -> Option<NaiveDate> {
        self.valid_from.as_deref().and_then(parse_iso_date)
    }

    pub(crate) fn valid_to_date(&self) -> Option<NaiveDate> {
        self.valid_to.as_deref().and_then(parse_iso_date)
    }
}

/// All law files known to an evaluation, indexed by `$id`.
#[derive(Debug, Default)]
pub struct Corpus {
    files: Vec<LawFile>,
    by_id: HashMap<String, Vec<usize>>,
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

    /// Adds the built-in laws (see [`crate::builtin`]).
    pub fn add_builtins(&mut self) {
        for (name, text) in crate::builtin::BUILTIN_LAWS {
            // Built-in laws are tested to load; a failure here is a programming error.
            if let Err(e) = self.add_text(Origin::Builtin(name), text.to_string()) {
                panic!("ingebouwde wet {name} is ongeldig: {e}");
            }
        }
    }

    /// Adds one law text. A later file with the same `$id` and `valid_from` replaces an earlier one.
    pub fn add_text(&mut self, origin: Origin, text: String) -> Result<(), LoadError> {
        let file = LawFile::new(origin, text)?;
        let versions = self.by_id.entry(file.id.clone()).or_default();
        if let Some(pos) = versions
            .iter()
            .position(|&i| self.files[i].valid_from == file.valid_from)
        {
            let index = versions[pos];
            self.files[index] = file;
        } else {
            versions.push(self.files.len());
            self.files.push(file);
            // Newest first; versions without a parseable valid_from last.
            let files = &self.files;
            versions.sort_by_key(|&i| std::cmp::Reverse(files[i].valid_from_date()));
        }
        Ok(())
    }

    /// Reads a law file from disk.
    pub fn add_file(&mut self, path: &Path) -> Result<(), LoadError> {
        let origin = Origin::File(path.to_path_buf());
        let text = std::fs::read_to_string(path).map_err(|e| {
            LoadError::new(&origin, None, format!("kan het bestand niet lezen: {e}"))
        })?;
        self.add_text(origin, text)
    }

    /// Adds every `*.yaml` / `*.yml` file under `dir` (recursively, in sorted order).
    /// Returns the number of files added.
    pub fn add_dir(&mut self, dir: &Path) -> Result<usize, LoadError> {
        let mut paths = Vec::new();
        collect_yaml(dir, &mut paths)?;
        paths.sort();
        for path in &paths {
            self.add_file(path)?;
        }
        Ok(paths.len())
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

    /// Parses every file; returns the first error (for `wet lijst` and validation).
    pub fn parse_all(&self) -> Result<Vec<&LawFile>, LoadError> {
        for file in &self.files {
            file.law()?;
        }
        Ok(self.files.iter().collect())
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

fn collect_yaml(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), LoadError> {
    let origin = Origin::File(dir.to_path_buf());
    let entries = std::fs::read_dir(dir)
        .map_err(|e| LoadError::new(&origin, None, format!("kan de map niet lezen: {e}")))?;
    for entry in entries {
        let entry = entry.map_err(|e| LoadError::new(&origin, None, e.to_string()))?;
        let path = entry.path();
        let file_type = entry
            .file_type()
            .map_err(|e| LoadError::new(&origin, None, e.to_string()))?;
        if file_type.is_dir() || (file_type.is_symlink() && path.is_dir()) {
            collect_yaml(&path, out)?;
        } else if path
            .extension()
            .is_some_and(|ext| ext == "yaml" || ext == "yml")
        {
            out.push(path);
        }
    }
    Ok(())
}

/// Parses a canonical `YYYY-MM-DD` date.
pub fn parse_iso_date(text: &str) -> Option<NaiveDate> {
    let date = NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()?;
    (date.format("%Y-%m-%d").to_string() == text).then_some(date)
}

#[derive(Default)]
struct Header {
    id: Option<String>,
    valid_from: Option<String>,
    valid_to: Option<String>,
    valid_to_line: Option<usize>,
}

/// Reads the top-level `$id`, `valid_from` and `valid_to` scalars without parsing the YAML.
fn scan_header(text: &str) -> Header {
    let mut header = Header::default();
    for (index, line) in text.lines().enumerate() {
        let Some(first) = line.as_bytes().first() else {
            continue;
        };
        if !matches!(first, b'$' | b'v') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("$id:") {
            header.id = plain_scalar(rest);
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

/// Fully parses a law text, reporting the line of any problem.
pub fn parse_law(origin: &Origin, text: &str) -> Result<Law, LoadError> {
    let law: Law = serde_yaml_ng::from_str(text).map_err(|e| {
        let line = e.location().map(|l| l.line());
        let mut problem = e.to_string();
        if let Some(pos) = problem.find(" at line ") {
            problem.truncate(pos);
        }
        LoadError::new(origin, line, problem)
    })?;
    if let Some(from) = &law.valid_from
        && !from.starts_with('#')
        && parse_iso_date(from).is_none()
    {
        return Err(LoadError::new(
            origin,
            find_line(text, "valid_from:"),
            format!("valid_from '{from}' is geen datum (JJJJ-MM-DD)"),
        ));
    }
    Ok(law)
}

fn find_line(text: &str, prefix: &str) -> Option<usize> {
    text.lines()
        .position(|l| l.starts_with(prefix))
        .map(|i| i + 1)
}

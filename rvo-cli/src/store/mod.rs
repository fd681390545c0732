//! The local sandbox backend ("lokaal"): filed reports as JSON files in a directory, exactly once.
//!
//! Layout under the store directory (`RVO_DATA_DIR`, else `$XDG_DATA_HOME/rvo-cli`, else
//! `~/.local/share/rvo-cli`):
//!
//! ```text
//! .lock                          lock file; writers hold an exclusive lock (std `File::lock`)
//! rapportages/<key>.json         one complete record per idempotency key (the plan digest)
//! rapportages/.tmp-*             a writer's temporary file; never read, removed under the lock
//! ```
//!
//! Filing is check-then-write under the exclusive lock, so any number of concurrent processes
//! filing the same key produce one record. It has two phases: [`LocalStore::prepare`] takes the
//! lock, replays a stored key, or writes the record to a temporary file in the same directory and
//! syncs it; [`PendingFiling::commit`] renames it into place without overwriting, syncs the
//! directory and releases the lock. A crash leaves either no record or one complete record, and
//! the caller can make something durable in between (the CLI writes the audit record there).
//! Waiting for the lock is bounded by the caller's deadline ([`LocalStore::with_deadline`]):
//! past it the writer gives up with [`StoreError::LockTimeout`] and files nothing.
//! Readers take no lock; they only look at `<key>.json` names, which appear atomically.
//!
//! Every record is checked when it is read ([`StoredRecord::problems`]): a file that is not a
//! regular file, is too large, does not parse, or fails a check is a bad record
//! ([`BadRecord`]). Reads of other records go on without it; only a call that needs that very
//! record (filing or replaying its key, or showing a reference it may hold) fails, with
//! [`StoreError::Corrupt`] naming the file. A filing never overwrites or replays a bad record.

mod error;
mod hook;
mod pending;
mod record;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::ffi::OsString;
use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use chrono::{DateTime, SubsecRound, Utc};

pub use error::StoreError;
#[cfg(any(test, feature = "test-hooks"))]
pub use hook::{PAUSE_ENV, Phase, install_pause, parse_pause};
pub use pending::{PendingFiling, Prepared};
pub use record::{OLDEST_RECORD_FORMAT, RECORD_FORMAT, StoredRecord};

use crate::backend_types::RapportageAanvraag;
use crate::canonical::canonical_sha256;
use crate::filing::{Backend, FilingResult, ValidFiling, build_result};
use crate::reference::new_reference;

/// Name of the lock file in the store directory.
pub const LOCK_FILE: &str = ".lock";
/// Name of the directory that holds the records.
pub const RECORDS_DIR: &str = "rapportages";
/// Prefix of temporary files in [`RECORDS_DIR`].
pub const TEMP_PREFIX: &str = ".tmp-";
/// Largest record file that is read; a record is a few kilobytes, at most about a megabyte.
pub const MAX_RECORD_BYTES: u64 = 4 * 1024 * 1024;
/// How long a writer sleeps between attempts to take the lock.
const LOCK_POLL: Duration = Duration::from_millis(20);

/// A record file that is not a sound record: which file, and what is wrong with it (in Dutch,
/// without the record's contents).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadRecord {
    /// The record file.
    pub path: PathBuf,
    /// What is wrong with it.
    pub detail: String,
}

impl From<BadRecord> for StoreError {
    fn from(bad: BadRecord) -> Self {
        StoreError::Corrupt {
            path: bad.path,
            detail: bad.detail,
        }
    }
}

/// The records of a store: the sound ones, and the files that are not.
#[derive(Debug, Clone, Default)]
pub struct Scan {
    /// Sound records, in no particular order.
    pub records: Vec<StoredRecord>,
    /// Bad record files, sorted by path.
    pub bad: Vec<BadRecord>,
}

/// A local record store rooted at a directory. Cheap to create; touches the disk only when used.
#[derive(Debug, Clone)]
pub struct LocalStore {
    dir: PathBuf,
    deadline: Option<Instant>,
    pause: hook::Pause,
}

impl LocalStore {
    /// A store rooted at `dir`. Nothing is created until the first filing.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        LocalStore {
            dir: dir.into(),
            deadline: None,
            pause: hook::Pause::installed(),
        }
    }

    /// Bounds every wait for the lock by `deadline` (the command's `--timeout`). Without one, a
    /// writer waits as long as the lock is held.
    pub fn with_deadline(mut self, deadline: Instant) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// The default store directory: `RVO_DATA_DIR`, else `$XDG_DATA_HOME/rvo-cli` (when absolute),
    /// else `$HOME/.local/share/rvo-cli`. `env` looks up an environment variable.
    pub fn default_dir(env: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
        let non_empty = |name: &str| {
            env(name)
                .filter(|value| !value.is_empty())
                .map(PathBuf::from)
        };
        if let Some(dir) = non_empty("RVO_DATA_DIR") {
            return Some(dir);
        }
        if let Some(xdg) = non_empty("XDG_DATA_HOME").filter(|path| path.is_absolute()) {
            return Some(xdg.join("rvo-cli"));
        }
        non_empty("HOME").map(|home| home.join(".local/share/rvo-cli"))
    }

    /// The store directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Pauses the writer at `phase` for `duration` (crash tests only; see [`Phase`]).
    #[cfg(any(test, feature = "test-hooks"))]
    pub fn with_pause(mut self, phase: Phase, duration: std::time::Duration) -> Self {
        self.pause = hook::Pause::at(phase, duration);
        self
    }

    fn records_dir(&self) -> PathBuf {
        self.dir.join(RECORDS_DIR)
    }

    fn record_path(&self, idempotency_key: &str) -> PathBuf {
        self.records_dir().join(format!("{idempotency_key}.json"))
    }

    /// Files `filing` exactly once under `idempotency_key` (the plan digest: 64 lower-case hex):
    /// [`prepare`](Self::prepare) and, for a new report, [`PendingFiling::commit`] right away.
    ///
    /// - First time: writes a record and returns the result with `replayed: false`.
    /// - Same key and same request again: returns the first result with `replayed: true`.
    /// - Same key with another request: [`StoreError::Conflict`]; nothing is written.
    pub fn file(
        &self,
        idempotency_key: &str,
        filing: &ValidFiling<'_>,
        now: DateTime<Utc>,
    ) -> Result<FilingResult, StoreError> {
        match self.prepare(idempotency_key, filing, now)? {
            Prepared::Replay(result) => Ok(result),
            Prepared::Pending(pending) => {
                let result = pending.result().clone();
                pending.commit()?;
                Ok(result)
            }
        }
    }

    /// The first phase of filing `filing` under `idempotency_key`: under the exclusive lock,
    /// either the stored result ([`Prepared::Replay`]; a different request under the same key is
    /// [`StoreError::Conflict`]) or a new record written and synced to a temporary file
    /// ([`Prepared::Pending`]), which keeps the lock until it is committed or dropped.
    ///
    /// Between the two phases the caller writes what must exist before the report does (the
    /// CLI: the audit record). Other writers of this store wait for the lock meanwhile.
    pub fn prepare(
        &self,
        idempotency_key: &str,
        filing: &ValidFiling<'_>,
        now: DateTime<Utc>,
    ) -> Result<Prepared, StoreError> {
        if let Some(result) = self.lookup(idempotency_key, &filing.aanvraag)? {
            return Ok(Prepared::Replay(result));
        }
        let request_sha256 = canonical_sha256(&filing.aanvraag).map_err(StoreError::encode)?;

        let records_dir = self.records_dir();
        fs::create_dir_all(&records_dir)
            .map_err(|e| StoreError::io("map aanmaken", &records_dir, e))?;
        let lock = self.lock_exclusive()?;
        self.pause.at_phase(hook::Phase::Locked);
        self.remove_stale_temp_files()?;
        if let Some(existing) = self.read_record(idempotency_key)? {
            return replay(existing, &request_sha256).map(Prepared::Replay);
        }

        let taken: std::collections::HashSet<String> = self
            .records()?
            .records
            .into_iter()
            .map(|r| r.resultaat.referentienummer)
            .collect();
        let ingediend_op = now.trunc_subsecs(3);
        let referentienummer = loop {
            let candidate =
                new_reference(&filing.regeling.id, ingediend_op).map_err(StoreError::Random)?;
            if !taken.contains(&candidate) {
                break candidate;
            }
        };
        let resultaat = build_result(
            Some(filing.regeling),
            &filing.aanvraag,
            &referentienummer,
            ingediend_op,
            Backend::Lokaal,
        );
        let record = StoredRecord {
            formaat: RECORD_FORMAT,
            idempotency_key: idempotency_key.to_string(),
            request_sha256,
            aanvraag: filing.aanvraag.clone(),
            resultaat,
        };
        PendingFiling::write(
            &records_dir,
            self.record_path(idempotency_key),
            &record,
            self.pause,
            lock,
        )
        .map(Prepared::Pending)
    }

    /// Whether `idempotency_key` completed, without taking the lock: its first result as a replay
    /// (`replayed: true`), `None` when it was never filed, [`StoreError::Conflict`] when it was
    /// filed for another request, [`StoreError::Corrupt`] when its record is bad. A completed
    /// record never changes, so this answer stands; callers look here before any check whose
    /// outcome can change between a filing and its retry (the date, the catalogue).
    pub fn lookup(
        &self,
        idempotency_key: &str,
        aanvraag: &RapportageAanvraag,
    ) -> Result<Option<FilingResult>, StoreError> {
        check_key(idempotency_key)?;
        let request_sha256 = canonical_sha256(aanvraag).map_err(StoreError::encode)?;
        self.read_record(idempotency_key)?
            .map(|existing| replay(existing, &request_sha256))
            .transpose()
    }

    /// The result stored under `idempotency_key`, if any (as a replay would return it).
    pub fn find_by_key(&self, idempotency_key: &str) -> Result<Option<FilingResult>, StoreError> {
        check_key(idempotency_key)?;
        Ok(self
            .read_record(idempotency_key)?
            .map(|record| replayed(record.resultaat)))
    }

    /// The report with `referentienummer`, if filed in this store. Bad records elsewhere do not
    /// matter when the reference is found among the sound ones (and only there); when it is not,
    /// a bad record might hold it, so the answer is [`StoreError::Corrupt`] naming the first bad
    /// file rather than "not found".
    pub fn get(&self, referentienummer: &str) -> Result<Option<FilingResult>, StoreError> {
        let scan = self.records()?;
        if let Some(record) = scan
            .records
            .into_iter()
            .find(|record| record.resultaat.referentienummer == referentienummer)
        {
            return Ok(Some(record.resultaat));
        }
        match scan.bad.into_iter().next() {
            Some(bad) => Err(bad.into()),
            None => Ok(None),
        }
    }

    /// All sound reports, optionally only those of `kvk_nummer`, oldest first, and the bad
    /// record files (whose owner cannot be known).
    pub fn list(
        &self,
        kvk_nummer: Option<&str>,
    ) -> Result<(Vec<FilingResult>, Vec<BadRecord>), StoreError> {
        let scan = self.records()?;
        let mut results: Vec<FilingResult> = scan
            .records
            .into_iter()
            .map(|record| record.resultaat)
            .filter(|result| kvk_nummer.is_none_or(|kvk| result.kvk_nummer == kvk))
            .collect();
        results.sort_by(|a, b| {
            (a.ingediend_op, &a.referentienummer).cmp(&(b.ingediend_op, &b.referentienummer))
        });
        Ok((results, scan.bad))
    }

    /// Every record file, sorted into sound records and bad ones; temporary files are skipped.
    /// Two records with the same reference number are both bad. A missing store is empty.
    pub fn records(&self) -> Result<Scan, StoreError> {
        let records_dir = self.records_dir();
        let entries = match fs::read_dir(&records_dir) {
            Ok(entries) => entries,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Scan::default());
            }
            Err(error) => return Err(StoreError::io("map lezen", &records_dir, error)),
        };
        let mut scan = Scan::default();
        for entry in entries {
            let entry = entry.map_err(|e| StoreError::io("map lezen", &records_dir, e))?;
            let Some(key) = record_key(&entry.file_name()) else {
                continue;
            };
            match self.read_record(&key) {
                Ok(Some(record)) => scan.records.push(record),
                Ok(None) => {}
                Err(StoreError::Corrupt { path, detail }) => {
                    scan.bad.push(BadRecord { path, detail });
                }
                Err(other) => return Err(other),
            }
        }
        self.set_aside_duplicates(&mut scan);
        scan.bad.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(scan)
    }

    /// Moves every record whose reference number another record also has to the bad ones.
    fn set_aside_duplicates(&self, scan: &mut Scan) {
        let mut count: HashMap<String, usize> = HashMap::new();
        for record in &scan.records {
            *count
                .entry(record.resultaat.referentienummer.clone())
                .or_default() += 1;
        }
        let (duplicates, sound): (Vec<_>, Vec<_>) = std::mem::take(&mut scan.records)
            .into_iter()
            .partition(|record| count[&record.resultaat.referentienummer] > 1);
        scan.records = sound;
        scan.bad
            .extend(duplicates.into_iter().map(|record| BadRecord {
                path: self.record_path(&record.idempotency_key),
                detail: format!(
                    "referentienummer {} staat ook in een ander record",
                    record.resultaat.referentienummer
                ),
            }));
    }

    /// The record under `idempotency_key`: `None` when there is none, [`StoreError::Corrupt`]
    /// when the file is not a regular file, too large, unparseable or fails a check. The file is
    /// opened without following a symlink to a FIFO or device, so reading never blocks.
    fn read_record(&self, idempotency_key: &str) -> Result<Option<StoredRecord>, StoreError> {
        let path = self.record_path(idempotency_key);
        let corrupt = |detail: String| StoreError::Corrupt {
            path: path.clone(),
            detail,
        };
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_file() => {}
            Ok(_) => return Err(corrupt("geen gewoon bestand".to_string())),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(StoreError::io("record lezen", &path, error)),
        }
        let mut bytes = Vec::new();
        File::open(&path)
            .and_then(|file| file.take(MAX_RECORD_BYTES + 1).read_to_end(&mut bytes))
            .map_err(|error| StoreError::io("record lezen", &path, error))?;
        if bytes.len() as u64 > MAX_RECORD_BYTES {
            return Err(corrupt(format!("groter dan {MAX_RECORD_BYTES} bytes")));
        }
        let record: StoredRecord =
            serde_json::from_slice(&bytes).map_err(|error| corrupt(parse_problem(&error)))?;
        let problems = record.problems(idempotency_key);
        if problems.is_empty() {
            Ok(Some(record))
        } else {
            Err(corrupt(problems.join("; ")))
        }
    }

    /// Takes the store's exclusive lock, waiting at most until the deadline.
    #[allow(clippy::disallowed_methods, reason = "store lock")]
    fn lock_exclusive(&self) -> Result<File, StoreError> {
        let path = self.dir.join(LOCK_FILE);
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| StoreError::io("slotbestand openen", &path, e))?;
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(file),
                Err(TryLockError::WouldBlock) => {}
                Err(TryLockError::Error(error)) => {
                    return Err(StoreError::io("slot nemen", &path, error));
                }
            }
            let wait = match self.deadline {
                Some(deadline) => match deadline.checked_duration_since(Instant::now()) {
                    Some(left) if !left.is_zero() => left.min(LOCK_POLL),
                    _ => return Err(StoreError::LockTimeout { path }),
                },
                None => LOCK_POLL,
            };
            std::thread::sleep(wait);
        }
    }

    /// Removes temporary files of writers that died. Only called while holding the lock, so no
    /// live writer owns one.
    fn remove_stale_temp_files(&self) -> Result<(), StoreError> {
        let records_dir = self.records_dir();
        let entries =
            fs::read_dir(&records_dir).map_err(|e| StoreError::io("map lezen", &records_dir, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| StoreError::io("map lezen", &records_dir, e))?;
            if entry.file_name().to_string_lossy().starts_with(TEMP_PREFIX) {
                let path = entry.path();
                fs::remove_file(&path)
                    .map_err(|e| StoreError::io("tijdelijk bestand opruimen", &path, e))?;
            }
        }
        Ok(())
    }
}

/// What is wrong with an unparseable record, without quoting it: serde's messages can contain
/// values from the file, which may be another company's data.
fn parse_problem(error: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let what = match error.classify() {
        Category::Eof => "afgebroken JSON",
        Category::Syntax => "ongeldige JSON",
        Category::Data => "JSON van een andere vorm dan een record",
        Category::Io => "leesfout",
    };
    format!(
        "geen geldig record: {what} (regel {}, kolom {})",
        error.line(),
        error.column()
    )
}

/// Returns the stored result as a replay, or a conflict when the request differs.
fn replay(existing: StoredRecord, request_sha256: &str) -> Result<FilingResult, StoreError> {
    if existing.request_sha256 != request_sha256 {
        return Err(StoreError::Conflict {
            idempotency_key: existing.idempotency_key,
            referentienummer: existing.resultaat.referentienummer,
        });
    }
    Ok(replayed(existing.resultaat))
}

fn replayed(mut result: FilingResult) -> FilingResult {
    result.replayed = true;
    result
}

/// Whether `key` is a plan digest: 64 lower-case hex digits. Keeps keys safe as file names.
pub fn is_valid_key(key: &str) -> bool {
    key.len() == 64
        && key
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fn check_key(key: &str) -> Result<(), StoreError> {
    if is_valid_key(key) {
        Ok(())
    } else {
        Err(StoreError::InvalidKey(key.to_string()))
    }
}

/// The idempotency key of a record file name (`<key>.json`), or `None` for other files.
pub fn record_key(file_name: &std::ffi::OsStr) -> Option<String> {
    let name = file_name.to_str()?;
    let key = name.strip_suffix(".json")?;
    is_valid_key(key).then(|| key.to_string())
}

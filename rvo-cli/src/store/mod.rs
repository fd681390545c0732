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
//! Readers take no lock; they only look at `<key>.json` names, which appear atomically.

mod error;
mod hook;
mod pending;
mod record;
#[cfg(test)]
mod tests;

use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::path::{Path, PathBuf};

use chrono::{DateTime, SubsecRound, Utc};

pub use error::StoreError;
#[cfg(any(test, feature = "test-hooks"))]
pub use hook::{PAUSE_ENV, Phase, install_pause, parse_pause};
pub use pending::{PendingFiling, Prepared};
pub use record::{RECORD_FORMAT, StoredRecord};

use crate::canonical::canonical_sha256;
use crate::filing::{Backend, FilingResult, ValidFiling, build_result};
use crate::reference::new_reference;

/// Name of the lock file in the store directory.
pub const LOCK_FILE: &str = ".lock";
/// Name of the directory that holds the records.
pub const RECORDS_DIR: &str = "rapportages";
/// Prefix of temporary files in [`RECORDS_DIR`].
pub const TEMP_PREFIX: &str = ".tmp-";

/// A local record store rooted at a directory. Cheap to create; touches the disk only when used.
#[derive(Debug, Clone)]
pub struct LocalStore {
    dir: PathBuf,
    pause: hook::Pause,
}

impl LocalStore {
    /// A store rooted at `dir`. Nothing is created until the first filing.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        LocalStore {
            dir: dir.into(),
            pause: hook::Pause::installed(),
        }
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
        check_key(idempotency_key)?;
        let request_sha256 = canonical_sha256(&filing.aanvraag).map_err(StoreError::encode)?;
        if let Some(existing) = self.read_record(idempotency_key)? {
            return replay(existing, &request_sha256).map(Prepared::Replay);
        }

        let records_dir = self.records_dir();
        fs::create_dir_all(&records_dir)
            .map_err(|e| StoreError::io("map aanmaken", &records_dir, e))?;
        let lock = self.lock_exclusive()?;
        self.pause.at_phase(hook::Phase::Locked);
        self.remove_stale_temp_files()?;
        if let Some(existing) = self.read_record(idempotency_key)? {
            return replay(existing, &request_sha256).map(Prepared::Replay);
        }

        let taken = self.references()?;
        let ingediend_op = now.trunc_subsecs(3);
        let referentienummer = loop {
            let candidate =
                new_reference(&filing.regeling.id, ingediend_op).map_err(StoreError::Random)?;
            if !taken.contains(&candidate) {
                break candidate;
            }
        };
        let resultaat = build_result(
            filing.regeling,
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

    /// The result stored under `idempotency_key`, if any (as a replay would return it).
    pub fn find_by_key(&self, idempotency_key: &str) -> Result<Option<FilingResult>, StoreError> {
        check_key(idempotency_key)?;
        Ok(self
            .read_record(idempotency_key)?
            .map(|record| replayed(record.resultaat)))
    }

    /// The report with `referentienummer`, if filed in this store.
    pub fn get(&self, referentienummer: &str) -> Result<Option<FilingResult>, StoreError> {
        Ok(self
            .records()?
            .into_iter()
            .find(|record| record.resultaat.referentienummer == referentienummer)
            .map(|record| record.resultaat))
    }

    /// All reports, optionally only those of `kvk_nummer`, oldest first.
    pub fn list(&self, kvk_nummer: Option<&str>) -> Result<Vec<FilingResult>, StoreError> {
        let mut results: Vec<FilingResult> = self
            .records()?
            .into_iter()
            .map(|record| record.resultaat)
            .filter(|result| kvk_nummer.is_none_or(|kvk| result.kvk_nummer == kvk))
            .collect();
        results.sort_by(|a, b| {
            (a.ingediend_op, &a.referentienummer).cmp(&(b.ingediend_op, &b.referentienummer))
        });
        Ok(results)
    }

    /// All complete records; temporary files are skipped. A missing store is empty.
    pub fn records(&self) -> Result<Vec<StoredRecord>, StoreError> {
        let records_dir = self.records_dir();
        let entries = match fs::read_dir(&records_dir) {
            Ok(entries) => entries,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => return Err(StoreError::io("map lezen", &records_dir, error)),
        };
        let mut records = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| StoreError::io("map lezen", &records_dir, e))?;
            if let Some(key) = record_key(&entry.file_name())
                && let Some(record) = self.read_record(&key)?
            {
                records.push(record);
            }
        }
        Ok(records)
    }

    fn references(&self) -> Result<std::collections::HashSet<String>, StoreError> {
        Ok(self
            .records()?
            .into_iter()
            .map(|r| r.resultaat.referentienummer)
            .collect())
    }

    fn read_record(&self, idempotency_key: &str) -> Result<Option<StoredRecord>, StoreError> {
        let path = self.record_path(idempotency_key);
        let bytes = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(StoreError::io("record lezen", &path, error)),
        };
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|error| StoreError::Corrupt {
                path,
                detail: error.to_string(),
            })
    }

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
        file.lock()
            .map_err(|e| StoreError::io("slot nemen", &path, e))?;
        Ok(file)
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

//! The two phases of a local filing: what [`LocalStore::prepare`](super::LocalStore::prepare)
//! hands back, and the commit that makes a prepared record durable.
//!
//! A [`PendingFiling`] holds the store's exclusive lock and a complete, synced temporary file with
//! the record. Until [`PendingFiling::commit`] renames it into place, no reader can see the report
//! and no other writer can file the same key. This gap is where the CLI writes the audit record,
//! so a report never exists without one (rule MUT-13). Dropping a pending filing without
//! committing it removes the temporary file and then releases the lock: nothing was filed.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use super::TEMP_PREFIX;
use super::error::StoreError;
use super::hook::{Pause, Phase};
use super::record::StoredRecord;
use crate::filing::FilingResult;

/// The first phase of a filing: either the key was filed before, or a record is ready to commit.
#[derive(Debug)]
pub enum Prepared {
    /// The same report was filed before under this key: its first result, `replayed: true`.
    /// Nothing is held and nothing needs to be committed.
    Replay(FilingResult),
    /// A new record, written and synced but not yet visible; commit it (or drop it to abandon).
    Pending(PendingFiling),
}

/// A record waiting to be committed, holding the store's lock until then.
#[derive(Debug)]
#[must_use = "a pending filing files nothing until it is committed"]
pub struct PendingFiling {
    // Field order is drop order: without a commit the temporary file is removed (by
    // `NamedTempFile`'s drop) before the lock is released (by closing the lock file).
    temp: NamedTempFile,
    final_path: PathBuf,
    records_dir: PathBuf,
    result: FilingResult,
    pause: Pause,
    lock: File,
}

impl PendingFiling {
    /// Writes `record` to a temporary file in `records_dir` and syncs it. `lock` is the store's
    /// exclusive lock, held by the caller; the pending filing keeps it until commit or drop.
    pub(super) fn write(
        records_dir: &Path,
        final_path: PathBuf,
        record: &StoredRecord,
        pause: Pause,
        lock: File,
    ) -> Result<Self, StoreError> {
        let mut bytes = serde_json::to_vec_pretty(record).map_err(StoreError::encode)?;
        bytes.push(b'\n');
        let mut temp = tempfile::Builder::new()
            .prefix(TEMP_PREFIX)
            .suffix(".json")
            .tempfile_in(records_dir)
            .map_err(|e| StoreError::io("tijdelijk bestand aanmaken", records_dir, e))?;
        let temp_path = temp.path().to_path_buf();
        let write_error = |e| StoreError::io("record schrijven", &temp_path, e);
        let (first_half, second_half) = bytes.split_at(bytes.len() / 2);
        temp.write_all(first_half).map_err(write_error)?;
        temp.flush().map_err(write_error)?;
        pause.at_phase(Phase::HalfWritten);
        temp.write_all(second_half).map_err(write_error)?;
        temp.as_file().sync_all().map_err(write_error)?;
        pause.at_phase(Phase::Synced);
        Ok(PendingFiling {
            temp,
            final_path,
            records_dir: records_dir.to_path_buf(),
            result: record.resultaat.clone(),
            pause,
            lock,
        })
    }

    /// The result the report will have once committed (`replayed: false`).
    pub fn result(&self) -> &FilingResult {
        &self.result
    }

    /// Makes the report durable: renames the temporary file into place without overwriting,
    /// syncs the directory, and releases the lock. On failure the temporary file is removed and
    /// the lock released; a failed directory sync leaves the report in place (it is complete,
    /// only its durability across a power loss is in doubt).
    pub fn commit(self) -> Result<(), StoreError> {
        let PendingFiling {
            temp,
            final_path,
            records_dir,
            result: _,
            pause,
            lock,
        } = self;
        let committed = rename_into_place(temp, &final_path, &records_dir, pause);
        drop(lock);
        committed
    }
}

/// Renames `temp` to `final_path` (never overwriting) and syncs `records_dir`.
fn rename_into_place(
    temp: NamedTempFile,
    final_path: &Path,
    records_dir: &Path,
    pause: Pause,
) -> Result<(), StoreError> {
    pause.at_phase(Phase::Committing);
    temp.persist_noclobber(final_path)
        .map_err(|e| StoreError::io("record vastleggen", final_path, e.error))?;
    pause.at_phase(Phase::Renamed);
    File::open(records_dir)
        .and_then(|dir| dir.sync_all())
        .map_err(|e| StoreError::io("map synchroniseren", records_dir, e))
}

//! The two phases of a filing: a prepared filing holds the lock and is invisible until
//! committed; dropped or failed, it leaves nothing behind.

use std::time::Duration;

use super::*;

/// Whether another process (here: another open file description) could take the store's lock.
fn lock_is_held(dir: &Path) -> bool {
    let lock = File::open(dir.join(LOCK_FILE)).unwrap();
    match lock.try_lock() {
        Ok(()) => false,
        Err(std::fs::TryLockError::WouldBlock) => true,
        Err(std::fs::TryLockError::Error(error)) => panic!("try_lock: {error}"),
    }
}

/// Whether the store's lock becomes free within a few seconds. Not at once: other tests in this
/// process spawn helper processes, and a child between `fork` and `exec` briefly shares every
/// open file description of this process, the lock file's included, which keeps its lock.
fn lock_is_free(dir: &Path) -> bool {
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while lock_is_held(dir) {
        if std::time::Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

#[test]
fn a_pending_filing_is_invisible_and_holds_the_lock_until_committed() {
    let dir = tempfile::tempdir().unwrap();
    let store = LocalStore::new(dir.path());
    let request = input("68750110", &["LED"]);
    let key = key_for(&request);
    let Prepared::Pending(pending) = store.prepare(&key, &valid(&request), now()).unwrap() else {
        panic!("a new key must be pending");
    };
    assert!(!pending.result().replayed);
    let report = assert_consistent(dir.path(), 0);
    assert_eq!(report.temp_files.len(), 1, "{report:?}");
    assert!(store.find_by_key(&key).unwrap().is_none());
    assert!(lock_is_held(dir.path()), "the pending filing lost the lock");

    let expected = pending.result().clone();
    pending.commit().unwrap();
    assert!(lock_is_free(dir.path()), "commit kept the lock");
    let report = assert_consistent(dir.path(), 1);
    assert!(report.temp_files.is_empty(), "{report:?}");
    let stored = store.find_by_key(&key).unwrap().unwrap();
    assert_eq!(stored.referentienummer, expected.referentienummer);
    assert!(stored.replayed);

    match store.prepare(&key, &valid(&request), now()).unwrap() {
        Prepared::Replay(result) => assert_eq!(result.referentienummer, expected.referentienummer),
        Prepared::Pending(_) => panic!("a stored key must replay"),
    }
    assert!(lock_is_free(dir.path()), "a replay kept the lock");
}

#[test]
fn a_dropped_pending_filing_removes_its_temp_file_and_releases_the_lock() {
    let dir = tempfile::tempdir().unwrap();
    let store = LocalStore::new(dir.path());
    let request = input("68750110", &["LED"]);
    let key = key_for(&request);
    let prepared = store.prepare(&key, &valid(&request), now()).unwrap();
    assert!(matches!(prepared, Prepared::Pending(_)));
    drop(prepared);

    assert!(lock_is_free(dir.path()), "drop kept the lock");
    let report = assert_consistent(dir.path(), 0);
    assert!(report.temp_files.is_empty(), "{report:?}");
    let filed = store.file(&key, &valid(&request), now()).unwrap();
    assert!(!filed.replayed, "the abandoned filing must not count");
}

#[test]
fn a_commit_that_cannot_rename_fails_and_cleans_up() {
    let dir = tempfile::tempdir().unwrap();
    let store = LocalStore::new(dir.path());
    let request = input("68750110", &["LED"]);
    let key = key_for(&request);
    let Prepared::Pending(pending) = store.prepare(&key, &valid(&request), now()).unwrap() else {
        panic!("a new key must be pending");
    };
    // A writer that ignores the lock takes the name: the commit must not overwrite it.
    let path = dir.path().join(RECORDS_DIR).join(format!("{key}.json"));
    fs::write(&path, "intruder").unwrap();
    match pending.commit() {
        Err(StoreError::Io { action, .. }) => assert_eq!(action, "record vastleggen"),
        other => panic!("expected an I/O error, got {other:?}"),
    }
    assert_eq!(fs::read_to_string(&path).unwrap(), "intruder");
    assert!(lock_is_free(dir.path()), "a failed commit kept the lock");
    assert!(verify_store(dir.path()).unwrap().temp_files.is_empty());
}

//! Tests of the local store: exactly-once filing, replay, conflict, concurrency across threads
//! and processes, and consistency after a writer is killed at every phase.
//!
//! Multi-process tests re-run this test binary as helper processes (`child_filer`), which file
//! one report and print the outcome; crash tests pause them with the test-only hook and kill them.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Barrier};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use chrono::{DateTime, Utc};
use serde_json::json;

use super::*;
use crate::catalogue::Catalogue;
use crate::filing::{FilingInput, validate};
use crate::verify::verify_store;

const CHILD_DIR_ENV: &str = "RVO_STORE_TEST_CHILD_DIR";
const CHILD_START_ENV: &str = "RVO_STORE_TEST_START_AT_MS";

fn now() -> DateTime<Utc> {
    "2026-11-30T10:00:00.123456Z".parse().unwrap()
}

fn input(kvk: &str, measures: &[&str]) -> FilingInput {
    FilingInput {
        kvk_nummer: kvk.to_string(),
        regeling_id: "EBR-2027".to_string(),
        maatregelen: measures.iter().map(|m| m.to_string()).collect(),
        toelichting: None,
    }
}

fn valid(input: &FilingInput) -> ValidFiling<'static> {
    validate(Catalogue::embedded(), input, "2026-11-30".parse().unwrap()).unwrap()
}

/// The plan digest the CLI would use: SHA-256 of canonical `{command, arguments}`.
fn key_for(input: &FilingInput) -> String {
    let filing = valid(input);
    canonical_sha256(
        &json!({"command": "rvo-cli rapportage indienen", "arguments": filing.aanvraag}),
    )
    .unwrap()
}

fn assert_consistent(dir: &Path, records: usize) -> crate::verify::StoreReport {
    let report = verify_store(dir).unwrap();
    assert!(report.is_consistent(), "{report:?}");
    assert_eq!(report.records, records, "{report:?}");
    report
}

#[test]
fn files_once_and_replays_the_first_result() {
    let dir = tempfile::tempdir().unwrap();
    let store = LocalStore::new(dir.path());
    let request = input("68750110", &["LED-verlichting", "Isolatie dak"]);
    let key = key_for(&request);

    let first = store.file(&key, &valid(&request), now()).unwrap();
    assert!(!first.replayed);
    assert_eq!(first.backend, Backend::Lokaal);
    assert_eq!(
        first.ingediend_op.to_rfc3339(),
        "2026-11-30T10:00:00.123+00:00"
    );
    assert!(first.referentienummer.starts_with("RVO-EBR-2027-"));

    let later: DateTime<Utc> = "2026-12-01T09:00:00Z".parse().unwrap();
    let again = store.file(&key, &valid(&request), later).unwrap();
    assert!(again.replayed);
    assert_eq!(again.referentienummer, first.referentienummer);
    assert_eq!(again.ingediend_op, first.ingediend_op);
    assert_eq!(
        store.find_by_key(&key).unwrap().unwrap().referentienummer,
        first.referentienummer
    );
    assert_consistent(dir.path(), 1);
}

#[test]
fn same_key_with_another_request_is_a_conflict_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = LocalStore::new(dir.path());
    let request = input("68750110", &["LED-verlichting"]);
    let key = key_for(&request);
    let first = store.file(&key, &valid(&request), now()).unwrap();

    let other = input("68750110", &["Warmtepomp"]);
    match store.file(&key, &valid(&other), now()) {
        Err(StoreError::Conflict {
            referentienummer,
            idempotency_key,
        }) => {
            assert_eq!(referentienummer, first.referentienummer);
            assert_eq!(idempotency_key, key);
        }
        other => panic!("expected a conflict, got {other:?}"),
    }
    let stored = store.list(None).unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].maatregelen, ["LED-verlichting"]);
}

#[test]
fn rejects_keys_that_are_not_plan_digests() {
    let dir = tempfile::tempdir().unwrap();
    let store = LocalStore::new(dir.path());
    let request = input("68750110", &["LED"]);
    for bad in ["", "../../etc/passwd", &"A".repeat(64), &"a".repeat(63)] {
        assert!(matches!(
            store.file(bad, &valid(&request), now()),
            Err(StoreError::InvalidKey(_))
        ));
    }
    assert!(!dir.path().join(RECORDS_DIR).exists());
}

#[test]
fn reads_back_by_reference_and_lists_by_kvk_number() {
    let dir = tempfile::tempdir().unwrap();
    let store = LocalStore::new(dir.path());
    assert!(
        store.list(None).unwrap().is_empty(),
        "a missing store is empty"
    );
    assert!(
        !dir.path().join(RECORDS_DIR).exists(),
        "reading creates nothing"
    );

    let one = input("68750110", &["LED"]);
    let two = input("69599068", &["LED"]);
    let three = input("68750110", &["Isolatie"]);
    let first = store.file(&key_for(&one), &valid(&one), now()).unwrap();
    let later = now() + chrono::Duration::seconds(5);
    store.file(&key_for(&two), &valid(&two), later).unwrap();
    let third = store.file(&key_for(&three), &valid(&three), later).unwrap();

    assert_eq!(store.get(&first.referentienummer).unwrap().unwrap(), first);
    assert!(
        store
            .get("RVO-EBR-2027-000000000-000000")
            .unwrap()
            .is_none()
    );
    let of_kvk: Vec<String> = store
        .list(Some("68750110"))
        .unwrap()
        .into_iter()
        .map(|r| r.referentienummer)
        .collect();
    assert_eq!(of_kvk.len(), 2);
    assert_eq!(of_kvk[0], first.referentienummer, "oldest first");
    assert!(of_kvk.contains(&third.referentienummer));
    assert_eq!(store.list(None).unwrap().len(), 3);
    assert!(store.list(Some("12345678")).unwrap().is_empty());
}

#[test]
fn readers_ignore_a_leftover_half_written_temp_file_and_the_next_writer_removes_it() {
    let dir = tempfile::tempdir().unwrap();
    let records_dir = dir.path().join(RECORDS_DIR);
    fs::create_dir_all(&records_dir).unwrap();
    let debris = records_dir.join(".tmp-crashed.json");
    fs::write(&debris, br#"{"formaat":1,"idempotency_key":"ab"#).unwrap();
    let store = LocalStore::new(dir.path());

    assert!(store.list(None).unwrap().is_empty());
    let report = assert_consistent(dir.path(), 0);
    assert_eq!(report.temp_files, std::slice::from_ref(&debris));

    let request = input("68750110", &["LED"]);
    store
        .file(&key_for(&request), &valid(&request), now())
        .unwrap();
    assert!(!debris.exists());
    assert!(assert_consistent(dir.path(), 1).temp_files.is_empty());
}

#[test]
fn a_corrupt_record_is_an_error_not_a_silent_skip() {
    let dir = tempfile::tempdir().unwrap();
    let records_dir = dir.path().join(RECORDS_DIR);
    fs::create_dir_all(&records_dir).unwrap();
    fs::write(
        records_dir.join(format!("{}.json", "a".repeat(64))),
        b"{\"half",
    )
    .unwrap();
    let store = LocalStore::new(dir.path());
    assert!(matches!(store.list(None), Err(StoreError::Corrupt { .. })));
    let report = verify_store(dir.path()).unwrap();
    assert!(!report.is_consistent());
    assert_eq!(report.records, 0);
}

#[test]
fn verify_detects_a_tampered_record() {
    let dir = tempfile::tempdir().unwrap();
    let store = LocalStore::new(dir.path());
    let request = input("68750110", &["LED"]);
    let key = key_for(&request);
    store.file(&key, &valid(&request), now()).unwrap();
    let path = dir.path().join(RECORDS_DIR).join(format!("{key}.json"));
    let tampered = fs::read_to_string(&path)
        .unwrap()
        .replace("\"LED\"", "\"Zonnepanelen\"");
    fs::write(&path, tampered).unwrap();
    let report = verify_store(dir.path()).unwrap();
    assert!(
        report.problems.iter().any(|p| p.contains("request_sha256")),
        "{report:?}"
    );
}

#[test]
fn twenty_threads_filing_the_same_report_produce_one_record() {
    let dir = tempfile::tempdir().unwrap();
    let request = input("68750110", &["LED", "Isolatie"]);
    let key = key_for(&request);
    let barrier = Arc::new(Barrier::new(20));
    let handles: Vec<_> = (0..20)
        .map(|_| {
            let (dir, request, key, barrier) = (
                dir.path().to_path_buf(),
                request.clone(),
                key.clone(),
                barrier.clone(),
            );
            std::thread::spawn(move || {
                let store = LocalStore::new(dir);
                barrier.wait();
                store.file(&key, &valid(&request), Utc::now()).unwrap()
            })
        })
        .collect();
    let results: Vec<FilingResult> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(results.iter().filter(|r| !r.replayed).count(), 1);
    assert!(
        results
            .iter()
            .all(|r| r.referentienummer == results[0].referentienummer)
    );
    assert_consistent(dir.path(), 1);
}

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

/// Helper process: files one report into `$RVO_STORE_TEST_CHILD_DIR` and prints the outcome.
#[test]
#[ignore = "helper process, started by the multi-process tests"]
fn child_filer() {
    let Ok(dir) = std::env::var(CHILD_DIR_ENV) else {
        return;
    };
    if let Some(start_at) = std::env::var(CHILD_START_ENV)
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
    {
        let now_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis() as u64;
        std::thread::sleep(Duration::from_millis(start_at.saturating_sub(now_ms)));
    }
    let request = input("68750110", &["LED", "Isolatie"]);
    let result = LocalStore::new(dir)
        .file(&key_for(&request), &valid(&request), Utc::now())
        .unwrap();
    println!(
        "CHILD_RESULT {} {}",
        result.referentienummer, result.replayed
    );
}

fn spawn_child(dir: &Path, envs: &[(&str, String)]) -> Child {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args([
            "store::tests::child_filer",
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_DIR_ENV, dir)
        .env_remove(PAUSE_ENV)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in envs {
        command.env(name, value);
    }
    command.spawn().unwrap()
}

fn child_outcome(child: Child) -> (String, bool) {
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // libtest prints `test … ` before the helper's own output on the same line.
    let line = stdout
        .lines()
        .find_map(|l| l.split_once("CHILD_RESULT ").map(|(_, rest)| rest.trim()))
        .expect("result line");
    let (reference, replayed) = line.split_once(' ').unwrap();
    (reference.to_string(), replayed == "true")
}

#[test]
fn twenty_processes_filing_the_same_report_produce_one_record() {
    let dir = tempfile::tempdir().unwrap();
    let start_at = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis()
        + 1500;
    let children: Vec<Child> = (0..20)
        .map(|_| spawn_child(dir.path(), &[(CHILD_START_ENV, start_at.to_string())]))
        .collect();
    let outcomes: Vec<(String, bool)> = children.into_iter().map(child_outcome).collect();
    assert_eq!(
        outcomes.iter().filter(|(_, replayed)| !replayed).count(),
        1,
        "{outcomes:?}"
    );
    assert!(
        outcomes
            .iter()
            .all(|(reference, _)| *reference == outcomes[0].0),
        "{outcomes:?}"
    );
    assert_consistent(dir.path(), 1);
}

/// Starts a writer that pauses at `phase`, kills it (SIGKILL) there, and returns the store report.
fn kill_writer_at(dir: &Path, phase: Phase) -> crate::verify::StoreReport {
    let mut child = spawn_child(dir, &[(PAUSE_ENV, format!("{}:60000", phase.as_str()))]);
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let marker = format!("RVO_CLI_TEST_PAUSED {}", phase.as_str());
    let reached = stderr
        .lines()
        .map_while(Result::ok)
        .any(|line| line == marker);
    assert!(reached, "writer never reached {phase:?}");
    child.kill().unwrap();
    child.wait().unwrap();
    verify_store(dir).unwrap()
}

#[test]
fn a_writer_killed_at_any_phase_leaves_no_record_or_one_complete_record() {
    for (phase, records_after_kill) in [
        (Phase::Locked, 0),
        (Phase::HalfWritten, 0),
        (Phase::Synced, 0),
        (Phase::Committing, 0),
        (Phase::Renamed, 1),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let report = kill_writer_at(dir.path(), phase);
        assert!(report.is_consistent(), "{phase:?}: {report:?}");
        assert_eq!(report.records, records_after_kill, "{phase:?}: {report:?}");
        let store = LocalStore::new(dir.path());
        assert_eq!(
            store.list(None).unwrap().len(),
            records_after_kill,
            "{phase:?}"
        );

        // The lock died with the writer; the next filing completes (or replays) and cleans up.
        let request = input("68750110", &["LED", "Isolatie"]);
        let result = store
            .file(&key_for(&request), &valid(&request), now())
            .unwrap();
        assert_eq!(result.replayed, records_after_kill == 1, "{phase:?}");
        let report = assert_consistent(dir.path(), 1);
        assert!(report.temp_files.is_empty(), "{phase:?}: {report:?}");
    }
}

fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
    move |name| {
        pairs
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| OsString::from(v))
    }
}

#[test]
fn default_dir_prefers_rvo_data_dir_then_xdg_then_home() {
    let all = [
        ("RVO_DATA_DIR", "/data/rvo"),
        ("XDG_DATA_HOME", "/xdg"),
        ("HOME", "/home/u"),
    ];
    assert_eq!(
        LocalStore::default_dir(env(&all)),
        Some(PathBuf::from("/data/rvo"))
    );
    let xdg = [
        ("RVO_DATA_DIR", ""),
        ("XDG_DATA_HOME", "/xdg"),
        ("HOME", "/home/u"),
    ];
    assert_eq!(
        LocalStore::default_dir(env(&xdg)),
        Some(PathBuf::from("/xdg/rvo-cli"))
    );
    let relative_xdg = [("XDG_DATA_HOME", "rel"), ("HOME", "/home/u")];
    assert_eq!(
        LocalStore::default_dir(env(&relative_xdg)),
        Some(PathBuf::from("/home/u/.local/share/rvo-cli"))
    );
    assert_eq!(LocalStore::default_dir(env(&[])), None);
}

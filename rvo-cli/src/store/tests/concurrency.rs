//! Many writers at once: twenty threads, twenty processes, and a writer killed (SIGKILL) at
//! every phase.
//!
//! Multi-process tests re-run this test binary as helper processes (`child_filer`), which file
//! one report and print the outcome; crash tests make them pause with the test-only hook
//! (`RVO_CLI_TEST_PAUSE`, read by the helper itself) and kill them there.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Barrier};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::*;

const CHILD_DIR_ENV: &str = "RVO_STORE_TEST_CHILD_DIR";
const CHILD_START_ENV: &str = "RVO_STORE_TEST_START_AT_MS";

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

/// Helper process: files one report into `$RVO_STORE_TEST_CHILD_DIR` and prints the outcome.
#[test]
#[ignore = "helper process, started by the multi-process tests"]
#[allow(clippy::disallowed_methods, reason = "set by parent test")]
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
    let store = match std::env::var(PAUSE_ENV)
        .ok()
        .as_deref()
        .and_then(parse_pause)
    {
        Some((phase, duration)) => LocalStore::new(dir).with_pause(phase, duration),
        None => LocalStore::new(dir),
    };
    let result = store
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
            "store::tests::concurrency::child_filer",
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
            store.list(None).unwrap().0.len(),
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

//! The store through its public API in a hook-enabled test build: a writer paused while holding
//! the lock makes a concurrent writer of the same report wait and then replay, never file twice.
//! Also proves that the `test-hooks` feature reaches integration tests (via the self
//! dev-dependency), as the CLI's crash tests will need.

use std::time::{Duration, Instant};

use chrono::Utc;
use rvo_cli::catalogue::Catalogue;
use rvo_cli::filing::{FilingInput, idempotency_key, validate};
use rvo_cli::store::{LocalStore, Phase};
use rvo_cli::verify::verify_store;

#[test]
fn a_second_writer_waits_for_the_lock_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    let input = FilingInput {
        kvk_nummer: "68750110".into(),
        regeling_id: "EBR-2027".into(),
        maatregelen: vec!["LED".into()],
        toelichting: None,
        inhoud: None,
    };
    let filing = validate(Catalogue::embedded(), &input, "2026-11-30".parse().unwrap()).unwrap();
    let key = idempotency_key(&filing.aanvraag).unwrap();

    let slow = LocalStore::new(dir.path()).with_pause(Phase::Locked, Duration::from_millis(400));
    let (slow_filing, slow_key) = (filing.clone(), key.clone());
    let first = std::thread::spawn(move || slow.file(&slow_key, &slow_filing, Utc::now()).unwrap());
    std::thread::sleep(Duration::from_millis(100));

    let started = Instant::now();
    let second = LocalStore::new(dir.path())
        .file(&key, &filing, Utc::now())
        .unwrap();
    assert!(
        started.elapsed() >= Duration::from_millis(200),
        "second writer did not wait for the lock"
    );
    let first = first.join().unwrap();

    assert!(!first.replayed);
    assert!(second.replayed);
    assert_eq!(first.referentienummer, second.referentienummer);
    let report = verify_store(dir.path()).unwrap();
    assert!(report.is_consistent() && report.records == 1, "{report:?}");
}

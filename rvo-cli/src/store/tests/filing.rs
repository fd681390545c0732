//! Exactly-once filing in one process: first filing, replay, conflict, key checks, reading back.

use super::*;

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
    let stored = store.list(None).unwrap().0;
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].maatregelen, ["led-verlichting"]);
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
        store.list(None).unwrap().0.is_empty(),
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
        .0
        .into_iter()
        .map(|r| r.referentienummer)
        .collect();
    assert_eq!(of_kvk.len(), 2);
    assert_eq!(of_kvk[0], first.referentienummer, "oldest first");
    assert!(of_kvk.contains(&third.referentienummer));
    assert_eq!(store.list(None).unwrap().0.len(), 3);
    assert!(store.list(Some("12345678")).unwrap().0.is_empty());
}

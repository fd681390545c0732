//! What the store finds on disk: debris of a crashed writer, corrupt or tampered records, and
//! where the store lives by default.

use super::*;

#[test]
fn readers_ignore_a_leftover_half_written_temp_file_and_the_next_writer_removes_it() {
    let dir = tempfile::tempdir().unwrap();
    let records_dir = dir.path().join(RECORDS_DIR);
    fs::create_dir_all(&records_dir).unwrap();
    let debris = records_dir.join(".tmp-crashed.json");
    fs::write(&debris, br#"{"formaat":1,"idempotency_key":"ab"#).unwrap();
    let store = LocalStore::new(dir.path());

    assert!(store.list(None).unwrap().0.is_empty());
    let report = assert_consistent(dir.path(), 0);
    assert_eq!(report.temp_files, std::slice::from_ref(&debris));

    let request = input("68750110", &["LED"]);
    store
        .file(&key_for(&request), &valid(&request), now())
        .unwrap();
    assert!(!debris.exists());
    assert!(assert_consistent(dir.path(), 1).temp_files.is_empty());
}

/// A store with one sound record and, next to it, one bad record of every kind: truncated,
/// garbage, a wrong format version, a result for another KvK number, a key that is not the digest
/// of its request, a duplicate reference, and a FIFO (which must not block a reader).
struct Damaged {
    dir: tempfile::TempDir,
    good: FilingResult,
    bad_files: Vec<PathBuf>,
}

fn damaged_store() -> Damaged {
    let dir = tempfile::tempdir().unwrap();
    let store = LocalStore::new(dir.path());
    let records_dir = dir.path().join(RECORDS_DIR);
    let request = input("68750110", &["LED"]);
    let good_key = key_for(&request);
    let good = store.file(&good_key, &valid(&request), now()).unwrap();
    let good_json: serde_json::Value =
        serde_json::from_slice(&fs::read(records_dir.join(format!("{good_key}.json"))).unwrap())
            .unwrap();

    let mut bad_files = Vec::new();
    let mut write_bad = |measure: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let other = input("68750110", &[measure]);
        let key = key_for(&other);
        let path = records_dir.join(format!("{key}.json"));
        store.file(&key, &valid(&other), now()).unwrap();
        let mut record: serde_json::Value =
            serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        edit(&mut record);
        fs::write(&path, serde_json::to_vec(&record).unwrap()).unwrap();
        bad_files.push(path);
    };
    write_bad("format", &|r| r["formaat"] = 99.into());
    write_bad("shape", &|r| r["formaat"] = "GEHEIM-87654321".into());
    write_bad("kvk", &|r| r["resultaat"]["kvk_nummer"] = "12345678".into());
    write_bad("duplicate", &|r| {
        r["resultaat"]["referentienummer"] = good_json["resultaat"]["referentienummer"].clone();
        r["resultaat"]["lopende_zaak"]["referentienummer"] =
            good_json["resultaat"]["referentienummer"].clone();
    });
    write_bad("key", &|r| {
        // Request and result changed together, with a matching request_sha256: only the key
        // (the digest of the request) can tell.
        let aanvraag = json!({"kvk_nummer": "68750110", "regeling_id": "EBR-2027", "maatregelen": ["zonnepanelen"]});
        r["request_sha256"] = canonical_sha256(&aanvraag).unwrap().into();
        r["aanvraag"] = aanvraag;
        r["resultaat"]["maatregelen"] = json!(["zonnepanelen"]);
    });
    let truncated = records_dir.join(format!("{}.json", "a".repeat(64)));
    fs::write(&truncated, b"{\"half").unwrap();
    let garbage = records_dir.join(format!("{}.json", "b".repeat(64)));
    fs::write(&garbage, [0xff, 0x00, 0x13]).unwrap();
    let fifo = records_dir.join(format!("{}.json", "c".repeat(64)));
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    bad_files.extend([truncated, garbage, fifo]);
    // The duplicate makes the sound record's reference ambiguous too.
    bad_files.push(records_dir.join(format!("{good_key}.json")));
    bad_files.sort();
    Damaged {
        dir,
        good,
        bad_files,
    }
}

#[test]
fn bad_records_are_named_and_set_aside_and_the_others_stay_readable() {
    let damaged = damaged_store();
    let store = LocalStore::new(damaged.dir.path());
    let (sound, bad) = store.list(None).unwrap();
    let bad_paths: Vec<PathBuf> = bad.iter().map(|b| b.path.clone()).collect();
    assert_eq!(bad_paths, damaged.bad_files, "{bad:#?}");
    let details: Vec<&str> = bad.iter().map(|b| b.detail.as_str()).collect();
    for expected in [
        "onbekend recordformaat 99",
        "resultaat past niet bij de aanvraag",
        "staat ook in een ander record",
        "de sleutel is niet de digest van de aanvraag",
        "geen geldig record",
        "geen gewoon bestand",
    ] {
        assert!(
            details.iter().any(|d| d.contains(expected)),
            "{expected}: {details:#?}"
        );
    }
    // A bad record's contents are never quoted (they may be another company's data).
    assert!(
        details.iter().all(|d| !d.contains("GEHEIM")),
        "{details:#?}"
    );
    // The sound record became ambiguous through the duplicate; nothing else is listed.
    assert!(sound.is_empty(), "{sound:#?}");
    let _ = &damaged.good;

    // Filing another report still works, and it can be read back.
    let request = input("68750110", &["Warmtepomp"]);
    let filed = store
        .file(&key_for(&request), &valid(&request), now())
        .unwrap();
    assert_eq!(store.get(&filed.referentienummer).unwrap().unwrap(), filed);
    assert_eq!(store.list(None).unwrap().0, [filed]);
}

#[test]
fn a_filing_whose_own_record_is_bad_names_it_and_writes_nothing() {
    let damaged = damaged_store();
    let store = LocalStore::new(damaged.dir.path());
    let request = input("68750110", &["kvk"]);
    let key = key_for(&request);
    let path = damaged
        .dir
        .path()
        .join(RECORDS_DIR)
        .join(format!("{key}.json"));
    let before = fs::read(&path).unwrap();
    match store.file(&key, &valid(&request), now()) {
        Err(StoreError::Corrupt {
            path: named,
            detail,
        }) => {
            assert_eq!(named, path);
            assert!(detail.contains("resultaat past niet"), "{detail}");
        }
        other => panic!("expected a bad record, got {other:?}"),
    }
    assert_eq!(fs::read(&path).unwrap(), before);
    // A reference that only a bad record could hold is not "not found".
    assert!(matches!(
        store.get("RVO-EBR-2027-0000000000-000000"),
        Err(StoreError::Corrupt { .. })
    ));
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
        .replace("\"led\"", "\"zonnepanelen\"");
    fs::write(&path, tampered).unwrap();
    let report = verify_store(dir.path()).unwrap();
    assert!(
        report.problems.iter().any(|p| p.contains("request_sha256")),
        "{report:?}"
    );
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

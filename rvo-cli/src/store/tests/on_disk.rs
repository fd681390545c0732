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

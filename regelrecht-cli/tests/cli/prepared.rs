//! Prepared laws in the cache (CACHE-5): a corpus law is parsed from its YAML once and read from
//! its JSON form after that, with the same answer; `--geen-cache`, a cap of 0 and `--dry-run`
//! leave the cache alone; a damaged form is replaced; `cache leeg` removes them; built-in laws
//! never touch it.

use std::os::unix::fs::MetadataExt;
use std::time::{Duration, SystemTime};

use test_support::cli::forge_cache_entry as forge;

use crate::support::{BAL, Sandbox, evalueer_kleine_wet, run};

/// The cache's prepared laws: its entries but the index of a corpus directory (the walk and the
/// scan of its files, in a binary form starting `RRCIDX`), which every load of a directory keeps
/// beside them.
fn prepared_laws(sandbox: &Sandbox) -> Vec<std::path::PathBuf> {
    sandbox
        .cache_entries()
        .into_iter()
        .filter(|entry| {
            let body = std::fs::read(entry).unwrap_or_default();
            !body.windows(6).any(|w| w == b"RRCIDX")
        })
        .collect()
}

const LAW: &str = "$id: kleine_wet\nname: Kleine wet\nregulatory_layer: WET\nvalid_from: '2025-01-01'\narticles:\n  - number: '1'\n    text: Het bedrag is tien euro.\n    machine_readable:\n      definitions:\n        bedrag: 1000\n        factor: 1.50\n      execution:\n        output:\n          - name: bedrag_eurocent\n            type: amount\n        actions:\n          - output: bedrag_eurocent\n            value:\n              operation: MULTIPLY\n              values: [$bedrag, $factor]\n";

/// `evalueer kleine_wet` with the law in the sandbox's corpus, plus `extra`.
fn evalueer(sandbox: &Sandbox, extra: &[&str]) -> test_support::cli::Run {
    let dir = sandbox.path().join("wetten").display().to_string();
    evalueer_kleine_wet(sandbox, &dir, extra)
}

fn sandbox_with_law() -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.write("wetten/kleine_wet/2025-01-01.yaml", LAW);
    sandbox
}

#[test]
fn a_corpus_law_is_read_from_its_prepared_form_the_second_time() {
    let sandbox = sandbox_with_law();
    let first = evalueer(&sandbox, &[]).json();
    assert_eq!(first["uitvoer"]["bedrag_eurocent"], 1500);
    let kept = prepared_laws(&sandbox);
    assert_eq!(kept.len(), 1, "one prepared law: {kept:?}");
    let body = std::fs::read_to_string(&kept[0]).unwrap();
    assert!(body.contains("\"$id\":\"kleine_wet\""), "{body}");

    // A hit refreshes the entry's time (the LRU clock) in place; a miss would have stored a new
    // file (a new inode) by renaming it over the old one.
    let inode = std::fs::metadata(&kept[0]).unwrap().ino();
    let past = SystemTime::now() - Duration::from_secs(86_400);
    std::fs::File::options()
        .write(true)
        .open(&kept[0])
        .unwrap()
        .set_modified(past)
        .unwrap();
    let second = evalueer(&sandbox, &[]).json();
    assert_eq!(second, first, "the same answer, byte for byte");
    let touched = std::fs::metadata(&kept[0]).unwrap().modified().unwrap();
    assert!(touched > past + Duration::from_secs(3600));
    assert_eq!(
        std::fs::metadata(&kept[0]).unwrap().ino(),
        inode,
        "read, not stored again"
    );
    assert_eq!(prepared_laws(&sandbox), kept);
}

#[test]
fn an_edited_law_gets_its_own_prepared_form() {
    let sandbox = sandbox_with_law();
    evalueer(&sandbox, &[]).json();
    sandbox.write(
        "wetten/kleine_wet/2025-01-01.yaml",
        &LAW.replace("factor: 1.50", "factor: 2"),
    );
    let edited = evalueer(&sandbox, &[]).json();
    assert_eq!(edited["uitvoer"]["bedrag_eurocent"], 2000);
    assert_eq!(prepared_laws(&sandbox).len(), 2);
}

#[test]
fn a_damaged_prepared_form_is_parsed_again_and_replaced() {
    let sandbox = sandbox_with_law();
    let first = evalueer(&sandbox, &[]).json();
    let kept = prepared_laws(&sandbox);
    let whole = std::fs::read(&kept[0]).unwrap();
    std::fs::write(&kept[0], &whole[..whole.len() - 10]).unwrap();
    assert_eq!(evalueer(&sandbox, &[]).json(), first);
    assert_eq!(std::fs::read(&kept[0]).unwrap(), whole);
}

#[test]
fn geen_cache_a_cap_of_0_and_a_dry_run_leave_the_cache_alone() {
    let sandbox = sandbox_with_law();
    let answer = evalueer(&sandbox, &["--geen-cache"]).json();
    assert_eq!(answer["uitvoer"]["bedrag_eurocent"], 1500);
    evalueer(&sandbox, &["--dry-run"]).json();
    let dir = sandbox.path().join("wetten").display().to_string();
    let mut off = sandbox.cmd();
    off.env("OVERHEID_CACHE_MAX_BYTES", "0");
    run(
        off,
        [
            "evalueer",
            "kleine_wet",
            "--uitvoer",
            "bedrag_eurocent",
            "--corpus",
            &dir,
        ],
    )
    .json();
    assert!(!sandbox.cache_dir().exists());
}

#[test]
fn built_in_laws_never_touch_the_cache() {
    let sandbox = Sandbox::new();
    run(
        sandbox.cmd(),
        [
            "evalueer",
            BAL,
            "--uitvoer",
            "heeft_informatieplicht",
            "--peildatum",
            "2026-01-01",
            "--param",
            "elektriciteitsverbruik_kwh=60000",
            "--param",
            "aardgasverbruik_m3=1000",
            "--param",
            "betreft_gebruiksfunctie_bbl=false",
            "--param",
            "alleen_hernieuwbare_energie_op_locatie=false",
            "--param",
            "is_activiteit_artikel_3_3a_lid_1_onder_a=false",
            "--param",
            "is_activiteit_artikel_3_3a_lid_1_onder_b=false",
        ],
    )
    .json();
    assert!(!sandbox.cache_dir().exists());
}

#[test]
fn cache_leeg_removes_the_prepared_laws_and_the_index() {
    let sandbox = sandbox_with_law();
    evalueer(&sandbox, &[]).json();
    assert_eq!(prepared_laws(&sandbox).len(), 1);
    let cleared = run(sandbox.cmd(), ["cache", "leeg"]).json();
    // The prepared law and the index of its directory.
    assert_eq!(cleared["verwijderd"], 2, "{cleared}");
    assert!(sandbox.cache_entries().is_empty());
}

#[test]
fn an_unusable_cache_is_a_warning_and_the_answer_stands() {
    let sandbox = sandbox_with_law();
    // The cache's place is a file: no directory can be made there.
    sandbox.write(".cache/overheid-cli", "geen map");
    let answer = evalueer(&sandbox, &[]);
    assert_eq!(
        answer.json_after_warnings()["uitvoer"]["bedrag_eurocent"],
        1500
    );
    assert!(
        answer.stderr.starts_with("waarschuwing: "),
        "{}",
        answer.stderr
    );
    assert!(answer.stderr.contains("cache"), "{}", answer.stderr);
}

/// A form that makes the factor 3 (1000 × 3 = 3000 instead of 1500).
fn tripled(body: &str) -> String {
    assert!(body.contains("\"factor\":1.5}"), "{body}");
    body.replace("\"factor\":1.5}", "\"factor\":3}")
}

/// CACHE-6: an edited prepared form in a directory that group or others can write, or one they
/// can write themselves, is not used: one warning, the law is parsed from its YAML, and the form
/// is left as it is. In the user's own private directory (the control) the same form is read.
#[test]
fn a_prepared_form_others_could_have_written_is_not_used() {
    use std::os::unix::fs::PermissionsExt;
    let chmod = |p: &std::path::Path, mode: u32| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap()
    };
    let sandbox = sandbox_with_law();
    evalueer(&sandbox, &[]).json();
    let [form] = prepared_laws(&sandbox).try_into().unwrap();
    forge(&form, tripled);
    let dir = sandbox.cache_dir();
    for (dir_mode, file_mode) in [(0o775, 0o600), (0o700, 0o606)] {
        chmod(&dir, dir_mode);
        chmod(&form, file_mode);
        let out = evalueer(&sandbox, &[]);
        let answer = out.json_after_warnings();
        assert_eq!(
            answer["uitvoer"]["bedrag_eurocent"], 1500,
            "{dir_mode:o} {file_mode:o}"
        );
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
        assert!(out.stderr.contains("chmod go-w"), "{}", out.stderr);
        let kept = std::fs::read_to_string(&form).unwrap();
        assert!(kept.contains("\"factor\":3"), "not replaced");
    }
    chmod(&dir, 0o700);
    chmod(&form, 0o600);
    let control = evalueer(&sandbox, &[]).json();
    assert_eq!(control["uitvoer"]["bedrag_eurocent"], 3000, "the control");
}

/// CACHE-5: a prepared form names the SHA-256 of the law file it was made from, and is used only
/// for that file: one that names another file's digest is parsed from the YAML again.
#[test]
fn a_prepared_form_is_checked_against_its_source_files_digest() {
    let sandbox = sandbox_with_law();
    evalueer(&sandbox, &[]).json();
    let [form] = prepared_laws(&sandbox).try_into().unwrap();
    let law_sha = test_support::cli::sha256_hex(LAW.as_bytes());
    let body = std::fs::read_to_string(&form).unwrap();
    assert!(
        body.contains(&format!("\n\nbron-sha256 {law_sha}\n")),
        "{body}"
    );
    let other = test_support::cli::sha256_hex(b"een andere wet");
    forge(&form, |body| tripled(body).replace(&law_sha, &other));
    let answer = evalueer(&sandbox, &[]).json();
    assert_eq!(answer["uitvoer"]["bedrag_eurocent"], 1500);
}

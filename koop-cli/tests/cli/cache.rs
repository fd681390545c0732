//! The response cache (CACHE-1 … CACHE-4): a toestand XML is read from the repository once and
//! then from `$HOME/.cache/overheid-cli`; searches always go to the SRU service; `--geen-cache`
//! and `cache leeg`; the cap, damaged entries, an unusable directory and held secrets.

use std::path::Path;

use serde_json::Value;
use test_support::cli::cache_entries;
use test_support::koop::Koop;

use crate::support::{KoopFake, Sandbox, assert_valid, run};

const ARTIKEL: [&str; 4] = ["regeling", "artikel", "BWBR0041330", "5.15a"];

/// How many requests reached the repository (toestand) and the SRU service (search).
fn counts(fake: &KoopFake) -> (usize, usize) {
    let requests = fake.requests();
    let repository = requests
        .iter()
        .filter(|r| r.path.contains("/repository/"))
        .count();
    (repository, requests.len() - repository)
}

/// `args` with `--provenance`, the envelope checked against its schema.
fn envelope(sandbox: &Sandbox, fake: &KoopFake, args: &[&str]) -> Value {
    let envelope = run(sandbox.cmd(fake), args.iter().chain(&["--provenance"])).json();
    assert_valid("envelope.schema.json", &envelope);
    envelope
}

#[test]
fn the_second_artikel_reads_the_toestand_from_the_cache() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let first = envelope(&sandbox, &fake, &ARTIKEL);
    assert_eq!(first["provenance"]["cache"], "miss");
    assert_eq!(counts(&fake), (1, 1));
    let second = envelope(&sandbox, &fake, &ARTIKEL);
    assert_eq!(
        counts(&fake),
        (1, 2),
        "no toestand request, the search again"
    );
    assert_eq!(second["data"], first["data"], "the same answer");
    let prov = &second["provenance"];
    assert_eq!(prov["cache"], "hit", "CACHE-2");
    assert_eq!(prov["source_url"], first["provenance"]["source_url"]);
    assert_eq!(
        prov["response_sha256"], first["provenance"]["response_sha256"],
        "the digest of the bytes the cache holds, which are those once received"
    );
    let requests = prov["requests"].as_array().unwrap();
    assert_eq!(requests[1]["cache"], "hit");
    assert!(
        requests[0].get("cache").is_none(),
        "a search is not cacheable"
    );
    let records = sandbox.audit_records();
    assert_eq!(records[0]["attributes"]["overheid.cache"], "miss");
    let hit = &records[1]["attributes"];
    assert_eq!(
        hit["overheid.cache"], "hit",
        "CACHE-2: the audit record says so"
    );
    assert_eq!(hit["url.full"], prov["source_url"], "AUDIT-15");
    assert_eq!(hit["http.response.status_code"], 200);
    // Without --provenance the output is byte for byte the same.
    let plain = |s: &Sandbox| run(s.cmd(&fake), ARTIKEL).stdout;
    let cold = Sandbox::new();
    assert_eq!(plain(&sandbox), plain(&cold));
}

#[test]
fn regeling_toon_shares_the_entry_of_artikel() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    run(sandbox.cmd(&fake), ARTIKEL).json();
    let whole = envelope(&sandbox, &fake, &["regeling", "toon", "BWBR0041330"]);
    assert_eq!(whole["provenance"]["cache"], "hit");
    assert_eq!(counts(&fake).0, 1);
}

#[test]
fn geen_cache_asks_the_repository_and_writes_nothing() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let off = envelope(&sandbox, &fake, &[&ARTIKEL[..], &["--geen-cache"]].concat());
    assert_eq!(off["provenance"]["cache"], "uit");
    assert!(!sandbox.cache_dir().exists(), "--geen-cache writes nothing");
    run(sandbox.cmd(&fake), ARTIKEL).json();
    assert_eq!(counts(&fake).0, 2);
    let off = envelope(&sandbox, &fake, &[&ARTIKEL[..], &["--geen-cache"]].concat());
    assert_eq!(off["provenance"]["cache"], "uit");
    assert_eq!(
        counts(&fake).0,
        3,
        "--geen-cache does not read the cache either"
    );
    assert_eq!(
        sandbox.audit_records()[2]["attributes"]["overheid.cache"],
        "uit"
    );
}

#[test]
fn a_search_is_asked_every_time() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    for round in 1..=2 {
        let found = envelope(&sandbox, &fake, &["regeling", "zoek", "voorbeeld"]);
        assert!(found["provenance"].get("cache").is_none(), "{found}");
        assert_eq!(counts(&fake), (0, 2 * round - 1));
        run(sandbox.cmd(&fake), ["regeling", "versies", "BWBR9900001"]).json();
    }
    assert_eq!(counts(&fake), (0, 4));
    assert!(
        sandbox
            .audit_records()
            .iter()
            .all(|r| r["attributes"].get("overheid.cache").is_none())
    );
    assert!(sandbox.cache_entries().is_empty());
}

#[test]
fn cache_leeg_empties_it_and_says_how_much() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    run(sandbox.cmd(&fake), ARTIKEL).json();
    run(
        sandbox.cmd(&fake),
        [
            "regeling",
            "get",
            "BWBR9900001",
            "--peildatum",
            "2024-06-01",
        ],
    )
    .json();
    let dir = sandbox.cache_dir();
    let bytes: u64 = cache_entries(&dir)
        .iter()
        .map(|p| p.metadata().unwrap().len())
        .sum();
    let records = sandbox.audit_records().len();
    let planned = run(sandbox.cmd(&fake), ["cache", "leeg", "--dry-run"]).json();
    assert_eq!(planned["verwijderd"], 2);
    assert_eq!(planned["dry_run"], true);
    assert_eq!(cache_entries(&dir).len(), 2, "a dry run removes nothing");
    let cleared = run(sandbox.cmd(&fake), ["cache", "leeg"]).json();
    assert!(cleared.get("dry_run").is_none());
    assert_eq!(cleared["verwijderd"], 2);
    assert_eq!(cleared["bytes"], bytes);
    assert_eq!(cleared["map"], dir.display().to_string());
    assert!(cache_entries(&dir).is_empty());
    assert_eq!(
        sandbox.audit_records().len(),
        records,
        "a utility: no record"
    );
    let again = envelope(&sandbox, &fake, &ARTIKEL);
    assert_eq!(again["provenance"]["cache"], "miss");
    let cleared = run(sandbox.cmd(&fake), ["cache", "leeg"]).json();
    assert_eq!(cleared["verwijderd"], 1);
    // Not a tool: not in discovery.
    let discovery = sandbox.discovery();
    let names: Vec<&str> = discovery["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(!names.iter().any(|n| n.starts_with("cache")), "{names:?}");
}

#[test]
fn the_cap_evicts_the_least_recently_used() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    // Three versions of about 3.3 KB each: room for two.
    let version = |date: &str| {
        let args = ["regeling", "toon", "BWBR9900001", "--peildatum", date];
        let mut cmd = sandbox.cmd(&fake);
        cmd.env("OVERHEID_CACHE_MAX_BYTES", "8500");
        run(cmd, args.iter().chain(&["--provenance"])).json()["provenance"]["cache"].clone()
    };
    assert_eq!(version("2023-06-01"), "miss");
    assert_eq!(version("2024-06-01"), "miss");
    assert_eq!(version("2023-06-01"), "hit", "now the most recently used");
    assert_eq!(version("2025-06-01"), "miss");
    assert_eq!(sandbox.cache_entries().len(), 2);
    assert_eq!(version("2023-06-01"), "hit", "kept: read recently");
    assert_eq!(
        version("2024-06-01"),
        "miss",
        "evicted: least recently used"
    );
}

#[test]
fn a_damaged_entry_is_fetched_again() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let first = run(sandbox.cmd(&fake), ARTIKEL).json();
    let [entry] = sandbox.cache_entries().try_into().unwrap();
    let mut bytes = std::fs::read(&entry).unwrap();
    let middle = bytes.len() - 400;
    bytes[middle] ^= 0x20;
    std::fs::write(&entry, &bytes).unwrap();
    let again = envelope(&sandbox, &fake, &ARTIKEL);
    assert_eq!(again["provenance"]["cache"], "miss", "never served");
    assert_eq!(again["data"], first);
    assert_eq!(counts(&fake).0, 2);
    // Cut short (a writer that died would leave no entry at all; a disk may).
    let bytes = std::fs::read(&entry).unwrap();
    std::fs::write(&entry, &bytes[..bytes.len() / 2]).unwrap();
    assert_eq!(
        envelope(&sandbox, &fake, &ARTIKEL)["provenance"]["cache"],
        "miss"
    );
    assert_eq!(
        envelope(&sandbox, &fake, &ARTIKEL)["provenance"]["cache"],
        "hit"
    );
    assert_eq!(counts(&fake).0, 3);
}

#[test]
fn an_unusable_cache_directory_degrades_to_no_cache() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    // A directory under a regular file cannot be made, not even by root.
    let file = sandbox.write("bestand", "geen map");
    let mut cmd = sandbox.cmd(&fake);
    cmd.env("OVERHEID_CACHE_DIR", file.join("cache"));
    let out = run(cmd, ARTIKEL.iter().chain(&["--provenance"]));
    let envelope = out.json_after_warnings();
    assert_eq!(envelope["provenance"]["cache"], "uit");
    let warnings: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(warnings.len(), 1, "said once: {warnings:?}");
    assert!(warnings[0].contains("antwoordcache"), "{warnings:?}");
    let mut quiet = sandbox.cmd(&fake);
    quiet.env("OVERHEID_CACHE_DIR", file.join("cache"));
    let out = run(quiet, ARTIKEL.iter().chain(&["--quiet"]));
    assert_eq!(out.code, 0);
    assert_eq!(out.stderr, "", "--quiet silences the warning (CONV-3)");
}

#[test]
fn a_failed_command_leaves_no_entry() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    // An HTML error page served as the toestand: refused, and not kept.
    run(sandbox.cmd(&fake), ["regeling", "toon", "BWBR9900006"]).error(76);
    run(sandbox.cmd(&fake), ["regeling", "toon", "BWBR9900006"]).error(76);
    assert_eq!(counts(&fake).0, 2);
    let dir = sandbox.cache_dir();
    assert!(cache_entries(&dir).is_empty());
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "no temporary file"
    );
}

#[test]
fn no_secret_reaches_a_cache_file() {
    const CANARY: &str = "kanarie-cache-5e1d";
    let body = include_str!("../fixtures/toestand/BWBR9900001_2025-01-01_0.xml")
        .replace("</toestand>", &format!("<!-- {CANARY} --></toestand>"));
    let fake = KoopFake::with(Koop::new().with_toestand("BWBR9900011", body.into_bytes()));
    let sandbox = Sandbox::new();
    let with_key = |args: &[&str]| {
        let mut cmd = sandbox.cmd(&fake);
        cmd.env("OTEL_EXPORTER_OTLP_HEADERS", CANARY);
        run(cmd, args.iter().chain(&["--provenance"])).json()["provenance"]["cache"].clone()
    };
    // An answer that echoes a held secret is never stored.
    assert_eq!(with_key(&["regeling", "toon", "BWBR9900011"]), "miss");
    assert_eq!(with_key(&["regeling", "toon", "BWBR9900011"]), "miss");
    // An answer without one is, and nothing in the directory names the secret.
    assert_eq!(with_key(&ARTIKEL), "miss");
    assert_eq!(with_key(&ARTIKEL), "hit");
    let dir = sandbox.cache_dir();
    for item in std::fs::read_dir(&dir).unwrap() {
        let item = item.unwrap();
        let text = String::from_utf8_lossy(&std::fs::read(item.path()).unwrap()).into_owned();
        assert!(!text.contains(CANARY), "{}", item.path().display());
        assert!(!item.file_name().to_string_lossy().contains(CANARY));
    }
    assert_eq!(cache_entries(&dir).len(), 1);
}

#[cfg(unix)]
#[test]
fn the_cache_is_private() {
    use std::os::unix::fs::PermissionsExt;
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd(&fake);
    cmd.env("XDG_CACHE_HOME", sandbox.path().join("xdg"));
    run(cmd, ARTIKEL).json();
    let dir = sandbox.path().join("xdg/overheid-cli");
    let mode = |p: &Path| p.metadata().unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&dir), 0o700);
    let [entry] = cache_entries(&dir).try_into().unwrap();
    assert_eq!(mode(&entry), 0o600);
    assert!(!sandbox.cache_dir().exists(), "XDG_CACHE_HOME decides");
}

#[test]
fn a_dry_run_touches_no_cache_and_a_bad_cap_is_a_configuration_error() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    run(sandbox.cmd(&fake), ARTIKEL.iter().chain(&["--dry-run"])).plan();
    assert!(!sandbox.cache_dir().exists());
    let mut cmd = sandbox.cmd(&fake);
    cmd.env("OVERHEID_CACHE_MAX_BYTES", "veel");
    let error = run(cmd, ARTIKEL).error(78);
    assert!(
        error["detail"]
            .as_str()
            .unwrap()
            .contains("OVERHEID_CACHE_MAX_BYTES"),
        "{error}"
    );
    assert!(fake.requests().is_empty(), "CONF-7: before any request");
    // A cap of 0 turns the cache off.
    let mut cmd = sandbox.cmd(&fake);
    cmd.env("OVERHEID_CACHE_MAX_BYTES", "0");
    let off = run(cmd, ARTIKEL.iter().chain(&["--provenance"])).json();
    assert_eq!(off["provenance"]["cache"], "uit");
    assert!(!sandbox.cache_dir().exists());
}

#[test]
fn geen_cache_is_shown_only_where_a_command_caches() {
    let sandbox = Sandbox::new();
    let help = |args: &[&str]| run(sandbox.bare(), args.iter().chain(&["--help"])).stdout;
    assert!(help(&["regeling", "artikel"]).contains("--geen-cache"));
    assert!(help(&["regeling", "toon"]).contains("--geen-cache"));
    assert!(!help(&["regeling", "zoek"]).contains("--geen-cache"));
    assert!(!help(&["regeling", "versies"]).contains("--geen-cache"));
    let discovery = sandbox.discovery();
    let options: Vec<&str> = discovery["global_options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    assert!(options.contains(&"--geen-cache"), "{options:?}");
    let env: Vec<&str> = discovery["env"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    for name in [
        "OVERHEID_CACHE_DIR",
        "OVERHEID_CACHE_MAX_BYTES",
        "XDG_CACHE_HOME",
    ] {
        assert!(env.contains(&name), "{name} declared (CONF-2)");
    }
}

/// A sound entry whose law text says something else: "eenmaal per vier jaar" becomes "nooit".
/// Its header is recomputed, so only where it lies, not what it says, can give it away.
fn forge(entry: &Path) {
    test_support::cli::forge_cache_entry(entry, |body| {
        assert!(body.contains("eenmaal per vier jaar"));
        body.replace("eenmaal per vier jaar", "nooit")
    });
}

/// CACHE-6 (OpenSSH's StrictModes): an entry in a directory that group or others can write, or
/// an entry that they can write, is neither served nor replaced: one warning, then the repository
/// is asked. The forged entry is served only where it would be the user's own (the control).
#[cfg(unix)]
#[test]
fn an_entry_others_could_have_written_is_not_served() {
    use std::os::unix::fs::PermissionsExt;
    let chmod = |p: &Path, mode: u32| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap()
    };
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    run(sandbox.cmd(&fake), ARTIKEL).json();
    let [entry] = sandbox.cache_entries().try_into().unwrap();
    forge(&entry);
    let dir = sandbox.cache_dir();
    for (what, dir_mode, file_mode) in [
        ("map schrijfbaar voor de groep", 0o770, 0o600),
        ("map schrijfbaar voor iedereen", 0o703, 0o600),
        ("bestand schrijfbaar voor de groep", 0o700, 0o620),
        ("bestand schrijfbaar voor iedereen", 0o755, 0o646),
    ] {
        chmod(&dir, dir_mode);
        chmod(&entry, file_mode);
        let out = run(sandbox.cmd(&fake), ARTIKEL.iter().chain(&["--provenance"]));
        let envelope = out.json_after_warnings();
        assert_eq!(envelope["provenance"]["cache"], "uit", "{what}");
        assert!(!envelope["data"].to_string().contains("nooit"), "{what}");
        assert!(out.stderr.contains("chmod go-w"), "{what}: {}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{what}: said once");
        assert!(
            String::from_utf8(std::fs::read(&entry).unwrap())
                .unwrap()
                .contains("nooit"),
            "{what}: left as it is, not replaced"
        );
    }
    chmod(&dir, 0o700);
    chmod(&entry, 0o600);
    let served = envelope(&sandbox, &fake, &ARTIKEL);
    assert_eq!(served["provenance"]["cache"], "hit", "the control");
    assert!(served["data"].to_string().contains("nooit"));
}

/// CACHE-6: an entry that is a symbolic link (to a forged entry the user can read) is never
/// followed; the answer is fetched and a real entry takes the link's place.
#[cfg(unix)]
#[test]
fn an_entry_that_is_a_link_is_not_followed() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    run(sandbox.cmd(&fake), ARTIKEL).json();
    let [entry] = sandbox.cache_entries().try_into().unwrap();
    let elsewhere = sandbox.path().join("elders.cache");
    std::fs::rename(&entry, &elsewhere).unwrap();
    forge(&elsewhere);
    std::os::unix::fs::symlink(&elsewhere, &entry).unwrap();
    let again = envelope(&sandbox, &fake, &ARTIKEL);
    assert_eq!(again["provenance"]["cache"], "miss");
    assert!(!again["data"].to_string().contains("nooit"));
    assert!(!entry.symlink_metadata().unwrap().file_type().is_symlink());
}

/// CACHE-6: an entry of another user is not served (only root can plant one in a private
/// directory; run as root, as CI does, the test makes one; otherwise it says it skips).
#[cfg(unix)]
#[test]
fn an_entry_of_another_user_is_not_served() {
    use std::os::unix::fs::MetadataExt;
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    run(sandbox.cmd(&fake), ARTIKEL).json();
    let [entry] = sandbox.cache_entries().try_into().unwrap();
    forge(&entry);
    if std::os::unix::fs::chown(&entry, Some(65534), Some(65534)).is_err() {
        eprintln!("OVERGESLAGEN: alleen root kan een bestand van een andere gebruiker maken");
        return;
    }
    assert_eq!(entry.metadata().unwrap().uid(), 65534);
    let out = run(sandbox.cmd(&fake), ARTIKEL.iter().chain(&["--provenance"]));
    let envelope = out.json_after_warnings();
    assert_eq!(envelope["provenance"]["cache"], "uit");
    assert!(!envelope["data"].to_string().contains("nooit"));
    assert!(out.stderr.contains("andere gebruiker"), "{}", out.stderr);
}

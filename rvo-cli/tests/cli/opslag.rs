//! A damaged store: a bad record is named in its own error (`OPSLAG_BESCHADIGD`, exit 74) where
//! it is needed, and set aside everywhere else, so the sound reports stay readable. Another
//! company's record, damaged or not, is answered as an unknown one (no existence oracle, F8).
//! The old JSON-file store is not read: the sandbox starts empty and says so.

use crate::support::{Sandbox, indienen, indienen_digest};

/// Damages the result of the filing under `key` in the sandbox's SQLite store.
fn damage(sandbox: &Sandbox, key: &str) {
    let changed = sandbox
        .sqlite()
        .execute(
            "UPDATE overheid_filings SET result = '{\"status\": ' WHERE idempotency_key = ?1",
            [key],
        )
        .unwrap();
    assert_eq!(changed, 1);
}

fn warmtepomp_key() -> String {
    indienen_digest(&serde_json::json!({
        "kvk_nummer": "68750110",
        "regeling_id": "EBR-2027",
        "maatregelen": ["warmtepomp"],
    }))
}

#[test]
fn a_bad_record_is_named_and_the_sound_ones_stay_readable() {
    let sandbox = Sandbox::new();
    let sound = sandbox.run(indienen("LED", &["--confirm"])).json();
    sandbox.run(indienen("Warmtepomp", &["--confirm"])).json();
    let bad_key = warmtepomp_key();
    damage(&sandbox, &bad_key);

    // The list shows the sound report and names the bad record by its key (data and a warning).
    let listed = sandbox
        .run(["rapportage", "lijst", "68750110"])
        .json_after_warnings();
    assert_eq!(listed["aantal"], 1, "{listed:#}");
    assert_eq!(
        listed["rapportages"][0]["referentienummer"],
        sound["referentienummer"]
    );
    assert_eq!(listed["onleesbaar"][0]["sleutel"], bad_key.as_str());
    assert!(!sandbox.store().is_consistent());

    // The sound report's status is readable.
    let status = sandbox
        .run([
            "rapportage",
            "status",
            sound["referentienummer"].as_str().unwrap(),
        ])
        .json();
    assert_eq!(status["referentienummer"], sound["referentienummer"]);

    // Filing the report whose record is bad names the record and changes nothing.
    let error = sandbox
        .run(indienen("warmtepomp", &["--confirm"]))
        .error(74);
    assert_eq!(error["code"], "OPSLAG_BESCHADIGD", "{error:#}");
    assert!(
        error["detail"].as_str().unwrap().contains(&bad_key),
        "{error:#}"
    );

    // Any other report is filed as usual.
    let other = sandbox.run(indienen("Isolatie", &["--confirm"])).json();
    assert_eq!(other["replayed"], false);
}

/// F8: with a session, a damaged record of another company gets the answer of an unknown
/// reference (66, the same detail and hint), not the damage (74) that would confirm it exists.
#[test]
fn another_companys_damaged_record_is_answered_as_unknown() {
    let sandbox = Sandbox::new();
    let filed = sandbox.run(indienen("Warmtepomp", &["--confirm"])).json();
    damage(&sandbox, &warmtepomp_key());
    let reference = filed["referentienummer"].as_str().unwrap();
    let missing = "RVO-EBR-2027-1KC7Q3M9Z-7XK2MD";
    let in_session = |reference: &str| {
        let mut cmd = sandbox.cmd();
        cmd.env("KVK_SESSIE_NUMMER", "12345678");
        crate::support::run(cmd, ["rapportage", "status", reference])
    };
    let comparable = |error: serde_json::Value, reference: &str| {
        let mut error = error;
        error.as_object_mut().unwrap().remove("instance");
        error.to_string().replace(reference, "REF")
    };
    let damaged = in_session(reference).error(66);
    let unknown = in_session(missing).error(66);
    assert_eq!(comparable(damaged, reference), comparable(unknown, missing));
    // Its own company learns that it is damaged.
    let own = sandbox.run(["rapportage", "status", reference]).error(74);
    assert_eq!(own["code"], "OPSLAG_BESCHADIGD", "{own:#}");
}

/// The JSON files of versions before the family's store are not read: the sandbox starts empty,
/// and every local call names the old directory on stderr while it exists.
#[test]
fn the_old_json_store_is_named_and_not_read() {
    let sandbox = Sandbox::new();
    let old = sandbox.data_dir().join("rapportages");
    std::fs::create_dir_all(&old).unwrap();
    std::fs::write(old.join(format!("{}.json", warmtepomp_key())), "{}").unwrap();
    let run = sandbox.run(["rapportage", "lijst", "68750110"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains(&old.display().to_string()) && run.stderr.contains("niet overgenomen"),
        "{}",
        run.stderr
    );
    assert_eq!(run.json_after_warnings()["aantal"], 0);
    std::fs::remove_dir_all(&old).unwrap();
    let quiet = sandbox.run(["rapportage", "lijst", "68750110"]);
    assert!(!quiet.stderr.contains("rapportages"), "{}", quiet.stderr);
}

/// The SQLite store of a filing is 0600 in a 0700 directory; a directory others can write is
/// refused (78) and nothing is filed; an unreachable shared store is 69, nothing is filed, and
/// its password shows nowhere (output, audit record, plan).
#[test]
fn the_store_is_private_and_an_unusable_one_files_nothing() {
    use std::os::unix::fs::PermissionsExt;
    let sandbox = Sandbox::new();
    sandbox.run(indienen("LED", &["--confirm"])).json();
    let mode =
        |path: &std::path::Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&sandbox.data_dir()), 0o700);
    assert_eq!(
        mode(&sandbox.data_dir().join(overheid_records::DATABASE_FILE)),
        0o600
    );

    std::fs::set_permissions(sandbox.data_dir(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let refused = sandbox
        .run(indienen("Warmtepomp", &["--confirm"]))
        .error(78);
    assert_eq!(refused["code"], "CONFIG_FOUT", "{refused:#}");
    std::fs::set_permissions(sandbox.data_dir(), std::fs::Permissions::from_mode(0o700)).unwrap();
    sandbox.assert_store(1);

    let port = test_support::cli::closed_port();
    let url = format!("postgres://app:geheim-wachtwoord@127.0.0.1:{port}/records");
    for extra in [&["--confirm"][..], &["--dry-run"][..]] {
        let mut cmd = sandbox.cmd();
        cmd.env("OVERHEID_STORE_URL", &url);
        let out = crate::support::run(cmd, indienen("Warmtepomp", extra));
        assert_eq!(out.error(69)["code"], "OPSLAG_ONBEREIKBAAR", "{extra:?}");
        assert!(
            !out.stdout.contains("geheim") && !out.stderr.contains("geheim"),
            "{extra:?}: {out:?}"
        );
    }
    assert!(
        !sandbox.audit_text().contains("geheim"),
        "the password is never logged"
    );
    sandbox.assert_store(1);
}

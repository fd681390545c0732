//! `regelingen KVK_NUMMER`: the RVO catalogue's schemes for a company in one call (issue 40 item
//! 5), from rvo-cli run as a child, each with why it may apply on the company's registration
//! (from kvk-cli against the fake KvK) and what it further depends on; and a source that fails
//! is named, with exit 69 when no outcome could be computed (issue 39 item 7).

use std::path::PathBuf;

use serde_json::Value;
use test_support::{FakeServer, kvk};

use crate::support::{Sandbox, assert_valid_against, output_schema, run};

/// A company with one working person (SBI 01241) and one with none.
const ONE_PERSON: &str = "68750110";
const NOBODY: &str = "68727720";

fn family() -> PathBuf {
    test_support::cli::family_dir(
        env!("CARGO_BIN_EXE_regelrecht-cli"),
        &["kvk-cli", "rvo-cli"],
    )
}

/// regelrecht-cli with the family in `dir` and kvk-cli pointed at `fake`.
fn cmd(sandbox: &Sandbox, fake: &FakeServer, dir: &std::path::Path) -> assert_cmd::Command {
    let mut cmd = sandbox.cmd();
    cmd.env("KVK_API_BASE", fake.base_url())
        .env("KVK_API_KEY", "test-sleutel")
        .env("KVK_AUDIT_LOG", sandbox.path().join("kvk-audit.jsonl"))
        .env("RVO_AUDIT_LOG", sandbox.path().join("rvo-audit.jsonl"))
        .env("OVERHEID_CLI_DIR", dir);
    cmd
}

fn scheme<'a>(list: &'a Value, id: &str) -> &'a Value {
    list["rvo_regelingen"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["regeling_id"] == id)
        .unwrap_or_else(|| panic!("no {id}: {list}"))
}

#[test]
fn every_rvo_scheme_comes_with_why_it_may_apply_and_never_an_entitlement() {
    let fake = FakeServer::start(kvk::kvk);
    let sandbox = Sandbox::new();
    let family = family();
    let list = run(
        cmd(&sandbox, &fake, &family),
        ["regelingen", ONE_PERSON, "--lang"],
    )
    .json();
    assert_valid_against(&output_schema("regelingen"), &list, "regelingen");

    // Without --lang a row holds the verdict, why, what it depends on and the next step; the
    // values used with their provenance, the rule and the catalogue's texts only with --lang
    // (CONV-9), and --fields chooses from them all.
    let short = run(cmd(&sandbox, &fake, &family), ["regelingen", ONE_PERSON]);
    let rows = short.json();
    assert_valid_against(&output_schema("regelingen"), &rows, "regelingen kort");
    let long_only = [
        "gebruikte_gegevens",
        "regel",
        "doelgroep",
        "url",
        "catalogus",
    ];
    for (row, full) in rows["rvo_regelingen"]
        .as_array()
        .unwrap()
        .iter()
        .zip(list["rvo_regelingen"].as_array().unwrap())
    {
        for member in ["regeling_id", "uitkomst", "waarom", "hangt_af_van"] {
            assert_eq!(row[member], full[member], "{member}");
        }
        assert!(long_only.iter().all(|m| row.get(*m).is_none()), "{row}");
        assert!(long_only.iter().any(|m| full.get(*m).is_some()), "{full}");
    }
    assert!(short.stdout.len() * 2 < list.to_string().len());
    let chosen = run(
        cmd(&sandbox, &fake, &family),
        [
            "regelingen",
            ONE_PERSON,
            "--fields",
            "rvo_regelingen[].catalogus.bron_url",
        ],
    )
    .json();
    assert_eq!(
        chosen["rvo_regelingen"][0]["catalogus"]["bron_url"],
        "urn:rvo-cli:regelingencatalogus:2026.11.0"
    );

    // Every scheme of the catalogue rvo-cli lists, in its order, with its status.
    let catalogue: Value = {
        let output = std::process::Command::new(family.join("rvo-cli"))
            .args(["regeling", "lijst", "--output=json"])
            .env("RVO_AUDIT_LOG", sandbox.path().join("rvo-audit.jsonl"))
            .output()
            .unwrap();
        serde_json::from_slice(&output.stdout).unwrap()
    };
    let listed: Vec<&Value> = catalogue["regelingen"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["id"])
        .collect();
    let answered: Vec<&Value> = list["rvo_regelingen"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["regeling_id"])
        .collect();
    assert_eq!(answered, listed);
    assert!(listed.len() >= 8, "{listed:?}");

    let ebr = scheme(&list, "EBR-2027");
    assert_eq!(ebr["uitkomst"], "mogelijk van toepassing");
    assert_eq!(ebr["status"], catalogue["regelingen"][0]["status"]);
    assert_eq!(
        ebr["gebruikte_gegevens"]["werkzame_personen"]["waarde"], 1,
        "{ebr}"
    );
    assert_eq!(
        ebr["gebruikte_gegevens"]["werkzame_personen"]["bron"],
        "kvk-basisprofiel"
    );
    assert!(!ebr["hangt_af_van"].as_array().unwrap().is_empty());
    assert!(ebr["waarom"].as_str().unwrap().contains("werkzame persoon"));
    assert_eq!(
        ebr["volgende_stappen"][0]["opdracht"],
        format!("regelrecht-cli concept informatieplicht-energiebesparing {ONE_PERSON}")
    );
    assert_eq!(
        ebr["catalogus"]["bron_url"],
        "urn:rvo-cli:regelingencatalogus:2026.11.0"
    );
    for scheme in list["rvo_regelingen"].as_array().unwrap() {
        assert!(scheme["doelgroep"].is_string(), "{scheme}");
        assert_ne!(
            scheme["uitkomst"], "onbekend: registratiegegevens ontbreken",
            "every scheme has a rule on registration data: {scheme}"
        );
    }
    let text = list.to_string().to_lowercase();
    for word in ["recht op", "u hebt recht", "komt in aanmerking"] {
        assert!(!text.contains(word), "{word}");
    }
    let count = list["regelingen"]
        .as_array()
        .unwrap()
        .iter()
        .chain(list["rvo_regelingen"].as_array().unwrap())
        .filter(|r| r["uitkomst"] == "mogelijk van toepassing")
        .count();
    assert_eq!(list["aantal_mogelijk_van_toepassing"], count);

    // Without any working person the energy duties are not indicated; the tax schemes may still
    // apply.
    let nobody = run(cmd(&sandbox, &fake, &family), ["regelingen", NOBODY]).json();
    assert_eq!(
        scheme(&nobody, "EBR-2027")["uitkomst"],
        "niet aangewezen op grond van de registratie"
    );
    assert_eq!(
        scheme(&nobody, "EIA-2026")["uitkomst"],
        "mogelijk van toepassing"
    );
}

#[test]
fn a_failing_source_is_named_and_without_any_outcome_the_answer_is_69() {
    let fake = FakeServer::start(kvk::kvk);
    let sandbox = Sandbox::new();
    let family = family();
    // The KvK fails: no rule can be judged, so no outcome at all.
    let error = run(
        cmd(&sandbox, &fake, &family),
        ["regelingen", kvk::special::TECHNISCHE_FOUT],
    )
    .error(69);
    assert_eq!(error["code"], "BRON_ONBEREIKBAAR", "{error}");
    let detail = error["detail"].as_str().unwrap();
    assert!(detail.contains("kvk-basisprofiel"), "{detail}");

    // No family programs at all: both sources are named.
    let empty = sandbox.path().join("leeg");
    std::fs::create_dir_all(&empty).unwrap();
    let error = run(cmd(&sandbox, &fake, &empty), ["regelingen", ONE_PERSON]).error(69);
    let detail = error["detail"].as_str().unwrap();
    assert!(
        detail.contains("kvk-basisprofiel") && detail.contains("rvo-catalogus"),
        "{detail}"
    );

    // Only the catalogue missing: the registration's outcomes are computed, exit 0, and the
    // missing source is named on stderr and in niet_opgehaald.
    let only_kvk = sandbox.path().join("alleen-kvk");
    std::fs::create_dir_all(&only_kvk).unwrap();
    std::os::unix::fs::symlink(family.join("kvk-cli"), only_kvk.join("kvk-cli")).unwrap();
    let partial = run(cmd(&sandbox, &fake, &only_kvk), ["regelingen", ONE_PERSON]);
    let list = partial.json_after_warnings();
    assert!(
        partial.stderr.contains("rvo-catalogus") && partial.stderr.contains("exit 69"),
        "{partial:?}"
    );
    assert_eq!(list["rvo_regelingen"], serde_json::json!([]));
    let missing = list["niet_opgehaald"].as_array().unwrap();
    assert!(
        missing
            .iter()
            .any(|m| m["naam"] == "rvo_regelingen" && m["exit_code"] == 69),
        "{list}"
    );
    assert!(list["aantal_mogelijk_van_toepassing"].as_u64().unwrap() >= 1);
}

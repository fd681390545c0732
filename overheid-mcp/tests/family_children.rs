//! A tool's children get what they need through the bridge (issue 40 item 1). regelrecht-cli's
//! `concept` and `regelingen` run kvk-cli as a child; through the bridge they must read the same
//! registration values as the CLI does in a shell, against the fake KvK, in both eras, also when
//! the bridge serves regelrecht-cli alone (kvk-cli is then no tool of the bridge, only a child).
//! And a concept whose source could not be fetched is refused by `rvo__rapportage_voorstel`
//! naming that source, never as open questions for the person.

#![allow(clippy::disallowed_methods, reason = "test switches")]

mod harness;

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};
use test_support::{FakeServer, kvk};

use harness::{Bridge, kvk_cli, regelrecht_cli, rvo_cli};

const KVK: &str = "68750110";
const PEILDATUM: &str = "2026-12-01";
const KEY: &str = "test-sleutel";

/// `regelrecht-cli args…` as a person runs it in a shell with `env`.
fn in_a_shell(program: &Path, args: &[&str], env: &[(&str, &str)]) -> Value {
    let home = tempfile::tempdir().unwrap();
    let output = Command::new(program)
        .args(args)
        .args(["--output", "json"])
        .env_clear()
        .env("HOME", home.path())
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The registration values of a concept: per field from a registration, its value and the digest
/// of the source's answer (the retrieval time differs per call).
fn registration(concept: &Value) -> Vec<Value> {
    concept["velden"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|field| field["soort"] == "registratie")
        .map(|field| {
            json!([
                field["naam"],
                field["waarde"],
                field["bron"],
                field["herkomst_sha256"]
            ])
        })
        .collect()
}

/// What `regelingen` concluded per scheme, from which registration values.
fn conclusions(schemes: &Value) -> Vec<Value> {
    schemes["regelingen"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|scheme| {
            // Each value with its source and the digest of the source's answer (the retrieval
            // time differs per call).
            let used: Vec<Value> = scheme["gebruikte_gegevens"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(name, used)| {
                    json!([name, used["waarde"], used["bron"], used["herkomst_sha256"]])
                })
                .collect();
            json!([scheme["id"], scheme["uitkomst"], used])
        })
        .collect()
}

#[test]
fn concept_and_regelingen_over_the_bridge_read_what_the_cli_reads_in_both_eras() {
    let Some(kvk_cli) = kvk_cli() else { return };
    let regelrecht = regelrecht_cli();
    assert_eq!(
        kvk_cli.parent(),
        regelrecht.parent(),
        "kvk-cli is found next to regelrecht-cli"
    );
    let fake = FakeServer::start(kvk::kvk);
    let base = fake.base_url();
    let env = [
        ("KVK_API_BASE", base.as_str()),
        ("KVK_API_KEY", KEY),
        ("KVK_SESSIE_NUMMER", KVK),
    ];
    let concept_args = [
        "concept",
        "informatieplicht-energiebesparing",
        KVK,
        "--peildatum",
        PEILDATUM,
    ];
    let shell_concept = in_a_shell(&regelrecht, &concept_args, &env);
    let shell_schemes = in_a_shell(&regelrecht, &["regelingen", KVK, "--lang"], &env);
    assert!(!registration(&shell_concept).is_empty(), "{shell_concept}");
    assert_eq!(
        shell_concept["niet_opgehaald"],
        json!([]),
        "{shell_concept}"
    );
    assert_eq!(
        shell_schemes["niet_opgehaald"],
        json!([]),
        "{shell_schemes}"
    );

    for modern in [false, true] {
        let tool = regelrecht.to_str().unwrap();
        let mut bridge = if modern {
            let mut bridge = Bridge::start_raw(&["--tool", tool], &env);
            bridge.modern(json!({}));
            bridge
        } else {
            Bridge::start(&["--tool", tool], &env)
        };
        let era = if modern { "2026-07-28" } else { "2025-11-25" };
        // The company is the session's: the bridge lists no kvk_nummer and fills it in.
        let concept = bridge.call(
            "regelrecht__concept",
            json!({"regeling": "informatieplicht-energiebesparing", "peildatum": PEILDATUM}),
        );
        assert_eq!(concept["isError"], false, "{era}: {concept}");
        let concept = &concept["structuredContent"];
        assert_eq!(concept["niet_opgehaald"], json!([]), "{era}: {concept}");
        assert_eq!(
            registration(concept),
            registration(&shell_concept),
            "{era}: the concept's registration values"
        );
        let schemes = bridge.call("regelrecht__regelingen", json!({"lang": true}));
        assert_eq!(schemes["isError"], false, "{era}: {schemes}");
        let schemes = &schemes["structuredContent"];
        assert_eq!(schemes["niet_opgehaald"], json!([]), "{era}: {schemes}");
        assert_eq!(
            conclusions(schemes),
            conclusions(&shell_schemes),
            "{era}: the schemes' conclusions"
        );
    }
    // Every request reached the fake with the key: none went elsewhere with another.
    assert!(
        fake.requests()
            .iter()
            .all(|r| r.header("apikey") == Some(KEY)),
        "every KvK request carried the key"
    );
}

/// A concept whose registration could not be fetched (the KvK unreachable) names the source in
/// `niet_opgehaald`, and `rvo__rapportage_voorstel` refuses it saying so: not "answer the open
/// questions", of which there are none.
#[test]
fn a_proposal_from_a_concept_with_an_unfetched_source_names_the_source() {
    if kvk_cli().is_none() {
        return;
    }
    let regelrecht = regelrecht_cli();
    let closed = format!("http://127.0.0.1:{}/kvk", test_support::cli::closed_port());
    let env = [("KVK_API_BASE", closed.as_str()), ("KVK_API_KEY", KEY)];
    let mut args = vec![
        "concept",
        "informatieplicht-energiebesparing",
        KVK,
        "--peildatum",
        PEILDATUM,
    ];
    for answer in [
        "elektriciteitsverbruik_kwh=250.000",
        "aardgasverbruik_m3=31.000",
        "betreft_gebruiksfunctie_bbl=nee",
        "alleen_hernieuwbare_energie_op_locatie=nee",
        "is_activiteit_artikel_3_3a_lid_1_onder_a=nee",
        "is_activiteit_artikel_3_3a_lid_1_onder_b=nee",
        "heeft_koelinstallatie=nee",
        "heeft_afzuiginstallatie=ja",
    ] {
        args.extend(["--opgave", answer]);
    }
    let concept = in_a_shell(&regelrecht, &args, &env);
    assert_eq!(concept["status"], "onvolledig", "{concept}");
    assert_eq!(concept["open_vragen"], json!([]), "{concept}");
    assert_eq!(
        concept["niet_opgehaald"][0]["bron"], "kvk-basisprofiel",
        "{concept}"
    );
    // The bridge offers the concept as the JSON value itself (it passes it on stdin).
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("rvo");
    let rvo = rvo_cli();
    let mut bridge = Bridge::start(
        &["--tool", rvo.to_str().unwrap()],
        &[("RVO_DATA_DIR", store.to_str().unwrap())],
    );
    let refused = bridge.call(
        "rvo__rapportage_voorstel",
        json!({"kvk_nummer": KVK, "regeling_id": "EBR-2027", "concept": concept,
               "maatregel": ["GF4"], "kalenderjaar": "2025", "peildatum": PEILDATUM}),
    );
    assert_eq!(refused["isError"], true, "{refused}");
    let problem = &refused["_meta"]["nl.overheid/problem"];
    let detail = problem["detail"].as_str().unwrap_or_default();
    assert!(
        detail.contains("kvk_nummer uit kvk-basisprofiel")
            && detail.contains("geen vraag voor de persoon")
            && !detail.contains("open vragen"),
        "{problem}"
    );
}

/// `--toolsets regelrecht` over the family found next to the bridge: no KvK tool is served, and
/// regelrecht-cli's child kvk-cli still gets the KvK's variables (the README's promise; issue 40
/// items 1 and 6): `regelingen` reads the registration from the fake KvK with the key.
#[test]
fn a_child_of_a_served_tool_gets_its_variables_when_its_source_is_not_served() {
    if kvk_cli().is_none() {
        return;
    }
    let fake = FakeServer::start(kvk::kvk);
    let base = fake.base_url();
    let env = [
        ("KVK_API_BASE", base.as_str()),
        ("KVK_API_KEY", KEY),
        ("KVK_SESSIE_NUMMER", KVK),
    ];
    let mut bridge = Bridge::start(&["--toolsets", "regelrecht"], &env);
    let list = bridge.request("tools/list", json!({}));
    let names: Vec<&str> = list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(
        !names.is_empty() && names.iter().all(|n| n.starts_with("regelrecht__")),
        "{names:?}"
    );
    let schemes = bridge.call("regelrecht__regelingen", json!({}));
    assert_eq!(schemes["isError"], false, "{schemes}");
    assert_eq!(
        schemes["structuredContent"]["niet_opgehaald"],
        json!([]),
        "{schemes}"
    );
    let requests = fake.requests();
    assert!(!requests.is_empty(), "the child read the KvK");
    assert!(
        requests.iter().all(|r| r.header("apikey") == Some(KEY)),
        "with the key"
    );
}

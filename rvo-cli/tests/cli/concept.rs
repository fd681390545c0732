//! The whole chain against the fakes: `regelrecht-cli concept` (kvk-cli as its source) →
//! answers with `--opgave` → a complete concept → `rapportage indienen --concept` (re-evaluated by
//! regelrecht-cli, plan, confirm) → filed once → `status` shows Bal 5.15a (a)–(e).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use test_support::{FakeServer, kvk};

use crate::support::{Sandbox, assert_valid_against, output_schema, run};

const KVK: &str = "68750110";
const PEILDATUM: &str = "2026-12-01";

const ANSWERS: &[&str] = &[
    "elektriciteitsverbruik_kwh=250.000",
    "aardgasverbruik_m3=31.000",
    "betreft_gebruiksfunctie_bbl=nee",
    "alleen_hernieuwbare_energie_op_locatie=nee",
    "is_activiteit_artikel_3_3a_lid_1_onder_a=nee",
    "is_activiteit_artikel_3_3a_lid_1_onder_b=nee",
    "heeft_koelinstallatie=nee",
    "heeft_afzuiginstallatie=ja",
];

fn family() -> PathBuf {
    test_support::cli::family_dir(
        env!("CARGO_BIN_EXE_rvo-cli"),
        &["kvk-cli", "regelrecht-cli"],
    )
}

/// `regelrecht-cli concept …` for Donald, with kvk-cli against `fake`.
fn concept(sandbox: &Sandbox, fake: &FakeServer, answers: &[&str], env: &[(&str, &Path)]) -> Value {
    let mut cmd = assert_cmd::Command::new(family().join("regelrecht-cli"));
    cmd.env_clear()
        .env("HOME", sandbox.path())
        .env(
            "REGELRECHT_AUDIT_LOG",
            sandbox.path().join("rr-audit.jsonl"),
        )
        .env("KVK_AUDIT_LOG", sandbox.path().join("kvk-audit.jsonl"))
        .env("KVK_API_BASE", fake.base_url())
        .env("KVK_API_KEY", "test-sleutel")
        .env("OVERHEID_CLI_DIR", family());
    for (name, value) in env {
        cmd.env(name, value);
    }
    let mut args = vec![
        "concept",
        "informatieplicht-energiebesparing",
        KVK,
        "--peildatum",
        PEILDATUM,
    ];
    for answer in answers {
        args.extend(["--opgave", answer]);
    }
    run(cmd, args).json()
}

fn write(sandbox: &Sandbox, name: &str, value: &Value) -> String {
    let path = sandbox.path().join(name);
    std::fs::write(&path, value.to_string()).unwrap();
    path.display().to_string()
}

/// `rvo-cli rapportage indienen --concept FILE …` with regelrecht-cli found via OVERHEID_CLI_DIR.
fn indienen(sandbox: &Sandbox, file: &str, extra: &[&str]) -> test_support::cli::Run {
    let mut cmd = sandbox.cmd();
    cmd.env("OVERHEID_CLI_DIR", family());
    let mut args = vec![
        "rapportage",
        "indienen",
        "--concept",
        file,
        "--maatregel",
        "GF4",
        "--maatregel",
        "klokregeling VERWARMING",
        "--maatregel",
        "fe4",
        "--overige-maatregel",
        "Zonnepanelen op het dak",
        "--kalenderjaar",
        "2025",
        "--peildatum",
        PEILDATUM,
    ];
    args.extend_from_slice(extra);
    run(cmd, args)
}

#[test]
fn the_whole_chain_files_a_concept_once_and_status_shows_a_to_e() {
    let fake = FakeServer::start(kvk::kvk);
    let sandbox = Sandbox::new();
    // 1. The concept asks; an incomplete one cannot be filed.
    let open = concept(&sandbox, &fake, &[], &[]);
    assert_eq!(open["status"], "onvolledig");
    let file = write(&sandbox, "open.json", &open);
    let refused = indienen(&sandbox, &file, &[]).error(65);
    assert!(
        refused["detail"]
            .as_str()
            .unwrap()
            .contains("niet compleet"),
        "{refused}"
    );
    // 2. Answered: complete.
    let complete = concept(&sandbox, &fake, ANSWERS, &[]);
    assert_eq!(complete["status"], "compleet");
    let file = write(&sandbox, "concept.json", &complete);
    // 3. The plan: its digest covers the concept's digest.
    let proposed = indienen(&sandbox, &file, &[]);
    proposed.refusal(80);
    let plan = proposed.plan();
    let arguments = &plan["arguments"];
    assert_eq!(arguments["kvk_nummer"], KVK);
    assert_eq!(arguments["regeling_id"], "EBR-2027");
    assert_eq!(
        arguments["inhoud"]["concept_digest"],
        complete["concept_digest"]
    );
    let digest = plan["plan_digest"].as_str().unwrap().to_string();
    assert_eq!(
        digest,
        crate::support::indienen_digest(arguments),
        "the plan digest is the digest of the arguments, concept digest included"
    );
    sandbox.assert_store(0);
    // 4. Confirmed: filed once.
    let confirm = format!("--confirm={digest}");
    let filed = indienen(&sandbox, &file, &[&confirm]).json();
    assert_valid_against(&output_schema("rapportage_indienen"), &filed, "indienen");
    assert_eq!(filed["replayed"], false);
    let again = indienen(&sandbox, &file, &[&confirm]).json();
    assert_eq!(again["replayed"], true);
    assert_eq!(again["referentienummer"], filed["referentienummer"]);
    sandbox.assert_store(1);
    // The concept as another program writes it (its numbers as 2.5e5 and 31000.0) is the same
    // report: canonical JSON gives it the same plan digest, so the filing replays (MUT-3).
    let respelled = complete
        .to_string()
        .replace(":250000", ":2.5e5")
        .replace(":31000", ":31000.0");
    assert!(respelled.contains(":2.5e5") && respelled.contains(":31000.0"));
    let path = sandbox.path().join("respelled.json");
    std::fs::write(&path, respelled).unwrap();
    let respelled = indienen(&sandbox, path.to_str().unwrap(), &[&confirm]).json();
    assert_eq!(respelled["replayed"], true, "{respelled}");
    assert_eq!(respelled["referentienummer"], filed["referentienummer"]);
    // The concept on stdin is the same report.
    let mut cmd = sandbox.cmd();
    cmd.env("OVERHEID_CLI_DIR", family())
        .write_stdin(complete.to_string());
    let stdin = run(
        cmd,
        [
            "rapportage",
            "indienen",
            "--concept",
            "-",
            "--maatregel",
            "gf4",
            "--maatregel",
            "GC1",
            "--maatregel",
            "FE4",
            "--overige-maatregel",
            " Zonnepanelen  op het dak",
            "--kalenderjaar",
            "2025",
            "--peildatum",
            PEILDATUM,
            &confirm,
        ],
    )
    .json();
    assert_eq!(stdin["replayed"], true);
    // 5. Status shows (a)–(e).
    let reference = filed["referentienummer"].as_str().unwrap();
    let status = run(sandbox.cmd(), ["rapportage", "status", reference]).json();
    assert_valid_against(&output_schema("rapportage_status"), &status, "status");
    assert_eq!(status["kvk_nummer"], KVK); // (a)
    let inhoud = &status["inhoud"];
    assert_eq!(
        inhoud["getroffen_maatregelen"],
        json!([
            {"code": "FE4", "naam": "Laagdebiet afzuigkap grootkeuken"},
            {"code": "GC1", "naam": "Klokregeling verwarming"},
            {"code": "GF4", "naam": "LED-verlichting"}
        ])
    ); // (b)
    let not_applicable = inhoud["niet_van_toepassing"].as_array().unwrap(); // (c)
    let codes: Vec<&str> = not_applicable
        .iter()
        .map(|m| m["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["FD3", "FD7"]);
    assert!(
        not_applicable[0]["niet_vervulde_randvoorwaarden"][0]
            .as_str()
            .unwrap()
            .contains("koel")
    );
    assert_eq!(
        inhoud["overige_maatregelen"],
        json!(["Zonnepanelen op het dak"])
    ); // (d), as the person wrote it
    assert_eq!(
        inhoud["energiegebruik"],
        json!({"kalenderjaar": 2025, "elektriciteit_kwh": 250000, "aardgas_m3_aardgasequivalent": 31000})
    ); // (e)
    sandbox.assert_every_report_audited();
}

#[test]
fn a_changed_concept_or_ruleset_is_refused_at_filing() {
    let fake = FakeServer::start(kvk::kvk);
    let sandbox = Sandbox::new();
    let complete = concept(&sandbox, &fake, ANSWERS, &[]);
    // An edited value (without a new digest): refused, nothing filed.
    let mut edited = complete.clone();
    for field in edited["velden"].as_array_mut().unwrap() {
        if field["naam"] == "elektriciteitsverbruik_kwh" {
            field["waarde"] = json!(2500000);
        }
    }
    let file = write(&sandbox, "edited.json", &edited);
    let error = indienen(&sandbox, &file, &["--confirm"]).error(65);
    assert!(
        error["detail"].as_str().unwrap().contains("concept_digest"),
        "{error}"
    );
    sandbox.assert_store(0);
    // A concept made with another version of the regulation definition: the ruleset differs.
    let dir = tempfile::tempdir().unwrap();
    let definition = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../regelrecht-cli/regelingen/informatieplicht-energiebesparing.json");
    let mut changed: Value = serde_json::from_slice(&std::fs::read(definition).unwrap()).unwrap();
    changed["omschrijving"] = "een andere versie van de definitie".into();
    std::fs::write(dir.path().join("anders.json"), changed.to_string()).unwrap();
    let other = concept(
        &sandbox,
        &fake,
        ANSWERS,
        &[("REGELRECHT_REGELINGEN", dir.path())],
    );
    assert_eq!(other["status"], "compleet");
    let file = write(&sandbox, "other.json", &other);
    let error = indienen(&sandbox, &file, &["--confirm"]).error(65);
    assert!(
        error["detail"].as_str().unwrap().contains("ruleset"),
        "{error}"
    );
    sandbox.assert_store(0);
    // Measures are checked against the concept's list.
    let file = write(&sandbox, "concept.json", &complete);
    let mut cmd = sandbox.cmd();
    cmd.env("OVERHEID_CLI_DIR", family());
    let error = run(
        cmd,
        [
            "rapportage",
            "indienen",
            "--concept",
            &file,
            "--maatregel",
            "LED-verlichtng",
            "--maatregel",
            "FD3",
            "--overige-maatregel",
            "led verlichting",
            "--peildatum",
            PEILDATUM,
        ],
    )
    .error(65);
    let details: Vec<&str> = error["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["detail"].as_str().unwrap())
        .collect();
    assert!(
        details.iter().any(|d| d.contains("bedoelt u GF4")),
        "{details:?}"
    );
    assert!(
        details
            .iter()
            .any(|d| d.contains("FD3") && d.contains("niet van toepassing"))
    );
    assert!(details.iter().any(|d| d.contains("--maatregel GF4")));
    assert!(details.iter().any(|d| d.contains("kalenderjaar")));
    // Without regelrecht-cli the concept cannot be checked: 69, nothing filed.
    let mut cmd = sandbox.cmd();
    cmd.env("OVERHEID_CLI_DIR", sandbox.path());
    let args = [
        "rapportage",
        "indienen",
        "--concept",
        &file,
        "--maatregel",
        "GF4",
        "--kalenderjaar",
        "2025",
        "--peildatum",
        PEILDATUM,
        "--confirm",
    ];
    run(cmd, args).error(69);
    sandbox.assert_store(0);
}

#[test]
fn the_kvk_number_defaults_to_the_session() {
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd();
    cmd.env("KVK_SESSIE_NUMMER", KVK);
    let proposed = run(
        cmd,
        [
            "rapportage",
            "indienen",
            "EBR-2027",
            "LED-verlichting",
            "--peildatum",
            "2026-11-30",
        ],
    );
    proposed.refusal(80);
    let plan = proposed.plan();
    assert_eq!(plan["arguments"]["kvk_nummer"], KVK);
    assert_eq!(plan["arguments"]["regeling_id"], "EBR-2027");
    assert_eq!(plan["arguments"]["maatregelen"], json!(["led-verlichting"]));
    // Without a session the scheme id is not taken for a KvK number: exit 2 with the hint.
    let error = run(
        sandbox.cmd(),
        ["rapportage", "indienen", "EBR-2027", "LED-verlichting"],
    )
    .error(2);
    assert!(
        error["hint"]
            .as_str()
            .unwrap()
            .contains("KVK_SESSIE_NUMMER")
    );
    // The full form still works, and another company is refused under the session.
    let mut cmd = sandbox.cmd();
    cmd.env("KVK_SESSIE_NUMMER", KVK);
    run(
        cmd,
        [
            "rapportage",
            "indienen",
            "69599084",
            "EBR-2027",
            "LED-verlichting",
        ],
    )
    .error(77);
}

#[test]
fn a_concept_goes_to_the_http_backend_with_its_contents() {
    let fake = FakeServer::start(kvk::kvk);
    let backend = crate::http::contract_fake();
    let base = backend.url("/api");
    let sandbox = Sandbox::new();
    let complete = concept(&sandbox, &fake, ANSWERS, &[]);
    let file = write(&sandbox, "concept.json", &complete);
    let mut cmd = sandbox.cmd();
    cmd.env("OVERHEID_CLI_DIR", family())
        .env("RVO_API_BASE", &base)
        .env("RVO_API_TOKEN", crate::http::TOKEN);
    let filed = run(
        cmd,
        [
            "rapportage",
            "indienen",
            "--concept",
            &file,
            "--overige-maatregel",
            "Zonnepanelen",
            "--kalenderjaar",
            "2025",
            "--peildatum",
            PEILDATUM,
            "--confirm",
        ],
    )
    .json();
    assert_eq!(filed["backend"], "http");
    let body: Value = serde_json::from_slice(&backend.last_request().unwrap().body).unwrap();
    // Only other measures (d): maatregelen is empty, the contents say why.
    assert_eq!(body["maatregelen"], json!([]));
    assert_eq!(
        body["inhoud"]["overige_maatregelen"],
        json!(["Zonnepanelen"])
    );
    assert_eq!(body["inhoud"]["concept_digest"], complete["concept_digest"]);
    let status = crate::http::http_run(&sandbox, &base, &["rapportage", "status", "FAKE-1"]).json();
    assert_valid_against(&output_schema("rapportage_status"), &status, "status");
    assert_eq!(status["inhoud"]["energiegebruik"]["kalenderjaar"], 2025);
}

//! `concept`, `concept --toets` and `regelingen` (spec/concept.md) against the fake KvK, with the
//! real kvk-cli as the source (run as a child through its profile).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use test_support::{FakeServer, kvk};

use crate::support::{Sandbox, assert_valid_against, corpus_dir, output_schema, run};

const KVK: &str = "68750110";
const EML: &str = "informatieplicht-energiebesparing";

/// Every answer of the energy regulation, for a company with a cooling installation.
pub(crate) const ANSWERS: &[&str] = &[
    "elektriciteitsverbruik_kwh=250.000",
    "aardgasverbruik_m3=31.000 m3",
    "betreft_gebruiksfunctie_bbl=nee",
    "alleen_hernieuwbare_energie_op_locatie=nee",
    "is_activiteit_artikel_3_3a_lid_1_onder_a=nee",
    "is_activiteit_artikel_3_3a_lid_1_onder_b=nee",
    "heeft_koelinstallatie=ja",
    "heeft_afzuiginstallatie=nee",
];

fn family() -> PathBuf {
    test_support::cli::family_dir(env!("CARGO_BIN_EXE_regelrecht-cli"), &["kvk-cli"])
}

/// regelrecht-cli with kvk-cli pointed at `fake`.
fn cmd(sandbox: &Sandbox, fake: &FakeServer) -> assert_cmd::Command {
    let mut cmd = sandbox.cmd();
    cmd.env("KVK_API_BASE", fake.base_url())
        .env("KVK_API_KEY", "test-sleutel")
        .env("KVK_AUDIT_LOG", sandbox.path().join("kvk-audit.jsonl"))
        .env("OVERHEID_CLI_DIR", family());
    cmd
}

fn concept_args<'a>(regeling: &'a str, kvk: &'a str, answers: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["concept", regeling, kvk, "--peildatum", "2026-12-01"];
    for answer in answers {
        args.push("--opgave");
        args.push(answer);
    }
    args
}

fn concept(fake: &FakeServer, answers: &[&str]) -> Value {
    let sandbox = Sandbox::new();
    let concept = run(cmd(&sandbox, fake), concept_args(EML, KVK, answers)).json();
    assert_valid_against(&output_schema("concept"), &concept, "concept");
    concept
}

fn field<'c>(concept: &'c Value, name: &str) -> &'c Value {
    concept["velden"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["naam"] == name)
        .unwrap_or_else(|| panic!("no field {name}"))
}

fn outcome<'c>(concept: &'c Value, output: &str) -> &'c Value {
    concept["uitkomsten"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["uitvoer"] == output)
        .unwrap_or_else(|| panic!("no outcome {output}"))
}

#[test]
fn a_concept_without_answers_asks_the_laws_questions() {
    let fake = FakeServer::start(kvk::kvk);
    let concept = concept(&fake, &[]);
    assert_eq!(concept["status"], "onvolledig");
    let kvk_field = field(&concept, "kvk_nummer");
    assert_eq!(kvk_field["waarde"], KVK);
    assert_eq!(kvk_field["soort"], "registratie");
    assert_eq!(kvk_field["bron"], "kvk-basisprofiel");
    assert_eq!(kvk_field["mag_corrigeren"], false);
    assert_eq!(kvk_field["herkomst_sha256"].as_str().unwrap().len(), 64);
    assert!(kvk_field["opgehaald_op"].as_str().unwrap().ends_with('Z'));
    let questions = concept["open_vragen"].as_array().unwrap();
    let kwh = questions
        .iter()
        .find(|q| q["naam"] == "elektriciteitsverbruik_kwh")
        .unwrap();
    // The question is the law parameter's own description.
    assert_eq!(
        kwh["vraag"],
        "Energiegebruik van de milieubelastende activiteit in een kalenderjaar, in kWh elektriciteit"
    );
    assert_eq!(kwh["eenheid"], "kWh");
    assert!(
        questions
            .iter()
            .any(|q| q["naam"] == "heeft_koelinstallatie"
                && q["vraag"].as_str().unwrap().contains("koel"))
    );
    let duty = outcome(&concept, "heeft_informatieplicht");
    assert_eq!(duty["status"], "open");
    assert_eq!(duty["waarde"], Value::Null);
    assert!(
        duty["ontbreekt"]
            .as_array()
            .unwrap()
            .contains(&json!("elektriciteitsverbruik_kwh"))
    );
    // One call of kvk-cli: discovery is local, the profile call is one request.
    assert_eq!(fake.request_count(), 1);
    let sent = fake.last_request().unwrap();
    assert!(
        sent.path.ends_with("/v1/basisprofielen/68750110"),
        "{}",
        sent.path
    );
}

#[test]
fn answering_completes_the_concept_with_measures_articles_and_ruleset() {
    let fake = FakeServer::start(kvk::kvk);
    let concept = concept(&fake, ANSWERS);
    assert_eq!(concept["status"], "compleet", "{concept:#}");
    assert!(concept["open_vragen"].as_array().unwrap().is_empty());
    let kwh = field(&concept, "elektriciteitsverbruik_kwh");
    assert_eq!(kwh["waarde"], 250000);
    assert_eq!(kwh["soort"], "opgave");
    let duty = outcome(&concept, "heeft_informatieplicht");
    assert_eq!(duty["waarde"], true);
    assert_eq!(duty["artikel"], "5.15a");
    assert_eq!(duty["wettelijke_grondslag"][0]["bwb_id"], "BWBR0041330");
    assert_eq!(
        outcome(&concept, "volgende_rapportagedatum")["waarde"],
        "2027-12-01"
    );
    let measures = concept["lijsten"]["maatregelen"].as_array().unwrap();
    assert_eq!(measures.len(), 7);
    let by_code = |code: &str| measures.iter().find(|m| m["code"] == code).unwrap().clone();
    assert_eq!(by_code("FD3")["van_toepassing"], true);
    let fe4 = by_code("FE4");
    assert_eq!(fe4["van_toepassing"], false);
    assert_eq!(
        fe4["niet_vervulde_randvoorwaarden"][0]["gegeven"],
        "heeft_afzuiginstallatie"
    );
    assert_eq!(concept["rvo"][0]["regeling_id"], "EBR-2027");
    assert_eq!(concept["rvo"][0]["van_toepassing"], true);
    let laws: Vec<&str> = concept["ruleset"]["wetten"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["law_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        laws,
        [
            "besluit_activiteiten_leefomgeving",
            "erkende_maatregelenlijst_energiebesparing"
        ]
    );
    // The digest covers everything else in the document.
    let mut body = concept.clone();
    body.as_object_mut().unwrap().remove("concept_digest");
    assert_eq!(
        concept["concept_digest"],
        test_support::cli::sha256_hex(test_support::cli::canonical(&body).as_bytes())
    );
}

fn toets(sandbox: &Sandbox, concept: &Value, extra: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("concept.json");
    std::fs::write(&path, concept.to_string()).unwrap();
    let mut args = vec!["concept", "--toets", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    let result = run(sandbox.cmd(), args).json();
    assert_valid_against(&output_schema("concept"), &result, "concept-toets");
    result
}

#[test]
fn the_same_check_before_as_after_refuses_an_edited_concept() {
    let fake = FakeServer::start(kvk::kvk);
    let concept = concept(&fake, ANSWERS);
    let sandbox = Sandbox::new();
    let same = toets(&sandbox, &concept, &[]);
    assert_eq!(same["overeenkomst"], true, "{same:#}");
    // An edited outcome: the digest no longer covers it.
    let mut edited = concept.clone();
    edited["uitkomsten"][2]["waarde"] = json!(false);
    let result = toets(&sandbox, &edited, &[]);
    assert_eq!(result["overeenkomst"], false);
    assert_eq!(result["verschillen"][0]["onderdeel"], "concept_digest");
    // An edited value with a recomputed digest: the outcome differs on re-evaluation.
    let mut edited = concept.clone();
    let velden = edited["velden"].as_array_mut().unwrap();
    for f in velden.iter_mut() {
        if f["naam"] == "heeft_koelinstallatie" {
            f["waarde"] = json!(false);
        }
    }
    let mut body = edited.clone();
    body.as_object_mut().unwrap().remove("concept_digest");
    edited["concept_digest"] =
        test_support::cli::sha256_hex(test_support::cli::canonical(&body).as_bytes()).into();
    let result = toets(&sandbox, &edited, &[]);
    assert_eq!(result["overeenkomst"], false);
    assert!(
        result["verschillen"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v["uitvoer"] == "fd3_van_toepassing" && v["nu"] == false),
        "{result:#}"
    );
}

#[test]
fn dutch_numbers_negative_use_and_wrong_units_are_handled_as_documented() {
    let fake = FakeServer::start(kvk::kvk);
    let sandbox = Sandbox::new();
    let with = |kwh: &str| {
        let answer = format!("elektriciteitsverbruik_kwh={kwh}");
        let mut answers: Vec<&str> = ANSWERS[1..].to_vec();
        answers.push(&answer);
        run(cmd(&sandbox, &fake), concept_args(EML, KVK, &answers))
    };
    for (text, value) in [
        ("250.000", 250000),
        ("250.000 kWh", 250000),
        ("250000kwh", 250000),
        ("1.234,5", 0),
    ] {
        let concept = with(text).json();
        if value > 0 {
            assert_eq!(
                field(&concept, "elektriciteitsverbruik_kwh")["waarde"],
                value,
                "{text}"
            );
        } else {
            assert_eq!(
                field(&concept, "elektriciteitsverbruik_kwh")["waarde"],
                1234.5
            );
        }
    }
    for (text, says) in [
        ("-5000", "negatief"),
        ("250 MWh", "verkeerde eenheid"),
        ("250,000", "Nederlandse schrijfwijze"),
        ("250.5", "Nederlandse schrijfwijze"),
        ("veel", "Nederlandse schrijfwijze"),
    ] {
        let error = with(text).error(65);
        assert_eq!(error["errors"][0]["pointer"], "/opgave", "{text}");
        assert!(
            error["detail"].as_str().unwrap().contains(says),
            "{text}: {error}"
        );
    }
    let error = run(
        cmd(&sandbox, &fake),
        concept_args(EML, KVK, &["heeft_koelinstallatie=misschien", "onbekend=1"]),
    )
    .error(65);
    assert_eq!(error["errors"].as_array().unwrap().len(), 2);
    // A source value that may not be corrected.
    let error = run(
        cmd(&sandbox, &fake),
        concept_args(EML, KVK, &["kvk_nummer=12345678"]),
    )
    .error(65);
    assert!(
        error["detail"]
            .as_str()
            .unwrap()
            .contains("mag niet gecorrigeerd")
    );
}

#[test]
fn the_session_rule_holds() {
    let fake = FakeServer::start(kvk::kvk);
    let sandbox = Sandbox::new();
    let mut bound = cmd(&sandbox, &fake);
    bound.env("KVK_SESSIE_NUMMER", "69599084");
    run(bound, concept_args(EML, KVK, &[])).error(77);
    assert_eq!(fake.request_count(), 0, "a refused concept asked a source");
    let mut bound = cmd(&sandbox, &fake);
    bound.env("KVK_SESSIE_NUMMER", KVK);
    let concept = run(bound, ["concept", EML]).json();
    assert_eq!(concept["kvk_nummer"], KVK);
    run(cmd(&sandbox, &fake), ["concept", EML]).error(2);
    let mut bound = cmd(&sandbox, &fake);
    bound.env("KVK_SESSIE_NUMMER", "69599084");
    run(bound, ["regelingen", KVK]).error(77);
}

#[test]
fn a_failing_source_names_the_field_and_never_gives_a_wrong_outcome() {
    let fake = FakeServer::start(kvk::kvk);
    let sandbox = Sandbox::new();
    for (number, exit) in [
        (kvk::special::TECHNISCHE_FOUT, 69),
        (kvk::special::TRUNCATED_JSON, 76),
    ] {
        let concept = run(cmd(&sandbox, &fake), concept_args(EML, number, ANSWERS)).json();
        assert_valid_against(&output_schema("concept"), &concept, "concept");
        assert_eq!(concept["status"], "onvolledig");
        let missing = &concept["niet_opgehaald"][0];
        assert_eq!(missing["naam"], "kvk_nummer", "{concept:#}");
        assert_eq!(missing["bron"], "kvk-basisprofiel");
        assert_eq!(missing["exit_code"], exit, "{number}");
        assert_eq!(field(&concept, "kvk_nummer")["waarde"], Value::Null);
    }
    // With the source program missing: 69, named per field.
    let mut cmd = cmd(&sandbox, &fake);
    cmd.env("OVERHEID_CLI_DIR", sandbox.path());
    let concept = run(cmd, concept_args(EML, KVK, &[])).json();
    assert_eq!(concept["niet_opgehaald"][0]["exit_code"], 69);
}

/// A definitions directory with a regulation on a test law whose input comes from the KvK and
/// may be corrected, and a source that needs consent.
fn test_definitions(dir: &Path) -> (PathBuf, PathBuf) {
    let defs = dir.join("regelingen");
    let laws = dir.join("wetten/grootte/2020-01-01.yaml");
    std::fs::create_dir_all(&defs).unwrap();
    std::fs::create_dir_all(laws.parent().unwrap()).unwrap();
    std::fs::write(
        &laws,
        r#"---
$id: test_bedrijfsgrootte
regulatory_layer: WET
valid_from: '2020-01-01'
articles:
  - number: '1'
    text: Een bedrijf met tien of meer werkzame personen is groot.
    machine_readable:
      execution:
        parameters:
          - name: werkzame_personen
            type: number
            required: true
            description: Aantal werkzame personen
          - name: personen_met_toestemming
            type: number
            required: false
            description: Aantal personen volgens een bron met toestemming
        output:
          - name: is_groot
            type: boolean
        actions:
          - output: is_groot
            value:
              operation: GREATER_THAN_OR_EQUAL
              subject: $werkzame_personen
              value: 10
"#,
    )
    .unwrap();
    std::fs::write(
        defs.join("bronnen.json"),
        json!({
            "bronnen": [{"id": "kvk-met-toestemming", "naam": "KvK, met toestemming", "programma": "kvk-cli",
                         "commando": ["basisprofiel", "toon"], "soort": "attestatie", "toestemming_nodig": true}],
            "gegevens": [{"id": "personen_met_toestemming", "bron": "kvk-met-toestemming",
                          "veld": "totaalWerkzamePersonen", "type": "number"}]
        })
        .to_string(),
    )
    .unwrap();
    std::fs::write(
        defs.join("grootte.json"),
        json!({
            "id": "test-grootte", "naam": "Test: bedrijfsgrootte", "versie": "1",
            "evaluaties": [{"wet": "test_bedrijfsgrootte", "uitvoer": ["is_groot"]}],
            "gegevens": [
                {"naam": "werkzame_personen", "gegeven": "werkzame_personen", "mag_corrigeren": true},
                {"naam": "personen_met_toestemming", "gegeven": "personen_met_toestemming", "mag_corrigeren": false}
            ],
            "toepasselijkheid": {"omschrijving": "SBI-sectie A (landbouw)", "alle": [{"gegeven": "sbi_codes", "begint_met": ["01", "02", "03"]}]}
        })
        .to_string(),
    )
    .unwrap();
    (defs, dir.join("wetten"))
}

#[test]
fn a_correction_changes_the_outcome_and_keeps_the_source_value() {
    let fake = FakeServer::start(kvk::kvk);
    let sandbox = Sandbox::new();
    let dir = tempfile::tempdir().unwrap();
    let (defs, laws) = test_definitions(dir.path());
    let args = |extra: &[&'static str]| {
        let mut args: Vec<String> = [
            "concept",
            "test-grootte",
            KVK,
            "--regelingen",
            defs.to_str().unwrap(),
            "--corpus",
            laws.to_str().unwrap(),
        ]
        .map(String::from)
        .to_vec();
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    let before = run(cmd(&sandbox, &fake), args(&[])).json();
    assert_valid_against(&output_schema("concept"), &before, "concept");
    assert_eq!(field(&before, "werkzame_personen")["waarde"], 1);
    assert_eq!(outcome(&before, "is_groot")["waarde"], false);
    // The consent source was not called: one request only (the registration source).
    assert_eq!(fake.request_count(), 1);
    let missing = &before["niet_opgehaald"][0];
    assert_eq!(missing["naam"], "personen_met_toestemming");
    assert!(
        missing["reden"]
            .as_str()
            .unwrap()
            .contains("--toestemming kvk-met-toestemming")
    );

    fake.clear_requests();
    let after = run(
        cmd(&sandbox, &fake),
        args(&[
            "--opgave",
            "werkzame_personen=12",
            "--toestemming",
            "kvk-met-toestemming",
        ]),
    )
    .json();
    assert_valid_against(&output_schema("concept"), &after, "concept");
    let corrected = field(&after, "werkzame_personen");
    assert_eq!(corrected["waarde"], 12);
    assert_eq!(corrected["soort"], "opgave");
    assert_eq!(corrected["correctie_van"]["waarde"], 1);
    assert_eq!(corrected["correctie_van"]["bron"], "kvk-basisprofiel");
    assert_eq!(corrected["correctie_van"]["soort"], "registratie");
    assert_eq!(outcome(&after, "is_groot")["waarde"], true);
    assert_eq!(
        field(&after, "personen_met_toestemming")["soort"],
        "attestatie"
    );
    assert_eq!(after["toestemmingen"], json!(["kvk-met-toestemming"]));
    assert_eq!(
        fake.request_count(),
        2,
        "with consent both sources are asked"
    );
    assert_ne!(before["concept_digest"], after["concept_digest"]);

    // A correctable field whose source could not be fetched is named as such, never an open
    // question for the person (issue 40 item 1).
    let failed = run(
        cmd(&sandbox, &fake),
        [
            "concept",
            "test-grootte",
            kvk::special::TECHNISCHE_FOUT,
            "--regelingen",
            defs.to_str().unwrap(),
            "--corpus",
            laws.to_str().unwrap(),
        ],
    )
    .json();
    assert_valid_against(&output_schema("concept"), &failed, "concept");
    assert_eq!(failed["status"], "onvolledig");
    let unfetched = failed["niet_opgehaald"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["naam"] == "werkzame_personen")
        .expect("named as not fetched");
    assert_eq!(unfetched["bron"], "kvk-basisprofiel");
    assert_eq!(unfetched["exit_code"], 69);
    assert!(
        unfetched["reden"]
            .as_str()
            .unwrap()
            .contains("geen vraag voor de aanvrager"),
        "{unfetched}"
    );
    assert!(
        !failed["open_vragen"]
            .as_array()
            .unwrap()
            .iter()
            .any(|q| q["naam"] == "werkzame_personen"),
        "{failed}"
    );

    // Applicability on registration data: Donald's SBI code 01241 is in section A.
    let list = run(
        cmd(&sandbox, &fake),
        [
            "regelingen",
            KVK,
            "--regelingen",
            defs.to_str().unwrap(),
            "--lang",
        ],
    )
    .json();
    let entry = list["regelingen"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "test-grootte")
        .unwrap()
        .clone();
    assert_eq!(entry["uitkomst"], "mogelijk van toepassing");
    assert_eq!(
        entry["gebruikte_gegevens"]["sbi_codes"]["waarde"],
        json!(["01241"])
    );
}

#[test]
fn regelingen_says_mogelijk_van_toepassing_never_an_entitlement() {
    let fake = FakeServer::start(kvk::kvk);
    let sandbox = Sandbox::new();
    let list = run(cmd(&sandbox, &fake), ["regelingen", KVK]).json();
    assert_valid_against(&output_schema("regelingen"), &list, "regelingen");
    let verdict = |id: &str| {
        list["regelingen"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap()["uitkomst"]
            .clone()
    };
    assert_eq!(verdict(EML), "mogelijk van toepassing");
    assert_eq!(
        verdict("erfgrensbeplanting-amsterdam"),
        "niet aangewezen op grond van de registratie"
    );
    let own = list["regelingen"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["uitkomst"] == "mogelijk van toepassing")
        .count();
    assert_eq!(own, 1);
    // The count covers the RVO catalogue's schemes too (tests/cli/regelingen.rs).
    assert!(list["aantal_mogelijk_van_toepassing"].as_u64().unwrap() > 1);
    assert!(!list.to_string().to_lowercase().contains("u hebt recht"));
    // A source that fails gives no verdict: with nothing computed at all the answer is 69
    // naming it (tests/cli/regelingen.rs).
    let error = run(
        cmd(&sandbox, &fake),
        ["regelingen", kvk::special::TECHNISCHE_FOUT],
    )
    .error(69);
    assert!(
        error["detail"]
            .as_str()
            .unwrap()
            .contains("kvk-basisprofiel"),
        "{error}"
    );
}

#[test]
fn a_second_regulation_in_another_domain_is_data_only() {
    test_support::conformance_dir!();
    let fake = FakeServer::start(kvk::kvk);
    let sandbox = Sandbox::new();
    let corpus = corpus_dir();
    let erfgrens = |answers: &[&str]| {
        let mut args = vec![
            "concept",
            "erfgrensbeplanting-amsterdam",
            KVK,
            "--corpus",
            corpus.to_str().unwrap(),
        ];
        for a in answers {
            args.extend(["--opgave", a]);
        }
        run(cmd(&sandbox, &fake), args)
    };
    let open = erfgrens(&[]).json();
    assert_valid_against(&output_schema("concept"), &open, "concept");
    assert_eq!(field(&open, "gemeente_code")["waarde"], "GM0363");
    assert_eq!(field(&open, "gemeente_code")["soort"], "wetsconstante");
    let question = &open["open_vragen"][0];
    assert_eq!(question["naam"], "type_beplanting");
    assert_eq!(question["waarden"], json!(["boom", "heg_of_heester"]));
    let centre = erfgrens(&["type_beplanting=boom", "postcode=1012"]).json();
    assert_eq!(outcome(&centre, "minimale_afstand_cm")["waarde"], 100);
    let elsewhere = erfgrens(&["type_beplanting=boom", "postcode=1100"]).json();
    assert_eq!(outcome(&elsewhere, "minimale_afstand_cm")["waarde"], 200);
    let error = erfgrens(&["type_beplanting=struik"]).error(65);
    assert!(
        error["detail"]
            .as_str()
            .unwrap()
            .contains("boom, heg_of_heester")
    );
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// No code path of the concept machinery names a regulation: the definitions' ids, names, laws,
/// outputs and RVO schemes appear only in the definition files (and the law files).
#[test]
fn no_code_names_a_regulation() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = Vec::new();
    for entry in std::fs::read_dir(root.join("regelingen"))
        .unwrap()
        .flatten()
    {
        let definition: Value =
            serde_json::from_slice(&std::fs::read(entry.path()).unwrap()).unwrap();
        if definition.get("evaluaties").is_none() {
            continue;
        }
        names.push(definition["id"].as_str().unwrap().into());
        names.push(definition["naam"].as_str().unwrap().into());
        for evaluation in definition["evaluaties"].as_array().unwrap() {
            names.push(evaluation["wet"].as_str().unwrap().into());
            for output in evaluation["uitvoer"].as_array().unwrap() {
                names.push(output.as_str().unwrap().into());
            }
        }
        for scheme in definition["rvo"].as_array().unwrap() {
            names.push(scheme["regeling_id"].as_str().unwrap().into());
        }
    }
    assert!(names.len() >= 10, "{names:?}");
    let mut files = Vec::new();
    rust_files(&root.join("src/cli/regeling"), &mut files);
    for file in ["concept.rs", "regelingen.rs"] {
        files.push(root.join("src/cli/commands").join(file));
    }
    files.push(root.join("build.rs"));
    files.push(root.join("../rvo-cli/src/inhoud.rs"));
    files.push(root.join("../rvo-cli/src/cli/concept.rs"));
    files.push(root.join("../common/src/call/child/mod.rs"));
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap().to_lowercase();
        // A command's discovery example is documentation for people, not a code path.
        let text = match (text.find("    examples:"), text.find("\n    args: ")) {
            (Some(from), Some(to)) if from < to && to - from < 2000 => {
                format!("{}{}", &text[..from], &text[to..])
            }
            _ => text,
        };
        for name in &names {
            assert!(
                !text.contains(&name.to_lowercase()),
                "{} names '{name}'",
                file.display()
            );
        }
    }
}

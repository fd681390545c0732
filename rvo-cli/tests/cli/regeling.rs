//! `regeling zoek|get|lijst`: the embedded catalogue through the binary.

use serde_json::Value;

use crate::support::{Run, Sandbox, assert_valid_against, output_schema, sha256_hex};

fn ids(data: &Value) -> Vec<String> {
    data["regelingen"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn zoek_is_case_and_accent_insensitive() {
    let sandbox = Sandbox::new();
    let plain = sandbox
        .run([
            "regeling",
            "zoek",
            "informatieplicht",
            "--peildatum",
            "2026-11-30",
        ])
        .json();
    let shouted = sandbox
        .run([
            "regeling",
            "zoek",
            "INFORMATIEPLÎCHT",
            "--peildatum",
            "2026-11-30",
        ])
        .json();
    assert_valid_against(&output_schema("regeling_zoek"), &plain, "regeling_zoek");
    assert_eq!(ids(&plain), ids(&shouted));
    assert_eq!(ids(&plain)[0], "EBR-2027");
    assert_eq!(plain["aantal"], 3);
}

#[test]
fn zoek_filters_and_zero_hits_is_an_empty_list() {
    let sandbox = Sandbox::new();
    let closed = sandbox
        .run([
            "regeling",
            "zoek",
            "informatieplicht",
            "--status",
            "gesloten",
            "--peildatum",
            "2026-11-30",
        ])
        .json();
    assert_eq!(ids(&closed), ["EBR-2023"]);
    let grants = sandbox
        .run([
            "regeling",
            "zoek",
            "",
            "--soort",
            "subsidie",
            "--peildatum",
            "2026-11-30",
        ])
        .json();
    assert_eq!(ids(&grants), ["ISDE-2026", "SDE-2026"]);
    let none = sandbox.run(["regeling", "zoek", "xyzzy"]).json();
    assert_eq!(none["aantal"], 0);
    assert_eq!(none["regelingen"], serde_json::json!([]));
}

#[test]
fn get_shows_status_and_the_correct_legal_basis() {
    let sandbox = Sandbox::new();
    let ebr = sandbox
        .run(["regeling", "toon", "ebr-2027", "--peildatum", "2026-11-30"])
        .json();
    assert_valid_against(&output_schema("regeling_toon"), &ebr, "regeling_toon");
    assert_eq!(ebr["id"], "EBR-2027");
    assert_eq!(ebr["status"], "open");
    assert_eq!(ebr["wettelijke_grondslag"][0]["artikel"], "5.15a");
    let later = sandbox
        .run(["regeling", "toon", "EBR-2027", "--peildatum", "2027-12-02"])
        .json();
    assert_eq!(later["status"], "gesloten");
}

#[test]
fn get_of_an_unknown_id_is_not_found_with_the_known_ids() {
    let sandbox = Sandbox::new();
    let error = sandbox.run(["regeling", "toon", "EBR-2099"]).error(66);
    assert_eq!(error["code"], "NIET_GEVONDEN");
    let hint = error["hint"].as_str().unwrap();
    for id in ["EBR-2027", "EIA-2026", "WBSO-2026"] {
        assert!(hint.contains(id), "{hint}");
    }
    assert_eq!(sandbox.audit_records()[0]["exit_code"], 66);
}

/// The declared pattern of `regeling_id` is enforced before any lookup: a value that breaks it
/// is exit 65 with its pointer (not 66), together with every other invalid argument.
#[test]
fn get_of_an_id_that_breaks_the_pattern_is_invalid_input_with_all_errors() {
    let sandbox = Sandbox::new();
    let error = sandbox
        .run(["regeling", "toon", "--", "@@ongeldig@@"])
        .error(65);
    assert_eq!(error["code"], "ONGELDIGE_INVOER");
    assert_eq!(error["errors"][0]["pointer"], "/regeling_id");
    let too_long = "A".repeat(41);
    let error = sandbox
        .run(["regeling", "toon", &too_long, "--peildatum", "morgen"])
        .error(65);
    let pointers: Vec<&str> = error["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["pointer"].as_str().unwrap())
        .collect();
    assert_eq!(pointers, ["/regeling_id", "/peildatum"]);
    // Surrounding spaces are allowed by the pattern and ignored.
    let data = sandbox.run(["regeling", "toon", " ebr-2027 "]).json();
    assert_eq!(data["id"], "EBR-2027");
}

#[test]
fn lijst_with_provenance_names_the_embedded_catalogue() {
    let sandbox = Sandbox::new();
    let envelope = sandbox.run(["regeling", "lijst", "--provenance"]).json();
    crate::support::assert_valid("envelope.schema.json", &envelope);
    assert_valid_against(&output_schema("regeling_lijst"), &envelope["data"], "lijst");
    assert_eq!(envelope["data"]["aantal"], 8);
    let provenance = &envelope["provenance"];
    assert!(
        provenance["source"]
            .as_str()
            .unwrap()
            .starts_with("RVO regelingencatalogus (ingebed, stand 2026-11-30")
    );
    assert_eq!(provenance["method"], "LOCAL");
    assert_eq!(provenance["environment"], "local");
    assert!(
        provenance["source_url"]
            .as_str()
            .unwrap()
            .starts_with("urn:")
    );
    let file = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/data/regelingen.json")).unwrap();
    assert_eq!(provenance["response_sha256"], sha256_hex(&file).as_str());
}

/// What `lijst` and `zoek` hold alike (issue 40 item 4): both forms valid against `schema`,
/// the same schemes in the same order, each short row exactly `members` (besides the optional
/// `openstelling` and `deadline`), each long row every member, and the short form under a
/// quarter of the long one. Returns both documents.
fn assert_short_rows(short: &Run, long: &Run, schema: &str, members: &[&str]) -> (Value, Value) {
    let schema = output_schema(schema);
    let (rows, all) = (short.json(), long.json());
    assert_valid_against(&schema, &rows, "short rows");
    assert_valid_against(&schema, &all, "--lang");
    assert_eq!(ids(&rows), ids(&all));
    let pairs = rows["regelingen"].as_array().unwrap().iter();
    for (row, full) in pairs.zip(all["regelingen"].as_array().unwrap()) {
        let mut shown: Vec<&str> = row
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        shown.retain(|m| !["openstelling", "deadline"].contains(m));
        assert_eq!(shown, members, "{row}");
        for member in ["beschrijving", "wettelijke_grondslag", "url", "status_op"] {
            assert!(full.get(member).is_some(), "--lang: {member} in {full}");
        }
    }
    assert!(
        short.stdout.len() * 4 < long.stdout.len(),
        "{} of {} bytes",
        short.stdout.len(),
        long.stdout.len()
    );
    (rows, all)
}

/// Issue 40 item 4: the catalogue prints one short row per scheme by default (it was 15.6 KB);
/// `--lang` prints every member, and `--fields` chooses from every member.
#[test]
fn lijst_prints_a_short_row_per_scheme_unless_asked_for_more() {
    let sandbox = Sandbox::new();
    let short = sandbox.run(["regeling", "lijst", "--peildatum", "2026-12-01"]);
    let long = sandbox.run(["regeling", "lijst", "--peildatum", "2026-12-01", "--lang"]);
    let members = ["id", "naam", "soort", "indienbaar_via_cli", "status"];
    assert_short_rows(&short, &long, "regeling_lijst", &members);
    let chosen = sandbox
        .run(["regeling", "lijst", "--fields", "regelingen[].beschrijving"])
        .json();
    let chosen = chosen["regelingen"].as_array().unwrap();
    assert_eq!(chosen.len(), 8);
    assert!(
        chosen.iter().all(|r| r["beschrijving"].is_string()),
        "{chosen:?}"
    );
}

/// Issue 40 item 4 for the search too: a short row per hit by default (six full hits for
/// "energie" were 11.9 KB), in the order of their score; `--lang` prints every member, and
/// `--fields` chooses from every member.
#[test]
fn zoek_prints_a_short_row_per_hit_unless_asked_for_more() {
    let sandbox = Sandbox::new();
    let args = ["regeling", "zoek", "energie", "--peildatum", "2026-12-01"];
    let short = sandbox.run(args);
    let long = sandbox.run([&args[..], &["--lang"]].concat());
    let members = [
        "id",
        "naam",
        "soort",
        "indienbaar_via_cli",
        "status",
        "score",
    ];
    let (rows, all) = assert_short_rows(&short, &long, "regeling_zoek", &members);
    assert!(rows["aantal"].as_u64() > Some(2), "{rows}");
    for (row, full) in rows["regelingen"]
        .as_array()
        .unwrap()
        .iter()
        .zip(all["regelingen"].as_array().unwrap())
    {
        assert_eq!(row["score"], full["score"]);
    }
    let chosen = sandbox
        .run([&args[..], &["--fields", "regelingen[].url"]].concat())
        .json();
    let chosen = chosen["regelingen"].as_array().unwrap();
    assert_eq!(chosen.len(), ids(&rows).len());
    assert!(chosen.iter().all(|r| r["url"].is_string()), "{chosen:?}");
}

#[test]
fn read_only_commands_pass_the_gate_too() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(["regeling", "toon", "EBR-2027", "--dry-run"]);
    assert_eq!(run.code, 0, "{run:#?}");
    let plan = run.plan();
    assert_eq!(plan["mutating"], false);
    assert_eq!(plan["method"], Value::Null);
    let error = sandbox
        .run(["regeling", "lijst", "--peildatum", "30-11-2026"])
        .error(65);
    assert_eq!(error["errors"][0]["pointer"], "/peildatum");
}

/// `regeling toon --peildatum D` reports D as its peildatum; the catalogue's own date is its
/// `stand`, never called a peildatum (issue 29).
#[test]
fn toon_names_the_catalogue_date_its_stand_not_the_peildatum() {
    let sandbox = Sandbox::new();
    let args = [
        "regeling",
        "toon",
        "EIA-2026",
        "--peildatum",
        "2026-06-01",
        "--provenance",
    ];
    let envelope = sandbox.run(args).json();
    assert_eq!(envelope["data"]["status_op"], "2026-06-01");
    let provenance = &envelope["provenance"];
    let source = provenance["source"].as_str().unwrap();
    assert!(source.contains("stand 2026-11-30"), "{source}");
    assert!(!source.contains("peildatum"), "{source}");
    assert_eq!(provenance["catalogus_stand"], "2026-11-30");
    assert!(provenance.get("catalogus_peildatum").is_none());
}

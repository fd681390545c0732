//! Profile rules: discovery, dry runs of every example, the provenance envelope, error
//! objects, the audit record, and the KvK session rule of `check energiebesparing`.

use serde_json::Value;

use crate::support::{Sandbox, assert_valid, discovery, run};
use test_support::cli::full_entry_words;

fn check_args(number: Option<&str>) -> Vec<&str> {
    let mut args = vec!["check", "energiebesparing"];
    args.extend(number);
    args.extend(["--elektriciteit-kwh", "62000", "--gas-m3", "31000"]);
    args
}

#[test]
fn discovery_validates_and_lists_the_commands_as_local_reads() {
    let document = discovery();
    assert_valid("discovery.schema.json", &document);
    let names: Vec<&str> = document["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| t["name"].as_str().expect("name"))
        .collect();
    assert_eq!(
        names,
        [
            "wet_lijst",
            "wet_toon",
            "wet_notities",
            "wet_valideer",
            "evalueer",
            "scenario",
            "ontvangstbewijs_controleer",
            "check_energiebesparing",
            "concept",
            "regelingen"
        ]
    );
    for tool in document["tools"].as_array().expect("tools") {
        // concept and regelingen ask the family's sources (spec/concept.md §4); the root lists
        // the hints that differ from MCP's defaults (DISC-11, DISC-17).
        let asks_sources = ["concept", "regelingen"].contains(&tool["name"].as_str().unwrap());
        let hints = if asks_sources {
            serde_json::json!({"readOnlyHint": true})
        } else {
            serde_json::json!({"readOnlyHint": true, "openWorldHint": false})
        };
        assert_eq!(tool["annotations"], hints);
        let entry = run(Sandbox::new().cmd(), full_entry_words(tool)).json();
        assert_valid("tool.schema.json", &entry);
        assert_eq!(entry["annotations"]["openWorldHint"], asks_sources);
        assert_eq!(&common::discovery::compact_entry(&entry), tool, "DISC-17");
    }
    let env: Vec<&str> = document["env"]
        .as_array()
        .expect("env")
        .iter()
        .map(|e| e["name"].as_str().expect("name"))
        .collect();
    for name in [
        "REGELRECHT_CORPUS",
        "KVK_SESSIE_NUMMER",
        "REGELRECHT_AUDIT_LOG",
    ] {
        assert!(env.contains(&name), "{name} not declared: {env:?}");
    }
    let check = document["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .find(|t| t["name"] == "check_energiebesparing")
        .expect("check_energiebesparing");
    assert_eq!(
        check["_meta"]["positional"],
        serde_json::json!(["kvk_nummer"])
    );
    assert_eq!(
        check["inputSchema"]["properties"]["activiteit_3_3a_lid_1_a"]["type"],
        "boolean"
    );
}

/// DISC-25: discovery names the programs `concept` and `regelingen` run as children, exactly
/// the programs of the built-in source register, so a host passes them their variables.
#[test]
fn discovery_names_the_programs_of_the_built_in_register_as_children() {
    let register: Value = serde_json::from_str(
        &std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("regelingen/bronnen.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let mut programs: Vec<&str> = register["bronnen"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|source| source["programma"].as_str())
        .collect();
    programs.sort_unstable();
    programs.dedup();
    assert!(!programs.is_empty());
    let document = discovery();
    let mut children: Vec<&str> = document["children"]
        .as_array()
        .expect("discovery names its children")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    children.sort_unstable();
    assert_eq!(children, programs);
}

#[test]
fn every_example_dry_runs_to_a_valid_plan() {
    let sandbox = Sandbox::new();
    for tool in discovery()["tools"].as_array().expect("tools") {
        // The examples are in the command's full entry (DISC-17).
        let full = run(sandbox.cmd(), full_entry_words(tool)).json();
        for example in full["_meta"]["examples"].as_array().expect("examples") {
            let mut args: Vec<String> = example
                .as_array()
                .expect("argv")
                .iter()
                .map(|a| a.as_str().expect("word").to_string())
                .collect();
            args.push("--dry-run".into());
            let plan = run(sandbox.cmd(), &args).json();
            assert_valid("plan.schema.json", &plan);
            assert_eq!(plan["dry_run"], true);
            assert_eq!(plan["mutating"], false);
            assert_eq!(plan["requests"], serde_json::json!([]));
            assert_eq!(plan["method"], Value::Null);
        }
    }
    let records = sandbox.audit_records();
    assert!(
        records
            .iter()
            .all(|r| r["attributes"]["overheid.dry_run"] == true)
    );
}

#[test]
fn a_dry_run_of_invalid_input_fails_like_the_real_call() {
    let error = run(
        Sandbox::new().cmd(),
        [
            "evalueer",
            "besluit_activiteiten_leefomgeving",
            "--uitvoer",
            "heeft_informatieplicht",
            "--param",
            "aardgasverbruik_m3=veel",
            "--dry-run",
        ],
    )
    .error(65);
    assert_eq!(error["code"], "ONGELDIGE_INVOER");
}

#[test]
fn provenance_names_the_law_file_its_digest_and_the_engine() {
    let sandbox = Sandbox::new();
    let mut args = check_args(Some("68750110"));
    args.extend(["--peildatum", "2026-01-01", "--provenance"]);
    let v = run(sandbox.cmd(), &args).json();
    assert_valid("envelope.schema.json", &v);
    let p = &v["provenance"];
    assert_eq!(p["source"], "RegelRecht");
    assert_eq!(p["method"], "LOCAL");
    assert_eq!(p["environment"], "local");
    assert_eq!(
        p["source_url"],
        "urn:regelrecht:builtin:besluit_activiteiten_leefomgeving"
    );
    assert_eq!(p["law_id"], "besluit_activiteiten_leefomgeving");
    assert_eq!(p["valid_from"], "2026-01-01");
    assert!(
        p["engine_version"]
            .as_str()
            .expect("engine")
            .starts_with("regelrecht-engine ")
    );
    let toon = run(
        sandbox.cmd(),
        [
            "wet",
            "toon",
            "besluit_activiteiten_leefomgeving",
            "--peildatum",
            "2026-01-01",
        ],
    )
    .json();
    assert_eq!(p["response_sha256"], toon["regulation_sha256"]);
    let record = sandbox.audit_records().remove(0);
    assert_eq!(record["trace_id"], p["trace_id"]);
    assert_eq!(record["attributes"]["dpl.core.data_subject_id"], "68750110");
    assert_eq!(
        record["attributes"]["dpl.core.data_subject_id_type"],
        "KVK_NUMMER"
    );
}

#[test]
fn fields_select_from_the_result() {
    let mut args = check_args(Some("68750110"));
    args.extend([
        "--fields",
        "heeft_informatieplicht,wettelijke_grondslag[].artikel",
    ]);
    let v = run(Sandbox::new().cmd(), &args).json();
    assert_eq!(v["heeft_informatieplicht"], true);
    assert!(v.get("kvk_nummer").is_none());
    assert_eq!(
        v["wettelijke_grondslag"][0],
        serde_json::json!({"artikel": "5.15"})
    );
}

#[test]
fn session_rule_refuses_another_number_and_audits_the_attempt() {
    let sandbox = Sandbox::new();
    for dry in [false, true] {
        let mut args = check_args(Some("68750110"));
        if dry {
            args.push("--dry-run");
        }
        let mut cmd = sandbox.cmd();
        cmd.env("KVK_SESSIE_NUMMER", "12345678");
        let error = run(cmd, &args).error(77);
        assert_eq!(error["code"], "NIET_TOEGESTAAN");
    }
    for record in sandbox.audit_records() {
        assert_eq!(record["exit_code"], 77);
        assert_eq!(record["attributes"]["dpl.core.data_subject_id"], "68750110");
        assert_eq!(record["attributes"]["error.code"], "NIET_TOEGESTAAN");
    }
}

#[test]
fn session_number_is_the_default_and_none_at_all_is_usage() {
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd();
    cmd.env("KVK_SESSIE_NUMMER", "68750110");
    let v = run(cmd, check_args(None)).json();
    assert_eq!(v["kvk_nummer"], "68750110");
    let error = run(sandbox.cmd(), check_args(None)).error(2);
    assert!(
        error["hint"]
            .as_str()
            .expect("hint")
            .contains("KVK_SESSIE_NUMMER")
    );
}

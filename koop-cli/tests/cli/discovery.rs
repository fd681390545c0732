//! Discovery (DISC-*) and resources (RES-*): the document validates, every tool entry matches its
//! own `--help --json`, the resource templates map to tools whose properties they name, and every
//! example works: as a dry run offline, and for real against the fake KOOP (which serves the real
//! ids of the examples with synthetic text).

use serde_json::Value;

use crate::support::{KoopFake, Sandbox, assert_valid, assert_valid_against, discovery, run};
use test_support::cli::full_entry_words;

#[test]
fn the_document_validates_and_declares_the_sources() {
    let doc = discovery();
    assert_valid("discovery.schema.json", &doc);
    assert_eq!(doc["name"], "koop-cli");
    let names: Vec<&str> = doc["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "regeling_zoek",
            "regeling_toon",
            "regeling_artikel",
            "regeling_versies"
        ]
    );
    let env = doc["env"].as_array().unwrap();
    let var = |name: &str| {
        env.iter()
            .find(|e| e["name"] == name)
            .cloned()
            .unwrap_or(Value::Null)
    };
    assert_eq!(var("KOOP_SRU_URL")["kind"], "base_url");
    assert_eq!(
        var("KOOP_SRU_URL")["default"],
        "https://zoekservice.overheid.nl/sru/Search"
    );
    assert_eq!(
        var("KOOP_REPOSITORY_URL")["default"],
        "https://repository.officiele-overheidspublicaties.nl"
    );
    assert_eq!(var("KOOP_AUDIT_LOG")["kind"], "path");
    let zoek = &doc["tools"][0]["inputSchema"]["properties"];
    assert_eq!(zoek["per_pagina"]["maximum"], 100);
    assert_eq!(zoek["per_pagina"]["default"], 10);
    assert_eq!(zoek["pagina"]["default"], 1);
    assert_eq!(zoek["alles"]["type"], "boolean");
    assert!(
        zoek.get("max").is_none() && zoek.get("start").is_none(),
        "old spellings are hidden"
    );
    assert_eq!(doc["tools"][0]["_meta"]["flags"]["type"], "--type");
}

#[test]
fn every_tool_entry_is_its_own_help_json() {
    let doc = discovery();
    let sandbox = Sandbox::new();
    for tool in doc["tools"].as_array().unwrap() {
        let entry = run(sandbox.bare(), full_entry_words(tool)).json();
        assert_valid("tool.schema.json", &entry);
        assert_eq!(&common::discovery::compact_entry(&entry), tool, "DISC-17");
        assert_eq!(entry["annotations"]["readOnlyHint"], true);
        assert_eq!(entry["annotations"]["openWorldHint"], true);
        assert_eq!(
            tool["annotations"],
            serde_json::json!({"readOnlyHint": true})
        );
    }
    assert!(
        sandbox.audit_records().is_empty(),
        "DISC-2: no audit record"
    );
}

#[test]
fn resources_map_templates_to_tool_arguments() {
    let doc = discovery();
    let resources = doc["resources"].as_array().expect("RES-1");
    let templates: Vec<&str> = resources
        .iter()
        .map(|r| r["uriTemplate"].as_str().unwrap())
        .collect();
    assert_eq!(
        templates,
        [
            "koop://regeling/{bwb_id}",
            "koop://regeling/{bwb_id}/artikel/{artikel}"
        ]
    );
    for resource in resources {
        assert_eq!(resource["mimeType"], "application/json", "RES-5");
        let tool = doc["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == resource["_meta"]["tool"])
            .expect("RES-3");
        let template = resource["uriTemplate"].as_str().unwrap();
        let variables: Vec<&str> = template
            .split('{')
            .skip(1)
            .map(|s| s.split('}').next().unwrap())
            .collect();
        for v in &variables {
            assert!(
                tool["inputSchema"]["properties"].get(*v).is_some(),
                "RES-4: {v}"
            );
        }
        for required in tool["inputSchema"]["required"].as_array().unwrap() {
            assert!(
                variables.contains(&required.as_str().unwrap()),
                "RES-4: {required}"
            );
        }
    }
}

#[test]
fn every_example_passes_validation_as_a_dry_run() {
    let doc = discovery();
    let sandbox = Sandbox::new();
    for tool in doc["tools"].as_array().unwrap() {
        for example in full_entry(tool)["_meta"]["examples"].as_array().unwrap() {
            let mut args: Vec<String> = example
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap().to_owned())
                .collect();
            args.push("--dry-run".into());
            let plan = run(sandbox.bare(), &args).json();
            assert_eq!(plan["dry_run"], true, "DISC-16: {args:?}");
        }
    }
}

#[test]
fn every_example_succeeds_against_the_fake() {
    let doc = discovery();
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let mut seen = 0;
    for tool in doc["tools"].as_array().unwrap() {
        for example in full_entry(tool)["_meta"]["examples"].as_array().unwrap() {
            let args: Vec<&str> = example
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap())
                .collect();
            let result = run(sandbox.cmd(&fake), &args);
            assert_eq!(result.code, 0, "EXIT-2: {args:?}: {result:#?}");
            let value = result.json();
            assert_valid_against(&tool["outputSchema"], &value, &format!("{args:?}"));
            seen += 1;
        }
    }
    assert!(seen >= 7, "every command declares examples ({seen})");
}

#[test]
fn the_examples_read_what_they_name() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let found = run(sandbox.cmd(&fake), ["regeling", "zoek", "zorgtoeslag"]).json();
    assert_eq!(found["resultaten"][0]["bwb_id"], "BWBR0018451");
    let args = [
        "regeling",
        "artikel",
        "BWBR0041330",
        "5.15",
        "--peildatum",
        "2026-01-01",
    ];
    let artikel = run(sandbox.cmd(&fake), args).json();
    assert_eq!(artikel["artikel"]["nummer"], "5.15");
    assert_eq!(artikel["artikel"]["titel"], "energiebesparingsplicht");
    assert_eq!(
        artikel["artikel"]["pad"],
        "Hoofdstuk 5 / Afdeling 5.4 / Paragraaf 5.4.1"
    );
    let versies = run(sandbox.cmd(&fake), ["regeling", "versies", "BWBR0018451"]).json();
    assert_eq!(versies["totaal"], 2);
}

/// The command's full entry (`<command> --help --json`, DISC-17): the root lists no examples.
fn full_entry(tool: &Value) -> Value {
    run(Sandbox::new().bare(), full_entry_words(tool)).json()
}

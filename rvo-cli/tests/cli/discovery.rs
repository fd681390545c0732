//! Discovery (`--help --json`) and its examples.

use crate::support::{Sandbox, assert_valid};
use test_support::cli::full_entry_words;

#[test]
fn discovery_validates_and_declares_the_environment() {
    let sandbox = Sandbox::new();
    let doc = sandbox.run(["--help", "--json"]).json();
    assert_valid("discovery.schema.json", &doc);
    assert!(
        !sandbox.audit_log().exists(),
        "discovery wrote an audit record"
    );
    let env = doc["env"].as_array().unwrap();
    let kind = |name: &str| {
        env.iter()
            .find(|v| v["name"] == name)
            .unwrap_or_else(|| panic!("{name} not declared"))
            .clone()
    };
    assert_eq!(kind("RVO_API_BASE")["kind"], "base_url");
    assert_eq!(kind("RVO_API_TOKEN")["kind"], "secret");
    assert_eq!(kind("RVO_API_TOKEN")["secret"], true);
    assert_eq!(kind("RVO_DATA_DIR")["kind"], "path");
    assert_eq!(kind("XDG_DATA_HOME")["kind"], "path");
    assert_eq!(kind("KVK_SESSIE_NUMMER")["kind"], "setting");
    assert_eq!(kind("RVO_AUDIT_LOG")["kind"], "path");
    assert_eq!(kind("OVERHEID_STORE_URL")["secret"], true);
    assert_eq!(kind("OVERHEID_GOEDKEURING_URL")["kind"], "setting");

    let tools = doc["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "regeling_zoek",
            "regeling_toon",
            "regeling_lijst",
            "rapportage_indienen",
            "rapportage_voorstel",
            "rapportage_status",
            "rapportage_lijst",
            "voorstel_toon",
            "voorstel_lijst"
        ]
    );
    for tool in tools {
        let path: Vec<&str> = tool["_meta"]["argv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        let own = sandbox
            .run(path.iter().copied().chain(["--help", "--json"]))
            .json();
        assert_valid("tool.schema.json", &own);
        assert_eq!(&common::discovery::compact_entry(&own), tool, "DISC-17");
    }
    let indienen = &full_entry(&tools[3])["annotations"];
    assert_eq!(indienen["readOnlyHint"], false);
    assert_eq!(indienen["destructiveHint"], false);
    assert_eq!(indienen["idempotentHint"], true);
    assert_eq!(indienen["openWorldHint"], true);
    // DISC-11, DISC-17: the root lists what differs from MCP's defaults.
    assert_eq!(
        tools[3]["annotations"],
        serde_json::json!({"destructiveHint": false, "idempotentHint": true})
    );
    assert_eq!(
        tools[0]["annotations"],
        serde_json::json!({"readOnlyHint": true, "openWorldHint": false})
    );
}

#[test]
fn every_example_passes_a_dry_run() {
    let sandbox = Sandbox::new();
    let doc = sandbox.run(["--help", "--json"]).json();
    for tool in doc["tools"].as_array().unwrap() {
        for example in full_entry(tool)["_meta"]["examples"].as_array().unwrap() {
            let args: Vec<&str> = example
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap())
                .chain(["--dry-run"])
                .collect();
            let run = sandbox.run(&args);
            assert_eq!(run.code, 0, "{args:?}: {run:#?}");
            run.plan();
        }
    }
    sandbox.assert_store(0);
}

/// The command's full entry (`<command> --help --json`, DISC-17): the root lists no examples.
fn full_entry(tool: &serde_json::Value) -> serde_json::Value {
    Sandbox::new().run(full_entry_words(tool)).json()
}

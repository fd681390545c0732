//! What every child call gets from the bridge and what the bridge refuses before starting one:
//! `OVERHEID_FOREIGN_PROCESSOR` naming the bridge in the CLI's audit record (AUDIT-20), over
//! stdio and over HTTP, and an absent positional before a given one (-32602).

mod harness;

use serde_json::{Value, json};

use harness::http::{HttpBridge, request};
use harness::{Bridge, regelrecht_cli, rvo_cli};

/// The last audit record in `path`.
fn last_record(path: &std::path::Path) -> Value {
    let audit = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(audit.lines().last().expect("an audit record")).unwrap()
}

fn processor(record: &Value) -> &Value {
    &record["attributes"]["dpl.core.foreign_operation.processor"]
}

#[test]
fn a_stdio_bridge_names_itself_or_its_host_in_every_audit_record() {
    let cli = regelrecht_cli();
    let audit = tempfile::NamedTempFile::new().unwrap();
    let log = audit.path().to_str().unwrap();
    let mut bridge = Bridge::start(
        &["--tool", cli.to_str().unwrap()],
        &[("REGELRECHT_AUDIT_LOG", log)],
    );
    let listed = bridge.call("regelrecht__wet_lijst", json!({}));
    assert_eq!(listed["isError"], false, "{listed}");
    let record = last_record(audit.path());
    assert_eq!(processor(&record), "urn:overheid-mcp:stdio", "{record}");
    drop(bridge);

    // A host that names itself is named instead, in every call.
    let mut bridge = Bridge::start(
        &["--tool", cli.to_str().unwrap()],
        &[
            ("REGELRECHT_AUDIT_LOG", log),
            ("OVERHEID_FOREIGN_PROCESSOR", "https://assistent.example.nl"),
        ],
    );
    let checked = bridge.call(
        "regelrecht__check_energiebesparing",
        json!({"kvk_nummer": "68750110", "elektriciteit_kwh": 60000, "gas_m3": 30000}),
    );
    assert_eq!(checked["isError"], false, "{checked}");
    let record = last_record(audit.path());
    assert_eq!(
        processor(&record),
        "https://assistent.example.nl",
        "{record}"
    );
    assert_eq!(record["attributes"]["dpl.core.data_subject_id"], "68750110");
}

#[test]
fn an_http_bridge_names_itself_by_its_resource_url() {
    let cli = regelrecht_cli();
    let audit = tempfile::NamedTempFile::new().unwrap();
    let log = audit.path().to_str().unwrap();
    let call = request(
        1,
        "tools/call",
        json!({"name": "regelrecht__wet_lijst", "arguments": {}}),
        json!({}),
    );
    for (public_url, named) in [(Some("https://mcp.example.nl/mcp"), None), (None, Some(()))] {
        let mut args = vec!["--insecure-no-auth", "--tool", cli.to_str().unwrap()];
        if let Some(url) = public_url {
            args.extend(["--public-url", url]);
        }
        let server = HttpBridge::start(&args, &[("REGELRECHT_AUDIT_LOG", log)]);
        let reply = server.post(None, &call, &[]);
        assert_eq!(reply.status, 200, "{:?}", reply.body);
        assert_eq!(reply.body["result"]["isError"], false, "{:?}", reply.body);
        let metadata: Value = serde_json::from_str(
            &server
                .get("/.well-known/oauth-protected-resource")
                .text()
                .unwrap(),
        )
        .unwrap();
        let resource = metadata["resource"].clone();
        let record = last_record(audit.path());
        // The same URL as the RFC 9728 metadata: the bound address when no public URL is given.
        assert_eq!(processor(&record), &resource, "{record}");
        match named {
            None => assert_eq!(resource, "https://mcp.example.nl/mcp"),
            Some(()) => assert_eq!(resource, format!("{}/mcp", server.base)),
        }
    }
}

#[test]
fn an_absent_positional_before_a_given_one_is_refused_naming_it() {
    let cli = rvo_cli();
    let store = tempfile::tempdir().unwrap();
    // No identity: the model names the company, so `kvk_nummer` is listed (and optional).
    let mut bridge = Bridge::start(
        &["--tool", cli.to_str().unwrap()],
        &[("RVO_DATA_DIR", store.path().to_str().unwrap())],
    );
    let refused = bridge.request_error(
        "tools/call",
        json!({"name": "rvo__rapportage_voorstel",
               "arguments": {"regeling_id": "EBR-2027", "maatregelen": "LED-verlichting"}}),
    );
    assert_eq!(refused["code"], -32602, "{refused}");
    assert_eq!(refused["data"]["missing"], "kvk_nummer", "{refused}");
    assert_eq!(refused["data"]["given"], "regeling_id", "{refused}");
    let message = refused["message"].as_str().unwrap();
    assert!(message.contains("kvk_nummer"), "{message}");

    // With the company given, the positionals pass in order: a proposal of that report,
    // waiting for a person; nothing filed.
    let proposed = bridge.call(
        "rvo__rapportage_voorstel",
        json!({"kvk_nummer": "68750110", "regeling_id": "EBR-2027", "maatregelen": "LED-verlichting"}),
    );
    assert_eq!(proposed["isError"], false, "{proposed}");
    let proposal = &proposed["structuredContent"];
    assert_eq!(proposal["status"], "open", "{proposed}");
    assert_eq!(proposal["kvk_nummer"], "68750110");
    assert_eq!(proposal["plan"]["arguments"]["regeling_id"], "EBR-2027");
}

/// The client a proposal came through reaches the CLI in `OVERHEID_FOREIGN_CLIENT` and is
/// recorded with the proposal: `clientInfo` from `initialize` (2025-11-25) or from the request's
/// `_meta` (2026-07-28), cleaned of control characters. The person who decides sees it.
#[test]
fn a_proposal_records_the_client_it_came_through_in_either_era() {
    let cli = rvo_cli();
    let store = tempfile::tempdir().unwrap();
    let data = store.path().to_str().unwrap();
    let propose = |bridge: &mut Bridge, maatregel: &str| -> Value {
        let proposed = bridge.call(
            "rvo__rapportage_voorstel",
            json!({"kvk_nummer": "68750110", "regeling_id": "EBR-2027", "maatregelen": maatregel}),
        );
        assert_eq!(proposed["isError"], false, "{proposed}");
        let id = proposed["structuredContent"]["voorstel_id"]
            .as_str()
            .or_else(|| proposed["structuredContent"]["id"].as_str())
            .unwrap_or_else(|| panic!("a proposal id: {proposed}"))
            .to_string();
        let shown = bridge.call("rvo__voorstel_toon", json!({"id": id}));
        assert_eq!(shown["isError"], false, "{shown}");
        shown["structuredContent"]["voorgesteld_door"]["via"].clone()
    };

    // 2025-11-25: the harness's initialize names the client "test", version "0".
    let mut bridge = Bridge::start(
        &["--tool", cli.to_str().unwrap()],
        &[("RVO_DATA_DIR", data)],
    );
    assert_eq!(
        propose(&mut bridge, "LED-verlichting"),
        json!({"mcp_client": "test 0"})
    );
    drop(bridge);

    // 2026-07-28: each request names its client in `_meta`; a control character is dropped.
    let mut bridge = Bridge::start_raw(
        &["--tool", cli.to_str().unwrap()],
        &[("RVO_DATA_DIR", data)],
    );
    let mut meta = harness::modern_meta(json!({}));
    meta["io.modelcontextprotocol/clientInfo"] =
        json!({"name": "claude-code\u{1b}[31m", "version": "2.1.3"});
    bridge.meta = Some(meta);
    assert_eq!(
        propose(&mut bridge, "warmtepomp"),
        json!({"mcp_client": "claude-code[31m 2.1.3"})
    );
}

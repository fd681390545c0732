//! The bridge with the real `kvk-cli` against the fake KvK: list, call with fields, values that
//! look like options, validation, an error exit, and one trace from the MCP call to the CLI's audit record.

mod harness;

use serde_json::{Value, json};
use test_support::FakeServer;
use test_support::cli::discovery;
use test_support::kvk::special;

use harness::{Bridge, kvk_cli};

const CLIENT_TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";

struct Setup {
    bridge: Bridge,
    server: FakeServer,
    audit: tempfile::NamedTempFile,
}

fn setup() -> Option<Setup> {
    let kvk = kvk_cli()?;
    let server = FakeServer::start(test_support::kvk::kvk);
    let audit = tempfile::NamedTempFile::new().unwrap();
    let base = server.base_url();
    let bridge = Bridge::start(
        &["--tool", kvk.to_str().unwrap()],
        &[
            ("KVK_API_BASE", base.as_str()),
            ("KVK_API_KEY", "test-sleutel"),
            ("KVK_AUDIT_LOG", audit.path().to_str().unwrap()),
        ],
    );
    Some(Setup {
        bridge,
        server,
        audit,
    })
}

#[test]
fn lists_every_kvk_tool_unchanged_plus_fields_without_initialize() {
    let Some(mut setup) = setup() else { return };
    let discovery = discovery(&kvk_cli().unwrap());
    // No initialize first: the 2026-07-28 revision lets a client start right away.
    let tools = setup.bridge.request("tools/list", json!({}))["tools"].clone();
    let tools = tools.as_array().unwrap();
    let entries = discovery["tools"].as_array().unwrap();
    assert_eq!(tools.len(), entries.len());
    for (tool, entry) in tools.iter().zip(entries) {
        assert_eq!(
            tool["name"],
            format!("kvk__{}", entry["name"].as_str().unwrap())
        );
        for key in ["title", "description", "annotations"] {
            assert_eq!(tool[key], entry[key], "{key} of {}", tool["name"]);
        }
        // The output schema too, but a member that may be null is listed with its one other
        // type (spec §14.1: no type arrays; the result leaves such a null out).
        let mut output = entry["outputSchema"].clone();
        for member in output["properties"].as_object_mut().unwrap().values_mut() {
            if let Some(types) = member["type"].as_array() {
                let types: Vec<&Value> = types.iter().filter(|t| *t != "null").collect();
                assert_eq!(types.len(), 1, "{member}");
                member["type"] = types[0].clone();
            }
        }
        assert_eq!(
            tool["outputSchema"], output,
            "outputSchema of {}",
            tool["name"]
        );
        let mut input = tool["inputSchema"].clone();
        let fields = input["properties"]
            .as_object_mut()
            .unwrap()
            .remove("fields")
            .unwrap();
        assert_eq!(fields["type"], "array");
        // The listing leaves out what the bridge checks itself against the closed schema:
        // `additionalProperties: false` and a pattern next to `format: date` (spec §14.1).
        let mut expected = entry["inputSchema"].clone();
        expected
            .as_object_mut()
            .unwrap()
            .remove("additionalProperties");
        // And its descriptions name an argument, not its flag (issue 31: written for a model).
        let names: Vec<String> = expected["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        // An array says it is repeatable; a description that only repeats the name is left out.
        for (own_name, property) in expected["properties"].as_object_mut().unwrap() {
            if property["format"] == "date" {
                property.as_object_mut().unwrap().remove("pattern");
            }
            let array = property["type"] == "array";
            if let Some(Value::String(text)) = property.get_mut("description") {
                for name in &names {
                    *text = text.replace(&format!("--{}", name.replace('_', "-")), name);
                }
                *text = text.replace("KVK_SESSIE_NUMMER", "het bedrijf van de sessie");
                if array {
                    *text = text
                        .replace("; herhaalbaar,", ";")
                        .replace("; herhaalbaar", "");
                }
            }
            if property["description"].as_str().map(str::to_lowercase)
                == Some(own_name.replace('_', " "))
            {
                property.as_object_mut().unwrap().remove("description");
            }
        }
        assert_eq!(input, expected, "inputSchema of {}", tool["name"]);
        assert!(
            tool["inputSchema"]["properties"].get("confirm").is_none(),
            "kvk tools are read-only"
        );
    }
    let again = setup.bridge.request("tools/list", json!({}));
    assert_eq!(again["tools"].as_array().unwrap(), tools, "deterministic");
}

#[test]
fn call_with_fields_returns_data_provenance_and_continues_the_callers_trace() {
    let Some(mut setup) = setup() else { return };
    let traceparent = format!("00-{CLIENT_TRACE}-00f067aa0ba902b7-01");
    let result = setup.bridge.request(
        "tools/call",
        json!({
            "name": "kvk__basisprofiel_toon",
            "arguments": {"kvk_nummer": "68750110", "fields": ["naam", "kvkNummer"]},
            "_meta": {"traceparent": traceparent}
        }),
    );
    assert_eq!(result["isError"], false, "{result}");
    let data = json!({"kvkNummer": "68750110", "naam": "Test BV Donald"});
    assert_eq!(result["structuredContent"], data);
    let text: Value = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, data);
    let provenance = &result["_meta"]["nl.overheid/provenance"];
    assert_eq!(provenance["tool"], "kvk-cli");
    assert_eq!(provenance["fields"], json!(["naam", "kvkNummer"]));
    assert_eq!(provenance["trace_id"], CLIENT_TRACE);

    // The upstream request and the audit record carry the same trace, under the bridge's span.
    let requests = setup.server.requests();
    assert_eq!(requests.len(), 1);
    let upstream = requests[0].header("traceparent").unwrap().to_string();
    assert!(
        upstream.starts_with(&format!("00-{CLIENT_TRACE}-")),
        "{upstream}"
    );
    let audit = std::fs::read_to_string(setup.audit.path()).unwrap();
    let record: Value = serde_json::from_str(audit.lines().last().unwrap()).unwrap();
    assert_eq!(record["trace_id"], CLIENT_TRACE);
    assert_eq!(record["status"], "OK");
    let parent = record["parent_span_id"].as_str().unwrap();
    assert_ne!(
        parent, "00f067aa0ba902b7",
        "the bridge's own span sits between client and CLI"
    );
    assert_eq!(parent.len(), 16);
}

#[test]
fn values_that_look_like_options_stay_data_and_integral_numbers_stay_integers() {
    let Some(mut setup) = setup() else { return };
    // As `--naam --json --plaats --help` this would print discovery; as `--naam=--json` it is a search.
    let result = setup
        .bridge
        .call("kvk__zoek", json!({"naam": "--json", "plaats": "--help"}));
    assert_eq!(result["isError"], false, "{result}");
    assert_eq!(result["structuredContent"]["totaal"], 0, "{result}");
    assert!(result["structuredContent"].get("tools").is_none());

    // A leading '-' is data too, and 2.0 reaches the integer options as 2.
    let result = setup.bridge.call(
        "kvk__zoek",
        json!({"naam": "-Donald", "pagina": 2.0, "per_pagina": 2.0, "type": ["rechtspersoon", "hoofdvestiging"]}),
    );
    assert_eq!(result["isError"], false, "{result}");
    let data = &result["structuredContent"];
    assert_eq!(data["pagina"], 2, "{data}");
    assert_eq!(data["resultatenPerPagina"], 2, "{data}");

    let requests = setup.server.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].query_param("naam"), Some("--json"));
    assert_eq!(requests[0].query_param("plaats"), Some("--help"));
    assert_eq!(requests[1].query_param("naam"), Some("-Donald"));
    assert_eq!(requests[1].query_param("pagina"), Some("2"));
    assert_eq!(requests[1].query_param("resultatenPerPagina"), Some("2"));
    let mut types = requests[1].query_values("type");
    types.sort_unstable();
    assert_eq!(
        types,
        ["hoofdvestiging", "rechtspersoon"],
        "one --type= per item"
    );
}

#[test]
fn invalid_arguments_are_a_tool_error_and_reach_no_source() {
    let Some(mut setup) = setup() else { return };
    let result = setup.bridge.call(
        "kvk__basisprofiel_toon",
        json!({"kvk_nummer": "123", "onbekend": true, "fields": "naam"}),
    );
    assert_eq!(result["isError"], true, "{result}");
    let error = &result["_meta"]["nl.overheid/problem"];
    assert_eq!(error["code"], "ONGELDIGE_INVOER");
    assert_eq!(error["type"], "urn:overheid-cli:problem:ONGELDIGE_INVOER");
    assert_eq!(error["exit_code"], 65);
    let mut pointers: Vec<&str> = error["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["pointer"].as_str().unwrap())
        .collect();
    pointers.sort_unstable();
    assert_eq!(pointers, ["/fields", "/kvk_nummer", "/onbekend"]);
    assert_eq!(
        serde_json::from_str::<Value>(result["content"][0]["text"].as_str().unwrap()).unwrap(),
        *error
    );
    assert_eq!(setup.server.request_count(), 0);
}

/// Bad input of issue 40: a `fields` path that exists nowhere is the CLI's FIELDS-5 error (exit
/// 2, `ONBEKEND_VELD`) naming the nearest paths, nested ones included (`rechtsvorm` is
/// `_embedded.eigenaar.rechtsvorm`), before any request.
#[test]
fn a_fields_path_that_exists_nowhere_names_the_nested_paths_and_reaches_no_source() {
    let Some(mut setup) = setup() else { return };
    let result = setup.bridge.call(
        "kvk__basisprofiel_toon",
        json!({"kvk_nummer": "68750110", "fields": ["naam", "rechtsvorm"]}),
    );
    assert_eq!(result["isError"], true, "{result}");
    let error = &result["_meta"]["nl.overheid/problem"];
    assert_eq!(error["code"], "ONBEKEND_VELD", "{error}");
    assert_eq!(error["exit_code"], 2, "{error}");
    let hint = error["hint"].as_str().unwrap_or_default();
    assert!(
        hint.contains("_embedded.eigenaar.rechtsvorm"),
        "the nested path by its last name: {error}"
    );
    assert_eq!(setup.server.request_count(), 0);
}

#[test]
fn an_error_exit_carries_the_clis_error_object() {
    let Some(mut setup) = setup() else { return };
    let result = setup.bridge.call(
        "kvk__basisprofiel_toon",
        json!({"kvk_nummer": special::PROXY_502}),
    );
    assert_eq!(result["isError"], true);
    let error = &result["_meta"]["nl.overheid/problem"];
    assert_eq!(error["code"], "BRON_ONBEREIKBAAR");
    assert_eq!(error["exit_code"], 69);
    assert_eq!(error["status"], 502);
    assert!(
        error["instance"]
            .as_str()
            .unwrap()
            .starts_with("urn:trace:")
    );

    let missing = setup.bridge.call(
        "kvk__basisprofiel_toon",
        json!({"kvk_nummer": special::UNKNOWN_KVK_NUMBER}),
    );
    assert_eq!(missing["isError"], true);
    assert_eq!(
        missing["_meta"]["nl.overheid/problem"]["exit_code"], 66,
        "{missing}"
    );
}

#[test]
fn without_tool_options_it_serves_the_family_found_next_to_itself() {
    let Some(kvk) = kvk_cli() else { return };
    let bridge_dir = std::path::Path::new(env!("CARGO_BIN_EXE_overheid-mcp"))
        .parent()
        .unwrap();
    if kvk.parent() != Some(bridge_dir) {
        eprintln!("OVERGESLAGEN: kvk-cli staat niet naast overheid-mcp");
        return;
    }
    let mut bridge = Bridge::start(&[], &[("PATH", "/nonexistent")]);
    let tools = bridge.request("tools/list", json!({}))["tools"].clone();
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"kvk__basisprofiel_toon"), "{names:?}");
    assert!(names.iter().all(|n| {
        ["kvk__", "koop__", "rvo__", "regelrecht__"]
            .iter()
            .any(|p| n.starts_with(p))
    }));
}

/// PROV-1 over MCP: `_meta["nl.overheid/provenance"] = "compact"` gives only the compact members
/// (the CLI ran with `--provenance=compact`), `"none"` none; with `"nl.overheid/text": "short"` the
/// data is sent once; any other value is refused before anything runs.
#[test]
fn a_client_may_ask_for_the_compact_provenance() {
    let Some(mut setup) = setup() else { return };
    let call = |form: &str| {
        json!({
            "name": "kvk__basisprofiel_toon",
            "arguments": {"kvk_nummer": "68750110"},
            "_meta": {"nl.overheid/provenance": form}
        })
    };
    let result = setup.bridge.request("tools/call", call("compact"));
    assert_eq!(result["isError"], false, "{result}");
    let provenance = result["_meta"]["nl.overheid/provenance"]
        .as_object()
        .expect("provenance");
    for name in provenance.keys() {
        assert!(
            common::provenance::COMPACT_MEMBERS.contains(&name.as_str()),
            "{name} is not a compact member"
        );
    }
    for name in ["source_url", "retrieved_at", "response_sha256"] {
        assert!(
            provenance.contains_key(name),
            "{name} missing: {provenance:?}"
        );
    }
    let full = setup.bridge.request("tools/call", call("full"));
    assert_eq!(full["_meta"]["nl.overheid/provenance"]["tool"], "kvk-cli");
    let error = setup.bridge.request_error("tools/call", call("kort"));
    assert_eq!(error["code"], -32602, "{error}");
    assert_eq!(
        setup.server.requests().len(),
        2,
        "the refused call reached no source"
    );
    // The lean form (issue 40 item 4): no provenance, and the data once, as structuredContent,
    // with a text block that says where it is.
    let mut lean = call("none");
    lean["_meta"]["nl.overheid/text"] = json!("short");
    let result = setup.bridge.request("tools/call", lean.clone());
    assert_eq!(result["isError"], false, "{result}");
    assert!(
        result["_meta"].get("nl.overheid/provenance").is_none(),
        "{result}"
    );
    assert_eq!(result["structuredContent"], full["structuredContent"]);
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("structuredContent") && text.len() < 100,
        "{text}"
    );
    // `full` is the default: the data as text too.
    lean["_meta"]["nl.overheid/text"] = json!("full");
    let result = setup.bridge.request("tools/call", lean.clone());
    let text = result["content"][0]["text"].as_str().unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(text).unwrap(),
        full["structuredContent"]
    );
    lean["_meta"]["nl.overheid/text"] = json!("kort");
    let error = setup.bridge.request_error("tools/call", lean);
    assert_eq!(error["code"], -32602, "{error}");
    assert_eq!(
        setup.server.requests().len(),
        4,
        "the refused call reached no source"
    );
}

/// SEC-7 through the answer over MCP: a session bound to 68750110 (stdio: the bridge's
/// environment; HTTP: a verified token's `kvk_nummer`) gets its own establishment, and an
/// establishment of another company (69599068's) is a tool error with the CLI's 77, never its
/// profile; the audit record names that company.
#[test]
fn an_establishment_of_another_company_is_refused_over_stdio_and_http() {
    let Some(kvk) = kvk_cli() else { return };
    let server = FakeServer::start(test_support::kvk::kvk);
    let audit = tempfile::NamedTempFile::new().unwrap();
    let base = server.base_url();
    let env = [
        ("KVK_API_BASE", base.as_str()),
        ("KVK_API_KEY", "test-sleutel"),
        ("KVK_AUDIT_LOG", audit.path().to_str().unwrap()),
    ];
    let check = |own: &Value, other: &Value| {
        assert_eq!(own["isError"], false, "{own}");
        assert_eq!(own["structuredContent"]["kvkNummer"], "68750110");
        assert_eq!(other["isError"], true, "{other}");
        let problem = &other["_meta"]["nl.overheid/problem"];
        assert_eq!(problem["exit_code"], 77, "{other}");
        assert_eq!(problem["code"], "NIET_TOEGESTAAN");
        assert!(!other.to_string().contains("69599068"), "{other}");
        let audit = std::fs::read_to_string(audit.path()).unwrap();
        let record: Value = serde_json::from_str(audit.lines().last().unwrap()).unwrap();
        assert_eq!(record["exit_code"], 77);
        assert_eq!(record["attributes"]["dpl.core.data_subject_id"], "69599068");
    };
    let mut stdio_env = env.to_vec();
    stdio_env.push(("KVK_SESSIE_NUMMER", "68750110"));
    let mut bridge = Bridge::start(&["--tool", kvk.to_str().unwrap()], &stdio_env);
    let own = bridge.call(
        "kvk__vestigingsprofiel_toon",
        json!({"vestigingsnummer": "000037178601"}),
    );
    let other = bridge.call(
        "kvk__vestigingsprofiel_toon",
        json!({"vestigingsnummer": "000038509520"}),
    );
    check(&own, &other);

    let dir = tempfile::tempdir().unwrap();
    let signer = harness::http::Signer::new("sleutel-1");
    let jwks = dir.path().join("jwks.json");
    std::fs::write(&jwks, json!({"keys": [signer.jwk()]}).to_string()).unwrap();
    let (issuer, audience) = ("https://login.example.test", "https://mcp.example.test/mcp");
    let http = harness::http::HttpBridge::start(
        &[
            "--tool",
            kvk.to_str().unwrap(),
            "--auth-jwks",
            jwks.to_str().unwrap(),
            "--auth-issuer",
            issuer,
            "--auth-audience",
            audience,
        ],
        &env,
    );
    let token = signer.token(&json!({
        "iss": issuer, "aud": audience, "sub": "gebruiker",
        "exp": harness::http::now() + 600, "kvk_nummer": "68750110"
    }));
    let call = |vestiging: &str| {
        let body = harness::http::request(
            1,
            "tools/call",
            json!({"name": "kvk__vestigingsprofiel_toon", "arguments": {"vestigingsnummer": vestiging}}),
            json!({}),
        );
        http.post(Some(&token), &body, &[]).body["result"].clone()
    };
    check(&call("000037178601"), &call("000038509520"));
}

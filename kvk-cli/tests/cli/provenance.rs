//! `--provenance`: the envelope, its digest of the bytes on the wire, and its agreement
//! with discovery and the audit record (PROV-*).

use serde_json::Value;

use crate::support::{
    KEY, KvkFake, MOUNT, Sandbox, assert_valid, discovery, keys, run, sha256_hex,
};

fn envelope(fake: &KvkFake, sandbox: &Sandbox, extra: &[&str]) -> Value {
    let mut args = vec!["basisprofiel", "toon", "68750110", "--provenance"];
    args.extend_from_slice(extra);
    let result = run(sandbox.cmd(&fake.base()), &args);
    assert!(!result.stdout.contains(KEY), "SEC-2");
    let envelope = result.json();
    assert_valid("envelope.schema.json", &envelope);
    envelope
}

/// PROV-1, PROV-3, PROV-5..PROV-9: all members, the body digest, fields, environment.
#[test]
fn prov_1_envelope_with_all_members() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let envelope = envelope(&fake, &sandbox, &["--fields", "naam, kvkNummer"]);
    assert_eq!(keys(&envelope), ["data", "provenance"]);
    assert_eq!(
        envelope["data"],
        serde_json::json!({"kvkNummer": "68750110", "naam": "Test BV Donald"}),
        "FIELDS-7: selection before wrapping"
    );
    let provenance = &envelope["provenance"];

    let bodies = fake.bodies();
    assert_eq!(bodies.len(), 1);
    assert_eq!(
        provenance["response_sha256"],
        sha256_hex(&bodies[0]),
        "PROV-6"
    );

    assert_eq!(
        provenance["fields"],
        serde_json::json!(["naam", "kvkNummer"]),
        "PROV-7"
    );
    assert_eq!(provenance["environment"], "local", "PROV-8: loopback fake");
    assert_eq!(provenance["method"], "GET");
    let url = provenance["source_url"].as_str().expect("source_url");
    assert!(
        url.starts_with(&format!("{}/v1/basisprofielen/68750110", fake.base())),
        "PROV-3: {url}"
    );
    assert!(!url.contains(KEY), "SEC-4");

    let document = discovery();
    assert_eq!(provenance["tool"], document["name"], "PROV-9");
    assert_eq!(provenance["tool_version"], document["version"], "PROV-9");
    assert_eq!(provenance["profile_version"], document["profile_version"]);

    let record = sandbox.single_audit_record();
    assert_eq!(provenance["trace_id"], record["trace_id"], "PROV-5");
    assert_eq!(
        record["attributes"]["url.full"], provenance["source_url"],
        "AUDIT-15"
    );
}

/// PROV-4: `retrieved_at` is taken from the clock: UTC now, with milliseconds.
#[test]
fn prov_4_retrieved_at_is_now() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let before = std::time::SystemTime::now();
    let envelope = envelope(&fake, &sandbox, &[]);
    let after = std::time::SystemTime::now();
    let text = envelope["provenance"]["retrieved_at"]
        .as_str()
        .expect("retrieved_at");
    let record = sandbox.single_audit_record();
    let start = record["start_time"].as_str().expect("start_time");
    let end = record["end_time"].as_str().expect("end_time");
    // Same fixed-width RFC 3339 format: lexical order is time order.
    assert!(start <= text && text <= end, "{start} ≤ {text} ≤ {end}");
    let seconds = |t: std::time::SystemTime| {
        t.duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_secs()
    };
    assert!(seconds(after) - seconds(before) < 60);
}

/// PROV-7: without `--fields`, `fields` is null and the data is the full document.
#[test]
fn prov_7_fields_null_without_selection() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let envelope = envelope(&fake, &sandbox, &[]);
    assert_eq!(envelope["provenance"]["fields"], Value::Null);
    assert_eq!(envelope["data"]["kvkNummer"], "68750110");
    assert!(envelope["data"]["_embedded"].is_object());
}

/// PROV-7: a JSONPath selection is recorded as a one-element list.
#[test]
fn prov_7_jsonpath_recorded_as_one_element() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let envelope = envelope(&fake, &sandbox, &["--fields", "$.handelsnamen[*].naam"]);
    assert_eq!(
        envelope["provenance"]["fields"],
        serde_json::json!(["$.handelsnamen[*].naam"])
    );
}

/// PROV-1: without `--provenance`, stdout is the bare data.
#[test]
fn prov_1_bare_data_without_flag() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let data = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "68750110"],
    )
    .json();
    assert!(data.get("provenance").is_none());
    assert_eq!(data["kvkNummer"], "68750110");
}

/// PROV-8: "local" is decided by the parsed host (common's one loopback check), not by how
/// the base URL is spelled: `http://LOCALHOST:<port>` is the loopback fake too.
#[test]
fn prov_8_loopback_decided_by_the_parsed_host() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let base = format!("http://LOCALHOST:{}{MOUNT}", fake.server.port());
    let envelope = run(
        sandbox.cmd(&base),
        ["basisprofiel", "toon", "68750110", "--provenance"],
    )
    .json();
    assert_eq!(envelope["provenance"]["environment"], "local", "{envelope}");
    assert_eq!(
        envelope["provenance"]["source"],
        "KvK Handelsregister (lokale nabootsing)"
    );
}

/// PROV-1: `--provenance=compact` keeps only source, URL, time and digest, each as the full
/// provenance has it, and validates against the compact envelope's schema.
#[test]
fn prov_1_compact_provenance_is_the_full_one_cut_to_four_members() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let full = envelope(&fake, &sandbox, &["--fields", "naam"]);
    let result = run(
        sandbox.cmd(&fake.base()),
        [
            "basisprofiel",
            "toon",
            "68750110",
            "--fields",
            "naam",
            "--provenance=compact",
        ],
    );
    let compact = result.json();
    assert_valid("envelope-compact.schema.json", &compact);
    assert_eq!(compact["data"], full["data"]);
    let provenance = compact["provenance"].as_object().expect("provenance");
    let names: Vec<&str> = provenance.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        ["source", "source_url", "retrieved_at", "response_sha256"]
    );
    for name in ["source", "source_url", "response_sha256"] {
        assert_eq!(provenance[name], full["provenance"][name], "{name}");
    }
    assert_eq!(
        provenance["response_sha256"],
        sha256_hex(&fake.bodies()[1]),
        "PROV-6: the digest of this call's body"
    );
    let bytes = |v: &Value| serde_json::to_string(v).expect("JSON").len();
    assert!(
        bytes(&compact["provenance"]) * 2 < bytes(&full["provenance"]),
        "compact is less than half: {} of {}",
        bytes(&compact["provenance"]),
        bytes(&full["provenance"])
    );
    // The full form by name is the bare flag's.
    let named = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "68750110", "--provenance=full"],
    )
    .json();
    assert_valid("envelope.schema.json", &named);
    // Not a form: a usage error.
    let wrong = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "68750110", "--provenance=kort"],
    );
    assert_eq!(wrong.code, 2, "{}", wrong.stderr);
}

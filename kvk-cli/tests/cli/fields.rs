//! `--fields`: data minimisation that keeps the document's shape (FIELDS-*).

use serde_json::{Value, json};

use crate::support::{KvkFake, Sandbox, keys, run, tool_entry};

fn get(fake: &KvkFake, number: &str, extra: &[&str]) -> Value {
    let sandbox = Sandbox::new();
    let mut args = vec!["basisprofiel", "toon", number];
    args.extend_from_slice(extra);
    run(sandbox.cmd(&fake.base()), &args).json()
}

/// FIELDS-1, FIELDS-3: `naam,kvkNummer` on 68750110 shrinks the compact document by at
/// least 97% and keeps the document's own member order.
#[test]
fn fields_1_naam_kvknummer_shrinks_by_97_percent() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let full = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "68750110", "--output", "json"],
    );
    let small = run(
        sandbox.cmd(&fake.base()),
        [
            "basisprofiel",
            "toon",
            "68750110",
            "--fields",
            "naam,kvkNummer",
            "--output",
            "json",
        ],
    );
    assert_eq!(
        small.stdout,
        "{\"kvkNummer\":\"68750110\",\"naam\":\"Test BV Donald\"}\n"
    );
    full.json();
    let ratio = small.stdout.len() as f64 / full.stdout.len() as f64;
    assert!(
        ratio <= 0.03,
        "{} → {} bytes ({:.1}% left)",
        full.stdout.len(),
        small.stdout.len(),
        ratio * 100.0
    );
}

/// FIELDS-3: a nested path with an index keeps the whole enclosing chain.
#[test]
fn fields_3_nested_index_path_keeps_the_chain() {
    let fake = KvkFake::start();
    let data = get(
        &fake,
        "68750110",
        &["--fields", "_embedded.hoofdvestiging.adressen[0].plaats"],
    );
    assert_eq!(
        data,
        json!({"_embedded": {"hoofdvestiging": {"adressen": [{"plaats": "Rommeldam"}]}}})
    );
}

/// FIELDS-3: two members named `naam` at different depths both survive.
#[test]
fn fields_3_same_name_at_two_depths_survives() {
    let fake = KvkFake::start();
    let data = get(&fake, "68750110", &["--fields", "naam,handelsnamen[].naam"]);
    assert_eq!(
        data,
        json!({
            "naam": "Test BV Donald",
            "handelsnamen": [{"naam": "Test BV Donald"}, {"naam": "Test BV Donald Nevenvestiging"}]
        })
    );
}

/// FIELDS-1, FIELDS-4: a `$` JSONPath query with a filter selects in original order and
/// keeps the shape.
#[test]
fn fields_1_jsonpath_keeps_shape_and_order() {
    let fake = KvkFake::start();
    let data = get(
        &fake,
        "68750110",
        &["--fields", "$._embedded.hoofdvestiging.adressen[*].plaats"],
    );
    assert_eq!(
        data,
        json!({"_embedded": {"hoofdvestiging": {"adressen": [{"plaats": "Rommeldam"}, {"plaats": "Lollum"}]}}})
    );
    let filtered = get(
        &fake,
        "68750110",
        &[
            "--fields",
            "$._embedded.hoofdvestiging.adressen[?@.type=='bezoekadres'].postcode",
        ],
    );
    assert_eq!(
        filtered,
        json!({"_embedded": {"hoofdvestiging": {"adressen": [{"postcode": "8823SJ"}]}}})
    );
}

/// FIELDS-3: list paths work on search results (`resultaten[].naam`).
#[test]
fn fields_3_list_path_on_search_results() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let data = run(
        sandbox.cmd(&fake.base()),
        [
            "zoek",
            "--kvk-nummer",
            "69599084",
            "--fields",
            "resultaten[].naam",
        ],
    )
    .json();
    let resultaten = data["resultaten"].as_array().expect("resultaten");
    assert!(!resultaten.is_empty());
    for item in resultaten {
        assert_eq!(keys(item), ["naam"], "{item}");
    }
    assert_eq!(keys(&data), ["resultaten"]);
}

/// FIELDS-5: an unknown field is exit 2 `ONBEKEND_VELD` before any request, naming every
/// valid top-level field of the outputSchema.
#[test]
fn fields_5_unknown_field_is_2_with_valid_fields() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let result = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "68750110", "--fields", "naam,adres"],
    );
    let error = result.error(2);
    assert_eq!(error["code"], "ONBEKEND_VELD");
    let text = format!(
        "{} {}",
        error["detail"].as_str().unwrap_or(""),
        error["hint"].as_str().unwrap_or("")
    );
    let entry = tool_entry("basisprofiel_toon");
    for field in keys(&entry["outputSchema"]["properties"]) {
        assert!(text.contains(field), "{field} not named in {error}");
    }
    assert_eq!(fake.request_count(), 0);
}

/// FIELDS-5: an unknown nested member is refused too.
#[test]
fn fields_5_unknown_nested_field_is_2() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let error = run(
        sandbox.cmd(&fake.base()),
        [
            "basisprofiel",
            "toon",
            "68750110",
            "--fields",
            "_embedded.hoofdvestiging.bestaatNiet",
        ],
    )
    .error(2);
    assert_eq!(error["code"], "ONBEKEND_VELD");
    assert_eq!(fake.request_count(), 0);
}

/// FIELDS-5 (issue 40): a name that is no top-level member is answered with the nested paths
/// that end in it, so `rechtsvorm` leads to `_embedded.eigenaar.rechtsvorm`.
#[test]
fn fields_5_a_nested_member_is_suggested_by_its_last_name() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let error = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "68750110", "--fields", "rechtsvorm"],
    )
    .error(2);
    assert_eq!(error["code"], "ONBEKEND_VELD");
    let hint = error["hint"].as_str().unwrap_or_default();
    assert!(hint.contains("_embedded.eigenaar.rechtsvorm"), "{error}");
    assert_eq!(fake.request_count(), 0);
}

/// FIELDS-6: a known field absent from this response is left out; nothing selected is `{}`.
#[test]
fn fields_6_absent_known_field_is_left_out() {
    let fake = KvkFake::start();
    // 69599084 (an eenmanszaak) has no statutaireNaam.
    let data = get(&fake, "69599084", &["--fields", "naam,statutaireNaam"]);
    assert_eq!(data, json!({"naam": "Test EMZ Dagobert"}));
    let nothing = get(&fake, "69599084", &["--fields", "statutaireNaam"]);
    assert_eq!(nothing, json!({}));
    let nested = get(
        &fake,
        "68750110",
        &["--fields", "naam,materieleRegistratie.datumEinde"],
    );
    assert_eq!(nested, json!({"naam": "Test BV Donald"}));
}

/// FIELDS-7: the selection happens before the audit log; no data reaches it.
#[test]
fn fields_7_no_data_in_the_audit_log() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "68750110", "--fields", "naam"],
    )
    .json();
    let text = sandbox.audit_text();
    assert!(!text.is_empty());
    assert!(!text.contains("Test BV Donald"), "{text}");
}

/// FIELDS-9: filters nested three deep are exit 2 before any request.
#[test]
fn fields_9_filters_nested_three_deep_are_refused() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let result = run(
        sandbox.cmd(&fake.base()),
        [
            "basisprofiel",
            "toon",
            "68750110",
            "--fields",
            "$..[?@.sbiActiviteiten[?@[?@.sbiCode]]]",
        ],
    );
    let error = result.error(2);
    assert!(
        error["detail"].as_str().unwrap().contains("genest"),
        "{error}"
    );
    assert!(fake.requests().is_empty());
}

/// FIELDS-9: a selection whose evaluation takes the square of a large answer ends by
/// `--timeout` (124, audited), not minutes later.
#[test]
fn fields_9_evaluation_ends_by_the_deadline() {
    let fake = KvkFake::with(|request| {
        let mut body = test_support::kvk::kvk(request)
            .body_json()
            .expect("a profile");
        let one = body["sbiActiviteiten"][0].clone();
        body["sbiActiviteiten"] = Value::Array(vec![one; 4000]);
        test_support::Reply::json(200, &body)
    });
    let sandbox = Sandbox::new();
    let started = std::time::Instant::now();
    let result = run(
        sandbox.cmd(&fake.base()),
        [
            "basisprofiel",
            "toon",
            "68750110",
            "--timeout",
            "2",
            "--fields",
            "$..[?count($..*) > count(@..[?count($..*) > 0])]",
        ],
    );
    result.error(124);
    assert!(started.elapsed() < std::time::Duration::from_secs(8));
    assert_eq!(sandbox.audit_records()[0]["exit_code"], 124);
}

//! `--dry-run`: a valid plan, nothing sent, secrets redacted, checks run first (DRY-*).

use serde_json::{Value, json};

use crate::support::{KEY, KvkFake, Sandbox, assert_valid, canonical, discovery, run, sha256_hex};
use test_support::cli::full_entry_words;

fn plan(fake: &KvkFake, sandbox: &Sandbox, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--dry-run");
    let result = run(sandbox.cmd(&fake.base()), &all);
    for (stream, text) in [("stdout", &result.stdout), ("stderr", &result.stderr)] {
        assert!(!text.contains(KEY), "DRY-5/SEC-2: key on {stream}");
    }
    let plan = result.json();
    assert_valid("plan.schema.json", &plan);
    plan
}

/// DRY-1, DRY-2, DRY-5, DRY-7, MUT-3: a valid plan, no request, `***` for the key, the
/// digest of the canonical `{command, arguments}`.
#[test]
fn dry_1_plan_without_traffic() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let plan = plan(&fake, &sandbox, &["basisprofiel", "toon", "68750110"]);
    assert_eq!(fake.request_count(), 0, "DRY-2");
    assert_eq!(plan["dry_run"], true);
    assert_eq!(plan["tool"], "kvk-cli");
    assert_eq!(plan["command"], "kvk-cli basisprofiel toon");
    assert_eq!(plan["mutating"], false);
    assert_eq!(
        plan["arguments"],
        json!({"kvk_nummer": "68750110", "geo": false})
    );
    assert_eq!(plan["method"], "GET");
    let url = plan["url"].as_str().expect("url");
    assert!(url.starts_with(&format!("{}/v1/basisprofielen/68750110", fake.base())));
    assert_eq!(plan["headers"]["apikey"], "***");
    assert_eq!(plan["requests"].as_array().expect("requests").len(), 1);
    assert_eq!(plan["requests"][0]["headers"]["apikey"], "***");
    let digest = sha256_hex(
        canonical(&json!({"command": plan["command"], "arguments": plan["arguments"]})).as_bytes(),
    );
    assert_eq!(plan["plan_digest"], digest);
    assert_eq!(
        digest, "58b2e033becee53415e43dd5178cf961445ece21f83a21d5c87d3e3169c02e9a",
        "the worked example of spec §9"
    );
}

/// AUDIT-16, SEC-2: the dry run is audited with its digest, and the key is not in the log.
#[test]
fn audit_16_dry_run_record() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let plan = plan(&fake, &sandbox, &["basisprofiel", "toon", "68750110"]);
    let record = sandbox.single_audit_record();
    assert_eq!(record["exit_code"], 0);
    assert_eq!(record["attributes"]["overheid.dry_run"], true);
    assert_eq!(
        record["attributes"]["overheid.plan_digest"],
        plan["plan_digest"]
    );
    assert!(!sandbox.audit_text().contains(KEY));
}

/// DRY-4: invalid input fails under `--dry-run` exactly as the real call would.
#[test]
fn dry_4_invalid_input_fails_in_dry_run() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "123", "--dry-run"],
    )
    .error(65);
    assert_eq!(fake.request_count(), 0);
}

/// DRY-4, NET-8: plain http to a non-loopback host is 78 in a dry run too.
#[test]
fn dry_4_unsafe_base_fails_in_dry_run() {
    let sandbox = Sandbox::new();
    run(
        sandbox.cmd("http://example.invalid/api"),
        ["basisprofiel", "toon", "68750110", "--dry-run"],
    )
    .error(78);
}

/// DRY-4, CONF-7: a missing key for a non-test base is 78 in a dry run too.
#[test]
fn dry_4_missing_key_fails_in_dry_run() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd(&fake.base());
    cmd.env_remove("KVK_API_KEY");
    run(cmd, ["basisprofiel", "toon", "68750110", "--dry-run"]).error(78);
}

/// DRY-5: with no configuration at all the plan targets the public test environment and
/// still shows the (public) key only as `***`.
#[test]
fn dry_5_default_base_plan_redacts_the_public_key() {
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.bare();
    cmd.env("KVK_AUDIT_LOG", sandbox.audit_log());
    let result = run(cmd, ["basisprofiel", "toon", "68750110", "--dry-run"]);
    assert!(!result.stdout.contains("l7xx"), "{}", result.stdout);
    let plan = result.json();
    assert!(
        plan["url"]
            .as_str()
            .expect("url")
            .starts_with("https://api.kvk.nl/test/api/v1/basisprofielen/68750110")
    );
    assert_eq!(plan["headers"]["apikey"], "***");
}

/// DRY-9: `--provenance` changes nothing in a plan.
#[test]
fn dry_9_provenance_does_not_change_the_plan() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let plain = plan(&fake, &sandbox, &["basisprofiel", "toon", "68750110"]);
    let decorated = plan(
        &fake,
        &sandbox,
        &["basisprofiel", "toon", "68750110", "--provenance"],
    );
    assert_eq!(without_trace(plain), without_trace(decorated));
}

/// FIELDS-8: under `--dry-run` the plan is the result, so `--fields` is checked against the
/// plan schema and selects from the plan; a field of the real result is unknown there.
#[test]
fn fields_8_a_dry_run_selects_from_the_plan() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let whole = plan(&fake, &sandbox, &["basisprofiel", "toon", "68750110"]);
    let args = ["basisprofiel", "toon", "68750110", "--dry-run", "--fields"];
    let digest = run(
        sandbox.cmd(&fake.base()),
        [&args[..], &["plan_digest"]].concat(),
    );
    assert_eq!(digest.code, 0, "{digest:#?}");
    assert_eq!(digest.json(), json!({"plan_digest": whole["plan_digest"]}));
    let two = run(
        sandbox.cmd(&fake.base()),
        [&args[..], &["plan_digest,method"]].concat(),
    );
    assert_eq!(
        two.json(),
        json!({"plan_digest": whole["plan_digest"], "method": "GET"})
    );
    let naam = run(sandbox.cmd(&fake.base()), [&args[..], &["naam"]].concat());
    assert_eq!(naam.code, 2, "{naam:#?}");
    assert!(naam.stderr.contains("ONBEKEND_VELD"), "{}", naam.stderr);
    assert!(
        naam.stderr.contains("plan_digest"),
        "the hint names the plan's members"
    );
    assert_eq!(fake.request_count(), 0, "DRY-2");
}

/// A plan without its per-invocation `traceparent` headers.
fn without_trace(mut plan: Value) -> Value {
    let strip = |headers: &mut Value| {
        if let Some(map) = headers.as_object_mut() {
            map.retain(|name, _| !name.eq_ignore_ascii_case("traceparent"));
        }
    };
    strip(&mut plan["headers"]);
    if let Some(requests) = plan["requests"].as_array_mut() {
        requests.iter_mut().for_each(|r| strip(&mut r["headers"]));
    }
    plan
}

/// MUT-4: zoeken's plan holds normalised arguments (postcode without space, upper case).
#[test]
fn mut_4_zoeken_arguments_are_normalised() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let plan = plan(
        &fake,
        &sandbox,
        &[
            "zoek",
            "--postcode",
            "8823 sj",
            "--huisnummer",
            "3",
            "--type",
            "rechtspersoon",
            "--type",
            "hoofdvestiging",
            "--type",
            "rechtspersoon",
        ],
    );
    assert_eq!(plan["arguments"]["postcode"], "8823SJ");
    assert_eq!(
        plan["arguments"]["type"],
        json!(["hoofdvestiging", "rechtspersoon"])
    );
    assert_eq!(fake.request_count(), 0);
}

/// MUT-4, DRY-7: the plan's arguments are the command's arguments by their own names (not
/// KvK's query parameters), every one given or defaulted, none that was not given.
#[test]
fn mut_4_zoeken_arguments_are_the_command_s_arguments() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let plan = plan(
        &fake,
        &sandbox,
        &["zoek", "--kvk-nummer", "68750110", "--naam", " Test BV "],
    );
    assert_eq!(
        plan["arguments"],
        json!({
            "kvk_nummer": "68750110",
            "naam": "Test BV",
            "type": [],
            "inclusief_inactief": false,
            "pagina": 1,
            "per_pagina": 10,
            "alles": false,
        })
    );
}

/// DISC-16, DRY-1: every example of every tool passes parsing and validation as a dry run.
#[test]
fn disc_16_every_example_dry_runs() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let document = discovery();
    for entry in document["tools"].as_array().expect("tools") {
        // The examples are in the command's full entry (DISC-17).
        let tool = &run(sandbox.bare(), full_entry_words(entry)).json();
        let examples = tool["_meta"]["examples"].as_array().expect("examples");
        assert!(!examples.is_empty(), "{}", tool["name"]);
        for example in examples {
            let args: Vec<&str> = example
                .as_array()
                .expect("argv")
                .iter()
                .map(|w| w.as_str().expect("word"))
                .collect();
            plan(&fake, &sandbox, &args);
        }
    }
    assert_eq!(fake.request_count(), 0);
}

/// DRY-6: the plan's headers describe the real request, including the `user-agent` and
/// `traceparent` it carries (as in the example of spec §9).
#[test]
fn dry_6_plan_headers_describe_the_real_request() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let plan = plan(&fake, &sandbox, &["basisprofiel", "toon", "68750110"]);
    let headers = plan["headers"].as_object().expect("headers");
    let lower: Vec<String> = headers.keys().map(|k| k.to_ascii_lowercase()).collect();
    assert!(lower.contains(&"user-agent".to_owned()), "{headers:?}");
    assert!(lower.contains(&"traceparent".to_owned()), "{headers:?}");
}

/// An option's value may start with `-` (`--naam -Donald`): the value, not an unknown flag,
/// through the parser every call uses (which rewrites only the commands named on the line).
#[test]
fn an_option_value_may_start_with_a_hyphen() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let shown = plan(&fake, &sandbox, &["zoek", "--naam", "-Donald"]);
    assert_eq!(shown["arguments"]["naam"], "-Donald");
    let hidden_alias = plan(&fake, &sandbox, &["zoeken", "--naam", "-Donald"]);
    assert_eq!(hidden_alias["arguments"]["naam"], "-Donald");
}

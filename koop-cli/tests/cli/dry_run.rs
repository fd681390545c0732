//! `--dry-run`: the plan lists the search and the toestand request it depends on, and nothing is
//! sent (DRY-1, DRY-2, DRY-6, DRY-7).

use serde_json::json;

use crate::support::{KoopFake, Sandbox, assert_valid, run};

#[test]
fn get_plans_both_requests_and_sends_nothing() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let args = [
        "regeling",
        "toon",
        "BWBR9900001",
        "--peildatum",
        "2024-06-01",
        "--dry-run",
        "--provenance",
    ];
    let plan = run(sandbox.cmd(&fake), args).json();
    assert_valid("plan.schema.json", &plan);
    assert_eq!(plan["dry_run"], true);
    assert_eq!(plan["command"], "koop-cli regeling toon");
    assert_eq!(plan["mutating"], false);
    assert_eq!(
        plan["arguments"],
        json!({"bwb_id": "BWBR9900001", "peildatum": "2024-06-01"})
    );
    let requests = plan["requests"].as_array().unwrap();
    assert_eq!(requests.len(), 2, "the search and the toestand");
    let search = requests[0]["url"].as_str().unwrap();
    assert!(search.starts_with(&fake.sru_url()), "{search}");
    assert!(search.contains("x-connection=BWB"), "{search}");
    assert_eq!(
        requests[1]["url"],
        format!(
            "{}/bwb/BWBR9900001/{{toestand}}/xml/BWBR9900001_{{toestand}}.xml",
            fake.repository_url()
        ),
        "DRY-6: the URL from the answer as a placeholder"
    );
    assert_eq!(
        plan["url"], requests[1]["url"],
        "DRY-6: the primary request produces the data"
    );
    assert!(
        plan["effect"]
            .as_str()
            .unwrap()
            .contains("locatie_toestand")
    );
    assert_eq!(fake.server.request_count(), 0, "DRY-2");
    let records = sandbox.audit_records();
    assert_eq!(records[0]["attributes"]["overheid.dry_run"], true);
    assert_eq!(
        records[0]["attributes"]["overheid.plan_digest"],
        plan["plan_digest"]
    );
}

#[test]
fn artikel_zoek_and_versies_plan_without_sending() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    for (args, count) in [
        (
            vec!["regeling", "artikel", "BWBR9900002", " 5.15 ", "--dry-run"],
            2,
        ),
        (vec!["regeling", "zoek", "voorbeeld", "--dry-run"], 1),
        (vec!["regeling", "versies", "BWBR9900001", "--dry-run"], 1),
    ] {
        let plan = run(sandbox.cmd(&fake), &args).json();
        assert_valid("plan.schema.json", &plan);
        assert_eq!(
            plan["requests"].as_array().unwrap().len(),
            count,
            "{args:?}"
        );
    }
    let plan = run(
        sandbox.cmd(&fake),
        ["regeling", "artikel", "BWBR9900002", " 5.15 ", "--dry-run"],
    )
    .json();
    assert_eq!(plan["arguments"]["artikel"], "5.15", "MUT-4: normalised");
    assert_eq!(fake.server.request_count(), 0);
}

#[test]
fn the_plan_digest_depends_only_on_the_arguments() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let digest = |peildatum: &str| {
        run(
            sandbox.cmd(&fake),
            [
                "regeling",
                "toon",
                "BWBR9900001",
                "--peildatum",
                peildatum,
                "--dry-run",
            ],
        )
        .json()["plan_digest"]
            .clone()
    };
    assert_eq!(digest("2024-06-01"), digest("2024-06-01"));
    assert_ne!(digest("2024-06-01"), digest("2025-06-01"));
}

/// MUT-4, DRY-7: zoek's plan holds its arguments by their own names, normalised, an option not
/// given left out, and one window: pages, or the old spelling's start and count.
#[test]
fn zoek_plans_its_arguments_normalised_and_one_window() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let arguments = |args: &[&str]| {
        let mut argv = vec![
            "regeling",
            "zoek",
            "  Wet   op de  ",
            "--peildatum",
            "2026-01-01",
        ];
        argv.extend(args);
        argv.push("--dry-run");
        run(sandbox.cmd(&fake), &argv).json()["arguments"].clone()
    };
    assert_eq!(
        arguments(&["--type", "wet", "--per-pagina", "20", "--pagina", "2"]),
        json!({
            "trefwoord": "Wet op de",
            "type": "wet",
            "peildatum": "2026-01-01",
            "pagina": 2,
            "per_pagina": 20,
            "alles": false,
        })
    );
    assert_eq!(
        arguments(&["--start", "5", "--max", "3"]),
        json!({
            "trefwoord": "Wet op de",
            "peildatum": "2026-01-01",
            "start": 5,
            "max": 3,
            "alles": false,
        })
    );
    assert_eq!(fake.server.request_count(), 0);
}

//! Error paths: input validation before any request (EXIT-3, ERR-8), SRU diagnostics (EXIT-10),
//! usage errors (ERR-11), and the audit record of a failure (AUDIT-1, AUDIT-9).

use crate::support::{KoopFake, Sandbox, run};

#[test]
fn invalid_inputs_are_reported_together_before_any_request() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let args = [
        "regeling",
        "artikel",
        "bwbr0018451",
        "",
        "--peildatum",
        "2025-02-30",
    ];
    let error = run(sandbox.cmd(&fake), args).error(65);
    assert_eq!(error["code"], "ONGELDIGE_INVOER");
    let pointers: Vec<&str> = error["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["pointer"].as_str().unwrap())
        .collect();
    assert_eq!(pointers, ["/bwb_id", "/artikel", "/peildatum"]);
    assert_eq!(fake.server.request_count(), 0, "EXIT-3: nothing sent");
    let records = sandbox.audit_records();
    assert_eq!(records.len(), 1, "AUDIT-1");
    assert_eq!(records[0]["status"], "UNSET", "AUDIT-9: bad input");
    assert_eq!(records[0]["exit_code"], 65);
    assert_eq!(records[0]["attributes"]["error.code"], "ONGELDIGE_INVOER");
}

#[test]
fn bad_bwb_ids_are_refused_for_every_command() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    for args in [
        vec!["regeling", "toon", "BWBR001845"],
        vec!["regeling", "artikel", "BWBX0018451", "1"],
        vec!["regeling", "versies", "BWBR0018451 "],
    ] {
        let error = run(sandbox.cmd(&fake), &args).error(65);
        assert_eq!(error["errors"][0]["pointer"], "/bwb_id", "{args:?}");
    }
    assert_eq!(fake.server.request_count(), 0);
}

#[test]
fn zoek_bounds_the_paging_and_checks_the_type() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let pointers = |paging: [&str; 4]| -> Vec<String> {
        let mut args = vec!["regeling", "zoek", "x", "--type", "wet\" or \"x"];
        args.extend(paging);
        let error = run(sandbox.cmd(&fake), args).error(65);
        error["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["pointer"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        pointers(["--pagina", "0", "--per-pagina", "101"]),
        ["/type", "/pagina", "/per_pagina"]
    );
    // The old spellings are checked as before, with pointers to the published properties.
    assert_eq!(
        pointers(["--max", "101", "--start", "0"]),
        ["/type", "/per_pagina", "/pagina"]
    );
    let empty = run(sandbox.cmd(&fake), ["regeling", "zoek", " \t "]).error(65);
    assert_eq!(empty["errors"][0]["pointer"], "/trefwoord");
    assert_eq!(fake.server.request_count(), 0);
}

#[test]
fn a_query_syntax_diagnostic_is_a_rejected_request() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let error = run(sandbox.cmd(&fake), ["regeling", "zoek", "syntaxfout"]).error(65);
    assert_eq!(error["code"], "API_FOUT");
    assert!(
        error["detail"]
            .as_str()
            .unwrap()
            .contains("info:srw/diagnostic/1/10"),
        "{error}"
    );
}

#[test]
fn an_unavailable_diagnostic_with_http_200_is_unavailable() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let error = run(sandbox.cmd(&fake), ["regeling", "zoek", "onbeschikbaar"]).error(69);
    assert_eq!(error["code"], "BRON_ONBEREIKBAAR");
    assert!(error.get("status").is_none(), "ERR-7: HTTP said 200");
}

#[test]
fn usage_errors_are_exit_2() {
    let sandbox = Sandbox::new();
    let error = run(sandbox.bare(), ["regeling", "artikel", "BWBR0018451"]).error(2);
    assert_eq!(error["code"], "ONGELDIG_GEBRUIK");
    let fields = run(
        sandbox.bare(),
        [
            "regeling",
            "toon",
            "BWBR0018451",
            "--fields",
            "bestaat_niet",
        ],
    )
    .error(2);
    assert_eq!(fields["code"], "ONBEKEND_VELD");
}

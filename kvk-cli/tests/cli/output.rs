//! Output modes, colour, the data kvk-cli passes through, and the conveniences
//! (OUT-*, CONV-*, DISC-15).

use std::process::Stdio;

use predicates::prelude::*;
use serde_json::{Value, json};
use test_support::Reply;

use crate::support::{KvkFake, Sandbox, assert_valid_against, compact_document, run, tool_entry};

/// OUT-2, OUT-3, OUT-4: json by default off a terminal; `raw` is json; `pretty` is the
/// same value indented.
#[test]
fn out_2_default_json_raw_alias_and_pretty() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let args = ["basisprofiel", "toon", "68750110"];
    let default = run(sandbox.cmd(&fake.base()), args);
    let value = default.json();
    let mut raw_args = args.to_vec();
    raw_args.extend(["--output", "raw"]);
    assert_eq!(
        run(sandbox.cmd(&fake.base()), &raw_args).stdout,
        default.stdout
    );
    let mut pretty_args = args.to_vec();
    pretty_args.extend(["--output", "pretty"]);
    let pretty = run(sandbox.cmd(&fake.base()), &pretty_args);
    assert_eq!(pretty.code, 0);
    assert!(pretty.stdout.lines().count() > 10, "indented");
    let reparsed: Value = serde_json::from_str(&pretty.stdout).expect("pretty is JSON");
    assert_eq!(reparsed, value);
}

/// OUT-4: `table` prints booleans as `false`/`true` (here the plan of a dry run).
#[test]
fn out_4_table_prints_false() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let table = run(
        sandbox.cmd(&fake.base()),
        [
            "basisprofiel",
            "toon",
            "68750110",
            "--dry-run",
            "--output",
            "table",
        ],
    );
    assert_eq!(table.code, 0, "{table:#?}");
    let mutating = table
        .stdout
        .lines()
        .find(|l| l.starts_with("mutating"))
        .expect("a mutating row");
    assert_eq!(
        mutating.split_whitespace().collect::<Vec<_>>(),
        ["mutating", "false"]
    );
    assert!(
        table
            .stdout
            .lines()
            .any(|l| l.split_whitespace().eq(["dry_run", "true"]))
    );
}

/// OUT-4: booleans in data rows, in key/value rows and in list columns, print as `false`.
#[test]
fn out_4_table_prints_false_in_data() {
    let fake = KvkFake::with(|_| {
        Reply::json(
            200,
            &json!({
                "kvkNummer": "68750110",
                "naam": "Test BV Donald",
                "indNonMailing": false,
                "handelsnamen": [{"naam": "Test BV Donald", "volgorde": 0}]
            }),
        )
    });
    let sandbox = Sandbox::new();
    let table = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "68750110", "--output", "table"],
    );
    assert_eq!(table.code, 0, "{table:#?}");
    let row = table
        .stdout
        .lines()
        .find(|l| l.starts_with("indNonMailing"))
        .expect("row");
    assert_eq!(
        row.split_whitespace().last(),
        Some("false"),
        "{}",
        table.stdout
    );
    assert!(table.stdout.contains("Test BV Donald"));
}

/// OUT-6: no ANSI escapes on stdout or stderr when they are not terminals, in any mode.
#[test]
fn out_6_no_ansi_escapes_off_a_terminal() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    for args in [
        vec!["basisprofiel", "toon", "68750110", "--output", "table"],
        vec!["basisprofiel", "toon", "68750110", "--output", "pretty"],
        vec!["zoek", "--naam", "Donald", "--output", "table"],
        vec!["basisprofiel", "toon", "99999999", "--output", "table"],
        vec!["basisprofiel", "toon", "--onbekend"],
        vec!["--help"],
    ] {
        let result = run(sandbox.cmd(&fake.base()), &args);
        assert!(
            !result.stdout.contains('\x1b'),
            "{args:?}: {}",
            result.stdout
        );
        assert!(
            !result.stderr.contains('\x1b'),
            "{args:?}: {}",
            result.stderr
        );
    }
}

/// OUT-7, OUT-5: the data of every command validates against its own outputSchema.
#[test]
fn out_7_data_validates_against_output_schema() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let calls: [(&str, &[&str]); 7] = [
        ("zoek", &["zoek", "--naam", "Donald"]),
        (
            "basisprofiel_toon",
            &["basisprofiel", "toon", "68750110", "--geo"],
        ),
        (
            "basisprofiel_eigenaar",
            &["basisprofiel", "eigenaar", "68750110"],
        ),
        (
            "basisprofiel_hoofdvestiging",
            &["basisprofiel", "hoofdvestiging", "68750110"],
        ),
        (
            "basisprofiel_vestigingen",
            &["basisprofiel", "vestigingen", "68750110"],
        ),
        (
            "vestigingsprofiel_toon",
            &["vestigingsprofiel", "toon", "000037178598"],
        ),
        ("naamgeving_toon", &["naamgeving", "toon", "68750110"]),
    ];
    for (tool, args) in calls {
        let data = run(sandbox.cmd(&fake.base()), args).json();
        let schema = &tool_entry(tool)["outputSchema"];
        assert_valid_against(schema, &data, tool);
    }
}

/// KvK data passthrough: the padding in `volledigAdres` is collapsed to single spaces, at
/// any depth and in lists; everything else is passed through.
#[test]
fn kvk_volledig_adres_whitespace_is_collapsed() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let data = run(
        sandbox.cmd(&fake.base()),
        [
            "basisprofiel",
            "toon",
            "68750110",
            "--fields",
            "_embedded.hoofdvestiging.adressen[].volledigAdres",
        ],
    )
    .json();
    assert_eq!(
        data["_embedded"]["hoofdvestiging"]["adressen"],
        json!([
            {"volledigAdres": "Postbus 200 1000AE Rommeldam"},
            {"volledigAdres": "Hizzaarderlaan 3 A 8823SJ Lollum"}
        ])
    );
    let list = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "vestigingen", "68750110"],
    )
    .json();
    let text = list.to_string();
    assert!(
        text.contains("Brinkerinckbaan 14 7431PB Diepenveen"),
        "{text}"
    );
    assert!(!text.contains("  "), "no double spaces left: {text}");
}

/// OUT-8, EXIT-6: zero hits (KvK 404 IPD5200) is exit 0 with `totaal: 0` and an empty list.
#[test]
fn out_8_zero_hits_is_an_empty_result() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let data = run(
        sandbox.cmd(&fake.base()),
        ["zoek", "--naam", "Zzyzxbestaatniet"],
    )
    .json();
    assert_eq!(data["totaal"], 0);
    assert_eq!(data["resultaten"], json!([]));
    let answer = String::from_utf8(fake.bodies()[0].clone()).expect("utf-8");
    assert!(
        answer.contains("IPD5200"),
        "the fake answered no-hits: {answer}"
    );
    assert_eq!(sandbox.single_audit_record()["status"], "OK");
}

/// CONV-2: `completions bash|zsh|fish` print a script and exit 0.
#[test]
fn conv_2_completions() {
    let sandbox = Sandbox::new();
    for shell in ["bash", "zsh", "fish"] {
        let mut cmd = sandbox.bare();
        cmd.args(["completions", shell])
            .assert()
            .success()
            .stdout(predicate::str::contains("kvk-cli"))
            .stdout(predicate::str::contains("basisprofiel"));
    }
    let error = run(sandbox.bare(), ["completions", "tcsh"]).error(2);
    assert_eq!(error["code"], "ONGELDIG_GEBRUIK");
}

/// ERR-12, OUT-5: writing completions into a closed pipe must not end in a raw panic.
#[test]
fn err_12_completions_into_closed_pipe_do_not_panic() {
    let binary = assert_cmd::cargo::cargo_bin("kvk-cli");
    let sandbox = Sandbox::new();
    let mut child = std::process::Command::new(binary)
        .env_clear()
        .env("HOME", sandbox.path())
        .args(["completions", "bash"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    match output.status.code() {
        Some(0) => assert!(stderr.is_empty(), "{stderr}"),
        Some(70) => {
            compact_document(&stderr);
        }
        other => panic!("exit {other:?}: {stderr}"),
    }
}

/// DISC-15, §3.2: the command line a host builds from a tool call (`flags`, then `--` and
/// the positionals) is accepted.
#[test]
fn disc_15_host_built_command_line_is_accepted() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let data = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "--geo", "--", "68750110"],
    )
    .json();
    assert_eq!(data["kvkNummer"], "68750110");
    let request = fake.server.last_request().expect("a request");
    assert_eq!(request.query_param("geoData"), Some("true"));
    let zoeken = run(
        sandbox.cmd(&fake.base()),
        [
            "zoek",
            "--naam",
            "Donald",
            "--type",
            "hoofdvestiging",
            "--per-pagina",
            "5",
        ],
    )
    .json();
    assert!(zoeken["totaal"].as_u64().expect("totaal") >= 1, "{zoeken}");
}

/// CONV-3: `--quiet` suppresses nothing but warnings: data and errors stay.
#[test]
fn conv_3_quiet_keeps_data_and_errors() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let data = run(
        sandbox.cmd(&fake.base()),
        [
            "basisprofiel",
            "toon",
            "68750110",
            "--quiet",
            "--fields",
            "naam",
        ],
    )
    .json();
    assert_eq!(data, json!({"naam": "Test BV Donald"}));
    run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "99999999", "--quiet"],
    )
    .error(66);
}

/// OUT-6, CONF-2: `TERM=dumb` and `NO_COLOR` are honoured (and reading them is no error:
/// `TERM` is a process basic that needs no declaration).
#[test]
fn out_6_term_dumb_and_no_color_are_honoured() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    for (name, value) in [
        ("TERM", "dumb"),
        ("NO_COLOR", "1"),
        ("TERM", "xterm-256color"),
    ] {
        let mut cmd = sandbox.cmd(&fake.base());
        cmd.env(name, value);
        let result = run(
            cmd,
            ["basisprofiel", "toon", "68750110", "--output", "table"],
        );
        assert_eq!(result.code, 0, "{name}={value}: {result:#?}");
        assert!(!result.stdout.contains('\x1b'));
        assert!(result.stdout.contains("Test BV Donald"));
    }
}

/// OUT-4: at 60 columns a search result keeps every vestigingsnummer and kvkNummer whole (the
/// next command needs them) and shows no `_links` (only a program follows those).
#[test]
fn out_4_a_narrow_table_keeps_identifiers_and_drops_links() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let args = ["zoek", "--naam", "Donald"];
    let data = run(sandbox.cmd(&fake.base()), args).json();
    let mut table = sandbox.cmd(&fake.base());
    table.env("COLUMNS", "60");
    let table = run(table, ["zoek", "--naam", "Donald", "--output", "table"]);
    assert_eq!(table.code, 0, "{table:#?}");
    assert!(!table.stdout.contains("_links"), "{}", table.stdout);
    assert!(
        table.stdout.lines().all(|l| l.chars().count() <= 60),
        "{}",
        table.stdout
    );
    let results = data["resultaten"].as_array().expect("resultaten");
    assert!(!results.is_empty());
    for result in results {
        for id in ["kvkNummer", "vestigingsnummer"] {
            if let Some(number) = result[id].as_str() {
                assert!(
                    table.stdout.contains(number),
                    "{id} {number}: {}",
                    table.stdout
                );
            }
        }
    }
}

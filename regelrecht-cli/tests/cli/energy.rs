//! `check energiebesparing`: the Bal's boundaries (5.15 "kleiner dan", 5.15b "groter dan"),
//! every exclusion, the reporting date around 1 December 2027, and the article of each answer.

use serde_json::Value;

use crate::support::{Sandbox, assert_valid_against, output_schema, run};

const KVK: &str = "68750110";

fn check(kwh: &str, gas: &str, extra: &[&str]) -> Value {
    let mut args = vec![
        "check",
        "energiebesparing",
        KVK,
        "--elektriciteit-kwh",
        kwh,
        "--gas-m3",
        gas,
        "--peildatum",
        "2026-01-01",
    ];
    args.extend_from_slice(extra);
    run(Sandbox::new().cmd(), args).json()
}

fn duties(v: &Value) -> (bool, bool, bool) {
    (
        v["heeft_energiebesparingsplicht"].as_bool().expect("bool"),
        v["heeft_informatieplicht"].as_bool().expect("bool"),
        v["heeft_onderzoeksplicht"].as_bool().expect("bool"),
    )
}

#[test]
fn below_both_thresholds_there_is_no_duty() {
    assert_eq!(duties(&check("49999", "24999", &[])), (false, false, false));
}

#[test]
fn reaching_either_threshold_is_not_kleiner_dan() {
    assert_eq!(duties(&check("50000", "0", &[])), (true, true, false));
    assert_eq!(duties(&check("0", "25000", &[])), (true, true, false));
    assert_eq!(duties(&check("49999", "25000", &[])), (true, true, false));
}

#[test]
fn research_duty_is_groter_dan_and_replaces_the_information_duty() {
    assert_eq!(duties(&check("10000000", "0", &[])), (true, true, false));
    assert_eq!(duties(&check("10000001", "0", &[])), (true, false, true));
    assert_eq!(duties(&check("0", "170000", &[])), (true, true, false));
    assert_eq!(duties(&check("0", "170001", &[])), (true, false, true));
}

#[test]
fn each_exclusion_of_lid_3() {
    for flag in [
        "--gebruiksfunctie-bbl",
        "--alleen-hernieuwbaar-op-locatie",
        "--activiteit-3-3a-lid-1-b",
    ] {
        let v = check("62000", "31000", &[flag]);
        assert!(!duties(&v).0, "{flag}: {v}");
    }
    let v = check("62000", "31000", &["--activiteit-3-3a-lid-1-a"]);
    assert!(!duties(&v).1, "5.15a lid 2 onder a: {v}");
}

#[test]
fn reporting_date_is_the_next_1_december_of_the_four_year_cycle() {
    for (peildatum, expected) in [
        ("2026-01-01", "2027-12-01"),
        ("2027-11-30", "2027-12-01"),
        ("2027-12-01", "2027-12-01"),
        ("2027-12-02", "2031-12-01"),
    ] {
        let v = run(
            Sandbox::new().cmd(),
            [
                "check",
                "energiebesparing",
                KVK,
                "--elektriciteit-kwh",
                "62000",
                "--gas-m3",
                "0",
                "--peildatum",
                peildatum,
            ],
        )
        .json();
        assert_eq!(v["volgende_rapportagedatum"], expected, "{peildatum}");
        assert_eq!(v["rapportagefrequentie_jaren"], 4);
    }
}

#[test]
fn every_answer_names_its_own_article_and_url() {
    let v = check("62000", "31000", &[]);
    assert_valid_against(
        &output_schema("check_energiebesparing"),
        &v,
        "check_energiebesparing",
    );
    let basis = v["wettelijke_grondslag"].as_array().expect("grondslag");
    for (output, article) in [
        ("heeft_energiebesparingsplicht", "5.15"),
        ("heeft_informatieplicht", "5.15a"),
        ("heeft_onderzoeksplicht", "5.15b"),
        ("volgende_rapportagedatum", "5.15a"),
    ] {
        let entry = basis
            .iter()
            .find(|b| b["uitvoer"] == output)
            .unwrap_or_else(|| panic!("{output} in {v}"));
        assert_eq!(entry["artikel"], article, "{output}");
        assert_eq!(entry["bwb_id"], "BWBR0041330");
        assert_eq!(
            entry["url"],
            format!("https://wetten.overheid.nl/BWBR0041330/2026-01-01#Artikel{article}")
        );
    }
    assert_eq!(v["drempelwaarden"]["drempel_elektriciteit_kwh"], 50000);
    assert_eq!(v["drempelwaarden"]["onderzoeksdrempel_aardgas_m3"], 170000);
    assert_eq!(v["gebruikte_waarden"]["elektriciteitsverbruik_kwh"], 62000);
    assert_eq!(v["kvk_nummer"], KVK);
}

#[test]
fn invalid_values_are_all_reported_at_once() {
    let sandbox = Sandbox::new();
    let error = run(
        sandbox.cmd(),
        [
            "check",
            "energiebesparing",
            "6875011",
            "--elektriciteit-kwh",
            "-5",
            "--gas-m3",
            "50.5",
            "--peildatum",
            "2025-12-31",
        ],
    )
    .error(65);
    let pointers: Vec<&str> = error["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| e["pointer"].as_str().expect("pointer"))
        .collect();
    assert_eq!(
        pointers,
        ["/kvk_nummer", "/elektriciteit_kwh", "/gas_m3", "/peildatum"]
    );
}

/// NUM-3: a consumption is read by the family's one number rule, as `concept --opgave` reads it:
/// `62.000` is 62000 (never 62, never refused), a unit may follow and must be the field's, and
/// what could be read two ways is refused.
#[test]
fn a_consumption_is_read_by_the_one_number_rule() {
    for kwh in ["62000", "62.000", "62.000 kWh", "62000kwh"] {
        let result = check(kwh, "31.000 m3", &[]);
        assert_eq!(
            result["gebruikte_waarden"]["elektriciteitsverbruik_kwh"], 62000,
            "{kwh}"
        );
        assert_eq!(result["gebruikte_waarden"]["aardgasverbruik_m3"], 31000);
    }
    let sandbox = Sandbox::new();
    for (kwh, says) in [
        ("62.5", "Nederlandse schrijfwijze"),
        ("62,000", "Nederlandse schrijfwijze"),
        ("62 MWh", "verkeerde eenheid"),
    ] {
        let args = [
            "check",
            "energiebesparing",
            "68750110",
            "--elektriciteit-kwh",
            kwh,
            "--gas-m3",
            "0",
        ];
        let error = run(sandbox.cmd(), args).error(65);
        assert!(
            error["detail"].as_str().unwrap().contains(says),
            "{kwh}: {error}"
        );
    }
}

/// Splits a step's `opdracht` as a shell would (words, or one word in single quotes).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut rest = line.trim();
    while !rest.is_empty() {
        if let Some(quoted) = rest.strip_prefix('\'') {
            let end = quoted.find('\'').expect("a closing quote");
            words.push(quoted[..end].to_string());
            rest = quoted[end + 1..].trim_start();
        } else {
            let end = rest.find(' ').unwrap_or(rest.len());
            words.push(rest[..end].to_string());
            rest = rest[end..].trim_start();
        }
    }
    words
}

/// Issue 40 item 2: the answer names where it leads, with the values it knows. Every step is a
/// command line the named program accepts (its dry run exits 0) and the same call as the tool the
/// bridge lists, whose arguments validate against that command's own `inputSchema`; the concept
/// step carries the consumptions as answers and nothing the person did not give.
#[test]
fn the_answer_names_its_next_steps_as_runnable_commands() {
    let family = test_support::cli::family_dir(env!("CARGO_BIN_EXE_regelrecht-cli"), &["koop-cli"]);
    // 5.15 holds, so does 5.15a: both articles, and the concept.
    let answer = check("62.000", "31.000", &[]);
    let steps = answer["volgende_stappen"].as_array().expect("steps");
    let tools: Vec<&str> = steps.iter().filter_map(|s| s["tool"].as_str()).collect();
    assert_eq!(
        tools,
        [
            "koop__regeling_artikel",
            "koop__regeling_artikel",
            "regelrecht__concept"
        ]
    );
    assert_eq!(steps[1]["argumenten"]["artikel"], "5.15a");
    assert_eq!(
        steps[2]["argumenten"]["opgave"],
        serde_json::json!([
            "elektriciteitsverbruik_kwh=62000",
            "aardgasverbruik_m3=31000"
        ])
    );
    for step in steps {
        let words = shell_words(step["opdracht"].as_str().unwrap());
        let program = family.join(&words[0]);
        let sandbox = test_support::cli::Sandbox::new(&program, "OVERHEID_AUDIT_LOG");
        let mut args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        args.push("--dry-run");
        let planned = sandbox.run(&args);
        assert_eq!(planned.code, 0, "{step}: {}", planned.stderr);
        // The tool's own arguments: the command's full entry, as the bridge lists it.
        let tool = step["tool"].as_str().unwrap();
        let (_, name) = tool.split_once("__").unwrap();
        let discovery = sandbox.run(["--help", "--json"]).json();
        let entry = discovery["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap_or_else(|| panic!("{tool} is no tool of {}", words[0]));
        assert_valid_against(&entry["inputSchema"], &step["argumenten"], tool);
    }
    // No duty holds (below the thresholds, or an exception of lid 3): the article that says
    // why (5.15), no concept.
    for none in [
        check("1000", "0", &[]),
        check("62.000", "31.000", &["--gebruiksfunctie-bbl"]),
    ] {
        let steps = none["volgende_stappen"].as_array().expect("steps");
        assert_eq!(steps.len(), 1, "{none}");
        assert_eq!(steps[0]["argumenten"]["artikel"], "5.15");
        assert_valid_against(&output_schema("check_energiebesparing"), &none, "check");
    }
    // An exception given as a flag is an answer of the concept; one not given stays its question.
    let exempt = check("62000", "0", &["--activiteit-3-3a-lid-1-b"]);
    assert_eq!(exempt["heeft_informatieplicht"], true, "{exempt}");
    let concept = exempt["volgende_stappen"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["tool"] == "regelrecht__concept")
        .expect("the concept step");
    assert_eq!(
        concept["argumenten"]["opgave"],
        serde_json::json!([
            "elektriciteitsverbruik_kwh=62000",
            "aardgasverbruik_m3=0",
            "is_activiteit_artikel_3_3a_lid_1_onder_b=ja"
        ])
    );
}

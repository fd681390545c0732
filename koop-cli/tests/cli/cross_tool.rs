//! One law, three tools: every article of the Besluit activiteiten leefomgeving (BWBR0041330) that
//! regelrecht-cli (`check energiebesparing`, its `wettelijke_grondslag`) and rvo-cli (`regeling
//! lijst`, each regeling's `wettelijke_grondslag`) cite resolves through koop-cli against the fake
//! KOOP, on the date in the cited URL, and its text holds what the citing tool relies on: the
//! thresholds and dates regelrecht-cli reports (`drempelwaarden`), and the duty rvo-cli names.
//!
//! The other tools run as the real binaries of this workspace, found beside koop-cli's own
//! (`target/debug`); a missing one fails the test with the command that builds it. `cargo test
//! --workspace` builds every binary before any test runs.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use serde_json::Value;

use crate::support::{KoopFake, Sandbox, run};

const BAL: &str = "BWBR0041330";

/// The workspace binary `name`, built into the same directory as koop-cli; panics when it is not.
fn workspace_binary(name: &str) -> PathBuf {
    let koop = PathBuf::from(env!("CARGO_BIN_EXE_koop-cli"));
    let path = koop
        .parent()
        .expect("koop-cli lies in a target directory")
        .join(name);
    assert!(
        path.is_file(),
        "{} ontbreekt: deze test draait de echte {name}; bouw die eerst (cargo build -p {name})",
        path.display()
    );
    path
}

/// The JSON answer of workspace tool `name` (audit log in `audit_var`) to `args`.
fn answer(name: &str, audit_var: &'static str, args: &[&str]) -> Value {
    let sandbox = test_support::cli::Sandbox::new(workspace_binary(name), audit_var);
    run(sandbox.cmd(), args).json()
}

/// A citation of one Bal article: the tool, what it cites it for, and the date of the cited text.
#[derive(Debug)]
struct Citation {
    tool: &'static str,
    reden: String,
    peildatum: String,
}

/// The Bal citations in a `wettelijke_grondslag` list, by article; `reden` comes from `key`.
fn bal_citations(
    grondslag: &Value,
    tool: &'static str,
    key: &str,
    into: &mut BTreeMap<String, Vec<Citation>>,
) {
    for entry in grondslag
        .as_array()
        .expect("wettelijke_grondslag is a list")
    {
        if entry["bwb_id"] != BAL {
            continue;
        }
        let url = entry["url"].as_str().expect("a cited url");
        let peildatum = url
            .strip_prefix(&format!("https://wetten.overheid.nl/{BAL}/"))
            .and_then(|rest| rest.split('#').next())
            .unwrap_or_else(|| panic!("{tool} cites {url}, not a wetten.overheid.nl version"));
        into.entry(entry["artikel"].as_str().expect("artikel").to_owned())
            .or_default()
            .push(Citation {
                tool,
                reden: entry[key].as_str().unwrap_or_default().to_owned(),
                peildatum: peildatum.to_owned(),
            });
    }
}

/// Who cites an article and why, for failure messages: `rvo-cli (energiebesparingsplicht), …`.
fn cited_by(citations: &[Citation]) -> String {
    citations
        .iter()
        .map(|c| format!("{} ({}, {})", c.tool, c.reden, c.peildatum))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `50000` as the law writes it: `50.000`.
fn dutch_number(value: &Value) -> String {
    let digits = value.as_u64().expect("a whole number").to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('.');
        }
        out.push(digit);
    }
    out
}

/// `2023-12-01` as the law writes it: `1 december 2023`.
fn dutch_date(value: &Value) -> String {
    const MONTHS: [&str; 12] = [
        "januari",
        "februari",
        "maart",
        "april",
        "mei",
        "juni",
        "juli",
        "augustus",
        "september",
        "oktober",
        "november",
        "december",
    ];
    let text = value.as_str().expect("a date");
    let parts: Vec<u32> = text
        .split('-')
        .map(|p| p.parse().expect("digits"))
        .collect();
    let [year, month, day] = parts[..] else {
        panic!("{text} is no date")
    };
    format!("{day} {} {year}", MONTHS[month as usize - 1])
}

/// What the citing tools rely on, per article: phrases its text must contain. The numbers and
/// dates come from regelrecht-cli's own `drempelwaarden`; the duties from what the tools name.
fn relied_on(drempels: &Value) -> BTreeMap<&'static str, Vec<String>> {
    let years = match drempels["rapportagefrequentie_jaren"].as_u64() {
        Some(4) => "vier",
        other => panic!("rapportagefrequentie_jaren {other:?}: extend this test"),
    };
    BTreeMap::from([
        (
            "5.15",
            vec![
                format!(
                    "{} kWh elektriciteit",
                    dutch_number(&drempels["drempel_elektriciteit_kwh"])
                ),
                format!(
                    "{} m3 aardgasequivalenten",
                    dutch_number(&drempels["drempel_aardgas_m3"])
                ),
                "terugverdientijd van ten hoogste vijf jaar".to_owned(),
            ],
        ),
        (
            "5.15a",
            vec![
                format!(
                    "uiterlijk op {}",
                    dutch_date(&drempels["eerste_rapportagedatum"])
                ),
                format!("eenmaal per {years} jaar"),
                "gegevens en bescheiden".to_owned(),
                "artikel 5.15b van toepassing is".to_owned(),
            ],
        ),
        (
            "5.15b",
            vec![
                format!(
                    "{} kWh elektriciteit",
                    dutch_number(&drempels["onderzoeksdrempel_elektriciteit_kwh"])
                ),
                format!(
                    "{} m3 aardgasequivalenten",
                    dutch_number(&drempels["onderzoeksdrempel_aardgas_m3"])
                ),
                "wordt onderzoek verricht".to_owned(),
            ],
        ),
        (
            "5.15c",
            vec![
                "elektronisch formulier".to_owned(),
                "de artikelen 5.15a en 5.15b".to_owned(),
            ],
        ),
    ])
}

#[test]
fn every_bal_article_the_other_tools_cite_says_what_they_rely_on() {
    let check = answer(
        "regelrecht-cli",
        "REGELRECHT_AUDIT_LOG",
        &[
            "check",
            "energiebesparing",
            "68750110",
            "--elektriciteit-kwh",
            "62000",
            "--gas-m3",
            "31000",
            "--peildatum",
            "2026-11-30",
        ],
    );
    let catalogue = answer(
        "rvo-cli",
        "RVO_AUDIT_LOG",
        &["regeling", "lijst", "--peildatum", "2026-11-30", "--lang"],
    );
    let mut cited = BTreeMap::new();
    bal_citations(
        &check["wettelijke_grondslag"],
        "regelrecht-cli",
        "uitvoer",
        &mut cited,
    );
    for regeling in catalogue["regelingen"].as_array().expect("regelingen") {
        bal_citations(
            &regeling["wettelijke_grondslag"],
            "rvo-cli",
            "rol",
            &mut cited,
        );
    }
    for tool in ["regelrecht-cli", "rvo-cli"] {
        assert!(
            cited.values().flatten().any(|c| c.tool == tool),
            "{tool} cites no Bal article: {cited:#?}"
        );
    }
    let expected = relied_on(&check["drempelwaarden"]);

    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    for (artikel, citations) in &cited {
        let who = cited_by(citations);
        let phrases = expected.get(artikel.as_str()).unwrap_or_else(|| {
            panic!(
                "artikel {artikel} is cited by {who} but this test does not know what it must say"
            )
        });
        let dates: BTreeSet<&str> = citations.iter().map(|c| c.peildatum.as_str()).collect();
        for peildatum in dates {
            let found = run(
                sandbox.cmd(&fake),
                [
                    "regeling",
                    "artikel",
                    BAL,
                    artikel,
                    "--peildatum",
                    peildatum,
                ],
            );
            assert_eq!(
                found.code, 0,
                "artikel {artikel} on {peildatum}, cited by {who}, does not resolve: {found:#?}"
            );
            let value = found.json();
            assert_eq!(value["artikel"]["nummer"], artikel.as_str());
            let tekst = value["artikel"]["tekst"].as_str().expect("tekst");
            for phrase in phrases {
                assert!(
                    tekst.contains(phrase.as_str()),
                    "artikel {artikel} ({peildatum}), cited by {who}, lacks {phrase:?}:\n{tekst}"
                );
            }
        }
    }
    let numbers: Vec<&str> = cited.keys().map(String::as_str).collect();
    assert_eq!(numbers, ["5.15", "5.15a", "5.15b", "5.15c"], "{cited:#?}");
}

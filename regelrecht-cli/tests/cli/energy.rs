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

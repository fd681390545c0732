//! The embedded catalogue: it parses, its legal references are the right articles, and lookups
//! behave as the CLI needs.

use rvo_cli::catalogue::{Catalogue, Regeling, Soort, WettelijkeGrondslag};

const BAL: &str = "BWBR0041330";
const WET_IB_2001: &str = "BWBR0011353";

fn articles_of<'a>(regeling: &'a Regeling, bwb_id: &str) -> Vec<&'a str> {
    regeling
        .wettelijke_grondslag
        .iter()
        .filter(|grondslag| grondslag.bwb_id.as_deref() == Some(bwb_id))
        .filter_map(|grondslag| grondslag.artikel.as_deref())
        .collect()
}

fn all_references() -> impl Iterator<Item = (&'static Regeling, &'static WettelijkeGrondslag)> {
    Catalogue::embedded().list().iter().flat_map(|regeling| {
        regeling
            .wettelijke_grondslag
            .iter()
            .map(move |g| (regeling, g))
    })
}

#[test]
fn no_scheme_cites_the_transitional_article_5_15d_as_its_basis() {
    for (regeling, grondslag) in all_references() {
        let artikel = grondslag.artikel.as_deref().unwrap_or_default();
        assert_ne!(
            artikel, "5.15d",
            "{} cites Bal 5.15d (transitional law)",
            regeling.id
        );
        let url = grondslag.url.as_deref().unwrap_or_default();
        assert!(!url.contains("5.15d"), "{} links to 5.15d", regeling.id);
    }
}

#[test]
fn the_information_duty_cites_5_15a_with_the_thresholds_of_5_15_and_the_form_of_5_15c() {
    let ebr = Catalogue::embedded().get("EBR-2027").unwrap();
    let bal = articles_of(ebr, BAL);
    assert_eq!(
        bal.first(),
        Some(&"5.15a"),
        "the duty itself comes first: {bal:?}"
    );
    assert!(bal.contains(&"5.15"), "{bal:?}");
    assert!(bal.contains(&"5.15c"), "{bal:?}");
    assert!(
        !bal.contains(&"5.15b"),
        "5.15b is the research duty: {bal:?}"
    );
    assert!(ebr.indienbaar_via_cli);
    assert_eq!(ebr.deadline, Some("2027-12-01".parse().unwrap()));
}

#[test]
fn the_research_duty_cites_5_15b() {
    let onderzoek = Catalogue::embedded().get("ONDERZOEKSPLICHT-2027").unwrap();
    let bal = articles_of(onderzoek, BAL);
    assert_eq!(bal.first(), Some(&"5.15b"), "{bal:?}");
    assert!(!bal.contains(&"5.15a"), "{bal:?}");
}

#[test]
fn the_eia_cites_article_3_42_of_the_income_tax_act() {
    let eia = Catalogue::embedded().get("EIA-2026").unwrap();
    assert_eq!(articles_of(eia, WET_IB_2001), ["3.42"]);
    assert_eq!(eia.soort, Soort::FiscaleRegeling);
}

#[test]
fn references_are_internally_consistent_and_uncertain_ones_are_flagged() {
    for (regeling, grondslag) in all_references() {
        if let (Some(url), Some(bwb_id)) = (&grondslag.url, &grondslag.bwb_id) {
            assert!(
                url.starts_with("https://wetten.overheid.nl/"),
                "{}: {url}",
                regeling.id
            );
            assert!(
                url.contains(bwb_id.as_str()),
                "{}: {url} vs {bwb_id}",
                regeling.id
            );
            if let Some(artikel) = &grondslag.artikel {
                assert!(
                    url.ends_with(&format!("#Artikel{artikel}")),
                    "{}: {url}",
                    regeling.id
                );
            }
        }
        if !grondslag.geverifieerd {
            assert!(
                !regeling.opmerkingen.is_empty(),
                "{} has an unverified reference but no note saying so",
                regeling.id
            );
        }
    }
    let verified_bal: Vec<&str> = all_references()
        .filter(|(_, g)| g.bwb_id.as_deref() == Some(BAL))
        .map(|(_, g)| g.artikel.as_deref().unwrap_or_default())
        .collect();
    assert!(
        verified_bal
            .iter()
            .all(|a| ["5.15", "5.15a", "5.15b", "5.15c"].contains(a)),
        "{verified_bal:?}"
    );
}

#[test]
fn contains_the_real_schemes_with_rvo_pages() {
    let catalogue = Catalogue::embedded();
    for id in [
        "EBR-2027",
        "EBR-2023",
        "ONDERZOEKSPLICHT-2027",
        "EIA-2026",
        "MIA-VAMIL-2026",
        "ISDE-2026",
        "SDE-2026",
        "WBSO-2026",
    ] {
        let regeling = catalogue.get(id).unwrap();
        assert!(
            regeling.url.starts_with("https://www.rvo.nl/"),
            "{id}: {}",
            regeling.url
        );
        assert!(
            !regeling.beschrijving.is_empty() && !regeling.trefwoorden.is_empty(),
            "{id}"
        );
    }
    let submittable: Vec<&str> = catalogue
        .list()
        .iter()
        .filter(|r| r.indienbaar_via_cli)
        .map(|r| r.id.as_str())
        .collect();
    assert_eq!(
        submittable,
        ["EBR-2027", "EBR-2023"],
        "only report-type schemes accept reports"
    );
}

#[test]
fn states_its_own_date_and_version_and_no_frozen_status() {
    let catalogue = Catalogue::embedded();
    assert_eq!(catalogue.peildatum.to_string(), "2026-11-30");
    assert!(
        catalogue
            .source_label()
            .starts_with("RVO regelingencatalogus (ingebed, stand 2026-11-30")
    );
    let raw: serde_json::Value = serde_json::from_str(rvo_cli::catalogue::CATALOGUE_JSON).unwrap();
    for regeling in raw["regelingen"].as_array().unwrap() {
        assert!(
            regeling.get("status").is_none(),
            "status must be computed, not stored"
        );
    }
}

#[test]
fn get_is_case_insensitive_and_unknown_ids_carry_the_known_ids() {
    let catalogue = Catalogue::embedded();
    assert_eq!(catalogue.get(" ebr-2027 ").unwrap().id, "EBR-2027");
    let unknown = catalogue.get("EBR-2026").unwrap_err();
    assert_eq!(unknown.id, "EBR-2026");
    assert_eq!(unknown.known_ids, catalogue.ids());
    assert!(unknown.to_string().contains("EBR-2027"), "{unknown}");
}

#[test]
fn rejects_invalid_catalogue_files() {
    let valid: serde_json::Value =
        serde_json::from_str(rvo_cli::catalogue::CATALOGUE_JSON).unwrap();
    let mut duplicate = valid.clone();
    let first = duplicate["regelingen"][0].clone();
    duplicate["regelingen"].as_array_mut().unwrap().push(first);
    assert!(
        Catalogue::from_json(&duplicate.to_string())
            .unwrap_err()
            .contains("dubbel")
    );

    let mut backwards = valid.clone();
    backwards["regelingen"][0]["openstelling"] =
        serde_json::json!({"van": "2027-01-01", "tot": "2026-01-01"});
    assert!(Catalogue::from_json(&backwards.to_string()).is_err());

    let mut future_format = valid;
    future_format["formaat"] = serde_json::json!(2);
    assert!(Catalogue::from_json(&future_format.to_string()).is_err());
}

#[test]
fn parses_kinds_as_typed_on_the_command_line() {
    assert_eq!(
        Soort::parse("fiscale-regeling"),
        Some(Soort::FiscaleRegeling)
    );
    assert_eq!(Soort::parse("Subsidie"), Some(Soort::Subsidie));
    assert_eq!(Soort::parse("lening"), None);
}

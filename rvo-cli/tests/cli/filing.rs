//! Validation and normalisation of a report filing, and the shape of its result.

use chrono::NaiveDate;
use rvo_cli::backend_types::{FieldError, RapportageStatus};
use rvo_cli::catalogue::Catalogue;
use rvo_cli::filing::{
    Backend, FilingInput, build_result, canonicalise, idempotency_key, normalise_maatregelen,
    split_maatregelen, validate,
};

fn day(text: &str) -> NaiveDate {
    text.parse().unwrap()
}

fn input(kvk: &str, regeling: &str, comma_list: &str) -> FilingInput {
    FilingInput {
        kvk_nummer: kvk.to_string(),
        regeling_id: regeling.to_string(),
        maatregelen: split_maatregelen(comma_list),
        toelichting: None,
        inhoud: None,
    }
}

fn pointers(errors: &[FieldError]) -> Vec<&str> {
    errors.iter().map(|e| e.pointer.as_str()).collect()
}

#[test]
fn normalises_measures_trimmed_deduplicated_and_sorted() {
    let measures = normalise_maatregelen(split_maatregelen(" LED , isolatie,,LED,  Warmtepomp "));
    assert_eq!(measures, ["isolatie", "led", "warmtepomp"]);
    let reordered = normalise_maatregelen(split_maatregelen("Warmtepomp,isolatie,LED"));
    assert_eq!(measures, reordered, "order does not matter");
}

/// MUT-3/4: one report has one digest, whatever the case, Unicode composition or spacing of its
/// measures, the case of the scheme id, or the composition of the explanation.
#[test]
fn one_report_has_one_digest_whatever_its_spelling() {
    let spellings = [
        (
            "EBR-2027",
            "Isolatie dak,Caf\u{e9}verwarming",
            "Locatie Caf\u{e9}",
        ),
        (
            "ebr-2027",
            "isolatie dak,cafe\u{301}verwarming",
            "Locatie Cafe\u{301}",
        ),
        (
            " EBR-2027",
            "ISOLATIE  DAK , CAF\u{c9}VERWARMING",
            " Locatie Caf\u{e9} ",
        ),
    ];
    let keys: Vec<String> = spellings
        .iter()
        .map(|(regeling, measures, toelichting)| {
            let mut request = input("68750110", regeling, measures);
            request.toelichting = Some(toelichting.to_string());
            let aanvraag = canonicalise(&request).unwrap();
            assert_eq!(
                aanvraag.maatregelen,
                ["caf\u{e9}verwarming", "isolatie dak"]
            );
            assert_eq!(aanvraag.toelichting.as_deref(), Some("Locatie Caf\u{e9}"));
            idempotency_key(&aanvraag).unwrap()
        })
        .collect();
    assert!(keys.iter().all(|key| *key == keys[0]), "{keys:#?}");
    let other = canonicalise(&input("68750110", "EBR-2027", "Isolatie vloer")).unwrap();
    assert_ne!(idempotency_key(&other).unwrap(), keys[0]);
}

#[test]
fn a_valid_filing_is_normalised() {
    let mut request = input("68750110", "ebr-2027", "LED, Isolatie dak ,LED");
    request.toelichting = Some("  Locatie Utrecht  ".to_string());
    let filing = validate(Catalogue::embedded(), &request, day("2026-11-30")).unwrap();
    assert_eq!(filing.regeling.id, "EBR-2027");
    assert_eq!(filing.aanvraag.kvk_nummer, "68750110");
    assert_eq!(filing.aanvraag.regeling_id, "EBR-2027");
    assert_eq!(filing.aanvraag.maatregelen, ["isolatie dak", "led"]);
    assert_eq!(
        filing.aanvraag.toelichting.as_deref(),
        Some("Locatie Utrecht")
    );
}

#[test]
fn a_kvk_number_is_taken_as_given() {
    // The published pattern is ^[0-9]{8}$ and that is what is accepted (DISC-22): no trimming.
    for padded in [" 68750110", "68750110 ", "68750110\n"] {
        let errors = canonicalise(&input(padded, "EBR-2027", "LED")).unwrap_err();
        assert_eq!(pointers(&errors), ["/kvk_nummer"], "{padded:?}");
        assert_eq!(
            errors[0].detail,
            format!("KvK-nummer {padded:?} moet uit precies 8 cijfers bestaan")
        );
    }
}

#[test]
fn reports_all_errors_at_once() {
    let errors = validate(
        Catalogue::embedded(),
        &input("1234", "EBR-2099", " , ,"),
        day("2026-11-30"),
    )
    .unwrap_err();
    assert_eq!(
        pointers(&errors),
        ["/kvk_nummer", "/regeling_id", "/maatregelen"]
    );
    assert!(
        errors[0].detail.contains("8 cijfers"),
        "{}",
        errors[0].detail
    );
    assert!(
        errors[1].detail.contains("EBR-2027"),
        "known ids in the detail: {}",
        errors[1].detail
    );
    assert!(
        errors[2].detail.contains("maatregel"),
        "{}",
        errors[2].detail
    );
}

#[test]
fn kvk_number_must_be_exactly_eight_digits() {
    for bad in ["", "1234567", "123456789", "1234567a", "١٢٣٤٥٦٧٨"] {
        let errors = validate(
            Catalogue::embedded(),
            &input(bad, "EBR-2027", "LED"),
            day("2026-11-30"),
        )
        .unwrap_err();
        assert_eq!(pointers(&errors), ["/kvk_nummer"], "{bad}");
    }
}

#[test]
fn a_closed_round_is_refused_with_its_dates() {
    let errors = validate(
        Catalogue::embedded(),
        &input("68750110", "EBR-2023", "LED"),
        day("2026-11-30"),
    )
    .unwrap_err();
    assert_eq!(pointers(&errors), ["/regeling_id"]);
    assert!(
        errors[0].detail.contains("gesloten"),
        "{}",
        errors[0].detail
    );
    assert!(
        errors[0].detail.contains("2023-12-01"),
        "{}",
        errors[0].detail
    );
}

#[test]
fn open_on_the_deadline_closed_the_day_after() {
    let catalogue = Catalogue::embedded();
    assert!(
        validate(
            catalogue,
            &input("68750110", "EBR-2027", "LED"),
            day("2027-12-01")
        )
        .is_ok()
    );
    let errors = validate(
        catalogue,
        &input("68750110", "EBR-2027", "LED"),
        day("2027-12-02"),
    )
    .unwrap_err();
    assert!(errors[0].detail.contains("gesloten"));
    let errors = validate(
        catalogue,
        &input("68750110", "EBR-2027", "LED"),
        day("2023-12-01"),
    )
    .unwrap_err();
    assert!(
        errors[0].detail.contains("nog niet open"),
        "{}",
        errors[0].detail
    );
}

#[test]
fn schemes_that_are_not_reports_are_refused() {
    let errors = validate(
        Catalogue::embedded(),
        &input("68750110", "EIA-2026", "LED"),
        day("2026-11-30"),
    )
    .unwrap_err();
    assert_eq!(pointers(&errors), ["/regeling_id"]);
    assert!(
        errors[0].detail.contains("accepteert geen rapportages"),
        "{}",
        errors[0].detail
    );
}

#[test]
fn overlong_or_control_character_input_is_refused() {
    let mut request = input("68750110", "EBR-2027", &"x".repeat(201));
    request.toelichting = Some("regel\u{7}".to_string());
    let errors = validate(Catalogue::embedded(), &request, day("2026-11-30")).unwrap_err();
    assert_eq!(pointers(&errors), ["/maatregelen/0", "/toelichting"]);
}

#[test]
fn the_result_says_received_never_approved() {
    let catalogue = Catalogue::embedded();
    let filing = validate(
        catalogue,
        &input("68750110", "EBR-2027", "LED"),
        day("2026-11-30"),
    )
    .unwrap();
    let at = "2026-11-30T10:00:00Z".parse().unwrap();
    let reference = "RVO-EBR-2027-1KC7Q3M9Z-7XK2MD";
    for backend in [Backend::Lokaal, Backend::Http] {
        let result = build_result(
            Some(filing.regeling),
            &filing.aanvraag,
            reference,
            at,
            backend,
        );
        assert_eq!(result.status, RapportageStatus::Ontvangen);
        let text = result.bevestiging.to_lowercase();
        assert!(
            text.contains("ontvangen") && text.contains("beoordeeld"),
            "{text}"
        );
        assert!(
            !text.contains("goedgekeurd") && !text.contains("succesvol"),
            "{text}"
        );
        assert_eq!(
            text.contains("niets naar rvo verzonden"),
            backend == Backend::Lokaal,
            "{text}"
        );
        assert_eq!(result.lopende_zaak.referentienummer, reference);
        assert_eq!(result.lopende_zaak.zaak_type, "Energiebesparingsrapportage");
        assert!(!result.replayed);
        let json = serde_json::to_value(&result).unwrap();
        assert_eq!(json["status"], "ONTVANGEN");
        assert_eq!(
            json["backend"],
            if backend == Backend::Lokaal {
                "lokaal"
            } else {
                "http"
            }
        );
        assert!(
            json.get("toelichting").is_none(),
            "absent explanation is omitted"
        );
    }
}

#[test]
fn a_regeling_id_that_breaks_its_pattern_is_named_as_such() {
    let errors = validate(
        Catalogue::embedded(),
        &input("68750110", "@@ongeldig@@", "LED"),
        day("2026-11-30"),
    )
    .unwrap_err();
    assert_eq!(pointers(&errors), ["/regeling_id"]);
    assert!(
        errors[0].detail.contains("letters, cijfers en '-'"),
        "{errors:?}"
    );
    assert!(rvo_cli::catalogue::is_regeling_id(" EBR-2027 "));
    assert!(!rvo_cli::catalogue::is_regeling_id(&"A".repeat(41)));
    assert!(!rvo_cli::catalogue::is_regeling_id(""));
    assert!(!rvo_cli::catalogue::is_regeling_id("EBR_2027"));
}

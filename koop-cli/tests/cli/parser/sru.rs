//! SRU answers against hand-written fixtures: records, deduplication, the version in force on a date,
//! diagnostics, zero hits, foreign hosts and protocol errors.

use chrono::NaiveDate;
use koop_cli::links::check_repository_url;
use koop_cli::sru::{dedup_by_id, parse_search_response, pick_valid_on, versions};
use koop_cli::{KoopError, ProtocolError};

const REPO: &str = "https://repository.officiele-overheidspublicaties.nl";

use super::fixture;

fn date(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

#[test]
fn search_answer_fields() {
    let answer = parse_search_response(&fixture("sru/zoek-voorbeeld-2025-06-01.xml")).unwrap();
    assert_eq!(
        (answer.totaal, answer.volgende_start, answer.records.len()),
        (5, Some(4), 3)
    );
    let first = &answer.records[0];
    assert_eq!(first.bwb_id, "BWBR9900001");
    assert_eq!(first.titel, "Wet op de voorbeeldtoeslag");
    assert_eq!(first.regeling_type.as_deref(), Some("wet"));
    assert_eq!(
        first.verantwoordelijke.as_deref(),
        Some("Volksgezondheid, Welzijn en Sport")
    );
    assert_eq!(
        first.rechtsgebieden,
        [
            "Gezondheidsrecht en farmaceutisch recht",
            "Sociale zekerheid"
        ]
    );
    assert_eq!(
        first.overheidsdomeinen,
        ["Subsidies, uitkeringen en toeslagen"]
    );
    assert_eq!(first.geldig_vanaf, Some(date("2025-01-01")));
    assert_eq!(first.geldig_tot, None, "9999-12-31 is open");
    assert_eq!(
        first.toestand_id.as_deref(),
        Some("http://wetten.overheid.nl/id/BWBR9900001/2025-01-01/0")
    );
    assert_eq!(
        first.toestand_url.as_deref(),
        Some(
            "https://repository.officiele-overheidspublicaties.nl/bwb/BWBR9900001/2025-01-01_0/xml/BWBR9900001_2025-01-01_0.xml"
        )
    );
    assert_eq!(
        first.wti_url.as_deref(),
        Some(
            "https://repository.officiele-overheidspublicaties.nl/bwb/BWBR9900001/BWBR9900001.WTI"
        )
    );
    assert_eq!(first.gewijzigd, Some(date("2024-12-20")));
    let json = serde_json::to_value(first).unwrap();
    assert_eq!(json["type"], "wet");
    assert_eq!(json["geldig_tot"], serde_json::Value::Null);
    assert_eq!(json["geldig_vanaf"], "2025-01-01");
}

#[test]
fn duplicates_collapse_to_the_latest_correction() {
    let answer = parse_search_response(&fixture("sru/zoek-voorbeeld-2025-06-01.xml")).unwrap();
    let unique = dedup_by_id(answer.records, Some(date("2025-06-01")));
    let ids: Vec<&str> = unique.iter().map(|r| r.bwb_id.as_str()).collect();
    assert_eq!(ids, ["BWBR9900001", "BWBR9900002"]);
    assert_eq!(unique[0].volgnummer(), 1);
}

#[test]
fn the_peildatum_picks_the_version_in_force() {
    let answer = parse_search_response(&fixture("sru/versies-BWBR9900001.xml")).unwrap();
    let pick = |d: &str| {
        pick_valid_on(&answer.records, date(d)).map(|r| r.geldig_vanaf.unwrap().to_string())
    };
    assert_eq!(pick("2023-06-01").as_deref(), Some("2023-01-01"));
    assert_eq!(pick("2023-12-31").as_deref(), Some("2023-01-01"));
    assert_eq!(pick("2024-01-01").as_deref(), Some("2024-01-01"));
    assert_eq!(pick("2024-12-31").as_deref(), Some("2024-01-01"));
    assert_eq!(pick("2031-01-01").as_deref(), Some("2025-01-01"));
    assert_eq!(pick("2022-12-31"), None);
    let dedup = dedup_by_id(answer.records.clone(), Some(date("2024-03-01")));
    assert_eq!(dedup.len(), 1);
    assert_eq!(dedup[0].geldig_vanaf, Some(date("2024-01-01")));
}

#[test]
fn versions_are_sorted_by_start() {
    let answer = parse_search_response(&fixture("sru/versies-BWBR9900001.xml")).unwrap();
    let list = versions(&answer.records);
    let ranges: Vec<(String, Option<String>)> = list
        .iter()
        .map(|v| {
            (
                v.geldig_vanaf.unwrap().to_string(),
                v.geldig_tot.map(|d| d.to_string()),
            )
        })
        .collect();
    assert_eq!(
        ranges,
        [
            ("2023-01-01".to_string(), Some("2023-12-31".to_string())),
            ("2024-01-01".to_string(), Some("2024-12-31".to_string())),
            ("2025-01-01".to_string(), None),
        ]
    );
}

#[test]
fn one_record_per_date_answer() {
    for year in ["2023", "2024", "2025"] {
        let answer = parse_search_response(&fixture(&format!(
            "sru/regeling-BWBR9900001-{year}-06-01.xml"
        )))
        .unwrap();
        let record = pick_valid_on(&answer.records, date(&format!("{year}-06-01"))).unwrap();
        assert!(
            record
                .toestand_url
                .as_deref()
                .unwrap()
                .ends_with(&format!("BWBR9900001_{year}-01-01_0.xml"))
        );
        check_repository_url(record.toestand_url.as_deref().unwrap(), REPO).unwrap();
    }
}

#[test]
fn zero_hits_is_an_empty_answer() {
    let answer = parse_search_response(&fixture("sru/geen-resultaten.xml")).unwrap();
    assert_eq!(
        (answer.totaal, answer.volgende_start, answer.records.len()),
        (0, None, 0)
    );
}

#[test]
fn query_diagnostic_is_a_data_error() {
    let err = parse_search_response(&fixture("sru/diagnostiek-querysyntax.xml")).unwrap_err();
    let KoopError::Diagnostic(diag) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(diag.number(), Some(10));
    assert_eq!(diag.message.as_deref(), Some("Query syntax error"));
    assert_eq!(diag.details.as_deref(), Some("overheidbwb.titel all \""));
    assert!(!diag.is_unavailable(), "the query is rejected: 65 API_FOUT");
}

#[test]
fn srw12_unavailable_diagnostic_is_unavailable() {
    let err =
        parse_search_response(&fixture("sru/diagnostiek-onbeschikbaar-srw12.xml")).unwrap_err();
    let KoopError::Diagnostic(diag) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(
        diag.message.as_deref(),
        Some("System temporarily unavailable")
    );
    assert!(
        diag.is_unavailable(),
        "the service is at fault: 69 BRON_ONBEREIKBAAR"
    );
}

#[test]
fn foreign_toestand_host_is_refused() {
    let answer = parse_search_response(&fixture("sru/vreemde-host.xml")).unwrap();
    let url = answer.records[0].toestand_url.as_deref().unwrap();
    let err = check_repository_url(url, REPO).unwrap_err();
    assert_eq!(
        err,
        KoopError::Protocol(ProtocolError::ForeignHost {
            url: url.to_owned()
        })
    );
}

fn protocol(body: &[u8]) -> ProtocolError {
    match parse_search_response(body) {
        Err(KoopError::Protocol(p)) => p,
        other => panic!("verwacht protocolfout, kreeg {other:?}"),
    }
}

#[test]
fn broken_answers_are_protocol_errors() {
    assert_eq!(
        protocol(&fixture("toestand/niet-xml.txt")),
        ProtocolError::NotXml
    );
    assert!(matches!(
        protocol(&fixture("toestand/BWBR9900001_2023-01-01_0.xml")),
        ProtocolError::WrongRoot { .. }
    ));
    let full = fixture("sru/zoek-voorbeeld-2025-06-01.xml");
    assert!(matches!(
        protocol(&full[..full.len() / 2]),
        ProtocolError::Truncated { .. }
    ));
    assert_eq!(
        protocol(b"<searchRetrieveResponse><records/></searchRetrieveResponse>"),
        ProtocolError::MissingElement {
            element: "numberOfRecords"
        }
    );
    assert!(matches!(
        protocol(b"<searchRetrieveResponse><numberOfRecords>veel</numberOfRecords></searchRetrieveResponse>"),
        ProtocolError::BadValue { .. }
    ));
    assert_eq!(
        protocol(b"<s:searchRetrieveResponse xmlns:s=\"x\"><s:numberOfRecords>1</s:numberOfRecords><s:records><s:record><recordData><title>x</title></recordData></s:record></s:records></s:searchRetrieveResponse>"),
        ProtocolError::MissingElement { element: "dcterms:identifier" }
    );
}

//! The Bal fixture (BWBR0041330, from 2026-01-01) renders as the reference text it was written
//! from: `tests/fixtures/reference/bal-…txt`, the official text of artikel 5.15–5.15d as harvested
//! in MinBZK/regelrecht-corpus. So the fake serves the law the other tools cite, not a paraphrase.

use koop_cli::toestand::parse_toestand;

use super::fixture;

const REFERENCE: &str = "reference/bal-BWBR0041330-art-5.15-5.15d-2026-01-01.txt";
const TOESTAND: &str = "toestand/BWBR0041330_2026-01-01_0.xml";

/// The reference's articles: heading line `Artikel N (titel)` and the text below it.
fn reference_articles() -> Vec<(String, String, String)> {
    let text = String::from_utf8(fixture(REFERENCE)).unwrap();
    text.split("\n\n")
        .filter(|block| block.starts_with("Artikel "))
        .map(|block| {
            let (heading, body) = block.split_once('\n').unwrap();
            let (nummer, titel) = heading
                .strip_prefix("Artikel ")
                .and_then(|h| h.split_once(" ("))
                .unwrap();
            (
                nummer.to_owned(),
                titel.trim_end_matches(')').to_owned(),
                body.trim_end().to_owned(),
            )
        })
        .collect()
}

#[test]
fn the_bal_fixture_renders_as_the_official_text() {
    let law = parse_toestand(&fixture(TOESTAND)).unwrap();
    assert_eq!(law.bwb_id, "BWBR0041330");
    assert_eq!(law.inwerkingtreding.as_deref(), Some("2026-01-01"));
    assert_eq!(
        law.citeertitel.as_deref(),
        Some("Besluit activiteiten leefomgeving")
    );
    let reference = reference_articles();
    let numbers: Vec<&str> = reference.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(numbers, ["5.15", "5.15a", "5.15b", "5.15c", "5.15d"]);
    assert_eq!(law.artikelen.len(), reference.len());
    for (artikel, (nummer, titel, tekst)) in law.artikelen.iter().zip(&reference) {
        assert_eq!(&artikel.nummer, nummer);
        assert_eq!(artikel.titel.as_deref(), Some(titel.as_str()), "{nummer}");
        assert_eq!(&artikel.tekst, tekst, "artikel {nummer}");
        assert_eq!(artikel.pad, "Hoofdstuk 5 / Afdeling 5.4 / Paragraaf 5.4.1");
    }
    let leden: Vec<usize> = law.artikelen.iter().map(|a| a.leden.len()).collect();
    assert_eq!(leden, [6, 3, 4, 2, 0]);
}

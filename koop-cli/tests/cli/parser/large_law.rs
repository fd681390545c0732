//! The generated large law (≥ 10 MB): it parses completely, in the expected shape, on every path.

use koop_cli::generate::{LARGE_LAW_ID, articles_per_chapter, large_law};
use koop_cli::toestand::{artikel_nummers, extract_artikel, parse_toestand};

#[test]
fn large_law_parses_on_every_path() {
    let xml = large_law(10 * 1024 * 1024);
    assert!(xml.len() >= 10 * 1024 * 1024);
    let law = parse_toestand(xml.as_bytes()).unwrap();
    assert_eq!(law.bwb_id, LARGE_LAW_ID);
    assert_eq!(law.artikelen.len() % articles_per_chapter(), 0);
    let chapters = law.artikelen.len() / articles_per_chapter();
    assert!(chapters > 10, "{chapters} hoofdstukken");
    let a = &law.artikelen[4];
    assert_eq!(
        (a.nummer.as_str(), a.pad.as_str()),
        ("1.5a", "Hoofdstuk 1 / Afdeling 1.1 / Paragraaf 1.1.1")
    );
    assert!(a.tekst.starts_with(
        "1. Degene die een activiteit als bedoeld in artikel 5.1 van de Omgevingswet verricht"
    ));
    assert!(law.artikelen.iter().any(|a| {
        a.tekst
            .contains("\n      1°. subonderdeel 1 van onderdeel b;")
    }));
    assert!(
        law.artikelen
            .iter()
            .any(|a| a.tekst.contains("\nKolom 1 | Kolom 2 | Kolom 3\n"))
    );
    let bijlage = law
        .overige_teksten
        .iter()
        .find(|t| t.soort == "bijlage")
        .unwrap();
    assert_eq!(bijlage.tekst.lines().count(), 41);

    let last = law.artikelen.last().unwrap();
    let one = extract_artikel(xml.as_bytes(), &last.nummer).unwrap();
    assert_eq!(&one.artikel, last);
    let numbers = artikel_nummers(xml.as_bytes()).unwrap();
    assert_eq!(numbers.len(), law.artikelen.len());
}

//! The toestand parser against hand-written fixtures: expected plain text, paths, texts outside articles,
//! the one-article path, versions and every error path.

use koop_cli::toestand::{
    Artikel, artikel_nummers, extract_artikel, nearby_numbers, parse_toestand,
};
use koop_cli::{KoopError, ProtocolError};

fn fixture(name: &str) -> Vec<u8> {
    super::fixture(&format!("toestand/{name}"))
}

fn article<'a>(list: &'a [Artikel], nummer: &str) -> &'a Artikel {
    list.iter()
        .find(|a| a.nummer == nummer)
        .unwrap_or_else(|| panic!("artikel {nummer} ontbreekt"))
}

#[test]
fn header_of_the_law() {
    let law = parse_toestand(&fixture("BWBR9900002_2025-01-01_0.xml")).unwrap();
    assert_eq!(law.bwb_id, "BWBR9900002");
    assert_eq!(
        law.titel,
        "Besluit van 3 februari 2024, houdende voorbeeldregels over energie en zorg"
    );
    assert_eq!(
        law.citeertitel.as_deref(),
        Some("Besluit voorbeeldregels energie en zorg")
    );
    assert_eq!(law.soort.as_deref(), Some("AMvB"));
    assert_eq!(law.inwerkingtreding.as_deref(), Some("2025-01-01"));
    let numbers: Vec<&str> = law.artikelen.iter().map(|a| a.nummer.as_str()).collect();
    assert_eq!(numbers, ["1:1", "1:2", "5.15", "5.15a"]);
}

#[test]
fn lists_sub_lists_references_and_entities_render_as_text() {
    let law = parse_toestand(&fixture("BWBR9900002_2025-01-01_0.xml")).unwrap();
    let a = article(&law.artikelen, "1:1");
    assert_eq!(a.label, "Artikel 1:1");
    assert_eq!(a.titel.as_deref(), Some("Begripsbepalingen"));
    assert_eq!(a.pad, "Hoofdstuk 1");
    assert_eq!(
        a.tekst,
        "In dit besluit wordt verstaan onder:\n   \
         a. activiteit: een milieubelastende activiteit als bedoeld in artikel 1.1 van de Omgevingswet;\n   \
         b. energiedrager:\n      \
         1°. elektriciteit;\n      \
         2°. aardgas & andere gassen;\n   \
         c. hernieuwbare energie: energie uit hernieuwbare bronnen, met een waarde van ten minste € 10."
    );
    assert!(a.leden.is_empty());
}

#[test]
fn tables_have_cells_separated_and_rows_on_lines() {
    let law = parse_toestand(&fixture("BWBR9900002_2025-01-01_0.xml")).unwrap();
    let a = article(&law.artikelen, "1:2");
    assert_eq!(a.pad, "Hoofdstuk 1 / Afdeling 1.1");
    assert_eq!(
        a.tekst,
        "De tarieven zijn:\nJaar | Tarief | Opmerking\n2024 | € 0,10 | eerste jaar (overgang)\n2025 | € 0,12 |\n\
         Bedragen zijn exclusief btw."
    );
}

#[test]
fn leden_are_numbered_in_the_article_and_separate_in_leden() {
    let law = parse_toestand(&fixture("BWBR9900002_2025-01-01_0.xml")).unwrap();
    let a = article(&law.artikelen, "5.15");
    assert_eq!(a.pad, "Hoofdstuk 5 / Afdeling 5.4 / Paragraaf 5.4.1");
    assert_eq!(a.titel.as_deref(), Some("energiebesparingsplicht"));
    assert_eq!(
        a.tekst,
        "1. Alle maatregelen met een terugverdientijd van ten hoogste vijf jaar worden getroffen.\n\
         2. Het eerste lid is niet van toepassing:\n   \
         a. als het energiegebruik kleiner is dan 50.000 kWh; of\n   \
         b. op een gebruiksfunctie als bedoeld in artikel 1:1.\n\
         3. Onze Minister kan regels stellen.\n\
         Die regels worden bekendgemaakt in de Staatscourant & elders."
    );
    let leden: Vec<(&str, &str)> = a
        .leden
        .iter()
        .map(|l| (l.nummer.as_str(), l.tekst.as_str()))
        .collect();
    assert_eq!(leden.len(), 3);
    assert_eq!(
        leden[0],
        (
            "1",
            "Alle maatregelen met een terugverdientijd van ten hoogste vijf jaar worden getroffen."
        )
    );
    assert_eq!(
        leden[1].1,
        "Het eerste lid is niet van toepassing:\n   a. als het energiegebruik kleiner is dan 50.000 kWh; of\n   \
         b. op een gebruiksfunctie als bedoeld in artikel 1:1."
    );
    assert_eq!(a.anker, "Hoofdstuk5_Afdeling5.4_Paragraaf5.4.1_Artikel5.15");
}

#[test]
fn unnumbered_list_items_get_a_dash() {
    let law = parse_toestand(&fixture("BWBR9900002_2025-01-01_0.xml")).unwrap();
    assert_eq!(
        article(&law.artikelen, "5.15a").tekst,
        "De volgende gegevens worden verstrekt:\n   - het nummer van inschrijving in het handelsregister;\n   \
         - een overzicht van de getroffen maatregelen."
    );
}

#[test]
fn texts_outside_articles_are_kept_in_document_order() {
    let law = parse_toestand(&fixture("BWBR9900002_2025-01-01_0.xml")).unwrap();
    let parts: Vec<(&str, Option<&str>, &str)> = law
        .overige_teksten
        .iter()
        .map(|t| (t.soort.as_str(), t.kop.as_deref(), t.pad.as_str()))
        .collect();
    assert_eq!(
        parts,
        [
            ("aanhef", None, ""),
            (
                "hoofdstuk",
                Some("Hoofdstuk 1 Algemene bepalingen"),
                "Hoofdstuk 1"
            ),
            ("wetsluiting", None, ""),
            ("bijlage", Some("Bijlage 1 Normwaarden"), "Bijlage 1"),
        ]
    );
    assert_eq!(
        law.overige_teksten[1].tekst,
        "Dit hoofdstuk bevat de begrippen die in het hele besluit gelden."
    );
    assert_eq!(
        law.overige_teksten[2].tekst,
        "Lasten en bevelen dat dit besluit met de daarbij behorende nota van toelichting in het Staatsblad zal \
         worden geplaatst.\nWassenaar, 3 februari 2024\nWillem-Alexander\nDe Minister voor Klimaat en Energie,\nR.A.A. Jetten"
    );
    assert_eq!(
        law.overige_teksten[3].tekst,
        "Behorende bij artikel 5.15.\nStof | Norm\nCO2 | < 10 g/kWh"
    );
    assert!(
        law.overige_teksten[0]
            .tekst
            .starts_with("Wij Willem-Alexander")
    );
    let all = serde_json::to_string(&law).unwrap();
    assert!(
        !all.contains("jci1.3") && !all.contains("stb-2024"),
        "meta-data lekt in de tekst"
    );
}

#[test]
fn versions_of_one_law_differ() {
    let old = parse_toestand(&fixture("BWBR9900001_2023-01-01_0.xml")).unwrap();
    let new = parse_toestand(&fixture("BWBR9900001_2025-01-01_0.xml")).unwrap();
    assert_eq!(
        article(&old.artikelen, "2").leden[0].tekst,
        "De normpremie bedraagt 4,0% van het drempelinkomen."
    );
    assert_eq!(
        article(&new.artikelen, "2").leden[0].tekst,
        "De normpremie bedraagt 4,273% van het drempelinkomen."
    );
    assert!(old.artikelen.iter().all(|a| a.nummer != "2a"));
    assert_eq!(
        article(&new.artikelen, "2a").titel.as_deref(),
        Some("Vermogensgrens")
    );
    assert_eq!(
        old.citeertitel.as_deref(),
        Some("Wet op de voorbeeldtoeslag")
    );
}

#[test]
fn one_article_equals_the_article_of_the_whole_law() {
    let body = fixture("BWBR9900002_2025-01-01_0.xml");
    let law = parse_toestand(&body).unwrap();
    for a in &law.artikelen {
        let one = extract_artikel(&body, &a.nummer).unwrap();
        assert_eq!(&one.artikel, a);
        assert_eq!(one.bwb_id, "BWBR9900002");
        assert_eq!(one.citeertitel, law.citeertitel);
    }
    let loose = extract_artikel(&body, " Artikel 5.15A. ").unwrap();
    assert_eq!(loose.artikel.nummer, "5.15a");
}

#[test]
fn one_article_stops_after_it_and_does_not_read_the_rest() {
    // The truncation comes after article 1: the cheap path never reaches it, the full parse does.
    let body = fixture("afgebroken.xml");
    assert_eq!(
        extract_artikel(&body, "1").unwrap().artikel.tekst,
        "In deze wet wordt verstaan onder drempelinkomen: het inkomen, bedoeld in artikel 8 van de Wet minimumloon \
         en minimumvakantiebijslag."
    );
    assert!(matches!(
        parse_toestand(&body),
        Err(KoopError::Protocol(ProtocolError::Truncated { .. }))
    ));
    assert!(matches!(
        extract_artikel(&body, "3"),
        Err(KoopError::Protocol(ProtocolError::Truncated { .. }))
    ));
}

#[test]
fn unknown_article_is_not_found_with_nearby_numbers() {
    let err = extract_artikel(&fixture("BWBR9900002_2025-01-01_0.xml"), "5.16").unwrap_err();
    match &err {
        KoopError::NotFound { nearby, .. } => assert_eq!(nearby, &["1:2", "5.15", "5.15a"]),
        other => panic!("{other:?}"),
    }
}

#[test]
fn article_numbers_in_document_order() {
    assert_eq!(
        artikel_nummers(&fixture("BWBR9900002_2025-01-01_0.xml")).unwrap(),
        ["1:1", "1:2", "5.15", "5.15a"]
    );
    assert_eq!(
        artikel_nummers(&fixture("BWBR9900001_2025-01-01_0.xml")).unwrap(),
        ["1", "2", "2a", "3"]
    );
}

#[test]
fn nearby_uses_natural_order() {
    let numbers: Vec<String> = ["1", "2", "3", "4", "4a", "5", "10", "11", "12"]
        .map(String::from)
        .to_vec();
    assert_eq!(nearby_numbers(&numbers, "4b", 2), ["4", "4a", "5", "10"]);
    assert_eq!(nearby_numbers(&numbers, "9", 1), ["5", "10"]);
    assert_eq!(nearby_numbers(&numbers, "99", 2), ["11", "12"]);
    assert_eq!(nearby_numbers(&numbers, "0", 2), ["1", "2"]);
    assert!(nearby_numbers(&[], "1", 2).is_empty());
}

fn protocol(body: &[u8]) -> ProtocolError {
    match parse_toestand(body) {
        Err(KoopError::Protocol(p)) => p,
        other => panic!("verwacht protocolfout, kreeg {other:?}"),
    }
}

#[test]
fn not_xml_is_a_protocol_error() {
    assert_eq!(protocol(&fixture("niet-xml.txt")), ProtocolError::NotXml);
    assert_eq!(protocol(b""), ProtocolError::NotXml);
    assert_eq!(protocol(b"{\"fout\": 1}"), ProtocolError::NotXml);
    assert_eq!(protocol(b"<?xml version=\"1.0\"?>"), ProtocolError::NotXml);
}

#[test]
fn wrong_root_is_a_protocol_error() {
    assert_eq!(
        protocol(&fixture("niet-xml.html")),
        ProtocolError::WrongRoot {
            expected: "toestand",
            found: "html".into()
        }
    );
}

#[test]
fn truncated_and_malformed_xml_are_protocol_errors() {
    assert!(matches!(
        protocol(&fixture("afgebroken.xml")),
        ProtocolError::Truncated { .. }
    ));
    assert!(matches!(
        protocol(b"<toestand><wetgeving><artikel"),
        ProtocolError::Truncated { .. }
    ));
    assert!(matches!(
        protocol(b"<toestand><al></lid></toestand>"),
        ProtocolError::Malformed { .. }
    ));
    assert!(matches!(
        protocol(b"<toestand><al>\xff\xfe</al></toestand>"),
        ProtocolError::Malformed { .. }
    ));
    assert!(matches!(
        artikel_nummers(b"<toestand><artikel><kop><nr>1</nr></kop><al>x"),
        Err(KoopError::Protocol(ProtocolError::Truncated { .. }))
    ));
}

#[test]
fn article_without_kop_falls_back_to_its_label() {
    let body = br#"<toestand bwb-id="BWBR1234567"><wetgeving><artikel label="Enig artikel"><al>Tekst.</al></artikel></wetgeving></toestand>"#;
    let law = parse_toestand(body).unwrap();
    assert_eq!(law.artikelen[0].nummer, "Enig artikel");
    assert_eq!(law.artikelen[0].anker, "ArtikelEnigartikel");
    assert_eq!(
        extract_artikel(body, "enig artikel").unwrap().artikel.tekst,
        "Tekst."
    );
}

/// Found by the fuzz test: an article whose first child is another (malformed, nested) article.
/// The cheap paths skip unwanted articles; a nested `artikel` must not end the outer one early.
#[test]
fn nested_articles_are_counted_alike_on_every_path() {
    let xml = br#"<toestand bwb-id="BWBR9900009"><wetgeving soort="wet"><intitule>T</intitule><artikel><artikel></artikel><artikel></artikel></artikel></wetgeving></toestand>"#;
    let whole = koop_cli::toestand::parse_toestand(xml).expect("parses");
    let numbers = koop_cli::toestand::artikel_nummers(xml).expect("numbers");
    assert_eq!(numbers.len(), whole.artikelen.len(), "{numbers:?}");
}

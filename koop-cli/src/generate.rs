//! A large synthetic toestand built from the real structure (hoofdstukken, afdelingen, paragrafen,
//! artikelen with leden, lists, sub-lists, tables, references and the bulky meta-data of real files), for
//! benchmarks and tests. Deterministic: the same size gives the same document.

use std::fmt::Write;

/// BWB id used by the generated law.
pub const LARGE_LAW_ID: &str = "BWBR9999999";

/// Articles per paragraaf, paragrafen per afdeling and afdelingen per hoofdstuk of the generated law.
const ARTIKELEN: usize = 6;
const PARAGRAFEN: usize = 3;
const AFDELINGEN: usize = 4;

/// Builds a toestand XML of at least `min_bytes` bytes (whole hoofdstukken are added until it is reached).
pub fn large_law(min_bytes: usize) -> String {
    let mut xml = String::with_capacity(min_bytes + 200_000);
    header(&mut xml);
    let mut hoofdstuk = 0;
    while xml.len() < min_bytes || hoofdstuk == 0 {
        hoofdstuk += 1;
        chapter(&mut xml, hoofdstuk);
    }
    footer(&mut xml);
    xml
}

/// The number of articles [`large_law`] puts in one hoofdstuk.
pub const fn articles_per_chapter() -> usize {
    ARTIKELEN * PARAGRAFEN * AFDELINGEN
}

fn header(xml: &mut String) {
    let _ = write!(
        xml,
        r#"<?xml version="1.0" encoding="UTF-8"?><toestand xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" bwb-ng-vast-deel="http://wetten.overheid.nl/id/{LARGE_LAW_ID}/2025-01-01/0" bwb-id="{LARGE_LAW_ID}" inwerkingtreding="2025-01-01"><bwb-inputbestand/><bwb-wijzigingen/><redactionele-correcties/><wetgeving dtdversie="2.0" soort="wet" stam-id="1" versie-id="1" id="C1" label-id="1" inwerkingtredingsdatum="2025-01-01">
  <intitule bwb-ng-variabel-deel="/Intitule" status="goed">Wet van 1 juli 2024, houdende regels over het meten van grote wetten (Wet grote proefregels){meta}</intitule>
  <citeertitel bwb-ng-variabel-deel="/Citeertitel" status="officieel">Wet grote proefregels{meta}</citeertitel>
  <wet-besluit>
    <aanhef bwb-ng-variabel-deel="/Aanhef"><wij>Wij Willem-Alexander, bij de gratie Gods, Koning der Nederlanden, Prins van Oranje-Nassau, enz. enz. enz.</wij><considerans><considerans.al>Allen, die deze zullen zien of horen lezen, saluut! doen te weten:</considerans.al></considerans>{meta}</aanhef>
    <wettekst>
"#,
        meta = meta_data("Intitule", 1)
    );
}

fn footer(xml: &mut String) {
    xml.push_str(
        r#"    </wettekst>
    <wetsluiting bwb-ng-variabel-deel="/SlotformulierEnOndertekening"><slotformulering><al>Lasten en bevelen dat deze in het Staatsblad zal worden geplaatst.</al></slotformulering><gegeven><dagtekening><plaats>Gegeven te ’s-Gravenhage</plaats><datum isodatum="2024-07-01">1 juli 2024</datum></dagtekening><koning>Willem-Alexander</koning></gegeven></wetsluiting>
  </wet-besluit>
  <bijlage bwb-ng-variabel-deel="/Bijlage1"><kop><label>Bijlage</label><nr>1</nr><titel>Tarieven</titel></kop>"#,
    );
    table(xml, 40, 7);
    xml.push_str("</bijlage>\n</wetgeving></toestand>\n");
}

fn chapter(xml: &mut String, h: usize) {
    let _ = write!(
        xml,
        r#"<hoofdstuk bwb-ng-variabel-deel="/Hoofdstuk{h}"><kop><label>Hoofdstuk</label><nr>{h}</nr><titel>Onderwerp {h}</titel></kop>"#
    );
    for a in 1..=AFDELINGEN {
        let _ = write!(
            xml,
            r#"<afdeling bwb-ng-variabel-deel="/Hoofdstuk{h}/Afdeling{h}.{a}"><kop><label>Afdeling</label><nr>{h}.{a}</nr><titel>Deelonderwerp {h}.{a}</titel></kop>"#
        );
        for p in 1..=PARAGRAFEN {
            let _ = write!(
                xml,
                r#"<paragraaf bwb-ng-variabel-deel="/Hoofdstuk{h}/Afdeling{h}.{a}/Paragraaf{h}.{a}.{p}"><kop><label>Paragraaf</label><nr>{h}.{a}.{p}</nr><titel>Regels {h}.{a}.{p}</titel></kop>"#
            );
            for n in 1..=ARTIKELEN {
                let seq = ((a - 1) * PARAGRAFEN + (p - 1)) * ARTIKELEN + n;
                let nummer = if n % 5 == 0 {
                    format!("{h}.{seq}a")
                } else {
                    format!("{h}.{seq}")
                };
                article(xml, h, a, p, &nummer, seq);
            }
            xml.push_str("</paragraaf>\n");
        }
        xml.push_str("</afdeling>\n");
    }
    xml.push_str("</hoofdstuk>\n");
}

fn article(xml: &mut String, h: usize, a: usize, p: usize, nummer: &str, seq: usize) {
    let path = format!("/Hoofdstuk{h}/Afdeling{h}.{a}/Paragraaf{h}.{a}.{p}/Artikel{nummer}");
    let _ = write!(
        xml,
        r#"<artikel bwb-ng-variabel-deel="{path}" label="Artikel {nummer}" status="goed" inwerking="2025-01-01">
  <kop><label>Artikel</label><nr status="officieel">{nummer}</nr><titel>Bepaling {nummer}</titel></kop>
"#
    );
    let leden = 2 + seq % 3;
    for l in 1..=leden {
        let _ = write!(
            xml,
            r#"  <lid bwb-ng-variabel-deel="{path}/Lid{l}"><lidnr status="officieel">{l}</lidnr>
    <al>Degene die een activiteit als bedoeld in <extref doc="jci1.3:c:BWBR0037885&amp;artikel=5.1" bwb-id="BWBR0037885">artikel 5.1 van de Omgevingswet</extref> verricht, neemt de maatregelen, bedoeld in <intref doc="jci1.3:c:{LARGE_LAW_ID}&amp;artikel={nummer}">artikel {nummer}</intref>, <nadruk type="cur">tenzij</nadruk> het bevoegd gezag anders bepaalt; lid {l}.</al>
"#
        );
        if (seq + l).is_multiple_of(2) {
            list(xml, &path, l, seq);
        }
        if (seq + l).is_multiple_of(7) {
            table(xml, 4, 3);
        }
        let _ = writeln!(xml, "  {}</lid>", jci(nummer, &format!("&amp;lid={l}")));
    }
    let _ = writeln!(xml, "{}</artikel>", meta_data(nummer, seq));
}

fn list(xml: &mut String, path: &str, lid: usize, seq: usize) {
    xml.push_str(r#"    <lijst level="single" nr-sluiting="." type="expliciet">"#);
    for (i, letter) in ["a", "b", "c", "d"].iter().enumerate().take(2 + seq % 3) {
        let _ = write!(
            xml,
            r#"<li bwb-ng-variabel-deel="{path}/Lid{lid}/Onderdeel{letter}"><li.nr>{letter}.</li.nr><al>onderdeel {letter} met een energiegebruik van ten minste {} kWh elektriciteit;</al>"#,
            (i + 1) * 25_000
        );
        if i == 1 {
            xml.push_str(r#"<lijst type="expliciet">"#);
            for sub in 1..=3 {
                let _ = write!(
                    xml,
                    "<li><li.nr>{sub}°.</li.nr><al>subonderdeel {sub} van onderdeel {letter};</al></li>"
                );
            }
            xml.push_str("</lijst>");
        }
        xml.push_str("<meta-data><jcis><jci versie=\"1.3\" verwijzing=\"jci1.3:c:x\"/></jcis></meta-data></li>");
    }
    xml.push_str("</lijst>\n");
}

fn table(xml: &mut String, rows: usize, cols: usize) {
    let _ = write!(xml, r#"<tabel><table frame="all"><tgroup cols="{cols}">"#);
    for c in 1..=cols {
        let _ = write!(xml, r#"<colspec colname="col{c}" colwidth="1*"/>"#);
    }
    xml.push_str("<thead><row>");
    for c in 1..=cols {
        let _ = write!(xml, "<entry><al>Kolom {c}</al></entry>");
    }
    xml.push_str("</row></thead><tbody>");
    for r in 1..=rows {
        xml.push_str("<row>");
        for c in 1..=cols {
            let _ = write!(
                xml,
                "<entry><al>{},{:02}</al></entry>",
                r * c,
                (r + c) % 100
            );
        }
        xml.push_str("</row>");
    }
    xml.push_str("</tbody></tgroup></table></tabel>\n");
}

fn jci(nummer: &str, extra: &str) -> String {
    format!(
        r#"<meta-data><jcis><jci versie="1.3" verwijzing="jci1.3:c:{LARGE_LAW_ID}&amp;artikel={nummer}{extra}&amp;z=2025-01-01&amp;g=2025-01-01"/></jcis></meta-data>"#
    )
}

fn meta_data(nummer: &str, seq: usize) -> String {
    format!(
        r#"<meta-data><brondata><oorspronkelijk><publicatie effect="nieuwe-regeling" soort="Stb" urlidentifier="stb-2024-{seq}"><publicatiejaar>2024</publicatiejaar><publicatienr>{seq}</publicatienr><uitgiftedatum isodatum="2024-07-26">26-07-2024</uitgiftedatum><ondertekeningsdatum isodatum="2024-07-01">01-07-2024</ondertekeningsdatum><dossierref dossier="36000">36000</dossierref></publicatie></oorspronkelijk><inwerkingtreding><inwerkingtreding.datum isodatum="2025-01-01">01-01-2025</inwerkingtreding.datum></inwerkingtreding></brondata><jcis><jci versie="1.3" verwijzing="jci1.3:c:{LARGE_LAW_ID}&amp;artikel={nummer}&amp;z=2025-01-01&amp;g=2025-01-01"/></jcis></meta-data>"#
    )
}

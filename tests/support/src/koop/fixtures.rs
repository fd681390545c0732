//! The koop-cli fixtures the fake serves, read from `koop-cli/tests/fixtures` at compile time
//! (written after the real shapes; see the README there). URLs in them name the real repository
//! host; the router rewrites them to its own base.

macro_rules! fixture {
    ($path:literal) => {
        include_str!(concat!("../../../../koop-cli/tests/fixtures/", $path))
    };
}

/// Two toestanden of the real id BWBR0018451 (Wet op de zorgtoeslag: 2024, open 2025), synthetic
/// text, so the examples in koop-cli's discovery work against the fake.
pub const VERSIES_0018451: &str = fixture!("sru/versies-BWBR0018451.xml");
/// One open toestand (from 2026-01-01) of the real id BWBR0041330 (Besluit activiteiten
/// leefomgeving) with the official text of artikel 5.15–5.15d (public law text, Auteurswet art. 11).
pub const VERSIES_0041330: &str = fixture!("sru/versies-BWBR0041330.xml");
/// Three toestanden of BWBR9900001 (2023, 2024, open 2025).
pub const VERSIES_9900001: &str = fixture!("sru/versies-BWBR9900001.xml");
/// The one toestand of the rich law BWBR9900002.
pub const REGELING_9900002: &str = fixture!("sru/regeling-BWBR9900002-2025-06-01.xml");
/// BWBR9900003, whose `locatie_toestand` points at `https://evil.example.org`.
pub const VREEMDE_HOST: &str = fixture!("sru/vreemde-host.xml");
/// Five hits, a page of three, `nextRecordPosition` 4.
pub const ZOEK_VOORBEELD: &str = fixture!("sru/zoek-voorbeeld-2025-06-01.xml");
/// Zero hits.
pub const GEEN_RESULTATEN: &str = fixture!("sru/geen-resultaten.xml");
/// SRU 2.0 diagnostic 10 (query syntax).
pub const DIAGNOSTIEK_SYNTAX: &str = fixture!("sru/diagnostiek-querysyntax.xml");
/// SRU 1.2 diagnostic without URI: system temporarily unavailable.
pub const DIAGNOSTIEK_ONBESCHIKBAAR: &str = fixture!("sru/diagnostiek-onbeschikbaar-srw12.xml");

/// Toestand XML files by file name.
pub const TOESTANDEN: &[(&str, &str)] = &[
    (
        "BWBR0018451_2024-01-01_0.xml",
        fixture!("toestand/BWBR0018451_2024-01-01_0.xml"),
    ),
    (
        "BWBR0018451_2025-01-01_0.xml",
        fixture!("toestand/BWBR0018451_2025-01-01_0.xml"),
    ),
    (
        "BWBR0041330_2026-01-01_0.xml",
        fixture!("toestand/BWBR0041330_2026-01-01_0.xml"),
    ),
    (
        "BWBR9900001_2023-01-01_0.xml",
        fixture!("toestand/BWBR9900001_2023-01-01_0.xml"),
    ),
    (
        "BWBR9900001_2024-01-01_0.xml",
        fixture!("toestand/BWBR9900001_2024-01-01_0.xml"),
    ),
    (
        "BWBR9900001_2025-01-01_0.xml",
        fixture!("toestand/BWBR9900001_2025-01-01_0.xml"),
    ),
    (
        "BWBR9900002_2025-01-01_0.xml",
        fixture!("toestand/BWBR9900002_2025-01-01_0.xml"),
    ),
];

/// The 2025 version of BWBR9900001 cut inside artikel 2.
pub const AFGEBROKEN: &str = fixture!("toestand/afgebroken.xml");
/// A plain-text error body.
pub const NIET_XML_TEKST: &str = fixture!("toestand/niet-xml.txt");
/// An HTML error page.
pub const NIET_XML_HTML: &str = fixture!("toestand/niet-xml.html");

//! One streaming pass over a BWB toestand XML (no DOM): the law's header, its articles with plain text and
//! leden, and the texts outside articles (aanhef, chapter texts, bijlagen, slot). Also the cheap paths:
//! one article by number, and the list of article numbers.

mod nummers;
mod walk;

use serde::Serialize;

pub use nummers::nearby_numbers;
use walk::{Walk, Want};

use crate::error::KoopError;

/// A parsed toestand: one version of one law.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Regeling {
    /// `toestand/@bwb-id` (empty when the attribute is missing).
    pub bwb_id: String,
    /// The intitule (official long title).
    pub titel: String,
    /// The citeertitel, if the law has one.
    pub citeertitel: Option<String>,
    /// `@soort` of the wetgeving element (`wet`, `AMvB`, `ministeriele-regeling`, …).
    pub soort: Option<String>,
    /// `toestand/@inwerkingtreding`: first day of this version.
    pub inwerkingtreding: Option<String>,
    /// The articles in document order.
    pub artikelen: Vec<Artikel>,
    /// Texts outside articles in document order: aanhef, texts of chapters, bijlagen, slot.
    pub overige_teksten: Vec<Tekstdeel>,
}

/// One article.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Artikel {
    /// The number from `kop/nr` (`5.15a`, `1:3`, `IV`); the label when there is no number ("Enig artikel").
    pub nummer: String,
    /// `@label`, e.g. `Artikel 5.15a`.
    pub label: String,
    /// `kop/titel`, if any.
    pub titel: Option<String>,
    /// Structural path, e.g. `Hoofdstuk 5 / Afdeling 5.4 / Paragraaf 5.4.1` (empty at top level).
    pub pad: String,
    /// The whole article as plain text; leden start with their number (`1. …`).
    pub tekst: String,
    /// The leden, each with its own text (without the number).
    pub leden: Vec<Lid>,
    /// Fragment of the article on wetten.overheid.nl, from `@bwb-ng-variabel-deel`
    /// (`/Hoofdstuk5/Artikel5.15` → `Hoofdstuk5_Artikel5.15`), or `Artikel{nummer}`.
    #[serde(skip)]
    pub anker: String,
}

/// One lid (numbered paragraph) of an article.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Lid {
    /// `lidnr`, e.g. `1` or `2a` (empty for unnumbered leden).
    pub nummer: String,
    /// The text of the lid.
    pub tekst: String,
}

/// Text outside the articles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tekstdeel {
    /// Element it comes from: `aanhef`, `wetsluiting`, `bijlage`, `hoofdstuk`, … or `overig`.
    pub soort: String,
    /// Heading of that element (`Bijlage 1 Tarieven`), if it has one.
    pub kop: Option<String>,
    /// Structural path including the element itself.
    pub pad: String,
    /// The text (without the texts of the articles inside it).
    pub tekst: String,
}

/// Header of the law plus one article: the answer of [`extract_artikel`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArtikelUittreksel {
    pub bwb_id: String,
    pub titel: String,
    pub citeertitel: Option<String>,
    pub soort: Option<String>,
    pub inwerkingtreding: Option<String>,
    pub artikel: Artikel,
}

/// Parses a whole toestand in one streaming pass.
///
/// Errors ([`KoopError::Protocol`], exit 76): not XML, truncated, not well-formed, root not `toestand`.
pub fn parse_toestand(body: &[u8]) -> Result<Regeling, KoopError> {
    let mut walk = Walk::new(body, Want::All)?;
    walk.run()?;
    Ok(walk.into_regeling())
}

/// Extracts one article by number without rendering the text of any other article; parsing stops after it.
///
/// The number is compared loosely: case, whitespace, a leading `Artikel` and a trailing `.` do not matter.
/// When several articles share the number (e.g. in a bijlage) the first one wins.
/// Errors: [`KoopError::NotFound`] (exit 66) with nearby numbers; protocol errors as [`parse_toestand`].
pub fn extract_artikel(body: &[u8], nummer: &str) -> Result<ArtikelUittreksel, KoopError> {
    let wanted = normalise_nummer(nummer);
    let mut walk = Walk::new(body, Want::One(wanted))?;
    walk.run()?;
    match walk.artikelen.pop() {
        Some(artikel) => Ok(ArtikelUittreksel {
            bwb_id: walk.bwb_id,
            titel: walk.titel,
            citeertitel: walk.citeertitel,
            soort: walk.soort,
            inwerkingtreding: walk.inwerkingtreding,
            artikel,
        }),
        None => Err(KoopError::NotFound {
            detail: format!("artikel {nummer:?} komt niet voor in {}", walk.bwb_id),
            nearby: nearby_numbers(&walk.numbers, nummer, 3),
        }),
    }
}

/// The numbers of all articles in document order (no text is rendered).
pub fn artikel_nummers(body: &[u8]) -> Result<Vec<String>, KoopError> {
    let mut walk = Walk::new(body, Want::Numbers)?;
    walk.run()?;
    Ok(walk.numbers)
}

/// The form in which article numbers are compared: lower case, no whitespace, no leading `artikel`, no
/// trailing `.`.
pub fn normalise_nummer(nummer: &str) -> String {
    let compact: String = nummer
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    let without_label = compact.strip_prefix("artikel").unwrap_or(&compact);
    without_label.trim_end_matches('.').to_owned()
}

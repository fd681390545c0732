//! The embedded catalogue of RVO schemes (regelingen).
//!
//! The catalogue is a versioned data file (`data/regelingen.json`) compiled into the binary. It is a
//! snapshot with its own `peildatum`, not a live feed: RVO has no public API for schemes. A scheme's
//! status is not stored here; [`crate::status`] computes it against the date of the call.

use std::fmt;
use std::sync::OnceLock;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// The raw catalogue file, compiled in.
pub const CATALOGUE_JSON: &str = include_str!("../data/regelingen.json");

/// The catalogue file format this code understands.
pub const SUPPORTED_FORMAT: u32 = 1;

/// The whole catalogue: metadata plus the schemes.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalogue {
    /// File format version (see [`SUPPORTED_FORMAT`]).
    pub formaat: u32,
    /// Content version of the catalogue, e.g. `2026.11.0`.
    pub versie: String,
    /// The date on which the content was last checked.
    pub peildatum: NaiveDate,
    /// Where the content comes from.
    pub bron: String,
    /// Explanation for readers of the file.
    pub toelichting: String,
    /// The schemes, in presentation order.
    pub regelingen: Vec<Regeling>,
}

/// One RVO scheme, e.g. a round of the energy-saving information duty.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Regeling {
    /// Stable identifier, upper case, e.g. `EBR-2027`.
    pub id: String,
    /// Human-readable name.
    pub naam: String,
    /// Kind of scheme.
    pub soort: Soort,
    /// Period in which applications or reports are accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openstelling: Option<Openstelling>,
    /// Last day to apply or report, when the scheme has one fixed date.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<NaiveDate>,
    /// Relative or recurring deadlines in words (e.g. "binnen 3 maanden na …").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub termijn: Option<String>,
    /// What the scheme is about.
    pub beschrijving: String,
    /// Extra search terms.
    pub trefwoorden: Vec<String>,
    /// Legal bases as structured references.
    pub wettelijke_grondslag: Vec<WettelijkeGrondslag>,
    /// Who the scheme is for.
    pub doelgroep: String,
    /// Who carries it out.
    pub uitvoerder: String,
    /// Information page on rvo.nl.
    pub url: String,
    /// Whether `rapportage indienen` accepts this scheme (report-type schemes only).
    pub indienbaar_via_cli: bool,
    /// Details for report-type schemes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rapportage: Option<RapportageInfo>,
    /// Caveats, assumptions and unverified facts, stated honestly.
    #[serde(default)]
    pub opmerkingen: Vec<String>,
}

/// Kind of scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Soort {
    /// A grant.
    #[serde(rename = "subsidie")]
    Subsidie,
    /// A tax scheme (deduction, depreciation, wage-tax reduction).
    #[serde(rename = "fiscale regeling")]
    FiscaleRegeling,
    /// A legal duty, e.g. to report.
    #[serde(rename = "verplichting")]
    Verplichting,
}

impl Soort {
    /// All kinds, in display order.
    pub const ALL: [Soort; 3] = [Soort::Subsidie, Soort::FiscaleRegeling, Soort::Verplichting];

    /// The wire name, as in the catalogue and in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Soort::Subsidie => "subsidie",
            Soort::FiscaleRegeling => "fiscale regeling",
            Soort::Verplichting => "verplichting",
        }
    }

    /// Parses a kind given on the command line; accepts `fiscale regeling`, `fiscale-regeling` and
    /// `fiscale_regeling`, case-insensitively.
    pub fn parse(input: &str) -> Option<Soort> {
        let normalised = input.trim().to_lowercase().replace(['-', '_'], " ");
        Soort::ALL
            .into_iter()
            .find(|soort| soort.as_str() == normalised)
    }
}

impl fmt::Display for Soort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An opening period, both days inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Openstelling {
    /// First day on which the scheme is open.
    pub van: NaiveDate,
    /// Last day on which the scheme is open.
    pub tot: NaiveDate,
}

/// A structured reference to a legal basis.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WettelijkeGrondslag {
    /// Title of the regulation.
    pub wet: String,
    /// BWB identifier on wetten.overheid.nl, when known.
    pub bwb_id: Option<String>,
    /// Article number, e.g. `5.15a`, when one article is the basis.
    pub artikel: Option<String>,
    /// Link to the (dated) text, when known.
    pub url: Option<String>,
    /// What this reference contributes (e.g. "drempelwaarden").
    pub rol: String,
    /// Whether the reference was checked against the law text.
    pub geverifieerd: bool,
}

/// Details of a report-type scheme.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RapportageInfo {
    /// Case type shown in the `lopende_zaak` of a filed report.
    pub zaak_type: String,
    /// The competent authority that assesses the report.
    pub bevoegd_gezag: String,
    /// The real filing channel at RVO.
    pub kanaal: String,
}

/// A scheme id that is not in the catalogue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRegeling {
    /// The id as given.
    pub id: String,
    /// All ids the catalogue knows, for the hint.
    pub known_ids: Vec<String>,
}

impl fmt::Display for UnknownRegeling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Regeling '{}' bestaat niet in de catalogus. Bekende regelingen: {}.",
            self.id,
            self.known_ids.join(", ")
        )
    }
}

impl std::error::Error for UnknownRegeling {}

/// Longest scheme id, in characters (the `pattern` of `regeling_id` in discovery).
pub const MAX_REGELING_ID_CHARS: usize = 40;

/// Whether `id` (surrounding spaces ignored) has the form of a scheme id: 1 to 40 ASCII letters,
/// digits and `-`, as the declared pattern `^\s*[A-Za-z0-9-]{1,40}\s*$` says.
pub fn is_regeling_id(id: &str) -> bool {
    let id = id.trim();
    (1..=MAX_REGELING_ID_CHARS).contains(&id.len())
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// The Dutch validation message for an id that fails [`is_regeling_id`].
pub fn invalid_regeling_id(id: &str) -> String {
    format!(
        "regeling-id {:?} mag alleen letters, cijfers en '-' bevatten (1 tot {MAX_REGELING_ID_CHARS} tekens), bijv. EBR-2027",
        id.trim()
    )
}

impl Catalogue {
    /// The embedded catalogue, parsed once per process on first use.
    ///
    /// # Panics
    /// Only if the compiled-in data file is invalid, which the unit tests rule out.
    pub fn embedded() -> &'static Catalogue {
        static EMBEDDED: OnceLock<Catalogue> = OnceLock::new();
        EMBEDDED.get_or_init(|| {
            Catalogue::from_json(CATALOGUE_JSON).expect("embedded data/regelingen.json is valid")
        })
    }

    /// Parses and checks a catalogue file.
    pub fn from_json(json: &str) -> Result<Catalogue, String> {
        let catalogue: Catalogue =
            serde_json::from_str(json).map_err(|error| format!("ongeldige catalogus: {error}"))?;
        catalogue.check()?;
        Ok(catalogue)
    }

    /// Checks the invariants that serde cannot: supported format, unique upper-case ids, and
    /// opening periods that do not run backwards.
    fn check(&self) -> Result<(), String> {
        if self.formaat != SUPPORTED_FORMAT {
            return Err(format!(
                "catalogusformaat {} wordt niet ondersteund",
                self.formaat
            ));
        }
        let mut seen = std::collections::HashSet::new();
        for regeling in &self.regelingen {
            let id = &regeling.id;
            let well_formed = !id.is_empty()
                && id
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-');
            if !well_formed {
                return Err(format!("ongeldig regeling-id '{id}'"));
            }
            if !seen.insert(id.as_str()) {
                return Err(format!("regeling-id '{id}' komt dubbel voor"));
            }
            if regeling.openstelling.is_none() && regeling.deadline.is_none() {
                return Err(format!(
                    "regeling '{id}' heeft geen openstelling en geen deadline"
                ));
            }
            if let Some(periode) = regeling.openstelling
                && periode.van > periode.tot
            {
                return Err(format!("openstelling van '{id}' eindigt vóór het begin"));
            }
            if regeling.indienbaar_via_cli && regeling.rapportage.is_none() {
                return Err(format!(
                    "indienbare regeling '{id}' mist rapportagegegevens"
                ));
            }
        }
        Ok(())
    }

    /// All schemes, in catalogue order.
    pub fn list(&self) -> &[Regeling] {
        &self.regelingen
    }

    /// The ids of all schemes, in catalogue order.
    pub fn ids(&self) -> Vec<String> {
        self.regelingen.iter().map(|r| r.id.clone()).collect()
    }

    /// One scheme by id (case-insensitive, surrounding spaces ignored).
    ///
    /// Check the form first with [`is_regeling_id`]: an id that cannot exist is invalid input
    /// (exit 65), an id of the right form that is not here is not found (exit 66).
    pub fn get(&self, id: &str) -> Result<&Regeling, UnknownRegeling> {
        let wanted = id.trim();
        self.regelingen
            .iter()
            .find(|regeling| regeling.id.eq_ignore_ascii_case(wanted))
            .ok_or_else(|| UnknownRegeling {
                id: id.to_string(),
                known_ids: self.ids(),
            })
    }

    /// The provenance source string: says plainly that this is an embedded snapshot.
    pub fn source_label(&self) -> String {
        format!(
            "RVO regelingencatalogus (ingebed, stand {}, versie {})",
            self.peildatum, self.versie
        )
    }
}

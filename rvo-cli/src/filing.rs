//! Filing a report: input validation (all errors at once), normalisation of measures, and the
//! result shape shared by both backends.
//!
//! Validation checks the KvK number, that the scheme exists, accepts reports via the CLI and is
//! open on the filing date, and that at least one measure remains after trimming and
//! deduplication. The confirmation text says "received and under assessment", never "approved".

use chrono::{DateTime, NaiveDate, Utc};
use common::validate::is_kvk_nummer;
use serde::{Deserialize, Serialize};

use crate::backend_types::{RapportageAanvraag, RapportageStatus};
use crate::catalogue::{Catalogue, Regeling, invalid_regeling_id, is_regeling_id};
use crate::status::{Status, status_on};

/// Longest accepted measure, in characters.
pub const MAX_MAATREGEL_CHARS: usize = 200;
/// Most measures in one report.
pub const MAX_MAATREGELEN: usize = 300;
/// Longest accepted explanation, in characters.
pub const MAX_TOELICHTING_CHARS: usize = 2000;

/// What the user asked to file, before validation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FilingInput {
    /// KvK number as typed.
    pub kvk_nummer: String,
    /// Scheme id as typed.
    pub regeling_id: String,
    /// Measures as typed (see [`split_maatregelen`] for the comma list).
    pub maatregelen: Vec<String>,
    /// Optional explanation as typed.
    pub toelichting: Option<String>,
}

/// One validation error: a JSON pointer into the request and a Dutch explanation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldError {
    /// JSON pointer to the offending field, e.g. `/kvk_nummer`.
    pub pointer: String,
    /// What is wrong, in Dutch.
    pub detail: String,
}

impl FieldError {
    fn new(pointer: &str, detail: impl Into<String>) -> Self {
        FieldError {
            pointer: pointer.to_string(),
            detail: detail.into(),
        }
    }
}

/// A validated filing: the scheme and the normalised request body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidFiling<'a> {
    /// The scheme the report is for.
    pub regeling: &'a Regeling,
    /// The normalised request (also the HTTP body and the stored request).
    pub aanvraag: RapportageAanvraag,
}

/// Splits a comma list of measures (`"LED, isolatie ,LED"`); normalise with
/// [`normalise_maatregelen`].
pub fn split_maatregelen(comma_list: &str) -> Vec<String> {
    comma_list.split(',').map(str::to_string).collect()
}

/// Trims every measure, drops empty ones and duplicates, and sorts the rest, so the order in which
/// the user typed them does not change the plan digest.
pub fn normalise_maatregelen<I, S>(raw: I) -> Vec<String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let mut measures: Vec<String> = raw
        .into_iter()
        .map(|measure| measure.as_ref().trim().to_string())
        .filter(|measure| !measure.is_empty())
        .collect();
    measures.sort();
    measures.dedup();
    measures
}

/// Validates and normalises `input` for filing on `date`, returning every problem at once.
pub fn validate<'a>(
    catalogue: &'a Catalogue,
    input: &FilingInput,
    date: NaiveDate,
) -> Result<ValidFiling<'a>, Vec<FieldError>> {
    let mut errors = Vec::new();

    let kvk_nummer = input.kvk_nummer.trim();
    if !is_kvk_nummer(kvk_nummer) {
        errors.push(FieldError::new(
            "/kvk_nummer",
            format!("Het KvK-nummer moet uit precies 8 cijfers bestaan; '{kvk_nummer}' voldoet daar niet aan."),
        ));
    }

    let regeling = if !is_regeling_id(&input.regeling_id) {
        errors.push(FieldError::new(
            "/regeling_id",
            invalid_regeling_id(&input.regeling_id),
        ));
        None
    } else {
        match catalogue.get(&input.regeling_id) {
            Ok(regeling) => {
                check_accepts_reports(regeling, date, &mut errors);
                Some(regeling)
            }
            Err(unknown) => {
                errors.push(FieldError::new("/regeling_id", unknown.to_string()));
                None
            }
        }
    };

    let maatregelen = normalise_maatregelen(&input.maatregelen);
    check_maatregelen(&maatregelen, &mut errors);

    let toelichting = input
        .toelichting
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string);
    if let Some(text) = &toelichting {
        if text.chars().count() > MAX_TOELICHTING_CHARS {
            errors.push(FieldError::new(
                "/toelichting",
                format!("De toelichting is langer dan {MAX_TOELICHTING_CHARS} tekens."),
            ));
        }
        if text.chars().any(|c| c.is_control() && c != '\n') {
            errors.push(FieldError::new(
                "/toelichting",
                "De toelichting bevat stuurtekens.",
            ));
        }
    }

    match regeling {
        Some(regeling) if errors.is_empty() => Ok(ValidFiling {
            regeling,
            aanvraag: RapportageAanvraag {
                kvk_nummer: kvk_nummer.to_string(),
                regeling_id: regeling.id.clone(),
                maatregelen,
                toelichting,
            },
        }),
        _ => Err(errors),
    }
}

fn check_accepts_reports(regeling: &Regeling, date: NaiveDate, errors: &mut Vec<FieldError>) {
    let id = &regeling.id;
    if !regeling.indienbaar_via_cli {
        errors.push(FieldError::new(
            "/regeling_id",
            format!(
                "Regeling '{id}' ({}) accepteert geen rapportages via rvo-cli. Zie {}.",
                regeling.naam, regeling.url
            ),
        ));
        return;
    }
    let period = match (regeling.openstelling, regeling.deadline) {
        (Some(periode), _) => format!("van {} tot en met {}", periode.van, periode.tot),
        (None, Some(deadline)) => format!("tot en met {deadline}"),
        (None, None) => String::new(),
    };
    match status_on(regeling, date) {
        Status::Open => {}
        Status::Gesloten => errors.push(FieldError::new(
            "/regeling_id",
            format!("Regeling '{id}' is gesloten op {date}; rapporteren kon {period}."),
        )),
        Status::BinnenkortOpen => errors.push(FieldError::new(
            "/regeling_id",
            format!("Regeling '{id}' is op {date} nog niet open; rapporteren kan {period}."),
        )),
    }
}

fn check_maatregelen(maatregelen: &[String], errors: &mut Vec<FieldError>) {
    if maatregelen.is_empty() {
        errors.push(FieldError::new(
            "/maatregelen",
            "Geef ten minste één getroffen maatregel op (komma-gescheiden lijst).",
        ));
    }
    if maatregelen.len() > MAX_MAATREGELEN {
        errors.push(FieldError::new(
            "/maatregelen",
            format!("Er zijn meer dan {MAX_MAATREGELEN} maatregelen opgegeven."),
        ));
    }
    for (index, measure) in maatregelen.iter().enumerate() {
        let pointer = format!("/maatregelen/{index}");
        if measure.chars().count() > MAX_MAATREGEL_CHARS {
            errors.push(FieldError::new(
                &pointer,
                format!(
                    "Maatregel {} is langer dan {MAX_MAATREGEL_CHARS} tekens.",
                    index + 1
                ),
            ));
        }
        if measure.chars().any(char::is_control) {
            errors.push(FieldError::new(
                &pointer,
                format!("Maatregel {} bevat stuurtekens.", index + 1),
            ));
        }
    }
}

/// Which backend handled a filing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    /// The local sandbox store: nothing is sent to RVO.
    Lokaal,
    /// An HTTP backend implementing `spec/rvo-backend.md`.
    Http,
}

/// The result of filing (or replaying) a report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilingResult {
    /// Always `ONTVANGEN`: received, not assessed.
    pub status: RapportageStatus,
    /// Reference number of the report.
    pub referentienummer: String,
    /// KvK number.
    pub kvk_nummer: String,
    /// Scheme id.
    pub regeling_id: String,
    /// Measures as filed (normalised).
    pub maatregelen: Vec<String>,
    /// Explanation as filed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toelichting: Option<String>,
    /// When the report was first received.
    pub ingediend_op: DateTime<Utc>,
    /// Confirmation text: received and under assessment, never approved.
    pub bevestiging: String,
    /// The case that is now open at the competent authority.
    pub lopende_zaak: LopendeZaak,
    /// Which backend handled it.
    pub backend: Backend,
    /// `true` when this is the stored result of an earlier filing with the same idempotency key.
    pub replayed: bool,
}

/// The open case a filed report creates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LopendeZaak {
    /// Reference number (same as the report's).
    pub referentienummer: String,
    /// Case type, e.g. `Energiebesparingsrapportage`.
    pub zaak_type: String,
    /// Scheme id.
    pub regeling_id: String,
    /// Scheme name.
    pub regeling_naam: String,
    /// Case state; `ontvangen` for a new report.
    pub status: String,
    /// Who assesses the report.
    pub bevoegd_gezag: String,
    /// When the case was opened.
    pub ingediend_op: DateTime<Utc>,
    /// What happens next, in Dutch.
    pub melding: String,
}

/// Builds the result for a report received under `referentienummer` at `ingediend_op`.
pub fn build_result(
    regeling: &Regeling,
    aanvraag: &RapportageAanvraag,
    referentienummer: &str,
    ingediend_op: DateTime<Utc>,
    backend: Backend,
) -> FilingResult {
    let (zaak_type, bevoegd_gezag) = match &regeling.rapportage {
        Some(info) => (info.zaak_type.clone(), info.bevoegd_gezag.clone()),
        None => ("Rapportage".to_string(), "het bevoegd gezag".to_string()),
    };
    let mut bevestiging = format!(
        "Rapportage voor '{}' ontvangen onder referentienummer {referentienummer}. Dit is een \
         ontvangstbevestiging, geen goedkeuring: de rapportage wordt nog beoordeeld.",
        regeling.naam
    );
    if backend == Backend::Lokaal {
        bevestiging.push_str(
            " Let op: dit is de lokale proefopslag (backend 'lokaal'); er is niets naar RVO verzonden.",
        );
    }
    FilingResult {
        status: RapportageStatus::Ontvangen,
        referentienummer: referentienummer.to_string(),
        kvk_nummer: aanvraag.kvk_nummer.clone(),
        regeling_id: aanvraag.regeling_id.clone(),
        maatregelen: aanvraag.maatregelen.clone(),
        toelichting: aanvraag.toelichting.clone(),
        ingediend_op,
        bevestiging,
        lopende_zaak: LopendeZaak {
            referentienummer: referentienummer.to_string(),
            zaak_type,
            regeling_id: regeling.id.clone(),
            regeling_naam: regeling.naam.clone(),
            status: "ontvangen".to_string(),
            melding: format!(
                "De rapportage is ontvangen en wordt beoordeeld door {bevoegd_gezag}. U krijgt \
                 bericht als er vragen zijn of als de beoordeling klaar is."
            ),
            bevoegd_gezag,
            ingediend_op,
        },
        backend,
        replayed: false,
    }
}

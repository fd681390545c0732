//! Filing a report: the canonical report and its idempotency key, the checks (all errors at
//! once), and the result shape shared by both backends.
//!
//! Two kinds of checks. [`canonicalise`] checks what cannot change between a filing and its retry
//! (the KvK number, the syntax of the scheme id, at least one measure after canonicalisation, the
//! limits) and yields the canonical report, whose plan digest is the idempotency key.
//! [`check_scheme`] checks what can change (the scheme exists in this catalogue, accepts reports
//! via the CLI, is open on the date); a completed key is replayed without it (MUT-9). The
//! confirmation text says "received and under assessment", never "approved".

use chrono::{DateTime, NaiveDate, Utc};
use common::args::kvk_nummer_problem;
use serde::{Deserialize, Serialize};

use crate::backend_types::{FieldError, RapportageAanvraag, RapportageStatus};
use crate::canonical::{canonical_maatregel, canonical_text};
use crate::catalogue::{Catalogue, Regeling, invalid_regeling_id, is_regeling_id};
use crate::embedded::embeds_aanvraag;
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
    /// The Bal 5.15a contents, built from a concept ([`crate::inhoud`]).
    pub inhoud: Option<crate::backend_types::RapportageInhoud>,
}

/// A validated filing: the scheme and the normalised request body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidFiling<'a> {
    /// The scheme the report is for.
    pub regeling: &'a Regeling,
    /// The normalised request (also the HTTP body and the stored request).
    pub aanvraag: RapportageAanvraag,
}

/// The command whose plan digest is a report's idempotency key (MUT-3, MUT-8).
pub const FILING_COMMAND: &str = "rvo-cli rapportage indienen";

/// Splits a comma list of measures (`"LED, isolatie ,LED"`); normalise with
/// [`normalise_maatregelen`].
pub fn split_maatregelen(comma_list: &str) -> Vec<String> {
    comma_list.split(',').map(str::to_string).collect()
}

/// Puts every measure in its canonical form ([`canonical_maatregel`]), drops empty ones and
/// duplicates, and sorts the rest, so neither the order nor the spelling in which the user typed
/// them (case, Unicode composition, spacing) changes the plan digest.
pub fn normalise_maatregelen<I, S>(raw: I) -> Vec<String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let mut measures: Vec<String> = raw
        .into_iter()
        .map(|measure| canonical_maatregel(measure.as_ref()))
        .filter(|measure| !measure.is_empty())
        .collect();
    measures.sort();
    measures.dedup();
    measures
}

/// The idempotency key of a report: the plan digest of `rapportage indienen` with the report as
/// its arguments. The report alone decides it (not the date of the call, not `--peildatum`), so a
/// record can be checked against its key and a retry on another day replays.
pub fn idempotency_key(aanvraag: &RapportageAanvraag) -> Result<String, serde_json::Error> {
    Ok(common::plan::digest(
        FILING_COMMAND,
        &serde_json::to_value(aanvraag)?,
    ))
}

/// The canonical report of `input`: every check that does not depend on the date or the
/// catalogue (KvK number, syntax of the scheme id, measures, explanation), returning every
/// problem at once. The scheme id is trimmed and upper-cased (catalogue ids are upper case).
pub fn canonicalise(input: &FilingInput) -> Result<RapportageAanvraag, Vec<FieldError>> {
    let mut errors = Vec::new();

    // As given, not trimmed: the published pattern is exactly what is accepted (DISC-22).
    let kvk_nummer = input.kvk_nummer.as_str();
    if let Some(detail) = kvk_nummer_problem(kvk_nummer) {
        errors.push(FieldError::new("/kvk_nummer", detail));
    }

    if !is_regeling_id(&input.regeling_id) {
        errors.push(FieldError::new(
            "/regeling_id",
            invalid_regeling_id(&input.regeling_id),
        ));
    }

    let maatregelen = normalise_maatregelen(&input.maatregelen);
    // A 5.15a report may have taken no list measure when it names other measures (d).
    let others = input
        .inhoud
        .as_ref()
        .is_some_and(|i| !i.overige_maatregelen.is_empty());
    if !(maatregelen.is_empty() && others) {
        check_maatregelen(&maatregelen, &mut errors);
    }

    let toelichting = input
        .toelichting
        .as_deref()
        .map(canonical_text)
        .filter(|t| !t.is_empty());
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

    if errors.is_empty() {
        Ok(RapportageAanvraag {
            kvk_nummer: kvk_nummer.to_string(),
            regeling_id: input.regeling_id.trim().to_ascii_uppercase(),
            maatregelen,
            toelichting,
            inhoud: input.inhoud.clone(),
        })
    } else {
        Err(errors)
    }
}

/// The checks whose outcome can change between a filing and its retry: the scheme exists in this
/// catalogue, accepts reports via the CLI, and is open on `date`. A caller that replays a
/// completed key runs none of them (MUT-9).
pub fn check_scheme<'a>(
    catalogue: &'a Catalogue,
    regeling_id: &str,
    date: NaiveDate,
) -> Result<&'a Regeling, Vec<FieldError>> {
    let mut errors = Vec::new();
    match catalogue.get(regeling_id) {
        Ok(regeling) => {
            check_accepts_reports(regeling, date, &mut errors);
            if errors.is_empty() {
                Ok(regeling)
            } else {
                Err(errors)
            }
        }
        Err(unknown) => Err(vec![FieldError::new("/regeling_id", unknown.to_string())]),
    }
}

/// [`canonicalise`] and [`check_scheme`] together, returning every problem at once.
pub fn validate<'a>(
    catalogue: &'a Catalogue,
    input: &FilingInput,
    date: NaiveDate,
) -> Result<ValidFiling<'a>, Vec<FieldError>> {
    let aanvraag = canonicalise(input);
    let regeling = if is_regeling_id(&input.regeling_id) {
        check_scheme(catalogue, &input.regeling_id, date)
    } else {
        Err(Vec::new())
    };
    match (aanvraag, regeling) {
        (Ok(mut aanvraag), Ok(regeling)) => {
            aanvraag.regeling_id = regeling.id.clone();
            Ok(ValidFiling { regeling, aanvraag })
        }
        (aanvraag, regeling) => {
            let mut errors = aanvraag.err().unwrap_or_default();
            let scheme_errors = regeling.err().unwrap_or_default();
            // Keep the order of the request's fields: scheme errors after the KvK number's.
            let at = errors
                .iter()
                .position(|e| e.pointer != "/kvk_nummer")
                .unwrap_or(errors.len());
            errors.splice(at..at, scheme_errors);
            Err(errors)
        }
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
#[serde(remote = "Self")]
pub struct FilingResult {
    /// Always `ONTVANGEN`: received, not assessed.
    pub status: RapportageStatus,
    /// Reference number of the report.
    pub referentienummer: String,
    /// The report as filed (normalised); its members stand in the object.
    #[serde(flatten, skip_deserializing)]
    pub aanvraag: RapportageAanvraag,
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
embeds_aanvraag!(FilingResult);

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

/// Builds the result for a report received under `referentienummer` at `ingediend_op`. Without
/// the scheme (an HTTP backend filed one this catalogue does not know) generic texts are used.
pub fn build_result(
    regeling: Option<&Regeling>,
    aanvraag: &RapportageAanvraag,
    referentienummer: &str,
    ingediend_op: DateTime<Utc>,
    backend: Backend,
) -> FilingResult {
    let (zaak_type, bevoegd_gezag) = match regeling.and_then(|r| r.rapportage.as_ref()) {
        Some(info) => (info.zaak_type.clone(), info.bevoegd_gezag.clone()),
        None => ("Rapportage".to_string(), "het bevoegd gezag".to_string()),
    };
    let regeling_naam = regeling.map_or(aanvraag.regeling_id.as_str(), |r| r.naam.as_str());
    let mut bevestiging = format!(
        "Rapportage voor '{}' ontvangen onder referentienummer {referentienummer}. Dit is een \
         ontvangstbevestiging, geen goedkeuring: de rapportage wordt nog beoordeeld.",
        regeling_naam
    );
    if backend == Backend::Lokaal {
        bevestiging.push_str(
            " Let op: dit is de lokale proefopslag (backend 'lokaal'); er is niets naar RVO verzonden.",
        );
    }
    FilingResult {
        status: RapportageStatus::Ontvangen,
        referentienummer: referentienummer.to_string(),
        aanvraag: aanvraag.clone(),
        ingediend_op,
        bevestiging,
        lopende_zaak: LopendeZaak {
            referentienummer: referentienummer.to_string(),
            zaak_type,
            regeling_id: aanvraag.regeling_id.clone(),
            regeling_naam: regeling_naam.to_string(),
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

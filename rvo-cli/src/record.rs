//! A filed report as a record of the family's store (`overheid-records`): written from the
//! request and its first result, and read back only when it is sound.
//!
//! The store gives exactly-once (a unique key on the idempotency key, the proposal's change to
//! filed in the same transaction). What a record of this tool must be is checked here, in one
//! place, by every reader (a replay, `rapportage status` and `lijst`, [`crate::verify`]): it is
//! filed under the digest of its own request, its `request_sha256` is that request's, its result
//! parses and belongs to that request, and its reference number is well formed and the one the
//! store indexes.

use chrono::{DateTime, Utc};
use overheid_records::Filing;

use crate::backend_types::RapportageAanvraag;
use crate::canonical::canonical_sha256;
use crate::filing::{FilingResult, idempotency_key};
use crate::reference::is_well_formed;

/// The tool that files these records.
pub const TOOL: &str = "rvo-cli";

/// The record of a new filing of `aanvraag` under `key`, with its first `result`.
pub fn new_record(
    key: &str,
    aanvraag: &RapportageAanvraag,
    result: &FilingResult,
    filed_at: DateTime<Utc>,
) -> Result<Filing, serde_json::Error> {
    Ok(Filing {
        key: key.to_string(),
        reference: result.referentienummer.clone(),
        company: aanvraag.kvk_nummer.clone(),
        tool: TOOL.to_string(),
        request_sha256: canonical_sha256(aanvraag)?,
        request: serde_json::to_value(aanvraag)?,
        result: serde_json::to_value(result)?,
        filed_at,
        proposal_id: None,
    })
}

/// Whether `record` was filed for `aanvraag` (else its key was used for another request).
pub fn is_for(record: &Filing, aanvraag: &RapportageAanvraag) -> bool {
    canonical_sha256(aanvraag).is_ok_and(|sha| sha == record.request_sha256)
}

/// The first result of a sound record, or every way it is not sound (never a value from it:
/// another company's data must not reach a message).
pub fn read(record: &Filing) -> Result<FilingResult, Vec<String>> {
    let mut problems = Vec::new();
    if record.tool != TOOL {
        problems.push("het record is van een ander programma".to_string());
    }
    let request = serde_json::from_value::<RapportageAanvraag>(record.request.clone());
    let result = serde_json::from_value::<FilingResult>(record.result.clone());
    let (request, result) = match (request, result) {
        (Ok(request), Ok(result)) => (request, result),
        (request, result) => {
            if request.is_err() {
                problems.push("de aanvraag heeft niet de vorm van een rapportage".to_string());
            }
            if result.is_err() {
                problems.push("het resultaat heeft niet de vorm van een ontvangst".to_string());
            }
            return Err(problems);
        }
    };
    if idempotency_key(&request).ok().as_deref() != Some(record.key.as_str()) {
        problems.push("de sleutel is niet de digest van de aanvraag".to_string());
    }
    if canonical_sha256(&request).ok().as_deref() != Some(record.request_sha256.as_str()) {
        problems.push("request_sha256 past niet bij de aanvraag".to_string());
    }
    if record.company != request.kvk_nummer {
        problems.push("het bedrijf past niet bij de aanvraag".to_string());
    }
    if result.aanvraag != request {
        problems.push("resultaat past niet bij de aanvraag".to_string());
    }
    if !is_well_formed(&result.referentienummer) || result.referentienummer != record.reference {
        problems.push("ongeldig referentienummer".to_string());
    }
    if result.lopende_zaak.referentienummer != result.referentienummer
        || result.lopende_zaak.regeling_id != result.aanvraag.regeling_id
    {
        problems.push("lopende zaak past niet bij het resultaat".to_string());
    }
    if result.replayed {
        problems.push("opgeslagen resultaat staat op replayed".to_string());
    }
    if problems.is_empty() {
        Ok(result)
    } else {
        Err(problems)
    }
}

/// The first result of a sound record as a replay (`replayed: true`).
pub fn replay(record: &Filing) -> Result<FilingResult, Vec<String>> {
    read(record).map(|mut result| {
        result.replayed = true;
        result
    })
}

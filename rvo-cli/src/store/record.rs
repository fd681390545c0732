//! The record format of the local store: one JSON file per idempotency key, and the checks a
//! record must pass before it is trusted.

use serde::{Deserialize, Serialize};

use crate::backend_types::RapportageAanvraag;
use crate::canonical::canonical_sha256;
use crate::filing::{FilingResult, idempotency_key};
use crate::reference::is_well_formed;

/// Record format version written by this code. Format 2 keys a record by the digest of its own
/// `aanvraag` ([`idempotency_key`]); format 1 keys could include a `--peildatum`, so for them the
/// key is only checked against the file name.
pub const RECORD_FORMAT: u32 = 2;
/// The oldest record format this code still reads.
pub const OLDEST_RECORD_FORMAT: u32 = 1;

/// One filed report as stored in `rapportages/<idempotency_key>.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredRecord {
    /// Record format version ([`RECORD_FORMAT`]).
    pub formaat: u32,
    /// The plan digest the report was filed under (also the file name).
    pub idempotency_key: String,
    /// SHA-256 of the canonical JSON of `aanvraag`, to detect a key reused for another request.
    pub request_sha256: String,
    /// The normalised request as filed.
    pub aanvraag: RapportageAanvraag,
    /// The result returned at the first filing (`replayed: false`).
    pub resultaat: FilingResult,
}

impl StoredRecord {
    /// Every way this record fails to be the record filed under `key` (empty: it is sound). A
    /// record is trusted only if it has a known format, is filed under its own key, that key is
    /// the digest of its own request (format 2), and its result matches its request.
    pub fn problems(&self, key: &str) -> Vec<String> {
        let mut problems = Vec::new();
        if !(OLDEST_RECORD_FORMAT..=RECORD_FORMAT).contains(&self.formaat) {
            problems.push(format!(
                "onbekend recordformaat {} (verwacht {OLDEST_RECORD_FORMAT} tot en met {RECORD_FORMAT})",
                self.formaat
            ));
        }
        if self.idempotency_key != key {
            problems.push("staat onder een andere sleutel dan de bestandsnaam".to_string());
        }
        if self.formaat == RECORD_FORMAT
            && idempotency_key(&self.aanvraag).ok().as_deref() != Some(key)
        {
            problems.push("de sleutel is niet de digest van de aanvraag".to_string());
        }
        if canonical_sha256(&self.aanvraag).ok().as_deref() != Some(self.request_sha256.as_str()) {
            problems.push("request_sha256 past niet bij de aanvraag".to_string());
        }
        let result = &self.resultaat;
        let request = &self.aanvraag;
        if (
            &result.kvk_nummer,
            &result.regeling_id,
            &result.maatregelen,
            &result.toelichting,
            &result.inhoud,
        ) != (
            &request.kvk_nummer,
            &request.regeling_id,
            &request.maatregelen,
            &request.toelichting,
            &request.inhoud,
        ) {
            problems.push("resultaat past niet bij de aanvraag".to_string());
        }
        if !is_well_formed(&result.referentienummer) {
            problems.push("ongeldig referentienummer".to_string());
        }
        if result.lopende_zaak.referentienummer != result.referentienummer
            || result.lopende_zaak.regeling_id != result.regeling_id
        {
            problems.push("lopende zaak past niet bij het resultaat".to_string());
        }
        if result.replayed {
            problems.push("opgeslagen resultaat staat op replayed".to_string());
        }
        problems
    }
}

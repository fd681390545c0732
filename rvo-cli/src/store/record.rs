//! The record format of the local store: one JSON file per idempotency key.

use serde::{Deserialize, Serialize};

use crate::backend_types::RapportageAanvraag;
use crate::filing::FilingResult;

/// Record format version written by this code.
pub const RECORD_FORMAT: u32 = 1;

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

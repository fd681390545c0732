//! Errors of the local sandbox store as profile errors.

use common::{Error, ExitStatus};
use rvo_cli::store::StoreError;

/// The profile error for a store failure: a reused key is exit 65 (`IDEMPOTENTIE_CONFLICT`),
/// file-system trouble exit 74, anything else a bug (exit 70).
pub fn store_error(error: StoreError) -> Error {
    let detail = error.to_string();
    match error {
        StoreError::Conflict { .. } => Error::new(
            ExitStatus::DataErr,
            "IDEMPOTENTIE_CONFLICT",
            "Plan-digest al gebruikt voor een andere rapportage",
            detail,
        )
        .with_hint("er is niets ingediend; controleer de argumenten en vraag een nieuw plan op"),
        StoreError::Io { .. } | StoreError::Corrupt { .. } => Error::io(detail)
            .with_hint("controleer de map van de lokale opslag (RVO_DATA_DIR) en de rechten erop"),
        StoreError::InvalidKey(_) | StoreError::Encode(_) | StoreError::Random(_) => {
            Error::software(detail)
        }
    }
}

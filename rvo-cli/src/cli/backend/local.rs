//! Errors of the local sandbox store as profile errors.

use common::{ExitStatus, Problem};
use rvo_cli::store::StoreError;

/// The profile error for a store failure: a reused key is exit 65 (`IDEMPOTENTIE_CONFLICT`), a
/// bad record exit 74 (`OPSLAG_BESCHADIGD`, naming the file), other file-system trouble exit 74
/// (`OPSLAG_FOUT`), a lock that stayed taken past the deadline exit 124, anything else a bug
/// (exit 70).
pub fn store_error(error: StoreError) -> Problem {
    let detail = error.to_string();
    match error {
        StoreError::Conflict { .. } => Problem::new(
            ExitStatus::DataErr,
            common::codes::IDEMPOTENTIE_CONFLICT,
            "Plan-digest al gebruikt voor een andere rapportage",
            detail,
        )
        .with_hint("er is niets ingediend; controleer de argumenten en vraag een nieuw plan op"),
        StoreError::Corrupt { .. } => Problem::new(
            ExitStatus::IoErr,
            common::codes::OPSLAG_BESCHADIGD,
            "Record in de lokale opslag is beschadigd",
            detail,
        )
        .with_hint(
            "er is niets ingediend of overschreven; herstel of verwijder het genoemde bestand \
             (de andere rapportages blijven leesbaar)",
        ),
        StoreError::Io { .. } => Problem::new(
            ExitStatus::IoErr,
            common::codes::OPSLAG_FOUT,
            "Lokale opslag niet te gebruiken",
            detail,
        )
        .with_hint("controleer de map van de lokale opslag (RVO_DATA_DIR) en de rechten erop"),
        StoreError::LockTimeout { .. } => Problem::timeout(detail).with_hint(
            "een andere rvo-cli houdt de lokale opslag bezet; herhaal dezelfde opdracht later \
             (dat dient niets dubbel in)",
        ),
        StoreError::InvalidKey(_) | StoreError::Encode(_) | StoreError::Random(_) => {
            Problem::software(detail)
        }
    }
}

//! Errors of the local store.

use std::fmt;
use std::path::{Path, PathBuf};

/// What can go wrong in the local store.
#[derive(Debug)]
pub enum StoreError {
    /// The idempotency key is not a plan digest (64 lower-case hex digits).
    InvalidKey(String),
    /// The key was used before for a different request; nothing was written.
    Conflict {
        /// The reused key.
        idempotency_key: String,
        /// The report filed earlier under that key.
        referentienummer: String,
    },
    /// A file-system operation failed.
    Io {
        /// What the store was doing, in Dutch.
        action: &'static str,
        /// The file or directory involved.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The lock was still held by another writer when the deadline passed; nothing was filed.
    LockTimeout {
        /// The lock file.
        path: PathBuf,
    },
    /// A record file exists but is not a sound record (see `StoredRecord::problems`).
    Corrupt {
        /// The record file.
        path: PathBuf,
        /// What is wrong with it.
        detail: String,
    },
    /// A record could not be encoded as JSON.
    Encode(serde_json::Error),
    /// The operating system's random source failed.
    Random(getrandom::Error),
}

impl StoreError {
    pub(crate) fn io(action: &'static str, path: &Path, source: std::io::Error) -> Self {
        StoreError::Io {
            action,
            path: path.to_path_buf(),
            source,
        }
    }

    pub(crate) fn encode(error: serde_json::Error) -> Self {
        StoreError::Encode(error)
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::InvalidKey(key) => {
                write!(
                    f,
                    "Ongeldige idempotentiesleutel '{key}': verwacht 64 hexadecimale tekens."
                )
            }
            StoreError::Conflict {
                referentienummer, ..
            } => write!(
                f,
                "Deze plan-digest is al gebruikt voor een andere rapportage ({referentienummer}); \
                 er is niets opnieuw ingediend."
            ),
            StoreError::Io {
                action,
                path,
                source,
            } => {
                write!(
                    f,
                    "Lokale opslag: {action} mislukt voor {}: {source}",
                    path.display()
                )
            }
            StoreError::LockTimeout { path } => write!(
                f,
                "Lokale opslag: het slot {} kwam niet vrij voor de deadline; er is niets ingediend.",
                path.display()
            ),
            StoreError::Corrupt { path, detail } => {
                write!(
                    f,
                    "Lokale opslag: record {} is beschadigd: {detail}",
                    path.display()
                )
            }
            StoreError::Encode(error) => {
                write!(f, "Lokale opslag: record coderen mislukt: {error}")
            }
            StoreError::Random(error) => write!(f, "Geen willekeurige bron beschikbaar: {error}"),
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StoreError::Io { source, .. } => Some(source),
            StoreError::Encode(error) => Some(error),
            _ => None,
        }
    }
}

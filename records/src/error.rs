//! What can go wrong in the store, in Dutch for the person reading it; no value of a record
//! and no password is ever part of a message.

use std::fmt;
use std::path::PathBuf;

use crate::model::Status;

/// An error of the store.
#[derive(Debug)]
pub enum Error {
    /// The store is not configured usably (a bad `OVERHEID_STORE_URL`, no data directory).
    Config(String),
    /// The data directory or database file may be read or changed by others: refused.
    Unsafe {
        /// The directory or file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// A file-system operation failed.
    Io {
        /// What the store was doing.
        action: &'static str,
        /// The file or directory involved.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The shared database could not be reached (or the connection broke): nothing was changed.
    Unreachable(String),
    /// Another writer held the database past the deadline: nothing was changed.
    Busy,
    /// The database refused a statement.
    Database(String),
    /// A stored row is not a sound record.
    Corrupt(String),
    /// No such proposal (for this company).
    NotFound,
    /// The proposal is not in a state that allows this step; its current status.
    Refused(Status),
    /// The digest the person saw is not the proposal's plan digest.
    DigestMismatch,
    /// The operating system's random source failed.
    Random(getrandom::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Config(detail) => write!(f, "opslag: {detail}"),
            Error::Unsafe { path, why } => {
                write!(f, "opslag {} geweigerd: {why}", path.display())
            }
            Error::Io {
                action,
                path,
                source,
            } => write!(
                f,
                "opslag: {action} mislukt voor {}: {source}",
                path.display()
            ),
            Error::Unreachable(detail) => write!(f, "gedeelde opslag niet bereikbaar: {detail}"),
            Error::Busy => write!(
                f,
                "opslag: een andere schrijver hield de opslag bezet tot de deadline"
            ),
            Error::Database(detail) => write!(f, "opslag: de database weigerde: {detail}"),
            Error::Corrupt(detail) => write!(f, "opslag: record beschadigd: {detail}"),
            Error::NotFound => write!(f, "onbekend voorstel"),
            Error::Refused(status) => write!(f, "het voorstel is {}", status.label()),
            Error::DigestMismatch => {
                write!(f, "de digest hoort niet bij het plan van dit voorstel")
            }
            Error::Random(error) => write!(f, "geen willekeurige bron beschikbaar: {error}"),
        }
    }
}

impl Error {
    /// Whether the connection that gave this error may be used again: an answer of the
    /// records themselves (unknown, refused, another digest, a damaged row), not a failure of
    /// the connection, the database or the system.
    pub fn leaves_connection_sound(&self) -> bool {
        matches!(
            self,
            Error::NotFound | Error::Refused(_) | Error::DigestMismatch | Error::Corrupt(_)
        )
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<rusqlite::Error> for Error {
    fn from(error: rusqlite::Error) -> Self {
        match error.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
                Error::Busy
            }
            _ => Error::Database(error.to_string()),
        }
    }
}

#[cfg(feature = "postgres")]
impl From<postgres::Error> for Error {
    fn from(error: postgres::Error) -> Self {
        use postgres::error::SqlState;
        if error.is_closed() {
            return Error::Unreachable("de verbinding met de database is verbroken".into());
        }
        match error.code() {
            Some(code)
                if *code == SqlState::LOCK_NOT_AVAILABLE || *code == SqlState::QUERY_CANCELED =>
            {
                Error::Busy
            }
            // A connection exception (class 08) or the server ending the session (57P01 to
            // 57P05: shut down, restarting, the connection terminated by an administrator):
            // the connection is gone, and with it any open transaction.
            Some(code) if code.code().starts_with("08") || code.code().starts_with("57P") => {
                Error::Unreachable(
                    error
                        .as_db_error()
                        .map(|db| db.message().to_string())
                        .unwrap_or_else(|| "de verbinding met de database is verbroken".into()),
                )
            }
            // The server's message names the statement's problem, never the password.
            Some(_) => Error::Database(
                error
                    .as_db_error()
                    .map(|db| db.message().to_string())
                    .unwrap_or_else(|| error.to_string()),
            ),
            None => Error::Unreachable(error.to_string()),
        }
    }
}

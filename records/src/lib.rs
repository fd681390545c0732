//! overheid-records: the family's records in one store. Proposals (a write that a person
//! approves before it is applied), their approvals and history, and filings (the idempotency
//! store of exactly-once mutations).
//!
//! - [`Location`]: where the store is, from the environment: `OVERHEID_STORE_URL=postgres://…`
//!   (shared by every machine and replica) or SQLite in the data directory (the default).
//! - [`Store`]: one connection; proposals ([`Store::propose`], [`Store::proposal`],
//!   [`Store::proposals`], [`Store::decide`], [`Store::events`], [`Store::mark_filed`]) and
//!   filings ([`Store::filing`], [`Store::filing_by_reference`], [`Store::filings`],
//!   [`Store::begin_filing`]).
//! - [`Pool`]: connections kept for reuse by a long-running process (the bridge's page).
//! - [`model`]: the records themselves.
//!
//! Exactly-once comes from the database: a unique key on the idempotency key, and every status
//! change a conditional update (`… WHERE status = 'approved'`) checked by its row count, in one
//! transaction with the appended event. No file lock carries it.
//!
//! The API is blocking (the `postgres` crate runs its own small runtime): from async code call
//! it inside `tokio::task::spawn_blocking`. A [`Store`] is one connection; open one per task,
//! or take one from a [`Pool`]. A CLI process opens one store and does all its work on it.

mod error;
mod filings;
mod id;
mod location;
pub mod model;
mod pool;
mod proposals;
mod sql;

use std::time::Instant;

pub use error::Error;
pub use filings::{Begun, Damaged, PendingFiling};
pub use id::is_well_formed as is_proposal_id;
pub use location::{DATA_DIR_ENV, DATABASE_FILE, Location, STORE_URL_ENV};
pub use model::{
    Apply, Approval, DEFAULT_TTL, Decision, Event, Filing, NewProposal, Person, Proposal,
    ProposedCall, ProposingClient, Status, Verdict,
};
pub use pool::Pool;

/// One connection to the store.
pub struct Store {
    conn: sql::Conn,
    location: Location,
}

impl Store {
    /// Opens the store at `location`, creating its tables (and for SQLite its 0700 directory
    /// and 0600 file) on first use. Every wait (a busy SQLite file, a PostgreSQL connection or
    /// lock) ends by `deadline`. A directory others can write is [`Error::Unsafe`]; a database
    /// that cannot be reached [`Error::Unreachable`].
    pub fn open(location: &Location, deadline: Option<Instant>) -> Result<Store, Error> {
        let conn = match location {
            Location::Sqlite(dir) => sql::Conn::sqlite(dir, deadline)?,
            #[cfg(feature = "postgres")]
            Location::Postgres(url) => sql::Conn::postgres(url, deadline)?,
            #[cfg(not(feature = "postgres"))]
            Location::Postgres(_) => {
                return Err(Error::Config(
                    "deze build kent geen gedeelde PostgreSQL-opslag".into(),
                ));
            }
        };
        Ok(Store {
            conn,
            location: location.clone(),
        })
    }

    /// Where this store is.
    pub fn location(&self) -> &Location {
        &self.location
    }

    /// Whether the connection is still open (a PostgreSQL server may have closed it).
    pub fn is_open(&self) -> bool {
        self.conn.is_open()
    }
}

//! Connections kept for reuse by a long-running process (the bridge's approval page): each
//! piece of work takes an idle connection, or opens one, and gives it back afterwards, so a
//! request pays one query and not a connection (TCP, authentication, the schema check).
//!
//! A small pool of its own rather than a crate: the store's API is blocking and run inside
//! `spawn_blocking`, which rules out an async pool (deadpool), and r2d2 would add a reaper
//! thread and a validation query on every checkout (one more round trip per request) for what
//! is a locked list of open connections. A connection goes back only when the work left it
//! sound (it succeeded, or was refused by the records themselves); after any error of the
//! connection or the database it is dropped, and a connection the server closed, or one idle
//! longer than [`MAX_IDLE_AGE`], is never handed out.

use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::{Error, Location, Store};

/// The longest a connection waits idle before it is closed instead of reused.
const MAX_IDLE_AGE: Duration = Duration::from_secs(300);

/// Open connections to one store, for reuse.
pub struct Pool {
    location: Location,
    /// How long one piece of work may wait for the store (a busy SQLite file, a PostgreSQL
    /// connection or lock): fixed per connection when it is opened.
    timeout: Duration,
    max_idle: usize,
    idle: Mutex<Vec<(Store, Instant)>>,
}

impl Pool {
    /// A pool of the store at `location` keeping at most `max_idle` connections; every wait of
    /// a piece of work ends after `timeout`.
    pub fn new(location: Location, timeout: Duration, max_idle: usize) -> Pool {
        Pool {
            location,
            timeout,
            max_idle,
            idle: Mutex::new(Vec::new()),
        }
    }

    /// Where the store is.
    pub fn location(&self) -> &Location {
        &self.location
    }

    /// How many connections wait idle now.
    pub fn idle(&self) -> usize {
        self.lock().len()
    }

    /// Runs `work` on a kept connection, or a new one when none is idle. Blocking: from async
    /// code call it inside `spawn_blocking`.
    pub fn with<T>(&self, work: impl FnOnce(&mut Store) -> Result<T, Error>) -> Result<T, Error> {
        let mut store = match self.take() {
            Some(store) => store,
            None => Store::open(&self.location, Some(Instant::now() + self.timeout))?,
        };
        let result = work(&mut store);
        let sound = match &result {
            Ok(_) => true,
            Err(error) => error.leaves_connection_sound(),
        };
        if sound {
            let mut idle = self.lock();
            if idle.len() < self.max_idle {
                idle.push((store, Instant::now()));
            }
        }
        result
    }

    /// The most recently used idle connection; those idle too long or closed by the server are
    /// dropped (closed) on the way.
    fn take(&self) -> Option<Store> {
        let mut idle = self.lock();
        idle.retain(|(store, since)| since.elapsed() < MAX_IDLE_AGE && store.is_open());
        idle.pop().map(|(store, _)| store)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(Store, Instant)>> {
        self.idle.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

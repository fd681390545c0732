//! The requests in flight over HTTP, by principal: how many each principal runs (so one
//! tenant's burst cannot take every call slot), and a cancellation handle per request id (so a
//! 2025-11-25 client's `notifications/cancelled`, which arrives as a request of its own, stops
//! the call it names).
//!
//! Only requests in flight are held: an entry goes when its request ends, so the memory is
//! bounded by `--max-calls`. A request id is the client's, so the key is the principal and the
//! id together: no one cancels another principal's call.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use tokio_util::sync::CancellationToken;

/// What is in flight; shared by every connection.
pub(crate) struct InFlight {
    per_principal: usize,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    running: HashMap<String, usize>,
    /// (principal, request id as compact JSON) → the request's cancellation and its serial.
    cancels: HashMap<(String, String), (CancellationToken, u64)>,
    serial: u64,
}

/// One admitted request: its count and cancellation handle go when it is dropped.
pub(crate) struct Admitted {
    in_flight: Arc<InFlight>,
    principal: String,
    key: Option<((String, String), u64)>,
    pub cancelled: CancellationToken,
}

impl InFlight {
    pub(crate) fn new(per_principal: usize) -> Arc<Self> {
        Arc::new(Self {
            per_principal: per_principal.max(1),
            state: Mutex::new(State::default()),
        })
    }

    /// The limit per principal.
    pub(crate) fn per_principal(&self) -> usize {
        self.per_principal
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Admit a request of `principal` with request `id`, unless the principal already runs
    /// its limit (`None`: answer 429).
    pub(crate) fn admit(self: &Arc<Self>, principal: &str, id: Option<String>) -> Option<Admitted> {
        let mut state = self.state();
        let running = state.running.entry(principal.to_string()).or_default();
        if *running >= self.per_principal {
            return None;
        }
        *running += 1;
        let cancelled = CancellationToken::new();
        let key = id.map(|id| {
            state.serial += 1;
            let serial = state.serial;
            let key = (principal.to_string(), id);
            state
                .cancels
                .insert(key.clone(), (cancelled.clone(), serial));
            (key, serial)
        });
        Some(Admitted {
            in_flight: Arc::clone(self),
            principal: principal.to_string(),
            key,
            cancelled,
        })
    }

    /// `notifications/cancelled` from `principal` for request `id`: stop it if it runs here.
    pub(crate) fn cancel(&self, principal: &str, id: &str) -> bool {
        let state = self.state();
        match state.cancels.get(&(principal.to_string(), id.to_string())) {
            Some((token, _)) => {
                token.cancel();
                true
            }
            None => false,
        }
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut state = self.in_flight.state();
        if let Some(running) = state.running.get_mut(&self.principal) {
            *running -= 1;
            if *running == 0 {
                state.running.remove(&self.principal);
            }
        }
        if let Some((key, serial)) = self.key.take()
            && state.cancels.get(&key).is_some_and(|(_, s)| *s == serial)
        {
            state.cancels.remove(&key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_principal_runs_at_most_its_limit_and_cancels_only_its_own_requests() {
        let in_flight = InFlight::new(2);
        let a1 = in_flight.admit("a", Some("1".into())).unwrap();
        let _a2 = in_flight.admit("a", Some("2".into())).unwrap();
        assert!(in_flight.admit("a", Some("3".into())).is_none());
        let b1 = in_flight.admit("b", Some("1".into())).unwrap();
        assert!(!in_flight.cancel("b", "2"));
        assert!(in_flight.cancel("a", "1"));
        assert!(a1.cancelled.is_cancelled() && !b1.cancelled.is_cancelled());
        drop(a1);
        assert!(!in_flight.cancel("a", "1"), "an ended request is forgotten");
        assert!(in_flight.admit("a", None).is_some());
        drop(b1);
        assert!(!in_flight.state().running.contains_key("b"));
    }
}

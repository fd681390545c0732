//! The bridge's state shared by every request: the catalogue, the call deadline, compiled
//! input validators (built on first use) and the calls that are running (for cancellation).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use jsonschema::Validator;

use crate::catalog::{Catalog, Tool};
use crate::child::Killer;

/// Shared state of one bridge process.
pub struct Bridge {
    pub catalog: Catalog,
    /// Deadline of one tool call; the child's process group is killed when it passes.
    pub timeout: Duration,
    validators: Mutex<HashMap<String, Arc<Validator>>>,
    running: Mutex<HashMap<String, Killer>>,
}

impl Bridge {
    pub fn new(catalog: Catalog, timeout: Duration) -> Self {
        Self {
            catalog,
            timeout,
            validators: Mutex::default(),
            running: Mutex::default(),
        }
    }

    /// The validator of a tool's listed `inputSchema` (its own schema plus `fields`/`confirm`).
    pub fn validator(&self, tool: &Tool) -> Result<Arc<Validator>, String> {
        let mut cache = self
            .validators
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(validator) = cache.get(&tool.name) {
            return Ok(Arc::clone(validator));
        }
        let validator = jsonschema::validator_for(&tool.listed["inputSchema"]).map_err(|e| {
            format!(
                "inputSchema van {} is geen geldig JSON Schema: {e}",
                tool.name
            )
        })?;
        let validator = Arc::new(validator);
        cache.insert(tool.name.clone(), Arc::clone(&validator));
        Ok(validator)
    }

    /// Register a call under its request id; the killer cancels it.
    pub fn start_call(&self, request_key: &str) -> Killer {
        let killer = Killer::default();
        self.running()
            .insert(request_key.to_string(), killer.clone());
        killer
    }

    /// Forget a finished call.
    pub fn end_call(&self, request_key: &str) {
        self.running().remove(request_key);
    }

    /// Cancel the call with this request id, if it still runs.
    pub fn cancel(&self, request_key: &str) {
        if let Some(killer) = self.running().get(request_key) {
            killer.cancel();
        }
    }

    /// Cancel every running call (the client went away).
    pub fn cancel_all(&self) {
        for killer in self.running().values() {
            killer.cancel();
        }
    }

    fn running(&self) -> std::sync::MutexGuard<'_, HashMap<String, Killer>> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

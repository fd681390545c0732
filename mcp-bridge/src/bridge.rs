//! The bridge's state shared by every request: the catalogue, the call deadline, compiled
//! input validators (built on first use), the approval key and how identity is found.
//! Nothing here changes with a request's outcome: any replica can answer any request.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use jsonschema::Validator;

use crate::approval::Approval;
use crate::catalog::{Catalog, Tool};
use crate::session::Session;

/// How the bridge is reached, which decides where identity comes from and the default for
/// clients that cannot elicit an approval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    /// One host over stdin/stdout: identity per call from `_meta`, else per process.
    Stdio,
    /// Streamable HTTP: identity only from a verified token.
    Http,
}

/// Shared state of one bridge process.
pub struct Bridge {
    pub catalog: Catalog,
    /// Deadline of one tool call; the child's process group is killed when it passes.
    pub timeout: Duration,
    pub transport: Transport,
    pub approval: Approval,
    /// The per-process identity (stdio with `KVK_SESSIE_NUMMER` set), if any.
    pub process_session: Option<Session>,
    validators: Mutex<HashMap<String, Arc<Validator>>>,
}

impl Bridge {
    pub fn new(
        catalog: Catalog,
        timeout: Duration,
        transport: Transport,
        approval: Approval,
        process_session: Option<Session>,
    ) -> Self {
        Self {
            catalog,
            timeout,
            transport,
            approval,
            process_session,
            validators: Mutex::default(),
        }
    }

    /// The validator of a tool's `inputSchema` as checked (its own schema plus `fields`/`confirm`).
    pub fn validator(&self, tool: &Tool) -> Result<Arc<Validator>, String> {
        let mut cache = self
            .validators
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(validator) = cache.get(&tool.name) {
            return Ok(Arc::clone(validator));
        }
        let validator = jsonschema::validator_for(&tool.input).map_err(|e| {
            format!(
                "inputSchema van {} is geen geldig JSON Schema: {e}",
                tool.name
            )
        })?;
        let validator = Arc::new(validator);
        cache.insert(tool.name.clone(), Arc::clone(&validator));
        Ok(validator)
    }
}

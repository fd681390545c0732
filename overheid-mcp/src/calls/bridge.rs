//! The bridge's state shared by every request: the catalogue, the call deadline, compiled
//! input validators (built on first use), each CLI's environment (picked once: the bridge's
//! own does not change), the name it gives itself in the CLIs' audit records, the approval key,
//! how identity is found, and the server's own paths that no client sees.
//! Nothing here changes with a request's outcome: any replica can answer any request.

use std::collections::HashMap;
use std::ffi::OsString;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Duration;

use common::env::{FOREIGN_CLIENT, FOREIGN_USER};
use jsonschema::Validator;

use crate::approval::request_state::Approval;
use crate::calls::list_cache::ListCache;
use crate::calls::server_paths::ServerPaths;
use crate::catalog::{Catalog, Tool};
use crate::identity::session::Session;
use crate::transport::Transport;

/// Shared state of one bridge process.
pub(crate) struct Bridge {
    pub catalog: Catalog,
    /// Deadline of one tool call; the child's process group is killed when it passes.
    pub timeout: Duration,
    /// The most bytes of data (as compact JSON) one result may carry (`--max-result-bytes`).
    pub max_result_bytes: usize,
    pub transport: Transport,
    pub approval: Approval,
    /// The per-process identity (stdio with `KVK_SESSIE_NUMMER` set), if any.
    pub process_session: Option<Session>,
    validators: Mutex<HashMap<String, Arc<Validator>>>,
    /// The lists completions are taken from, read on first use ([`crate::calls::completions`]).
    pub completions: ListCache,
    /// Per source: the bridge's variables its CLI may see (its allow-list applied once).
    child_env: Vec<Vec<(OsString, OsString)>>,
    processor: OnceLock<String>,
    /// The server's own paths, scrubbed from everything a CLI says before a client sees it.
    pub server_paths: ServerPaths,
}

/// How a stdio bridge names itself in `OVERHEID_FOREIGN_PROCESSOR` when its host sets none.
pub(crate) const STDIO_PROCESSOR: &str = "urn:overheid-mcp:stdio";

impl Bridge {
    /// The bridge over `catalog`; `own_vars` is its own environment.
    pub(crate) fn new(
        catalog: Catalog,
        timeout: Duration,
        max_result_bytes: usize,
        transport: Transport,
        approval: Approval,
        process_session: Option<Session>,
        own_vars: impl Iterator<Item = (OsString, OsString)>,
    ) -> Self {
        // Over HTTP the person and the client come from the request only (AUDIT-22, §10 "Who
        // proposed"): the bridge's own never pass.
        let own_vars: Vec<(OsString, OsString)> = own_vars
            .filter(|(name, _)| {
                transport == Transport::Stdio || (name != FOREIGN_USER && name != FOREIGN_CLIENT)
            })
            .collect();
        let child_env = catalog
            .sources
            .iter()
            .map(|source| source.env.pick(own_vars.iter().cloned()))
            .collect();
        let server_paths = ServerPaths::new(
            &own_vars,
            catalog
                .sources
                .iter()
                .map(|source| source.program.as_path()),
            crate::env::own_dirs().into_iter(),
        );
        Self {
            catalog,
            timeout,
            max_result_bytes,
            transport,
            approval,
            process_session,
            validators: Mutex::default(),
            completions: ListCache::default(),
            child_env,
            processor: OnceLock::new(),
            server_paths,
        }
    }

    /// The variables of the bridge's own environment that the CLI of source `index` may see.
    pub(crate) fn child_env(&self, index: usize) -> &[(OsString, OsString)] {
        self.child_env.get(index).map_or(&[], Vec::as_slice)
    }

    /// Name the bridge in every child's `OVERHEID_FOREIGN_PROCESSOR` (AUDIT-20): over HTTP its
    /// RFC 9728 resource URL, over stdio the host's own value or [`STDIO_PROCESSOR`]. Set once,
    /// before the first call; a second call changes nothing.
    pub(crate) fn name_processor(&self, processor: String) {
        let _ = self.processor.set(processor);
    }

    /// What the bridge calls itself in the CLIs' audit records.
    pub(crate) fn processor(&self) -> &str {
        self.processor.get().map_or(STDIO_PROCESSOR, String::as_str)
    }

    /// The validator of a tool's `inputSchema` as checked (its own schema plus `fields`).
    pub(crate) fn validator(&self, tool: &Tool) -> Result<Arc<Validator>, String> {
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

//! The server's identity, as `initialize` gives it and as every 2026-07-28 result names it
//! under `_meta`: one place for the handler and for the results of calls and reads.

use serde_json::{Value, json};

/// The `_meta` key under which a 2026-07-28 result names its server (SHOULD, on every result).
pub(crate) const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";

/// The server's identity: `serverInfo` of `initialize`, and `_meta[SERVER_INFO_KEY]` of results.
pub(crate) fn server_info() -> Value {
    json!({"name": "overheid-mcp", "title": "Overheid-CLI's", "version": env!("CARGO_PKG_VERSION")})
}

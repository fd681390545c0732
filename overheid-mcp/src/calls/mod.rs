//! Serving one request: the bridge's state shared by every request (`bridge`), a tool call that
//! runs a CLI (`call`), what the client hears meanwhile (`notify`), resource reads and
//! completions (which are tool calls too), and what never reaches a client (`server_paths`).
//! The form a client asks its results in is [`crate::shape`], which proposals use too.

pub(crate) mod bridge;
pub(crate) mod call;
pub(crate) mod completions;
pub(crate) mod list_cache;
pub(crate) mod notify;
pub(crate) mod resource;
pub(crate) mod server_info;
pub(crate) mod server_paths;

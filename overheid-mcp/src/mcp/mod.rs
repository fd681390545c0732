//! The MCP server: rmcp's handler over both protocol eras (`handler`), one incoming message
//! checked as text (`incoming`), and MCP over stdin/stdout (`stdio`). HTTP is the floor above.

pub(crate) mod handler;
pub(crate) mod incoming;
pub(crate) mod stdio;

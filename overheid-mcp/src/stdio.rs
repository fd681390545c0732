//! MCP over stdin/stdout with rmcp's line transport: one message per line, at most
//! [`MAX_MESSAGE_BYTES`] (a longer line is dropped without being held, and the bridge reads on).
//! The first message picks the era: `initialize` opens a 2025-11-25 session, a request with the
//! 2026-07-28 `_meta` is served without one.

use std::sync::Arc;

use rmcp::ServiceExt;
use rmcp::transport::async_rw::AsyncRwTransport;

use crate::bridge::Bridge;
use crate::handler::Handler;

/// Largest incoming message in bytes (profile §3.2).
pub const MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;

/// Serve until stdin ends; calls still running are cancelled (their process groups killed).
pub fn serve(bridge: Arc<Bridge>) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("geen runtime: {e}"))?;
    runtime.block_on(async move {
        let transport = AsyncRwTransport::new_server(tokio::io::stdin(), tokio::io::stdout())
            .with_max_line_length(MAX_MESSAGE_BYTES);
        match Handler::new(bridge).serve(transport).await {
            Ok(service) => {
                let _ = service.waiting().await;
                Ok(())
            }
            // The client went away before or during the handshake: nothing is left to serve.
            Err(_) => Ok(()),
        }
    })
}

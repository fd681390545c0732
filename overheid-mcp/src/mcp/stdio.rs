//! MCP over stdin/stdout: one message per line, at most [`MAX_MESSAGE_BYTES`] (a longer line is
//! dropped without being held and answered with -32600 and `id: null`, and the bridge reads on). The first message picks the era:
//! `initialize` opens a 2025-11-25 session, a request with the 2026-07-28 `_meta` is served
//! without one.
//!
//! The transport is the bridge's own, not rmcp's `AsyncRwTransport`: that one drops a line
//! that is not UTF-8 or not JSON without a word (rmcp issue #938), and serde_json refuses a
//! lone surrogate, so such a request would never be answered. Here every line first passes
//! [`crate::mcp::incoming::check`]: a parse error is answered with -32700 and `id: null`, a lone
//! surrogate becomes U+FFFD; a JSON value that is no JSON-RPC message is -32600.

use std::future::Future;
use std::sync::Arc;

use rmcp::ServiceExt;
use rmcp::model::RequestId;
use rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

use crate::calls::bridge::Bridge;
use crate::mcp::handler::Handler;
use crate::mcp::incoming;

/// Largest incoming message in bytes (profile §3.2).
pub(crate) const MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;

/// Serve until stdin ends; calls still running are cancelled (their process groups killed).
pub(crate) fn serve(bridge: Arc<Bridge>) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("geen runtime: {e}"))?;
    runtime.block_on(async move {
        let transport = Lines::new(tokio::io::stdin(), tokio::io::stdout());
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

/// Newline-delimited JSON-RPC over a reader and a writer.
pub(crate) struct Lines<R, W> {
    read: BufReader<R>,
    /// The line read so far: it survives a cancelled `receive` (rmcp polls it in a `select!`).
    line: Vec<u8>,
    /// Skipping the rest of a line that was too long.
    discarding: bool,
    /// The line just ended was too long: it gets its answer before the next is read.
    dropped: bool,
    write: Arc<Mutex<W>>,
}

impl<R: AsyncRead + Unpin, W: AsyncWrite + Unpin> Lines<R, W> {
    pub(crate) fn new(read: R, write: W) -> Self {
        Self {
            read: BufReader::new(read),
            line: Vec::new(),
            discarding: false,
            dropped: false,
            write: Arc::new(Mutex::new(write)),
        }
    }

    /// The next whole line (without its `\n`) in `self.line`; `false` at the end of input.
    /// Never holds more than [`MAX_MESSAGE_BYTES`]: a longer line is dropped as it arrives.
    async fn next_line(&mut self) -> bool {
        loop {
            let Ok(available) = self.read.fill_buf().await else {
                return false;
            };
            if available.is_empty() {
                return false;
            }
            let newline = available.iter().position(|b| *b == b'\n');
            let take = newline.map_or(available.len(), |at| at + 1);
            if !self.discarding {
                if self.line.len() + take > MAX_MESSAGE_BYTES + 1 {
                    self.line.clear();
                    self.line.shrink_to(64 * 1024);
                    self.discarding = true;
                } else {
                    self.line.extend_from_slice(&available[..take]);
                }
            }
            self.read.consume(take);
            if newline.is_some() {
                if std::mem::take(&mut self.discarding) {
                    self.dropped = true;
                    return true;
                }
                self.line.pop();
                if self.line.last() == Some(&b'\r') {
                    self.line.pop();
                }
                return true;
            }
        }
    }
}

impl<W: AsyncWrite + Unpin + Send + 'static> Lines<tokio::io::Stdin, W> {
    /// Write one message, whole, as one line.
    fn write_line(
        &self,
        mut line: Vec<u8>,
    ) -> impl Future<Output = Result<(), std::io::Error>> + Send + 'static {
        let write = Arc::clone(&self.write);
        line.push(b'\n');
        async move {
            let mut write = write.lock().await;
            write.write_all(&line).await?;
            write.flush().await
        }
    }

    /// Answer a line that got no message (sent by its own task, so a cancelled `receive`
    /// never loses it).
    fn answer(&self, error: &Value) {
        let line = error.to_string().into_bytes();
        tokio::spawn(self.write_line(line));
    }
}

impl<W: AsyncWrite + Unpin + Send + 'static> Transport<RoleServer> for Lines<tokio::io::Stdin, W> {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let line = serde_json::to_vec(&item).map_err(std::io::Error::other);
        let write = line.map(|line| self.write_line(line));
        async move { write?.await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if !self.next_line().await {
                return None;
            }
            if std::mem::take(&mut self.dropped) {
                // Its id went with the bytes that were not kept: JSON-RPC's `null`.
                self.answer(&too_long());
                continue;
            }
            let line = std::mem::take(&mut self.line);
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let parsed = match incoming::check(&line) {
                Err(unparsable) => {
                    self.answer(&unparsable.response());
                    continue;
                }
                Ok(text) => serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(&text)
                    .map_err(|_| serde_json::from_slice::<Value>(&text).unwrap_or_default()),
            };
            // Keep the buffer's allocation for the next line.
            self.line = line;
            self.line.clear();
            match parsed {
                Ok(message) => return Some(message),
                Err(value) => {
                    if let Some(error) = invalid_request(&value) {
                        self.answer(&error);
                    }
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.write.lock().await.flush().await
    }
}

/// The answer to a line over [`MAX_MESSAGE_BYTES`]: -32600 with `id: null` (the line was not
/// kept, so neither was its id); nothing of it ran.
fn too_long() -> Value {
    json!({"jsonrpc": "2.0", "id": null, "error": {
        "code": -32600,
        "message": format!(
            "Invalid Request: bericht groter dan 4 MiB ({MAX_MESSAGE_BYTES} bytes); niet gelezen en \
             niet uitgevoerd"
        ),
    }})
}

/// The answer to JSON that is no message rmcp knows: -32600 for a request (its id when rmcp
/// can hold it, else `null`); nothing for a notification (JSON-RPC answers none, and rmcp
/// ignores notifications it does not know).
fn invalid_request(value: &Value) -> Option<Value> {
    let id = value.get("id")?;
    let id = serde_json::from_value::<RequestId>(id.clone())
        .ok()
        .map_or(Value::Null, |_| id.clone());
    Some(json!({"jsonrpc": "2.0", "id": id, "error": {
        "code": -32600,
        "message": "Invalid Request: geen geldig JSON-RPC-bericht (jsonrpc \"2.0\", method, en een id \
                    die een tekst of een geheel getal binnen 64 bits is)",
    }}))
}

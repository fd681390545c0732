//! JSON-RPC 2.0 framing for MCP over stdio: one message per line, in and out.
//!
//! Incoming lines are classified into requests, notifications and (ignored)
//! responses; outgoing messages are written whole, one per line, under a lock so
//! that answers from call threads never interleave.

use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{Value, json};

/// Invalid JSON was received.
pub const PARSE_ERROR: i64 = -32700;
/// The JSON sent is not a valid request object.
pub const INVALID_REQUEST: i64 = -32600;
/// The method does not exist.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// Invalid method parameters (also: unknown tool).
pub const INVALID_PARAMS: i64 = -32602;
/// Internal JSON-RPC error.
pub const INTERNAL_ERROR: i64 = -32603;
/// MCP 2025-11-25: a resource URI that no template serves.
pub const RESOURCE_NOT_FOUND: i64 = -32002;

/// A protocol-level error: becomes a JSON-RPC `error` member.
#[derive(Debug)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl RpcError {
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }

    #[must_use]
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }
}

/// One classified incoming message.
#[derive(Debug)]
pub enum Incoming {
    Request {
        id: Value,
        method: String,
        params: Value,
    },
    Notification {
        method: String,
        params: Value,
    },
    /// A response to a request we never send; ignored.
    Response,
}

/// Classify one line. `Err` carries the error response to send back.
pub fn parse(line: &str) -> Result<Incoming, Value> {
    let value: Value = serde_json::from_str(line).map_err(|e| {
        error_response(
            &Value::Null,
            &RpcError::new(PARSE_ERROR, format!("Ongeldige JSON: {e}")),
        )
    })?;
    let Value::Object(message) = value else {
        return Err(error_response(
            &Value::Null,
            &RpcError::new(
                INVALID_REQUEST,
                "Een bericht moet één JSON-object zijn (geen batch)",
            ),
        ));
    };
    let id = message.get("id").cloned();
    let invalid = |reason: &str| {
        error_response(
            id.as_ref().unwrap_or(&Value::Null),
            &RpcError::new(INVALID_REQUEST, reason),
        )
    };
    if message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(invalid("jsonrpc moet \"2.0\" zijn"));
    }
    let Some(method) = message.get("method") else {
        if message.contains_key("result") || message.contains_key("error") {
            return Ok(Incoming::Response);
        }
        return Err(invalid("method ontbreekt"));
    };
    let Some(method) = method.as_str().map(str::to_string) else {
        return Err(invalid("method moet een tekst zijn"));
    };
    let params = message.get("params").cloned().unwrap_or(Value::Null);
    if !(params.is_null() || params.is_object() || params.is_array()) {
        return Err(invalid("params moet een object zijn"));
    }
    match id {
        None => Ok(Incoming::Notification { method, params }),
        Some(id @ (Value::String(_) | Value::Number(_))) => {
            Ok(Incoming::Request { id, method, params })
        }
        Some(_) => Err(invalid("id moet een tekst of getal zijn")),
    }
}

/// A success response.
pub fn result_response(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// An error response.
pub fn error_response(id: &Value, error: &RpcError) -> Value {
    let mut body = json!({"code": error.code, "message": error.message});
    if let Some(data) = &error.data {
        body["data"] = data.clone();
    }
    json!({"jsonrpc": "2.0", "id": id, "error": body})
}

/// Shared, line-oriented writer for outgoing messages.
#[derive(Clone)]
pub struct Outbox {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Outbox {
    pub fn new(sink: Box<dyn Write + Send>) -> Self {
        Self {
            sink: Arc::new(Mutex::new(sink)),
        }
    }

    /// Write one message as one line. A closed stdout means the client is gone:
    /// there is nobody left to tell, so the error is dropped.
    pub fn send(&self, message: &Value) {
        let mut line = message.to_string();
        line.push('\n');
        let mut sink = self.sink.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = sink.write_all(line.as_bytes()).and_then(|()| sink.flush());
    }
}

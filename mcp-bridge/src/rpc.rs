//! JSON-RPC 2.0 framing for MCP over stdio: one message per line, in and out.
//!
//! Incoming lines are classified into requests, notifications and (ignored)
//! responses; outgoing messages are written whole, one per line, under a lock so
//! that answers from call threads never interleave.

use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError};

use std::collections::HashMap;

use serde_json::value::RawValue;
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

/// A request id exactly as the client wrote it (a JSON string or number), echoed byte for byte.
///
/// The id never goes through a JSON number type, so `12345678901234567890123` or `1.50` come
/// back as sent, whatever number features `serde_json` is built with.
#[derive(Clone, Debug)]
pub struct Id(Option<Box<RawValue>>);

impl Id {
    /// The id of a response to a message whose id cannot be read.
    pub fn null() -> Self {
        Self(None)
    }

    /// `Some` when `raw` is a valid JSON-RPC id: a string or a number.
    pub fn from_raw(raw: &RawValue) -> Option<Self> {
        matches!(
            raw.get().as_bytes().first(),
            Some(b'"' | b'-' | b'0'..=b'9')
        )
        .then(|| Self(Some(raw.to_owned())))
    }

    /// The id as JSON text, as the client wrote it.
    pub fn raw(&self) -> &str {
        self.0.as_deref().map_or("null", RawValue::get)
    }

    /// A key that is equal for equal ids: a string by its value (however it was escaped), a
    /// number by its text.
    pub fn key(&self) -> String {
        match serde_json::from_str::<String>(self.raw()) {
            Ok(text) => Value::String(text).to_string(),
            Err(_) => self.raw().to_string(),
        }
    }

    /// The id in member `name` of the JSON object `raw` (`requestId` of a cancellation).
    pub fn member(raw: Option<&RawValue>, name: &str) -> Option<Self> {
        let members: HashMap<String, &RawValue> = serde_json::from_str(raw?.get()).ok()?;
        Self::from_raw(members.get(name)?)
    }
}

/// One classified incoming message.
#[derive(Debug)]
pub enum Incoming {
    Request {
        id: Id,
        method: String,
        params: Value,
    },
    Notification {
        method: String,
        /// `params` as sent, so ids inside it (`requestId`) keep their text.
        raw_params: Option<Box<RawValue>>,
    },
    /// A response to a request we never send; ignored.
    Response,
}

/// Classify one line. `Err` carries the error response to send back.
///
/// Only the members are split; `id` stays raw text and only `method` and `params` are parsed.
pub fn parse(line: &str) -> Result<Incoming, String> {
    let raw: &RawValue = serde_json::from_str(line).map_err(|e| {
        error_response(
            &Id::null(),
            &RpcError::new(PARSE_ERROR, format!("Ongeldige JSON: {e}")),
        )
    })?;
    let not_an_object = || {
        error_response(
            &Id::null(),
            &RpcError::new(
                INVALID_REQUEST,
                "Een bericht moet één JSON-object zijn (geen batch)",
            ),
        )
    };
    if !raw.get().starts_with('{') {
        return Err(not_an_object());
    }
    let message: HashMap<String, &RawValue> =
        serde_json::from_str(raw.get()).map_err(|_| not_an_object())?;
    let member = |name: &str| -> Option<Value> {
        message
            .get(name)
            .and_then(|raw| serde_json::from_str(raw.get()).ok())
    };
    let raw_id = message.get("id").copied();
    let id = raw_id.and_then(Id::from_raw);
    let reply_to = id.clone().unwrap_or_else(Id::null);
    let invalid = |reason: &str| error_response(&reply_to, &RpcError::new(INVALID_REQUEST, reason));
    if member("jsonrpc").as_ref().and_then(Value::as_str) != Some("2.0") {
        return Err(invalid("jsonrpc moet \"2.0\" zijn"));
    }
    let Some(method) = member("method") else {
        if message.contains_key("result") || message.contains_key("error") {
            return Ok(Incoming::Response);
        }
        return Err(invalid("method ontbreekt"));
    };
    let Some(method) = method.as_str().map(str::to_string) else {
        return Err(invalid("method moet een tekst zijn"));
    };
    let params = member("params").unwrap_or(Value::Null);
    if !(params.is_null() || params.is_object() || params.is_array()) {
        return Err(invalid("params moet een object zijn"));
    }
    match (raw_id, id) {
        (None, _) => Ok(Incoming::Notification {
            method,
            raw_params: message.get("params").map(|raw| (*raw).to_owned()),
        }),
        (Some(_), Some(id)) => Ok(Incoming::Request { id, method, params }),
        (Some(_), None) => Err(invalid("id moet een tekst of getal zijn")),
    }
}

/// A success response, as one line of JSON.
pub fn result_response(id: &Id, result: &Value) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{},"result":{result}}}"#, id.raw())
}

/// An error response, as one line of JSON.
pub fn error_response(id: &Id, error: &RpcError) -> String {
    let mut body = json!({"code": error.code, "message": error.message});
    if let Some(data) = &error.data {
        body["data"] = data.clone();
    }
    format!(r#"{{"jsonrpc":"2.0","id":{},"error":{body}}}"#, id.raw())
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
    pub fn send(&self, message: &str) {
        let mut line = message.to_string();
        line.push('\n');
        let mut sink = self.sink.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = sink.write_all(line.as_bytes()).and_then(|()| sink.flush());
    }
}

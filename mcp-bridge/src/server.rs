//! The MCP server loop: read a line (of bounded size, see [`crate::frame`]), answer it. Tool calls
//! and resource reads run on their own thread so that `ping`, lists and cancellations are
//! answered while a CLI works.
//!
//! Revision 2025-11-25 (2025-06-18 is accepted too). A client may skip `initialize`, as the
//! 2026-07-28 revision allows: every method works from the first line.

use std::io::BufRead;
use std::sync::Arc;
use std::thread::JoinHandle;

use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use common::trace::TraceContext;

use crate::bridge::Bridge;
use crate::call;
use crate::frame::{self, Frame};
use crate::resource;
use crate::rpc::{self, INVALID_PARAMS, Id, Incoming, METHOD_NOT_FOUND, Outbox, RpcError};

/// The revision this server implements.
pub const PROTOCOL_VERSION: &str = "2025-11-25";
/// Revisions a client may ask for in `initialize`.
const SUPPORTED_VERSIONS: &[&str] = &["2025-11-25", "2025-06-18"];

/// Serve until `input` ends, then stop the calls still running and wait for them.
pub fn serve(bridge: Arc<Bridge>, mut input: impl BufRead, outbox: Outbox) {
    let mut workers: Vec<JoinHandle<()>> = Vec::new();
    let mut line = Vec::new();
    loop {
        match frame::read(&mut input, &mut line) {
            Ok(Frame::End) | Err(_) => break,
            Ok(Frame::Oversized) => {
                outbox.send(&frame::oversized_response(&line));
                continue;
            }
            Ok(Frame::Message) => {}
        }
        let text = String::from_utf8_lossy(&line);
        if text.trim().is_empty() {
            continue;
        }
        match rpc::parse(text.trim()) {
            Err(response) => outbox.send(&response),
            Ok(Incoming::Response) => {}
            Ok(Incoming::Notification { method, raw_params }) => {
                notification(&bridge, &method, raw_params.as_deref())
            }
            Ok(Incoming::Request { id, method, params }) => {
                if method == "tools/call" || method == "resources/read" {
                    workers.push(spawn_slow(&bridge, &outbox, id, method, params));
                } else {
                    outbox.send(&respond(&id, quick(&bridge, &method, &params)));
                }
            }
        }
        workers.retain(|worker| !worker.is_finished());
    }
    bridge.cancel_all();
    for worker in workers {
        let _ = worker.join();
    }
}

fn respond(id: &Id, answer: Result<Value, RpcError>) -> String {
    match answer {
        Ok(result) => rpc::result_response(id, &result),
        Err(error) => rpc::error_response(id, &error),
    }
}

/// Methods answered at once on the reading thread.
fn quick(bridge: &Bridge, method: &str, params: &Value) -> Result<Value, RpcError> {
    let catalog = &bridge.catalog;
    match method {
        "initialize" => Ok(initialize(params)),
        "ping" => Ok(json!({})),
        "tools/list" => {
            Ok(json!({"tools": catalog.tools.iter().map(|t| &t.listed).collect::<Vec<_>>()}))
        }
        "resources/list" => Ok(json!({"resources": []})),
        "resources/templates/list" => Ok(json!({
            "resourceTemplates": catalog.resources.iter().map(|r| &r.listed).collect::<Vec<_>>()
        })),
        _ => Err(RpcError::new(
            METHOD_NOT_FOUND,
            format!("Onbekende methode: {method}"),
        )),
    }
}

fn initialize(params: &Value) -> Value {
    let asked = params["protocolVersion"]
        .as_str()
        .unwrap_or(PROTOCOL_VERSION);
    let version = SUPPORTED_VERSIONS
        .iter()
        .find(|v| **v == asked)
        .copied()
        .unwrap_or(PROTOCOL_VERSION);
    json!({
        "protocolVersion": version,
        "capabilities": {"tools": {"listChanged": false}, "resources": {}},
        "serverInfo": {"name": "overheid-mcp", "title": "Overheid-CLI's", "version": env!("CARGO_PKG_VERSION")},
        "instructions": "Tools van de overheid-CLI's, elk als <bron>__<opdracht>. Vraag met fields alleen de velden \
            op die je nodig hebt. De herkomst van elk resultaat staat in _meta.\"nl.overheid/provenance\". \
            Muterende tools werken in twee stappen: zonder confirm krijg je een plan en plan_digest; \
            voer uit door dezelfde aanroep te herhalen met confirm=<plan_digest>."
    })
}

fn notification(bridge: &Bridge, method: &str, raw_params: Option<&RawValue>) {
    if method == "notifications/cancelled"
        && let Some(request) = Id::member(raw_params, "requestId")
    {
        bridge.cancel(&request.key());
    }
}

/// Run a tool call or resource read on its own thread; it answers when done.
fn spawn_slow(
    bridge: &Arc<Bridge>,
    outbox: &Outbox,
    id: Id,
    method: String,
    params: Value,
) -> JoinHandle<()> {
    let key = id.key();
    let killer = bridge.start_call(&key);
    let (bridge, outbox) = (Arc::clone(bridge), outbox.clone());
    std::thread::spawn(move || {
        let trace = TraceContext::start(params["_meta"]["traceparent"].as_str());
        let answer = if method == "tools/call" {
            tools_call(&bridge, &params, &trace, &killer)
        } else {
            match params["uri"].as_str() {
                Some(uri) => resource::read(&bridge, uri, &trace, &killer),
                None => Err(RpcError::new(INVALID_PARAMS, "uri ontbreekt")),
            }
        };
        bridge.end_call(&key);
        match answer {
            Ok(None) => {} // cancelled: the client expects no answer
            Ok(Some(result)) => outbox.send(&rpc::result_response(&id, &result)),
            Err(error) => outbox.send(&rpc::error_response(&id, &error)),
        }
    })
}

fn tools_call(
    bridge: &Bridge,
    params: &Value,
    trace: &TraceContext,
    killer: &crate::child::Killer,
) -> Result<Option<Value>, RpcError> {
    let name = params["name"]
        .as_str()
        .ok_or_else(|| RpcError::new(INVALID_PARAMS, "name ontbreekt"))?;
    let tool = bridge
        .catalog
        .tool(name)
        .ok_or_else(|| RpcError::new(INVALID_PARAMS, format!("Onbekende tool: {name}")))?;
    let arguments = match &params["arguments"] {
        Value::Null => Map::new(),
        Value::Object(arguments) => arguments.clone(),
        _ => {
            return Err(RpcError::new(
                INVALID_PARAMS,
                "arguments moet een object zijn",
            ));
        }
    };
    Ok(call::tool_result(call::run(
        bridge, tool, &arguments, trace, killer,
    )))
}

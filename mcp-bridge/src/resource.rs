//! `resources/read`: a URI matched against the declared templates, served by the mapped tool.
//!
//! Reading `koop://regeling/BWBR0018451` is the tool call with `{"bwb_id": "BWBR0018451"}`
//! and no other arguments (RES-5); the content is the command's JSON data.

use serde_json::{Map, Value, json};

use common::exit::ExitStatus;
use common::trace::TraceContext;

use crate::bridge::Bridge;
use crate::call::{self, Outcome};
use crate::catalog::META_PREFIX;
use crate::child::Killer;
use crate::rpc::{INTERNAL_ERROR, INVALID_PARAMS, RESOURCE_NOT_FOUND, RpcError};

/// Read `uri`. `Ok(None)` when the client cancelled.
pub fn read(
    bridge: &Bridge,
    uri: &str,
    trace: &TraceContext,
    killer: &Killer,
) -> Result<Option<Value>, RpcError> {
    let found = bridge
        .catalog
        .resources
        .iter()
        .find_map(|resource| Some((resource, resource.template.match_uri(uri)?)));
    let Some((resource, variables)) = found else {
        return Err(RpcError::new(RESOURCE_NOT_FOUND, "Resource niet gevonden")
            .with_data(json!({"uri": uri})));
    };
    let tool = &bridge.catalog.tools[resource.tool];
    let properties = &tool.entry["inputSchema"]["properties"];
    let arguments: Map<String, Value> = variables
        .into_iter()
        .map(|(name, text)| {
            let value = typed(&properties[&name], text);
            (name, value)
        })
        .collect();
    match call::run(bridge, tool, &arguments, trace, killer) {
        Outcome::Data { data, provenance } => Ok(Some(json!({
            "contents": [{"uri": uri, "mimeType": "application/json", "text": data.to_string()}],
            "_meta": { format!("{META_PREFIX}/provenance"): provenance },
        }))),
        Outcome::Cancelled => Ok(None),
        Outcome::Proposal { .. } => {
            Err(RpcError::new(INTERNAL_ERROR, "Resource-tool wilde muteren"))
        }
        Outcome::Failed { error, .. } => {
            let status = error["exit_code"]
                .as_u64()
                .and_then(|code| u8::try_from(code).ok())
                .and_then(ExitStatus::from_code);
            let (code, message) = match status {
                Some(ExitStatus::NotFound) => (RESOURCE_NOT_FOUND, "Resource niet gevonden"),
                Some(ExitStatus::Usage | ExitStatus::DataErr) => {
                    (INVALID_PARAMS, "Ongeldige resource-URI")
                }
                _ => (INTERNAL_ERROR, "Resource kon niet worden gelezen"),
            };
            let mut data = error;
            data["uri"] = json!(uri);
            Err(RpcError::new(code, message).with_data(data))
        }
    }
}

/// A template variable as the JSON type its property wants (templates only carry text).
fn typed(property: &Value, text: String) -> Value {
    let wants = |t: &str| {
        property["type"] == t
            || property["type"]
                .as_array()
                .is_some_and(|ts| ts.iter().any(|x| x == t))
    };
    if wants("string") {
        return Value::String(text);
    }
    if wants("integer")
        && let Ok(number) = text.parse::<i64>()
    {
        return number.into();
    }
    if wants("number")
        && let Some(number) = text
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
    {
        return Value::Number(number);
    }
    if wants("boolean") && (text == "true" || text == "false") {
        return Value::Bool(text == "true");
    }
    Value::String(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_variables_to_the_property_type() {
        assert_eq!(typed(&json!({"type": "integer"}), "12".into()), json!(12));
        assert_eq!(typed(&json!({"type": "integer"}), "x".into()), json!("x"));
        assert_eq!(
            typed(&json!({"type": ["string", "null"]}), "12".into()),
            json!("12")
        );
        assert_eq!(
            typed(&json!({"type": "boolean"}), "true".into()),
            json!(true)
        );
        assert_eq!(typed(&json!({}), "5.15".into()), json!("5.15"));
    }
}

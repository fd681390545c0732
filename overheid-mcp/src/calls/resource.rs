//! `resources/read`: a URI matched against the declared templates, served by the mapped tool.
//!
//! Reading `koop://regeling/BWBR0018451` is the tool call with `{"bwb_id": "BWBR0018451"}`
//! and no other arguments (RES-5); the content is the command's JSON data.

use std::future::Future;

use serde_json::{Map, Value, json};

use common::exit::ExitStatus;
use common::trace::TraceContext;

use rmcp::ErrorData;
use rmcp::model::ErrorCode;

use crate::calls::bridge::Bridge;
use common::provenance::ProvenanceForm;

use crate::calls::call::{self, Invocation, Outcome};
use crate::calls::notify::Notifier;
use crate::calls::server_info::{SERVER_INFO_KEY, server_info};
use crate::catalog::META_PREFIX;
use crate::identity::session::Session;

/// How long a client may keep a resource that holds no company data, in milliseconds.
pub(crate) const PUBLIC_TTL_MS: u64 = 300_000;

/// Read `uri` (a `ReadResourceResult` as JSON). `Ok(None)` when the client cancelled.
///
/// Company data (a resource whose tool is session-bound, or a view of the session's own company,
/// which is read only with an identity) is `cacheScope: private` with `ttlMs: 0`; anything else
/// is `public` for [`PUBLIC_TTL_MS`].
pub(crate) async fn read(
    bridge: &Bridge,
    uri: &str,
    session: Option<&Session>,
    trace: &TraceContext,
    notifier: &Notifier,
    cancelled: impl Future<Output = ()>,
) -> Result<Option<Value>, ErrorData> {
    let found = bridge
        .catalog
        .resources
        .iter()
        .find_map(|resource| Some((resource, resource.template.match_uri(uri)?)));
    let Some((resource, variables)) = found else {
        return Err(ErrorData::resource_not_found(
            "Resource niet gevonden",
            Some(json!({"uri": uri})),
        ));
    };
    if resource.private && session.is_none() {
        return Err(ErrorData::invalid_params(
            "Deze resource gaat over het bedrijf van de sessie, en deze aanvraag heeft geen \
             sessie (geen identiteit van de host of uit het token).",
            Some(json!({"uri": uri})),
        ));
    }
    let tool = &bridge.catalog.tools[resource.tool];
    let properties = &tool.entry["inputSchema"]["properties"];
    let arguments: Map<String, Value> = variables
        .into_iter()
        .map(|(name, text)| {
            let value = typed(&properties[&name], text);
            (name, value)
        })
        .collect();
    let invocation = Invocation {
        tool,
        arguments: &arguments,
        session,
        client: None,
        provenance: ProvenanceForm::Full,
        notifier: Some(notifier),
    };
    let private = resource.private || !tool.session_args.is_empty();
    match call::run(bridge, &invocation, trace, cancelled).await? {
        Outcome::Data {
            text, provenance, ..
        } => Ok(Some(json!({
            "contents": [{"uri": uri, "mimeType": "application/json", "text": text}],
            "ttlMs": if private { 0 } else { PUBLIC_TTL_MS },
            "cacheScope": if private { "private" } else { "public" },
            "resultType": "complete",
            "_meta": {
                format!("{META_PREFIX}/provenance"): provenance,
                SERVER_INFO_KEY: server_info(),
            },
        }))),
        Outcome::Cancelled => Ok(None),
        Outcome::Planned { .. } => Err(ErrorData::internal_error(
            "Resource-tool wilde muteren",
            None,
        )),
        Outcome::Failed { error, .. } => {
            let status = error["exit_code"]
                .as_u64()
                .and_then(|code| u8::try_from(code).ok())
                .and_then(ExitStatus::from_code);
            let (code, message) = match status {
                Some(ExitStatus::NotFound) => {
                    (ErrorCode::RESOURCE_NOT_FOUND, "Resource niet gevonden")
                }
                Some(ExitStatus::Usage | ExitStatus::DataErr) => {
                    (ErrorCode::INVALID_PARAMS, "Ongeldige resource-URI")
                }
                _ => (
                    ErrorCode::INTERNAL_ERROR,
                    "Resource kon niet worden gelezen",
                ),
            };
            let mut data = error;
            data["uri"] = json!(uri);
            Err(ErrorData::new(code, message, Some(data)))
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

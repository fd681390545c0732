//! URL-mode elicitation of a waiting proposal's link, in each protocol era.
//!
//! The person's side happens in their own browser, outside the client: the client only shows the
//! link and says whether the person went there (`accept`), which is never an approval. Form mode is
//! not used at all: a form answer proves only that a client answered (a headless client can
//! auto-accept), so it neither approves nor declines; declining is the person's act on the page
//! (Afwijzen) or at the terminal, and an unanswered proposal expires.
//! - 2026-07-28, a client that declared `elicitation.url`: an `InputRequiredResult` whose one input
//!   request is the url-mode `elicitation/create`, with a sealed `requestState`; the retry runs the
//!   call again and gets a complete result, whatever the person did.
//! - 2025-11-25 over stdio, a client that declared `elicitation.url` in `initialize`: an
//!   `elicitation/create` request with `mode: "url"`, then the call runs again.
//! - 2025-11-25 over HTTP: the stateless server does not keep `initialize`, so it cannot know the
//!   client's capabilities; a call that cannot proceed until the person acts (applying a proposal
//!   that is still open) fails with -32042, the elicitation in its `data` and the whole instruction
//!   in its message, so a client that does not know the error still shows the link.
//! - Every other client (and stdio without an approval page, where there is no link) gets the
//!   complete result of [`Waiting::result`].

use rmcp::ErrorData;
use rmcp::model::ErrorCode;
use serde_json::{Value, json};

use super::Waiting;

/// The key of the one input request in an `InputRequiredResult`.
pub(crate) const INPUT_KEY: &str = "goedkeuring";

/// JSON-RPC error: the request needs URL elicitations completed first (MCP 2025-11-25).
pub(crate) const URL_ELICITATION_REQUIRED: ErrorCode = ErrorCode(-32042);

/// The message the client shows next to the link.
fn message(waiting: &Waiting) -> String {
    let what = waiting
        .data
        .get("plan")
        .and_then(|plan| plan.get("effect"))
        .and_then(Value::as_str)
        .unwrap_or("Een voorstel wacht op uw goedkeuring.");
    format!(
        "{what}\nOpen de link in uw eigen browser, log in en kies Goedkeuren of Afwijzen. Voorstel: {}.",
        waiting.id
    )
}

/// The params of the url-mode `elicitation/create` (`None` without an approval page).
pub(crate) fn params(waiting: &Waiting) -> Option<Value> {
    let url = waiting.url.as_ref()?;
    Some(json!({
        "mode": "url",
        "elicitationId": format!("voorstel-{}", waiting.id),
        "url": url,
        "message": message(waiting),
    }))
}

/// The 2026-07-28 `InputRequiredResult` asking the client to show the link.
pub(crate) fn input_required(waiting: &Waiting, state: &str, meta: Option<Value>) -> Option<Value> {
    let params = params(waiting)?;
    let mut result = json!({
        "resultType": "input_required",
        "inputRequests": {INPUT_KEY: {"method": "elicitation/create", "params": params}},
        "requestState": state,
    });
    if let Some(meta) = meta {
        result["_meta"] = meta;
    }
    Some(result)
}

/// The -32042 error of a 2025-11-25 call over HTTP that waits for the person.
pub(crate) fn required_error(waiting: &Waiting) -> Option<ErrorData> {
    let params = params(waiting)?;
    Some(ErrorData::new(
        URL_ELICITATION_REQUIRED,
        waiting.instruction(),
        Some(json!({"elicitations": [params], "voorstel": waiting.structured()})),
    ))
}

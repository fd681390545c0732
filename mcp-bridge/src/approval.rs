//! Approval of a mutation by a person, through MCP 2026-07-28 multi round-trip requests (SEP-2322).
//!
//! A client that declares form elicitation gets, for a mutating tool, the CLI's dry run as an
//! `InputRequiredResult`: an elicitation that shows what will be done, for whom, when and the plan
//! digest, and a sealed `requestState` (rmcp's HMAC-SHA256 [`RequestStateCodec`]) that carries the
//! digest and is bound to the tool, a hash of the arguments, the principal and an expiry. Only the
//! retry that brings that state back with `accept` runs the CLI with `--confirm=<digest>`; the CLI
//! checks the digest against the plan of these arguments once more (MUT-6) and files at most once
//! (MUT-9). Nothing in the process is kept between the rounds, so any replica with the same key
//! (`OVERHEID_MCP_STATE_KEY`) answers the retry.

use std::time::Duration;

use rmcp::model::{RequestStateCodec, SealOptions};
use serde_json::{Map, Value, json};

/// How long a person has to answer.
pub const APPROVAL_TTL: Duration = Duration::from_secs(600);

/// The key of the one input request.
pub const INPUT_KEY: &str = "akkoord";

/// Smallest accepted `OVERHEID_MCP_STATE_KEY`, in bytes.
pub const MIN_KEY_BYTES: usize = 32;

/// Seals and opens the approval state.
pub struct Approval {
    codec: RequestStateCodec,
}

/// What the retry's `inputResponses` said.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer {
    Accept,
    Decline,
    Cancel,
}

impl Approval {
    /// From `OVERHEID_MCP_STATE_KEY` (`Err` when too short); without it a random key.
    /// The second value is true when the key is random (replicas will not interoperate).
    pub fn new(key: Option<&[u8]>) -> Result<(Self, bool), String> {
        let (key, random) = match key {
            Some(key) if key.len() >= MIN_KEY_BYTES => (key.to_vec(), false),
            Some(_) => {
                return Err(format!(
                    "OVERHEID_MCP_STATE_KEY moet minstens {MIN_KEY_BYTES} bytes lang zijn"
                ));
            }
            None => {
                let mut key = vec![0u8; MIN_KEY_BYTES];
                getrandom::fill(&mut key).map_err(|e| format!("geen willekeurige sleutel: {e}"))?;
                (key, true)
            }
        };
        let codec = RequestStateCodec::try_new(key).map_err(|e| e.to_string())?;
        Ok((Self { codec }, random))
    }

    /// The sealed state of a proposal: the digest, bound to tool, arguments and principal.
    pub fn seal(
        &self,
        tool: &str,
        arguments: &Map<String, Value>,
        principal: &str,
        digest: &str,
    ) -> String {
        let bound = binding(tool, arguments, principal);
        let payload = json!({"digest": digest}).to_string();
        self.codec.seal_with(
            payload.as_bytes(),
            &SealOptions::new()
                .associated_data(bound.as_bytes())
                .ttl(APPROVAL_TTL),
        )
    }

    /// The digest in `state`, when it was sealed here for this tool, these arguments and this
    /// principal and has not expired.
    pub fn open(
        &self,
        state: &str,
        tool: &str,
        arguments: &Map<String, Value>,
        principal: &str,
    ) -> Result<String, String> {
        let bound = binding(tool, arguments, principal);
        let payload = self
            .codec
            .open_with(state, bound.as_bytes())
            .map_err(|e| e.to_string())?;
        let payload: Value = serde_json::from_slice(&payload).map_err(|e| e.to_string())?;
        payload["digest"]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| "geen digest in de staat".to_string())
    }
}

/// What the state is bound to: the method, the tool, the SHA-256 of the arguments (canonical,
/// without `confirm`) and the principal.
fn binding(tool: &str, arguments: &Map<String, Value>, principal: &str) -> String {
    let mut arguments = arguments.clone();
    arguments.remove("confirm");
    let canonical = common::digest::canonical_json(&Value::Object(arguments));
    let hex = common::digest::sha256_hex(canonical.as_bytes());
    format!("tools/call\n{tool}\n{hex}\n{principal}")
}

/// The answer in a retry's `inputResponses[INPUT_KEY]` (`None`: no answer to our request).
pub fn answer(response: Option<&Value>) -> Option<Answer> {
    let response = response?;
    match response["action"].as_str()? {
        "accept" if response["content"][INPUT_KEY] == true => Some(Answer::Accept),
        "accept" | "decline" => Some(Answer::Decline),
        "cancel" => Some(Answer::Cancel),
        _ => None,
    }
}

/// The elicitation request (`elicitation/create`, form mode) that shows a person the plan.
pub fn input_request(plan: &Value, digest: &str, principal: &str) -> Value {
    let subject = match principal {
        "-" => "niet vastgesteld (geen sessie)".to_string(),
        other => other.replace('&', ", ").replace('=', " "),
    };
    let effect = plan["effect"]
        .as_str()
        .unwrap_or("Voert een muterende opdracht uit.");
    let when = match plan["peildatum"].as_str() {
        Some(date) => format!("direct na uw akkoord (peildatum {date})"),
        None => "direct na uw akkoord".to_string(),
    };
    let message = format!(
        "{effect}\n\nOpdracht: {command}\nVoor: {subject}\nWanneer: {when}\nGegevens: {arguments}\n\
         Plan-digest: {digest}\n\nAkkoord om dit uit te voeren?",
        command = plan["command"].as_str().unwrap_or_default(),
        arguments = plan["arguments"],
    );
    json!({
        "method": "elicitation/create",
        "params": {
            "mode": "form",
            "message": message,
            "requestedSchema": {
                "type": "object",
                "properties": {
                    INPUT_KEY: {"type": "boolean", "title": "Uitvoeren", "description": format!("Ja: voer {digest} uit"), "default": false}
                },
                "required": [INPUT_KEY]
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Map<String, Value> {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn a_sealed_state_opens_only_for_its_tool_arguments_and_principal() {
        let (approval, random) = Approval::new(None).unwrap();
        assert!(random);
        let arguments = args(r#"{"b": 1, "a": {"y": 2, "x": 1}}"#);
        let state = approval.seal("rvo__x", &arguments, "kvk_nummer=1", "ab");
        let reordered = args(r#"{"a": {"x": 1, "y": 2}, "b": 1, "confirm": "cd"}"#);
        assert_eq!(
            approval
                .open(&state, "rvo__x", &reordered, "kvk_nummer=1")
                .unwrap(),
            "ab"
        );
        assert!(
            approval
                .open(&state, "rvo__y", &arguments, "kvk_nummer=1")
                .is_err()
        );
        assert!(
            approval
                .open(&state, "rvo__x", &args(r#"{"b": 2}"#), "kvk_nummer=1")
                .is_err()
        );
        assert!(
            approval
                .open(&state, "rvo__x", &arguments, "kvk_nummer=2")
                .is_err()
        );
        let mut forged = state.clone();
        forged.replace_range(forged.len() - 2.., "AA");
        assert!(
            approval
                .open(&forged, "rvo__x", &arguments, "kvk_nummer=1")
                .is_err()
        );
        let (other, _) = Approval::new(Some(&[7u8; 32])).unwrap();
        assert!(
            other
                .open(&state, "rvo__x", &arguments, "kvk_nummer=1")
                .is_err()
        );
        assert!(Approval::new(Some(b"kort")).is_err());
    }

    #[test]
    fn reads_the_answer() {
        let answer = |responses: Option<&Map<String, Value>>| {
            answer(responses.and_then(|r| r.get(INPUT_KEY)))
        };
        let accept = args(r#"{"akkoord": {"action": "accept", "content": {"akkoord": true}}}"#);
        assert_eq!(answer(Some(&accept)), Some(Answer::Accept));
        let unticked = args(r#"{"akkoord": {"action": "accept", "content": {"akkoord": false}}}"#);
        assert_eq!(answer(Some(&unticked)), Some(Answer::Decline));
        let cancel = args(r#"{"akkoord": {"action": "cancel"}}"#);
        assert_eq!(answer(Some(&cancel)), Some(Answer::Cancel));
        assert_eq!(
            answer(Some(&args(r#"{"ander": {"action": "accept"}}"#))),
            None
        );
        assert_eq!(answer(None), None);
    }
}

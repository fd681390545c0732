//! The sealed `requestState` of a URL elicitation round (MCP 2026-07-28 multi round-trip
//! requests, SEP-2322): rmcp's HMAC-SHA256 [`RequestStateCodec`] over the proposal id, bound to the
//! tool, a hash of the arguments, the principal and an expiry. The state approves nothing: the
//! retry runs the call again, and only the proposal's record decides whether anything is filed.
//! Nothing is kept between the rounds, so any replica with the same key
//! (`OVERHEID_MCP_STATE_KEY`) answers the retry.

use std::time::Duration;

use rmcp::model::{RequestStateCodec, SealOptions};
use serde_json::{Map, Value, json};

use crate::proposals::ApprovalAt;

/// How long a retry may come back.
pub(crate) const APPROVAL_TTL: Duration = Duration::from_secs(600);

/// Smallest accepted `OVERHEID_MCP_STATE_KEY`, in bytes.
pub(crate) const MIN_KEY_BYTES: usize = 32;

/// Where a person approves, and the sealing of elicitation rounds.
pub(crate) struct Approval {
    codec: RequestStateCodec,
    /// Where a person approves a proposal: the approval page, or the terminal.
    pub at: ApprovalAt,
}

impl Approval {
    /// From `OVERHEID_MCP_STATE_KEY` (`Err` when too short); without it a random key.
    /// The second value is true when the key is random (replicas will not interoperate).
    pub(crate) fn new(key: Option<&[u8]>) -> Result<(Self, bool), String> {
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
        Ok((
            Self {
                codec,
                at: ApprovalAt::Terminal,
            },
            random,
        ))
    }

    /// The sealed state of a round: the proposal id, bound to tool, arguments and principal.
    pub(crate) fn seal(
        &self,
        tool: &str,
        arguments: &Map<String, Value>,
        principal: &str,
        proposal: &str,
    ) -> String {
        let bound = binding(tool, arguments, principal);
        let payload = json!({"voorstel_id": proposal}).to_string();
        self.codec.seal_with(
            payload.as_bytes(),
            &SealOptions::new()
                .associated_data(bound.as_bytes())
                .ttl(APPROVAL_TTL),
        )
    }

    /// `payload` sealed for one `purpose` (the associated data) for `ttl`: the approval page's
    /// cookies and form tokens, keyed like every replica's.
    pub(crate) fn seal_for(&self, purpose: &str, payload: &[u8], ttl: Duration) -> String {
        self.codec.seal_with(
            payload,
            &SealOptions::new()
                .associated_data(purpose.as_bytes())
                .ttl(ttl),
        )
    }

    /// The payload of `token`, when it was sealed here for `purpose` and has not expired.
    pub(crate) fn open_for(&self, purpose: &str, token: &str) -> Option<Vec<u8>> {
        self.codec.open_with(token, purpose.as_bytes()).ok()
    }

    /// The proposal id in `state`, when it was sealed here for this tool, these arguments and
    /// this principal and has not expired.
    pub(crate) fn open(
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
        payload["voorstel_id"]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| "geen voorstel in de staat".to_string())
    }
}

/// What the state is bound to: the method, the tool, the SHA-256 of the arguments (canonical)
/// and the principal.
fn binding(tool: &str, arguments: &Map<String, Value>, principal: &str) -> String {
    let hex = common::digest::canonical_sha256(&Value::Object(arguments.clone()));
    format!("tools/call\n{tool}\n{hex}\n{principal}")
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
        let reordered = args(r#"{"a": {"x": 1, "y": 2}, "b": 1}"#);
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
}

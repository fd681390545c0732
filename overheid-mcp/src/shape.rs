//! How a successful result is sent: the client's choices per call, in the request's `_meta`.
//!
//! By default a success carries its data twice, as `structuredContent` and as one text block of
//! the same compact JSON (MCP's tools page: a tool that returns structured content SHOULD also
//! return the serialized JSON in a text block, for backwards compatibility), and the full
//! provenance in `_meta`. That default is what every host can read: some give a model only
//! `content` (MCP Apps hosts; the Apps extension keeps `structuredContent` out of the model's
//! context), others only `structuredContent` (Claude Code, Codex, opencode serialize it and drop
//! the text). A client that knows it reads `structuredContent` asks for the data once:
//!
//! - `"nl.overheid/text": "short"`: the text block is one fixed sentence that says where the data
//!   is, instead of the data again. Only where the era has `structuredContent` (2025-06-18 and
//!   later) and the result has it; otherwise the text block stays the data.
//! - `"nl.overheid/provenance"`: `"full"` (default), `"compact"` (PROV-1's compact form), or
//!   `"none"`: no provenance in `_meta`, as the CLI prints none without `--provenance`.
//!
//! Any other value is -32602.

use rmcp::ErrorData;
use serde_json::{Map, Value};

use common::provenance::ProvenanceForm;

/// The request's `_meta` key for the provenance a result carries (PROV-1).
pub(crate) const PROVENANCE_KEY: &str = "nl.overheid/provenance";
/// The request's `_meta` key for what the text block of a success carries.
pub(crate) const TEXT_KEY: &str = "nl.overheid/text";

/// The text block of a success sent in the short form: where the data is, and why.
pub(crate) const SHORT_TEXT: &str =
    "Het resultaat staat in structuredContent (gevraagd met _meta nl.overheid/text: short).";

/// The oldest revision with `structuredContent` and `outputSchema`.
const STRUCTURED_SINCE: &str = "2025-06-18";

/// How one call's success is sent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Shape {
    /// The provenance in `_meta`, in this form; `None`: none.
    pub provenance: Option<ProvenanceForm>,
    /// The text block is [`SHORT_TEXT`], not the data again (only where `structuredContent` is).
    pub short_text: bool,
}

impl Shape {
    /// The shape a request's `_meta` asks for; `version` is the request's protocol revision (the
    /// short text only applies from [`STRUCTURED_SINCE`] on).
    pub(crate) fn asked(
        meta: &Map<String, Value>,
        version: Option<&str>,
    ) -> Result<Self, ErrorData> {
        let provenance = match meta.get(PROVENANCE_KEY) {
            None => Some(ProvenanceForm::Full),
            Some(Value::String(form)) if form == "full" => Some(ProvenanceForm::Full),
            Some(Value::String(form)) if form == "compact" => Some(ProvenanceForm::Compact),
            Some(Value::String(form)) if form == "none" => None,
            Some(other) => {
                return Err(ErrorData::invalid_params(
                    format!(
                        "_meta.{PROVENANCE_KEY} moet \"full\", \"compact\" of \"none\" zijn, niet {other}"
                    ),
                    None,
                ));
            }
        };
        let short = match meta.get(TEXT_KEY) {
            None => false,
            Some(Value::String(form)) if form == "full" => false,
            Some(Value::String(form)) if form == "short" => true,
            Some(other) => {
                return Err(ErrorData::invalid_params(
                    format!("_meta.{TEXT_KEY} moet \"full\" of \"short\" zijn, niet {other}"),
                    None,
                ));
            }
        };
        Ok(Self {
            provenance,
            short_text: short && version.is_some_and(|v| v >= STRUCTURED_SINCE),
        })
    }

    /// The provenance the CLI is run with: the asked form, compact when none is sent.
    pub(crate) fn cli_provenance(self) -> ProvenanceForm {
        self.provenance.unwrap_or(ProvenanceForm::Compact)
    }

    /// The text block of a success whose data is `structured` (`None`: no `structuredContent`):
    /// `data` itself unless the short form applies.
    pub(crate) fn text(self, structured: bool, data: String) -> String {
        if self.short_text && structured {
            SHORT_TEXT.to_string()
        } else {
            data
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn asked(meta: Value, version: &str) -> Result<Shape, ErrorData> {
        Shape::asked(meta.as_object().unwrap(), Some(version))
    }

    #[test]
    fn the_default_is_the_data_twice_with_the_full_provenance() {
        let shape = asked(json!({}), "2026-07-28").unwrap();
        assert_eq!(shape.provenance, Some(ProvenanceForm::Full));
        assert_eq!(shape.text(true, "{}".into()), "{}");
    }

    #[test]
    fn a_client_asks_for_the_data_once_and_no_provenance() {
        let meta = json!({"nl.overheid/text": "short", "nl.overheid/provenance": "none"});
        let shape = asked(meta.clone(), "2025-06-18").unwrap();
        assert_eq!(shape.provenance, None);
        assert_eq!(shape.cli_provenance(), ProvenanceForm::Compact);
        assert_eq!(shape.text(true, "{\"a\":1}".into()), SHORT_TEXT);
        // Without structuredContent the text block is the only copy.
        assert_eq!(shape.text(false, "[1]".into()), "[1]");
        // An era without structuredContent keeps the data as text.
        let old = asked(meta, "2025-03-26").unwrap();
        assert_eq!(old.text(true, "{\"a\":1}".into()), "{\"a\":1}");
        assert!(
            !Shape::asked(
                json!({"nl.overheid/text": "short"}).as_object().unwrap(),
                None
            )
            .unwrap()
            .short_text
        );
    }

    #[test]
    fn any_other_value_is_refused() {
        for meta in [
            json!({"nl.overheid/text": "kort"}),
            json!({"nl.overheid/text": true}),
            json!({"nl.overheid/provenance": "geen"}),
        ] {
            let error = asked(meta.clone(), "2026-07-28").unwrap_err();
            assert_eq!(error.code.0, -32602, "{meta}");
        }
    }
}

//! `regeling zoek|toon|lijst`: the embedded catalogue of RVO schemes. Read-only and local: nothing
//! is asked of RVO, and provenance says the data is an embedded snapshot with its own peildatum.

pub(crate) mod lijst;
pub(crate) mod toon;
pub(crate) mod zoek;

use common::digest::sha256_hex;
use common::{Environment, Outcome, Passed};
use rvo_cli::catalogue::{CATALOGUE_JSON, Catalogue};
use serde_json::Value;

common::commands! {
    pub enum Action {
        Zoek(zoek::Args) => zoek,
        #[command(alias = "get")]
        Toon(toon::Args) => toon,
        Lijst(lijst::Args) => lijst,
    }
}

/// The published schema of a scheme's id (`regeling toon`, and the report's `regeling_id`):
/// surrounding white space and any case are accepted, as the catalogue's lookup does.
pub(crate) const REGELING_ID_SCHEMA: &str =
    common::schema!({"pattern": "^\\s*[A-Za-z0-9-]{1,40}\\s*$", "examples": ["EBR-2027"]});

/// Data from the embedded catalogue, with its provenance: the catalogue's own label, a `urn:`
/// naming the catalogue version, method `LOCAL` and the SHA-256 of the embedded file.
pub(crate) fn catalogue_outcome(passed: &Passed, data: Value) -> Outcome {
    let catalogue = Catalogue::embedded();
    passed
        .answer(data, catalogue.source_label(), Environment::Local)
        .source_url(
            format!("urn:rvo-cli:regelingencatalogus:{}", catalogue.versie),
            "LOCAL",
            sha256_hex(CATALOGUE_JSON.as_bytes()),
        )
        .extra("catalogus_stand", catalogue.peildatum.to_string().into())
}

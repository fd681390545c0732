//! `regeling zoek|toon|lijst`: the embedded catalogue of RVO schemes. Read-only and local: nothing
//! is asked of RVO, and provenance says the data is an embedded snapshot with its own peildatum.

pub(crate) mod lijst;
pub(crate) mod toon;
pub(crate) mod zoek;

use common::digest::sha256_hex;
use common::{Environment, Outcome, Passed};
use rvo_cli::catalogue::{CATALOGUE_JSON, Catalogue};
use serde_json::Value;

/// The members of a scheme's compact row in a list (issue 40 item 4, CONV-9): `regeling lijst`
/// and `regeling zoek` print only these by default, every member with `--lang`.
const ROW: [&str; 7] = [
    "id",
    "naam",
    "soort",
    "status",
    "openstelling",
    "deadline",
    "indienbaar_via_cli",
];

/// Keep each scheme of `regelingen` to [`ROW`] and `also` (a list's own members, such as a
/// search's `score`).
pub(crate) fn compact_rows(regelingen: &mut Value, also: &[&str]) {
    for row in regelingen.as_array_mut().into_iter().flatten() {
        if let Some(row) = row.as_object_mut() {
            row.retain(|member, _| {
                ROW.contains(&member.as_str()) || also.contains(&member.as_str())
            });
        }
    }
}

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

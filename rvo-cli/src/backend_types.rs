//! Request and response types of the RVO backend contract (`spec/rvo-backend.md`).
//!
//! Shared by the HTTP client in rvo-cli and by test fakes of the contract, so both sides agree on
//! the JSON. The local store keeps the same request body, so a report means the same thing on
//! either backend.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::embedded::embeds_aanvraag;

/// Header that carries the idempotency key (the plan digest) on `POST /rapportages`.
pub const IDEMPOTENCY_KEY_HEADER: &str = "Idempotency-Key";
/// Header that carries the token from `RVO_API_TOKEN`, as `Bearer <token>`.
pub const AUTHORIZATION_HEADER: &str = "Authorization";
/// The header of the calling system's service credential when a person's approval token is
/// the `Authorization` (contract 2.0, `spec/rvo-backend.md` §2.1).
pub const SERVICE_HEADER: &str = "Overheid-Dienstsleutel";
/// The end of the problem `type` a 2.0 backend answers a filing without a valid approval with.
pub const APPROVAL_REQUIRED_TYPE: &str = "goedkeuring-vereist";
/// Environment variable with the base URL; when set, rvo-cli uses the HTTP backend.
pub const API_BASE_ENV: &str = "RVO_API_BASE";
/// Environment variable with the API token (a secret).
pub const API_TOKEN_ENV: &str = "RVO_API_TOKEN";
/// Media type of error bodies (RFC 9457).
pub const PROBLEM_JSON: &str = "application/problem+json";

/// `POST {base}/rapportages` body: one report, already validated and normalised.
///
/// Every record of a report embeds it ([`RapportageRecord`], [`crate::filing::FilingResult`]; the
/// module `embedded` reads them): its members are declared once, here. `Default` only gives that
/// reading a value to replace.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RapportageAanvraag {
    /// KvK number, 8 digits.
    pub kvk_nummer: String,
    /// Scheme id from the catalogue, e.g. `EBR-2027`.
    pub regeling_id: String,
    /// Measures taken: trimmed, deduplicated, sorted.
    pub maatregelen: Vec<String>,
    /// Optional free-text explanation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toelichting: Option<String>,
    /// The contents Bal art. 5.15a asks for (contract 1.1); absent in a 1.0 report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inhoud: Option<RapportageInhoud>,
}

/// One measure of the recognised list (EML): its code and name as the concept's law gives them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LijstMaatregel {
    pub code: String,
    pub naam: String,
}

/// A list measure that does not apply, with the conditions it does not meet (5.15a, lid 1, c).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NietVanToepassing {
    pub code: String,
    pub naam: String,
    pub niet_vervulde_randvoorwaarden: Vec<String>,
}

/// Energy use over one calendar year (5.15a, lid 1, e).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Energiegebruik {
    pub kalenderjaar: i32,
    pub elektriciteit_kwh: serde_json::Number,
    pub aardgas_m3_aardgasequivalent: serde_json::Number,
}

/// The contents of a report under Bal art. 5.15a, lid 1 (a is `kvk_nummer` of the report).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RapportageInhoud {
    /// (b) the list measures taken.
    pub getroffen_maatregelen: Vec<LijstMaatregel>,
    /// (c) the list measures that do not apply.
    pub niet_van_toepassing: Vec<NietVanToepassing>,
    /// (d) other measures taken with a payback time of at most five years (free text, canonical).
    pub overige_maatregelen: Vec<String>,
    /// (e) the energy use.
    pub energiegebruik: Energiegebruik,
    /// The digest of the concept this report was filed from.
    pub concept_digest: String,
    /// The regulation definition (`id@versie`) of that concept.
    pub concept_regeling: String,
}

/// Processing state of a report at the backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum RapportageStatus {
    /// Received; not yet assessed. The only state a new report can have.
    Ontvangen,
    /// Being assessed by the competent authority.
    InBehandeling,
    /// The authority asked for more information.
    AanvullingGevraagd,
    /// Assessment finished.
    Afgehandeld,
}

/// `201`/`200` body of `POST {base}/rapportages`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RapportageOntvangst {
    /// Reference number assigned by the backend.
    pub referentienummer: String,
    /// When the backend received the report (first receipt, also on a replay).
    pub ontvangen_op: DateTime<Utc>,
    /// Processing state; `ONTVANGEN` for a new report.
    pub status: RapportageStatus,
}

/// `GET {base}/rapportages/{referentienummer}` body, and one item of the list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self")]
pub struct RapportageRecord {
    /// Reference number.
    pub referentienummer: String,
    /// The report as filed; its members stand in the object.
    #[serde(flatten, skip_deserializing)]
    pub aanvraag: RapportageAanvraag,
    /// When the backend received the report.
    pub ontvangen_op: DateTime<Utc>,
    /// Processing state.
    pub status: RapportageStatus,
}
embeds_aanvraag!(RapportageRecord);

/// `GET {base}/rapportages?kvk_nummer=…` body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RapportageLijst {
    /// Reports, oldest first.
    pub rapportages: Vec<RapportageRecord>,
}

/// An RFC 9457 problem document, as every error response of the backend carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// URI identifying the problem type.
    #[serde(rename = "type", default = "about_blank")]
    pub problem_type: String,
    /// Short summary.
    pub title: String,
    /// HTTP status code.
    pub status: u16,
    /// Explanation for this occurrence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// URI of this occurrence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance: Option<String>,
    /// Field-level validation errors (extension member).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldError>,
}

fn about_blank() -> String {
    "about:blank".to_string()
}

/// `{base}/rapportages`, without a doubled slash when `base` ends in `/`.
pub fn rapportages_url(base: &str) -> String {
    format!("{}/rapportages", base.trim_end_matches('/'))
}

/// `{base}/rapportages/{referentienummer}`. The caller checks the number with
/// [`crate::reference::is_path_safe`] first, so it needs no escaping.
pub fn rapportage_url(base: &str, referentienummer: &str) -> String {
    format!("{}/{referentienummer}", rapportages_url(base))
}

/// The `Authorization` header value for `token`.
pub fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn receipt_round_trips_with_upper_case_status() {
        let receipt: RapportageOntvangst = serde_json::from_value(json!({
            "referentienummer": "RVO-EBR-2027-1KC7Q3M9Z-7XK2MD",
            "ontvangen_op": "2026-11-30T10:00:00.123Z",
            "status": "ONTVANGEN"
        }))
        .unwrap();
        assert_eq!(receipt.status, RapportageStatus::Ontvangen);
        assert_eq!(
            serde_json::to_value(&receipt).unwrap()["status"],
            "ONTVANGEN"
        );
    }

    #[test]
    fn problem_defaults_type_and_reads_errors() {
        let problem: Problem = serde_json::from_value(json!({
            "title": "Idempotency-Key hergebruikt", "status": 422,
            "errors": [{"pointer": "/maatregelen", "detail": "anders dan eerst"}]
        }))
        .unwrap();
        assert_eq!(problem.problem_type, "about:blank");
        assert_eq!(problem.errors[0].pointer, "/maatregelen");
    }

    #[test]
    fn request_body_rejects_unknown_fields() {
        let body =
            json!({"kvk_nummer": "68750110", "regeling_id": "EBR-2027", "maatregelen": [], "x": 1});
        assert!(serde_json::from_value::<RapportageAanvraag>(body).is_err());
    }

    #[test]
    fn urls_do_not_double_slashes() {
        assert_eq!(
            rapportages_url("http://127.0.0.1:8080/api/"),
            "http://127.0.0.1:8080/api/rapportages"
        );
        assert_eq!(
            rapportage_url("http://h", "RVO-X-1-2"),
            "http://h/rapportages/RVO-X-1-2"
        );
        assert_eq!(bearer("abc"), "Bearer abc");
    }
}

/// One validation error: a JSON pointer into the request and a Dutch explanation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldError {
    /// JSON pointer to the offending field, e.g. `/kvk_nummer`.
    pub pointer: String,
    /// What is wrong, in Dutch.
    pub detail: String,
}

impl FieldError {
    pub(crate) fn new(pointer: &str, detail: impl Into<String>) -> Self {
        FieldError {
            pointer: pointer.to_string(),
            detail: detail.into(),
        }
    }
}

//! A response as received (status, headers, the whole capped body) and what the profile makes
//! of it: the body as JSON, a non-2xx status as the profile's error, `Retry-After`.

use serde_json::Value;

use crate::data::digest::sha256_hex;
use crate::problem::error::{Problem, Result};

/// A response as received: status, headers, the whole (capped) body.
#[derive(Clone, Debug)]
pub struct Response {
    pub status: u16,
    /// The URL that answered (after redirects), as provenance and audit name it.
    pub url: String,
    /// The method of the request that answered (a 303 turns a POST into a GET).
    pub method: &'static str,
    pub(super) headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// An answer read back from the response cache ([`crate::net::cache`]): a GET of `url`, no headers.
    pub(crate) fn stored(url: String, status: u16, body: Vec<u8>) -> Self {
        Self {
            status,
            url,
            method: "GET",
            headers: Vec::new(),
            body,
        }
    }

    /// A header value (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body parsed as JSON; anything else is a protocol error (exit 76).
    pub fn json(&self) -> Result<Value> {
        let value = serde_json::from_slice(&self.body).map_err(|e| {
            Problem::protocol(format!(
                "het antwoord (HTTP {}) is geen geldige JSON: {}",
                self.status,
                crate::data::input::json_reason(&e)
            ))
            .with_status(self.status)
        })?;
        Ok(value)
    }

    /// The profile's error for a non-2xx answer (rules EXIT-4 … EXIT-8).
    ///
    /// `detail` says what the source answered (with its own code and text
    /// where it has them); `addressed` tells whether the request named one
    /// thing (then 404/410 means "does not exist", exit 66) or a collection or
    /// service (then 404/410 means the source is not where it should be, 69).
    pub fn status_error(&self, detail: String, addressed: bool) -> Problem {
        let status = self.status;
        let retry_after = self.retry_after();
        let err = match status {
            429 => {
                let wait = retry_after.unwrap_or(1);
                Problem::temporary(detail, Some(wait)).with_hint(format!(
                    "te veel verzoeken; wacht {wait} {} en probeer het opnieuw",
                    if wait == 1 { "seconde" } else { "seconden" }
                ))
            }
            503 if retry_after.is_some() => Problem::temporary(detail, retry_after),
            400 | 422 => Problem::new(
                crate::problem::exit::ExitStatus::DataErr,
                crate::problem::codes::API_FOUT,
                "De bron weigerde het verzoek",
                detail,
            ),
            401 | 403 => Problem::no_permission(detail),
            404 | 410 if addressed => Problem::not_found(detail),
            404 | 410 | 500..=599 => Problem::unavailable(detail),
            _ => Problem::new(
                crate::problem::exit::ExitStatus::Error,
                crate::problem::codes::API_FOUT,
                "Onverwacht antwoord van de bron",
                detail,
            ),
        };
        err.with_status(status)
    }

    /// SHA-256 of the body as received.
    pub fn sha256(&self) -> String {
        sha256_hex(&self.body)
    }

    /// `Retry-After` in whole seconds, if present (delta-seconds or HTTP date).
    pub fn retry_after(&self) -> Option<u64> {
        let value = self.header("retry-after")?.trim();
        const DAY: u64 = 86_400;
        if let Ok(secs) = value.parse::<u64>() {
            return Some(secs.min(DAY));
        }
        let date = chrono::DateTime::parse_from_rfc2822(value).ok()?;
        let secs = (date.timestamp() - chrono::Utc::now().timestamp()).max(0);
        Some((secs as u64).min(DAY))
    }
}

//! The KvK API as a source: configuration, requests, and its error mapping.
//!
//! The KvK error body is `{"fout":[{"code","omschrijving"}]}`. 400 → 65;
//! 401/403 → 77; 404 with IPD0001/IPD0005/IPD0007 → 66; IPD1002/IPD1003 → 75;
//! 429 → 75 with `retry_after`; 5xx → 69; a body that is not JSON, or JSON of
//! another shape (see [`crate::cli::shape`]) → 76. The KvK code and text stay in `detail`.

use common::http::Response;
use common::source::{Source, SourceSpec};
use common::{Checked, Context, Environment, Problem, Request, Result};
use serde_json::Value;

use crate::cli::shape::Shape;

pub(crate) const API_BASE: &str = "KVK_API_BASE";
pub(crate) const API_KEY: &str = "KVK_API_KEY";
/// The public KvK test environment (fictional data).
pub(crate) const TEST_BASE: &str = "https://api.kvk.nl/test/api";
/// The KvK API in production.
const PRODUCTION_BASE: &str = "https://api.kvk.nl/api";
/// The KvK API as a source: the test environment unless `KVK_API_BASE` says otherwise.
const SOURCE: SourceSpec = SourceSpec {
    var: API_BASE,
    default: Some(TEST_BASE),
    production: Some(PRODUCTION_BASE),
};
/// The media types asked for: KvK's OpenAPI documents list `application/hal+json` for every
/// operation (the Vestigingsprofiel API only that, answering anything else with 406) and
/// `application/json` besides for Basisprofiel and Zoeken; both are JSON to this tool.
pub(crate) const ACCEPT: &str = "application/hal+json, application/json";
/// The public test key KvK documents for its test environment.
const PUBLIC_TEST_KEY: &str = "l7xx1f2691f2520d487b902f4e0b57a0b197";

/// The configured KvK API.
pub(crate) struct Kvk {
    base: String,
    key: String,
    pub environment: Environment,
}

impl Kvk {
    /// Read the configuration (`common::source`); a missing key outside the test environment is
    /// exit 78.
    pub(crate) fn from_env(ctx: &Context<'_>) -> Result<Self> {
        let Source {
            base, environment, ..
        } = Source::from_env(ctx, SOURCE)?;
        let key = match ctx.env(API_KEY) {
            Some(key) => key.to_string(),
            None if base == TEST_BASE => PUBLIC_TEST_KEY.to_string(),
            None => {
                return Err(Problem::config(format!("{API_KEY} ontbreekt voor {base}"))
                    .with_hint(
                        "zet KVK_API_KEY; alleen de openbare testomgeving werkt zonder sleutel",
                    )
                    .into());
            }
        };
        Ok(Self {
            base,
            key,
            environment,
        })
    }

    /// The label provenance shows (PROV-2).
    pub(crate) fn label(&self) -> String {
        common::source::label("KvK Handelsregister", self.environment)
    }

    /// A GET of `path` (starting with `/`) with the key as a secret header.
    pub(crate) fn request(&self, path: &str) -> Request {
        Request::get(format!("{}{path}", self.base))
            .secret_header("apikey", &self.key)
            .header("Accept", ACCEPT)
    }

    /// Send and map the answer: the document of `shape` on success, else the profile error.
    pub(crate) fn fetch(
        &self,
        ctx: &mut Context<'_>,
        request: &Checked,
        shape: &Shape,
    ) -> Result<Value> {
        let response = ctx.send(request)?;
        self.interpret(&response, shape)
    }

    /// [`Kvk::fetch`] for a command bound to one company (SEC-6): an answer that names another
    /// KvK number than `number` (an upstream's mistake) is refused with 76 before anything is
    /// printed, without naming that other company.
    pub(crate) fn fetch_of(
        &self,
        ctx: &mut Context<'_>,
        request: &Checked,
        shape: &Shape,
        number: &str,
    ) -> Result<Value> {
        let response = ctx.send(request)?;
        let value = self.interpret(&response, shape)?;
        match value.get("kvkNummer").and_then(Value::as_str) {
            Some(named) if named != number => Err(Problem::protocol(format!(
                "het antwoord van de KvK API gaat over een ander bedrijf dan KvK-nummer {number}"
            ))
            .with_status(response.status)
            .into()),
            _ => Ok(value),
        }
    }

    /// The document of a successful answer when it has `shape`, else the profile error
    /// (76 for JSON of another shape).
    pub(crate) fn interpret(&self, response: &Response, shape: &Shape) -> Result<Value> {
        if (200..300).contains(&response.status) {
            let mut value = response.json()?;
            if let Err(problem) = shape.check(&value) {
                return Err(Problem::protocol(format!(
                    "het antwoord van de KvK API is geen {}: {problem}",
                    shape.document
                ))
                .with_status(response.status)
                .into());
            }
            collapse_addresses(&mut value);
            return Ok(value);
        }
        Err(upstream_error(response).into())
    }
}

/// The first `fout` entry of a KvK error body.
pub(crate) fn fout(response: &Response) -> Option<(String, String)> {
    let body: Value = serde_json::from_slice(&response.body).ok()?;
    let first = body.get("fout")?.as_array()?.first()?;
    Some((
        first.get("code")?.as_str()?.to_string(),
        first
            .get("omschrijving")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
    ))
}

/// Map a non-2xx KvK answer to the profile's error: the status decides the
/// class (common's mapping); KvK's IPD1002/IPD1003 ("temporarily not
/// deliverable", sent as 404) are temporary. The KvK code and text stay in
/// `detail`.
pub(crate) fn upstream_error(response: &Response) -> Problem {
    let status = response.status;
    let fout = fout(response);
    let kvk_text = fout
        .as_ref()
        .map(|(code, text)| format!("KvK {code}: {text}"))
        .unwrap_or_else(|| format!("KvK API antwoordde HTTP {status} zonder leesbare foutmelding"));
    match fout.as_ref().map(|(code, _)| code.as_str()) {
        Some("IPD1002" | "IPD1003") => {
            Problem::temporary(kvk_text, response.retry_after().or(Some(300))).with_status(status)
        }
        _ if matches!(status, 401 | 403) => response
            .status_error(kvk_text, true)
            .with_hint("controleer KVK_API_KEY en of de sleutel toegang heeft tot dit product"),
        _ => response.status_error(kvk_text, true),
    }
}

/// KvK pads `volledigAdres` with spaces; collapse every run to one space.
pub(crate) fn collapse_addresses(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                if key == "volledigAdres" {
                    if let Value::String(s) = v {
                        *s = s.split_whitespace().collect::<Vec<_>>().join(" ");
                    }
                } else {
                    collapse_addresses(v);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(collapse_addresses),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn collapses_padding_at_any_depth() {
        let mut v = json!({"a": [{"volledigAdres": "Hizzaarderlaan 3 A     8823SJ   Lollum "}]});
        collapse_addresses(&mut v);
        assert_eq!(
            v["a"][0]["volledigAdres"],
            "Hizzaarderlaan 3 A 8823SJ Lollum"
        );
    }
}

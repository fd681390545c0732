//! Where reports go: the local sandbox store (default) or an HTTP backend (`RVO_API_BASE`).
//!
//! The choice is configuration, made once per call from the declared environment (read through
//! `ctx.env`, never `std::env`). Both backends answer in the same shapes, and every answer says
//! which backend produced it (`backend: "lokaal"` or `"http"`).

pub mod http;
mod local;

use std::ffi::OsString;

use common::{Context, Environment, Outcome, Problem, Result};
use rvo_cli::backend_types::{API_BASE_ENV, RapportageRecord, RapportageStatus};
use rvo_cli::filing::FilingResult;
use rvo_cli::store::LocalStore;
use serde::Serialize;

pub use http::HttpBackend;
pub use local::store_error;

/// The backend of this call.
pub enum Backend {
    /// The local sandbox store: nothing is sent to RVO.
    Lokaal(LocalStore),
    /// A backend implementing `spec/rvo-backend.md`.
    Http(HttpBackend),
}

impl Backend {
    /// `RVO_API_BASE` set: HTTP (the URL must be https, or http to loopback; else exit 78).
    /// Unset: the local store under `RVO_DATA_DIR`, `$XDG_DATA_HOME/rvo-cli` or
    /// `~/.local/share/rvo-cli` (none of them known: exit 78).
    pub fn from_env(ctx: &Context<'_>) -> Result<Self> {
        if let Some(base) = ctx.env(API_BASE_ENV) {
            return HttpBackend::from_env(ctx, base).map(Backend::Http);
        }
        let dir =
            LocalStore::default_dir(|name| ctx.env(name).map(OsString::from)).ok_or_else(|| {
                Problem::config("er is geen map voor de lokale proefopslag")
                    .with_hint("zet RVO_DATA_DIR (of XDG_DATA_HOME of HOME)")
            })?;
        Ok(Backend::Lokaal(
            LocalStore::new(dir).with_deadline(ctx.deadline()),
        ))
    }

    /// `lokaal` or `http`, as answers and plans name it.
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Lokaal(_) => "lokaal",
            Backend::Http(_) => "http",
        }
    }

    /// Provenance of data from this backend. For the local store it says plainly that nothing
    /// was sent to RVO; `key` names the record (`urn:rvo-cli:lokaal:…`) and `sha256` is the
    /// digest of the compact JSON of the data (PROV-10).
    pub fn outcome(&self, data: serde_json::Value, local_urn: &str) -> Outcome {
        match self {
            Backend::Lokaal(store) => {
                let sha = common::digest::sha256_hex(data.to_string().as_bytes());
                Outcome::new(
                    data,
                    "RVO-rapportages, lokale proefopslag van rvo-cli (er is niets naar RVO verzonden)",
                    Environment::Local,
                )
                .source_url(format!("urn:rvo-cli:lokaal:{local_urn}"), "LOCAL", sha)
                .extra("backend", "lokaal".into())
                .extra("verzonden_naar_rvo", false.into())
                .extra("opslag", store.dir().display().to_string().into())
            }
            Backend::Http(http) => Outcome::new(
                data,
                "RVO-rapportagebackend via RVO_API_BASE (geen productieomgeving van RVO)",
                http.environment(),
            )
            .extra("backend", "http".into()),
        }
    }
}

/// A filed report as `rapportage status` and `rapportage lijst` show it, from either backend.
#[derive(Debug, Clone, Serialize)]
pub struct Overzicht {
    pub referentienummer: String,
    pub status: RapportageStatus,
    pub kvk_nummer: String,
    pub regeling_id: String,
    pub maatregelen: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub toelichting: Option<String>,
    /// The Bal 5.15a contents (a)–(e), when the report has them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inhoud: Option<rvo_cli::backend_types::RapportageInhoud>,
    pub ingediend_op: chrono::DateTime<chrono::Utc>,
    pub backend: &'static str,
}

impl Overzicht {
    /// A report from the local store.
    pub fn from_local(result: FilingResult) -> Self {
        Overzicht {
            referentienummer: result.referentienummer,
            status: result.status,
            kvk_nummer: result.kvk_nummer,
            regeling_id: result.regeling_id,
            maatregelen: result.maatregelen,
            toelichting: result.toelichting,
            inhoud: result.inhoud,
            ingediend_op: result.ingediend_op,
            backend: "lokaal",
        }
    }

    /// A report from the HTTP backend.
    pub fn from_http(record: RapportageRecord) -> Self {
        Overzicht {
            referentienummer: record.referentienummer,
            status: record.status,
            kvk_nummer: record.kvk_nummer,
            regeling_id: record.regeling_id,
            maatregelen: record.maatregelen,
            toelichting: record.toelichting,
            inhoud: record.inhoud,
            ingediend_op: record.ontvangen_op,
            backend: "http",
        }
    }
}

/// Any serialisable value as JSON (a failure is a bug: exit 70).
pub fn to_json<T: Serialize>(value: &T) -> Result<serde_json::Value> {
    Ok(serde_json::to_value(value).map_err(|e| Problem::software(e.to_string()))?)
}

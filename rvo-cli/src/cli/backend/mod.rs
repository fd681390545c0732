//! Where reports go: the local sandbox (default) or an HTTP backend (`RVO_API_BASE`).
//!
//! The choice is configuration, made once per call from the declared environment (read through
//! `ctx.env`, never `std::env`). Both backends answer in the same shapes, and every answer says
//! which backend produced it (`backend: "lokaal"` or `"http"`).
//!
//! The local sandbox keeps its filings in the family's store (`overheid-records`: SQLite in the
//! data directory, or the PostgreSQL of `OVERHEID_STORE_URL`), with the proposals. Reports
//! filed by versions before that store (JSON files under `rapportages/` in the data directory)
//! are not carried over: the sandbox starts empty, and while that old directory exists every
//! local call says so once on stderr.

pub(crate) mod http;

use common::{Context, Environment, ExitStatus, Outcome, Passed, Problem, Result, codes};
use overheid_records::{Location, Store};
use rvo_cli::backend_types::{
    API_BASE_ENV, RapportageAanvraag, RapportageRecord, RapportageStatus,
};
use rvo_cli::filing::FilingResult;
use serde::Serialize;

pub(crate) use http::HttpBackend;

use crate::cli::records;

/// The directory of the JSON files of versions before the family's store, in the data directory.
const OLD_RECORDS_DIR: &str = "rapportages";

/// The backend of this call.
pub(crate) enum Backend {
    /// The local sandbox: nothing is sent to RVO; filings live in the family's store.
    Lokaal(Local),
    /// A backend implementing `spec/rvo-backend.md`.
    Http(HttpBackend),
}

/// The local sandbox's store, opened when first needed: a reader of a store never created
/// finds it empty without creating it (a dry run writes nothing but its audit record).
pub(crate) struct Local {
    location: Location,
    deadline: std::time::Instant,
    store: Option<Store>,
}

impl Local {
    /// Where the store is.
    pub(crate) fn location(&self) -> &Location {
        &self.location
    }

    /// The store to read, or `None` while it was never created (it is empty then).
    pub(crate) fn existing(&mut self) -> Result<Option<&mut Store>> {
        if self.store.is_none() && !self.location.may_hold_records() {
            return Ok(None);
        }
        self.store().map(Some)
    }

    /// The store, created if needed.
    pub(crate) fn store(&mut self) -> Result<&mut Store> {
        if self.store.is_none() {
            let opened =
                Store::open(&self.location, Some(self.deadline)).map_err(records::problem)?;
            self.store = Some(opened);
        }
        Ok(self.store.as_mut().expect("opened above"))
    }

    /// The store to file in, created if needed.
    pub(crate) fn into_store(mut self) -> Result<Store> {
        self.take()
    }

    /// The store, created if needed, taken out (a later use opens another).
    pub(crate) fn take(&mut self) -> Result<Store> {
        self.store()?;
        Ok(self.store.take().expect("opened above"))
    }

    /// Uses `store` (opened by this call already, at this location) instead of opening another:
    /// one connection per process.
    pub(crate) fn adopt(&mut self, store: Store) {
        self.store.get_or_insert(store);
    }
}

impl Backend {
    /// `RVO_API_BASE` set: HTTP (the URL must be https, or http to loopback; else exit 78).
    /// Unset: the local sandbox in the family's store (`OVERHEID_STORE_URL`, else SQLite under
    /// `RVO_DATA_DIR`, `$XDG_DATA_HOME/rvo-cli` or `~/.local/share/rvo-cli`; none known or a
    /// directory others can write: exit 78; a database that cannot be reached: exit 69).
    pub(crate) fn from_env(ctx: &Context<'_>) -> Result<Self> {
        if ctx.env(API_BASE_ENV).is_some() {
            return HttpBackend::from_env(ctx).map(Backend::Http);
        }
        let location = records::location(ctx)?;
        if let Location::Sqlite(dir) = &location {
            let old = dir.join(OLD_RECORDS_DIR);
            if old.is_dir() {
                ctx.printer.warn(&format!(
                    "De lokale proefopslag staat nu in {}; de rapportages in {} (van een eerdere \
                     versie) worden niet meer gelezen en zijn niet overgenomen. Verwijder of \
                     verplaats die map om deze melding niet meer te zien.",
                    dir.join(overheid_records::DATABASE_FILE).display(),
                    old.display()
                ));
            }
        }
        Ok(Backend::Lokaal(Local {
            location,
            deadline: ctx.deadline(),
            store: None,
        }))
    }

    /// Where this call's filings go, as an approval is bound to it: `lokaal`, or the HTTP
    /// backend's base URL. Read from the environment alone (nothing opened).
    pub(crate) fn target_of(ctx: &Context<'_>) -> Result<String> {
        if ctx.env(API_BASE_ENV).is_some() {
            return Ok(HttpBackend::from_env(ctx)?.base().to_string());
        }
        Ok(common::approval::detail::LOCAL.to_string())
    }

    /// This backend as an approval is bound to it (see [`Backend::target_of`]).
    pub(crate) fn target(&self) -> String {
        match self {
            Backend::Lokaal(_) => common::approval::detail::LOCAL.to_string(),
            Backend::Http(http) => http.base().to_string(),
        }
    }

    /// `lokaal` or `http`, as answers and plans name it.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Backend::Lokaal(_) => "lokaal",
            Backend::Http(_) => "http",
        }
    }

    /// Provenance of data from this backend. For the local sandbox it says plainly that
    /// nothing was sent to RVO; `key` names the record (`urn:rvo-cli:lokaal:…`) and `sha256` is
    /// the digest of the compact JSON of the data (PROV-10).
    pub(crate) fn outcome(
        &self,
        passed: &Passed,
        data: serde_json::Value,
        local_urn: &str,
    ) -> Outcome {
        match self {
            Backend::Lokaal(local) => local_outcome(passed, local.location(), data, local_urn),
            Backend::Http(http) => passed
                .answer(
                    data,
                    "RVO-rapportagebackend via RVO_API_BASE (geen productieomgeving van RVO)",
                    http.environment(),
                )
                .extra("backend", "http".into()),
        }
    }

    /// The replay of the filing under `key`, when there is one (`rvo_cli::record`); always
    /// `None` for the HTTP backend, which can only be asked by filing.
    pub(crate) fn completed(
        &mut self,
        key: &str,
        aanvraag: &RapportageAanvraag,
    ) -> Result<Option<FilingResult>> {
        match self {
            Backend::Lokaal(local) => match local.existing()? {
                Some(store) => store
                    .filing(key)
                    .map_err(records::problem)?
                    .map(|record| replay_of(&record, aanvraag))
                    .transpose(),
                None => Ok(None),
            },
            Backend::Http(_) => Ok(None),
        }
    }
}

impl Backend {
    /// The company's reports of the same scheme (its round: `EBR-2027`) filed under another key,
    /// oldest first, each as `{referentienummer, ingediend_op, maatregelen}`: a second report in
    /// a round is said before a person approves it (issue 40 item 7). Only the local sandbox
    /// can be asked; the HTTP backend is asked only by filing.
    pub(crate) fn filed_in_round(
        &mut self,
        key: &str,
        aanvraag: &RapportageAanvraag,
    ) -> Result<Vec<serde_json::Value>> {
        let Backend::Lokaal(local) = self else {
            return Ok(Vec::new());
        };
        let Some(store) = local.existing()? else {
            return Ok(Vec::new());
        };
        let (filings, _) = store
            .filings(Some(&aanvraag.kvk_nummer))
            .map_err(records::problem)?;
        Ok(filings
            .iter()
            .filter(|f| f.key != key && f.request["regeling_id"] == aanvraag.regeling_id.as_str())
            .map(|f| {
                serde_json::json!({
                    "referentienummer": f.reference,
                    "ingediend_op": f.filed_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                    "maatregelen": f.request["maatregelen"],
                })
            })
            .collect())
    }
}

/// [`Backend::outcome`] of the local sandbox in the store at `location` (shown without a
/// password).
pub(crate) fn local_outcome(
    passed: &Passed,
    location: &Location,
    data: serde_json::Value,
    local_urn: &str,
) -> Outcome {
    let sha = common::digest::sha256_hex(data.to_string().as_bytes());
    passed
        .answer(
            data,
            "RVO-rapportages, lokale proefopslag van rvo-cli (er is niets naar RVO verzonden)",
            Environment::Local,
        )
        .source_url(format!("urn:rvo-cli:lokaal:{local_urn}"), "LOCAL", sha)
        .extra("backend", "lokaal".into())
        .extra("verzonden_naar_rvo", false.into())
        .extra("opslag", location.shown().into())
}

/// The stored filing `record` as the replay of filing `aanvraag`: its first result with
/// `replayed: true`; a damaged record exit 74, a record of another request under the same key
/// exit 65 (`IDEMPOTENTIE_CONFLICT`).
pub(crate) fn replay_of(
    record: &overheid_records::Filing,
    aanvraag: &RapportageAanvraag,
) -> Result<FilingResult> {
    let result = rvo_cli::record::replay(record).map_err(|p| damaged(&record.key, &p))?;
    if !rvo_cli::record::is_for(record, aanvraag) {
        return Err(key_conflict(&record.reference).into());
    }
    Ok(result)
}

/// A filed report as `rapportage status` and `rapportage lijst` show it, from either backend.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Overzicht {
    pub referentienummer: String,
    pub status: RapportageStatus,
    /// The report as filed, with the Bal 5.15a contents (a)–(e) when it has them; its members
    /// stand in the object.
    #[serde(flatten)]
    pub aanvraag: RapportageAanvraag,
    pub ingediend_op: chrono::DateTime<chrono::Utc>,
    pub backend: &'static str,
}

impl Overzicht {
    /// A report from the local store.
    pub(crate) fn from_local(result: FilingResult) -> Self {
        Overzicht {
            referentienummer: result.referentienummer,
            status: result.status,
            aanvraag: result.aanvraag,
            ingediend_op: result.ingediend_op,
            backend: "lokaal",
        }
    }

    /// A report from the HTTP backend.
    pub(crate) fn from_http(record: RapportageRecord) -> Self {
        Overzicht {
            referentienummer: record.referentienummer,
            status: record.status,
            aanvraag: record.aanvraag,
            ingediend_op: record.ontvangen_op,
            backend: "http",
        }
    }
}

/// A key filed before for another request: exit 65, nothing filed.
pub(crate) fn key_conflict(referentienummer: &str) -> Problem {
    Problem::new(
        ExitStatus::DataErr,
        codes::IDEMPOTENTIE_CONFLICT,
        "Plan-digest al gebruikt voor een andere rapportage",
        format!(
            "Deze plan-digest is al gebruikt voor een andere rapportage ({referentienummer}); er \
             is niets opnieuw ingediend."
        ),
    )
    .with_hint("er is niets ingediend; controleer de argumenten en vraag een nieuw plan op")
}

/// A stored filing that is not sound (`rvo_cli::record::read`): exit 74, naming its key and
/// what is wrong, never a value from it.
pub(crate) fn damaged(key: &str, problems: &[String]) -> Problem {
    Problem::new(
        ExitStatus::IoErr,
        codes::OPSLAG_BESCHADIGD,
        "Record in de opslag is beschadigd",
        format!(
            "opslag: record {key} is beschadigd: {}",
            problems.join("; ")
        ),
    )
    .with_hint(
        "er is niets ingediend of overschreven; herstel of verwijder het genoemde record \
         (de andere rapportages blijven leesbaar)",
    )
}

/// Any serialisable value as JSON (a failure is a bug: exit 70).
pub(crate) fn to_json<T: Serialize>(value: &T) -> Result<serde_json::Value> {
    Ok(serde_json::to_value(value).map_err(|e| Problem::software(e.to_string()))?)
}

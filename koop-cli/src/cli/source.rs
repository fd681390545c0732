//! The KOOP sources: the SRU search service and the repository of toestand XML files.
//!
//! Configuration (`KOOP_SRU_URL`, `KOOP_REPOSITORY_URL`), the requests, and the mapping of HTTP
//! failures of either source (core errors are mapped in [`super::problems`]).
//! A toestand URL taken from a search record is fetched only when it lies under the repository
//! base (rule NET-11, exit 76 `OMLEIDING_GEWEIGERD`); nothing is sent before that check. The
//! toestand may come from the response cache (it never changes at its URL); a search never does,
//! since its answer changes whenever a version is published (CACHE-1).

use chrono::NaiveDate;
use common::http::{Response, ensure_under};
use common::source::{Source, SourceSpec, joint, label};
use common::{Checked, Context, Environment, Passed, Problem, Request, Result};
use koop_cli::sru::{Record, SearchResponse, parse_search_response};
use koop_cli::{KoopError, ProtocolError};

use super::problems::to_error;

/// Variable with the SRU endpoint.
pub(crate) const SRU_URL: &str = "KOOP_SRU_URL";
/// Variable with the base URL of the repository of toestand XML files.
pub(crate) const REPOSITORY_URL: &str = "KOOP_REPOSITORY_URL";
/// Variable with koop-cli's own audit log.
pub(crate) const AUDIT_LOG: &str = "KOOP_AUDIT_LOG";
/// The production SRU endpoint.
pub(crate) const DEFAULT_SRU_URL: &str = "https://zoekservice.overheid.nl/sru/Search";
/// The production repository.
pub(crate) const DEFAULT_REPOSITORY_URL: &str =
    "https://repository.officiele-overheidspublicaties.nl";
/// The label provenance gives the source in production.
pub(crate) const LABEL: &str = "KOOP Basiswettenbestand";
/// The SRU search service as a source.
const SRU: SourceSpec = SourceSpec {
    var: SRU_URL,
    default: Some(DEFAULT_SRU_URL),
    production: Some(DEFAULT_SRU_URL),
};
/// The repository of toestand files as a source.
const REPOSITORY: SourceSpec = SourceSpec {
    var: REPOSITORY_URL,
    default: Some(DEFAULT_REPOSITORY_URL),
    production: Some(DEFAULT_REPOSITORY_URL),
};

/// The configured KOOP sources.
pub(crate) struct Koop {
    pub sru_url: String,
    pub repository_url: String,
    pub environment: Environment,
}

impl Koop {
    /// Read and check the configuration (`common::source`; exit 78 for an unusable URL), before
    /// any request. The data is production only when both sources are.
    pub(crate) fn from_env(ctx: &Context<'_>) -> Result<Self> {
        let sru = Source::from_env(ctx, SRU)?;
        let repository = Source::from_env(ctx, REPOSITORY)?;
        Ok(Self {
            environment: joint(&[sru.environment, repository.environment]),
            sru_url: sru.base,
            repository_url: repository.base,
        })
    }

    /// The label provenance shows; it names a non-production environment (rule PROV-2).
    pub(crate) fn label(&self) -> String {
        label(LABEL, self.environment)
    }

    /// A `searchRetrieve` request (SRU 2.0, connection BWB) for `query`.
    pub(crate) fn search_request(&self, query: &str, start: u32, max: u32) -> Request {
        Request::get(self.sru_url.clone())
            .query(&[
                ("operation", "searchRetrieve".to_string()),
                ("version", "2.0".to_string()),
                ("x-connection", "BWB".to_string()),
                ("query", query.to_string()),
                ("startRecord", start.to_string()),
                ("maximumRecords", max.to_string()),
            ])
            .header("Accept", "application/xml")
    }

    /// The toestand request as a plan shows it before the search answer is known: the URL has the
    /// documented repository shape with an RFC 6570 placeholder for the version (rule DRY-6).
    pub(crate) fn planned_toestand_request(&self, bwb_id: &str) -> Request {
        Request::get(format!(
            "{}/bwb/{bwb_id}/{{toestand}}/xml/{bwb_id}_{{toestand}}.xml",
            self.repository_url
        ))
        .header("Accept", "application/xml")
    }

    /// Send a search and parse the answer; diagnostics and HTTP failures become profile errors.
    pub(crate) fn search(
        &self,
        ctx: &mut Context<'_>,
        request: &Checked,
    ) -> Result<SearchResponse> {
        let response = ctx.send(request)?;
        if !(200..300).contains(&response.status) {
            // An SRU service may put diagnostics in an error status too; they say more.
            if let Err(err @ KoopError::Diagnostic(_)) = parse_search_response(&response.body) {
                return Err(to_error(err).with_status(response.status).into());
            }
            return Err(http_error(&response, "de zoekdienst", false).into());
        }
        Ok(parse_search_response(&response.body).map_err(to_error)?)
    }

    /// Fetch the toestand XML named by `record`, only from the repository: the request the plan
    /// announced with a placeholder, checked once its URL is known.
    pub(crate) fn fetch_toestand(
        &self,
        ctx: &mut Context<'_>,
        passed: &Passed,
        record: &Record,
    ) -> Result<Response> {
        let Some(url) = record.toestand_url.as_deref() else {
            return Err(to_error(
                ProtocolError::MissingElement {
                    element: "locatie_toestand",
                }
                .into(),
            )
            .into());
        };
        ensure_under(url, &self.repository_url).map_err(|err| {
            err.with_hint(format!(
                "de zoekdienst verwees naar een host buiten {REPOSITORY_URL} ({}); er is niets opgehaald",
                self.repository_url
            ))
        })?;
        let request = passed.follow(Request::get(url).header("Accept", "application/xml"))?;
        // A toestand never changes at its URL: the response cache may answer (CACHE-1).
        let response = ctx.send_cached(&request)?;
        if !(200..300).contains(&response.status) {
            return Err(http_error(&response, "de repository", true).into());
        }
        Ok(response)
    }
}

/// The version of `bwb_id` in force on `peildatum` from a search answer; none is exit 66.
pub(crate) fn version_on(
    answer: &SearchResponse,
    bwb_id: &str,
    peildatum: NaiveDate,
) -> Result<Record> {
    let records: Vec<Record> = answer
        .records
        .iter()
        .filter(|r| r.bwb_id == bwb_id)
        .cloned()
        .collect();
    Ok(koop_cli::sru::pick_valid_on(&records, peildatum)
        .cloned()
        .ok_or_else(|| {
            Problem::not_found(format!(
                "regeling {bwb_id} bestaat niet of gold niet op {peildatum}"
            ))
            .with_hint(
                "controleer het BWB-id (regeling zoek TREFWOORD) of kies een andere --peildatum; \
                 regeling versies BWB_ID toont de geldigheidsperiodes",
            )
        })?)
}

/// A non-2xx answer of either source as the profile's error: the shared mapping of
/// [`Response::status_error`], with where to look when a 404/410 comes back. `addressed` is true for
/// the toestand (one named file), false for the search service.
fn http_error(response: &Response, who: &str, addressed: bool) -> Problem {
    let status = response.status;
    let err = response.status_error(format!("{who} antwoordde HTTP {status}"), addressed);
    match status {
        404 | 410 if addressed => err.with_hint(
            "de toestand bestaat niet (meer) in de repository; probeer het later opnieuw",
        ),
        404 | 410 => err.with_hint(format!("controleer {SRU_URL}")),
        _ => err,
    }
}

//! What `regeling toon` and `regeling artikel` share: validating the BWB id,
//! the plan with both requests, the search for the version in force, and fetching its toestand.

use chrono::NaiveDate;
use common::http::Response;
use common::validate::Validation;
use common::{Context, Outcome, Passed, PlanSpec, Problem, Result};
use koop_cli::sru::Record;
use koop_cli::{BwbId, KoopError, cql, links};
use serde::Serialize;
use serde_json::Value;

use crate::cli::source::{Koop, version_on};

/// Record the error of a core validation in `validation` and hand the result on: once
/// `validation.finish()?` passed it is `Ok`, and `.map_err(to_error)?` takes the value.
pub(super) fn check<T>(
    validation: &mut Validation,
    result: Result<T, KoopError>,
) -> Result<T, KoopError> {
    match &result {
        Ok(_) => {}
        Err(KoopError::InvalidInput { field, detail }) => validation.push(field, detail.clone()),
        Err(other) => validation.push("", other.to_string()),
    }
    result
}

/// The version of one law in force on a date, with its toestand XML as received.
pub(super) struct Located {
    pub koop: Koop,
    pub record: Record,
    pub toestand: Response,
    pub toestand_url: String,
    pub query: String,
    /// The gate's token: what the answer is made from.
    pub passed: Passed,
}

impl Located {
    /// The body of the toestand, handed over so it can be freed as soon as it is parsed.
    pub(super) fn take_body(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.toestand.body)
    }

    /// The outcome for `data`. The toestand read is the primary source (rule PROV-3): it is the
    /// last exchange, which provenance takes as `source_url` with its digest (computed once, when
    /// it was received); the search request is listed before it in `requests`.
    pub(super) fn outcome(&self, data: Value, peildatum: NaiveDate) -> Outcome {
        self.passed
            .answer(data, self.koop.label(), self.koop.environment)
            .extra("query", self.query.clone().into())
            .extra("peildatum", peildatum.to_string().into())
    }
}

/// Plan both requests (`plan`: of the command's arguments, normalised), pass the gate, search the version in force on `peildatum` and fetch it.
pub(super) fn locate(
    ctx: &mut Context<'_>,
    id: &BwbId,
    peildatum: NaiveDate,
    plan: PlanSpec,
) -> Result<Located> {
    let koop = Koop::from_env(ctx)?;
    let query = cql::id_query(id, peildatum);
    let search = koop.search_request(&query, 1, 10);
    let plan = plan
        .request(search)
        .request(koop.planned_toestand_request(id.as_str()))
        .effect(format!(
            "Zoekt de toestand van {id} die op {peildatum} gold en leest daarna die toestand-XML; \
             de URL ({{toestand}}) komt uit locatie_toestand van het zoekresultaat en wordt alleen \
             opgehaald als die onder {} ligt.",
            koop.repository_url
        ));
    let mut passed = ctx.gate(plan)?;
    let answer = koop.search(ctx, &passed.take()?)?;
    let record = version_on(&answer, id.as_str(), peildatum)?;
    // The planned toestand request has a placeholder; the one sent has the record's URL.
    let toestand = koop.fetch_toestand(ctx, &passed, &record)?;
    let toestand_url = record.toestand_url.clone().unwrap_or_default();
    Ok(Located {
        koop,
        record,
        toestand,
        toestand_url,
        query,
        passed,
    })
}

/// The members every answer about one law version starts with (flattened into `regeling toon`
/// and `regeling artikel`); `titel`, `citeertitel` and `soort` come from the XML, falling back to
/// the search record.
#[derive(Debug, Serialize)]
pub(super) struct Header {
    pub bwb_id: String,
    pub titel: String,
    pub citeertitel: Option<String>,
    pub soort: Option<String>,
    pub geldig_vanaf: Option<NaiveDate>,
    pub geldig_tot: Option<NaiveDate>,
    pub toestand_url: String,
    pub wetten_url: String,
}

impl Header {
    /// The header of the version `located` found, on `peildatum`.
    pub(super) fn new(
        located: &Located,
        id: &BwbId,
        peildatum: NaiveDate,
        titel: String,
        citeertitel: Option<String>,
        soort: Option<String>,
    ) -> Self {
        let record = &located.record;
        Header {
            bwb_id: id.as_str().to_owned(),
            titel: if titel.is_empty() {
                record.titel.clone()
            } else {
                titel
            },
            citeertitel,
            soort: soort.or_else(|| record.regeling_type.clone()),
            geldig_vanaf: record.geldig_vanaf,
            geldig_tot: record.geldig_tot,
            toestand_url: located.toestand_url.clone(),
            wetten_url: links::wetten_url_regeling(id.as_str(), peildatum),
        }
    }
}

/// The JSON of a typed answer (the structs of the commands serialize infallibly; a failure is a bug).
pub(super) fn to_data(data: &impl Serialize) -> Result<Value> {
    Ok(serde_json::to_value(data)
        .map_err(|e| Problem::software(format!("antwoord niet te vormen: {e}")))?)
}

/// `YYYY-MM-DD` or null.
pub(super) fn date(value: Option<NaiveDate>) -> Value {
    value.map_or(Value::Null, |d| d.to_string().into())
}

/// A string or null.
pub(super) fn text(value: Option<String>) -> Value {
    value.map_or(Value::Null, Value::from)
}

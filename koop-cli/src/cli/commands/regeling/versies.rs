//! `regeling versies BWB_ID`: every version (toestand) of a law with its validity range, oldest
//! first, so a reader can see what changed when and pick a `--peildatum`.

use common::{Annotations, CommandSpec, Context, Outcome, PlanSpec, Problem, Result};
use koop_cli::sru::versions;
use koop_cli::{BwbId, cql, links};
use serde_json::{Value, json};

use super::lookup::{date, text};
use crate::cli::problems::to_error;
use crate::cli::source::Koop;

/// The most records one SRU answer holds; laws have far fewer versions.
const MAX_RECORDS: u32 = 1000;

common::arguments! {
    /// Voor de versies (toestanden) van een regeling en wanneer elk gold
    ///
    /// Oudste eerst; geldig_tot null betekent: geldt nog. Gebruik een geldig_vanaf als --peildatum
    /// van `regeling toon` of `regeling artikel` om die versie te lezen.
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        /// Bv. BWBR0018451
        pub bwb_id: String => (super::BWB_ID_SCHEMA),
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["regeling", "versies"],
    title: "Versies van een regeling",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../../schemas/versies.json"),
    examples: &[&["regeling", "versies", "BWBR0018451"]],
    args: Args::SCHEMAS,
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let id = BwbId::parse(&args.bwb_id).map_err(to_error)?;
    let koop = Koop::from_env(ctx)?;
    let query = cql::versions_query(&id);
    let request = koop.search_request(&query, 1, MAX_RECORDS);
    let mut passed = ctx.gate(
        PlanSpec::of(args)
            .set("bwb_id", id.as_str())
            .request(request),
    )?;
    let answer = koop.search(ctx, &passed.take()?)?;
    let records: Vec<_> = answer
        .records
        .into_iter()
        .filter(|r| r.bwb_id == id.as_str())
        .collect();
    let Some(titel) = records
        .iter()
        .max_by_key(|r| (r.geldig_vanaf, r.volgnummer()))
        .map(|r| r.titel.clone())
    else {
        return Err(Problem::not_found(format!(
            "regeling {id} bestaat niet in het Basiswettenbestand"
        ))
        .with_hint("zoek het BWB-id op met: koop-cli regeling zoek TREFWOORD")
        .into());
    };
    let versies: Vec<Value> = versions(&records)
        .into_iter()
        .map(|v| {
            let wetten_url = v
                .geldig_vanaf
                .map(|d| links::wetten_url_regeling(id.as_str(), d));
            json!({
                "toestand_id": text(v.toestand_id),
                "geldig_vanaf": date(v.geldig_vanaf),
                "geldig_tot": date(v.geldig_tot),
                "toestand_url": text(v.toestand_url),
                "wetten_url": text(wetten_url),
            })
        })
        .collect();
    let data = json!({
        "bwb_id": id.as_str(),
        "titel": titel,
        "totaal": answer.totaal,
        "aantal": versies.len(),
        "versies": versies,
    });
    Ok(passed
        .answer(data, koop.label(), koop.environment)
        .extra("query", query.into()))
}

//! `regeling zoek TREFWOORD`: ranked, case- and accent-insensitive search over the catalogue.

use common::args::{Lang, Peildatum};
use common::validate::Validation;
use common::{Annotations, CommandSpec, Context, Outcome, PlanSpec, Result};
use rvo_cli::catalogue::{Catalogue, Soort};
use rvo_cli::search::{Filters, search};
use rvo_cli::status::Status;
use serde_json::json;

use super::{catalogue_outcome, compact_rows};

common::arguments! {
    /// Zoek RVO-regelingen op naam, beschrijving en trefwoorden
    ///
    /// Alle woorden van de zoekterm moeten voorkomen (hoofdletters en accenten tellen niet); treffers
    /// in naam en trefwoorden wegen zwaarder.
    /// Geen treffers is een lege lijst (exit 0). Eén korte rij per treffer: id, naam, soort, status,
    /// openstelling, of ze via de CLI in te dienen is en de score. Alle velden met --lang, of met
    /// --fields of --jq, die uit alle velden kiezen; één regeling: regeling toon.
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        /// Zoekterm, bijv. informatieplicht of "warmtepomp isolatie"
        pub trefwoord: String,
        /// Alleen regelingen met deze status op de peildatum
        #[arg(long, value_parser = ["open", "gesloten", "binnenkort_open"])]
        pub status: Option<String>,
        /// Alleen regelingen van deze soort
        #[arg(long, value_parser = ["subsidie", "fiscale_regeling", "verplichting"])]
        pub soort: Option<String>,
        #[command(flatten)]
        #[serde(flatten)]
        pub peildatum: Peildatum => flatten,
        #[command(flatten)]
        #[serde(flatten)]
        pub lang: Lang => flatten,
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["regeling", "zoek"],
    title: "Regelingen zoeken",
    annotations: Annotations::READ_LOCAL,
    output_schema: include_str!("../../../../schemas/regeling-zoek.json"),
    examples: &[
        &["regeling", "zoek", "informatieplicht"],
        &["regeling", "zoek", "warmtepomp", "--soort", "subsidie"],
        &["regeling", "zoek", "energie", "--status", "open"],
    ],
    args: Args::SCHEMAS,
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let mut validation = Validation::new();
    let date = args
        .peildatum
        .date(crate::cli::clock::today(ctx), &mut validation);
    let status = args.status.as_deref().and_then(Status::parse);
    let soort = args.soort.as_deref().and_then(Soort::parse);
    validation.finish()?;

    let trefwoord = args.trefwoord.trim();
    let plan = PlanSpec::of(args)
        .set("trefwoord", trefwoord)
        .set("peildatum", date.to_string())
        .set("status", status.map(Status::as_str));
    let passed = ctx.gate(plan)?;

    let filters = Filters {
        status,
        soort,
        date,
    };
    let hits = search(Catalogue::embedded(), trefwoord, filters);
    let aantal = hits.len();
    let mut regelingen = serde_json::to_value(hits)
        .map_err(|e| common::Problem::software(format!("treffers niet te vormen: {e}")))?;
    // Six full hits for "energie" were 11.9 KB (issue 40 item 4).
    if !args.lang.wanted(ctx) {
        compact_rows(&mut regelingen, &["score"]);
    }
    let data = json!({
        "trefwoord": trefwoord,
        "peildatum": date.to_string(),
        "aantal": aantal,
        "regelingen": regelingen,
    });
    Ok(catalogue_outcome(&passed, data))
}

//! `regeling lijst`: every scheme of the catalogue, with its status on the peildatum.

use common::args::{Lang, Peildatum};
use common::validate::Validation;
use common::{Annotations, CommandSpec, Context, Outcome, PlanSpec, Result};
use rvo_cli::catalogue::Catalogue;
use rvo_cli::status::RegelingOpDatum;
use serde_json::json;

use super::{catalogue_outcome, compact_rows};

common::arguments! {
    /// Voor alle RVO-regelingen en hun status op de peildatum
    ///
    /// Eén korte rij per regeling: id, naam, soort, status, openstelling, deadline en of ze via de CLI
    /// in te dienen is. Alle velden (beschrijving, wettelijke grondslag, doelgroep, …) met --lang, of
    /// met --fields of --jq, die uit alle velden kiezen; één regeling: regeling toon.
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        #[command(flatten)]
        #[serde(flatten)]
        pub peildatum: Peildatum => flatten,
        #[command(flatten)]
        #[serde(flatten)]
        pub lang: Lang => flatten,
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["regeling", "lijst"],
    title: "Alle regelingen",
    annotations: Annotations::READ_LOCAL,
    output_schema: include_str!("../../../../schemas/regeling-lijst.json"),
    examples: &[
        &["regeling", "lijst"],
        &["regeling", "lijst", "--peildatum", "2027-01-01"],
    ],
    args: Args::SCHEMAS,
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let mut validation = Validation::new();
    let date = args
        .peildatum
        .date(crate::cli::clock::today(ctx), &mut validation);
    validation.finish()?;
    let passed = ctx.gate(PlanSpec::of(args).set("peildatum", date.to_string()))?;
    let catalogue = Catalogue::embedded();
    let regelingen: Vec<RegelingOpDatum<'_>> = catalogue
        .list()
        .iter()
        .map(|regeling| RegelingOpDatum::new(regeling, date))
        .collect();
    let mut regelingen = serde_json::to_value(regelingen)
        .map_err(|e| common::Problem::software(format!("regelingen niet te vormen: {e}")))?;
    // The whole catalogue was 15.6 KB (issue 40 item 4).
    if !args.lang.wanted(ctx) {
        compact_rows(&mut regelingen, &[]);
    }
    let data = json!({
        "peildatum": date.to_string(),
        "catalogus": {
            "versie": catalogue.versie,
            "peildatum": catalogue.peildatum.to_string(),
            "bron": catalogue.bron,
        },
        "aantal": regelingen.as_array().map_or(0, Vec::len),
        "regelingen": regelingen,
    });
    Ok(catalogue_outcome(&passed, data))
}

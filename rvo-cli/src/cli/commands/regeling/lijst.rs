//! `regeling lijst`: every scheme of the catalogue, with its status on the peildatum.

use common::args::Peildatum;
use common::validate::Validation;
use common::{Annotations, CommandSpec, Context, Outcome, PlanSpec, Result};
use rvo_cli::catalogue::Catalogue;
use rvo_cli::status::RegelingOpDatum;
use serde_json::json;

use super::catalogue_outcome;

/// Voor alle RVO-regelingen en hun status op de peildatum
#[derive(clap::Args, serde::Serialize, Debug)]
pub(crate) struct Args {
    #[command(flatten)]
    #[serde(flatten)]
    pub peildatum: Peildatum,
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
    args: &[Peildatum::SCHEMA],
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
    let data = json!({
        "peildatum": date.to_string(),
        "catalogus": {
            "versie": catalogue.versie,
            "peildatum": catalogue.peildatum.to_string(),
            "bron": catalogue.bron,
        },
        "aantal": regelingen.len(),
        "regelingen": regelingen,
    });
    Ok(catalogue_outcome(&passed, data))
}

//! `regeling toon ID`: one scheme, with its status on the peildatum.

use common::args::Peildatum;
use common::validate::Validation;
use common::{Annotations, CommandSpec, Context, Outcome, PlanSpec, Problem, Result};
use rvo_cli::catalogue::{Catalogue, invalid_regeling_id, is_regeling_id};
use rvo_cli::status::RegelingOpDatum;

use super::catalogue_outcome;

common::arguments! {
    /// Voor één RVO-regeling: grondslag, status en termijnen op de peildatum
    ///
    /// Een id van de verkeerde vorm geeft exit 65, een onbekend id exit 66 met de bekende ids in de
    /// hint.
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        /// Bijv. EBR-2027 (hoofdletters tellen niet)
        pub regeling_id: String => (super::REGELING_ID_SCHEMA),
        #[command(flatten)]
        #[serde(flatten)]
        pub peildatum: Peildatum => flatten,
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["regeling", "toon"],
    title: "Regeling ophalen",
    annotations: Annotations::READ_LOCAL,
    output_schema: include_str!("../../../../schemas/regeling.json"),
    examples: &[
        &["regeling", "toon", "EBR-2027"],
        &["regeling", "toon", "EIA-2026", "--peildatum", "2026-06-01"],
    ],
    args: Args::SCHEMAS,
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let mut validation = Validation::new();
    validation.check(is_regeling_id(&args.regeling_id), "regeling_id", || {
        invalid_regeling_id(&args.regeling_id)
    });
    let date = args
        .peildatum
        .date(crate::cli::clock::today(ctx), &mut validation);
    validation.finish()?;
    let catalogue = Catalogue::embedded();
    let regeling = catalogue.get(&args.regeling_id).map_err(|unknown| {
        Problem::not_found(format!(
            "regeling {:?} staat niet in de catalogus (stand {})",
            unknown.id.trim(),
            catalogue.peildatum
        ))
        .with_hint(format!(
            "bekende regelingen: {}",
            unknown.known_ids.join(", ")
        ))
    })?;
    let passed = ctx.gate(
        PlanSpec::of(args)
            .set("regeling_id", regeling.id.as_str())
            .set("peildatum", date.to_string()),
    )?;
    let data = serde_json::to_value(RegelingOpDatum::new(regeling, date))
        .map_err(|e| Problem::software(e.to_string()))?;
    Ok(catalogue_outcome(&passed, data))
}

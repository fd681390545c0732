//! `vestigingsprofiel toon`: one establishment. Public data: not session-bound.

use clap::Subcommand;
use common::validate::{Validation, is_digits};
use common::{Annotations, ArgSchema, CommandSpec, Context, Outcome, PlanSpec, Result};
use serde_json::json;

use crate::cli::shape;
use crate::cli::source::Kvk;

#[derive(Subcommand, Debug)]
pub(crate) enum Action {
    /// Vestigingsprofiel: adressen, werkzame personen (voltijd/deeltijd), activiteiten
    #[command(alias = "get")]
    Toon(Target),
}

#[derive(clap::Args, Debug)]
pub(crate) struct Target {
    /// Vestigingsnummer (12 cijfers)
    pub vestigingsnummer: String,
    /// Voeg geodata (coördinaten, BAG-ids) toe aan de adressen
    #[arg(long)]
    pub geo: bool,
}

pub(crate) const TOON: CommandSpec = CommandSpec {
    path: &["vestigingsprofiel", "toon"],
    title: "Vestigingsprofiel van een vestiging",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../schemas/vestiging.json"),
    examples: &[&["vestigingsprofiel", "toon", "000037178598"]],
    args: &[ArgSchema {
        name: "vestigingsnummer",
        schema: r#"{"pattern": "^[0-9]{12}$"}"#,
    }],
};

/// The entries of this group's commands.
pub(crate) const SPECS: &[CommandSpec] = &[TOON];

pub(crate) fn run(action: &Action, ctx: &mut Context<'_>) -> Result<Outcome> {
    let Action::Toon(target) = action;
    let number = target.vestigingsnummer.trim();
    let mut validation = Validation::new();
    validation.check(is_digits(number, 12), "vestigingsnummer", || {
        format!("vestigingsnummer {number:?} moet uit precies 12 cijfers bestaan")
    });
    validation.finish()?;
    ctx.subject(number, "VESTIGINGSNUMMER");
    let kvk = Kvk::from_env(ctx)?;
    let request = kvk
        .request(&format!("/v1/vestigingsprofielen/{number}"))
        .query(&[("geoData", target.geo.to_string())]);
    let arguments = json!({"vestigingsnummer": number, "geo": target.geo});
    ctx.gate(PlanSpec::new(arguments).request(request.clone()))?;
    let data = kvk.fetch(ctx, &request, &shape::VESTIGING)?;
    Ok(Outcome::new(data, kvk.label(), kvk.environment))
}

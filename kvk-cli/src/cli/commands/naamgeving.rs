//! `naamgeving toon`: the names a company is registered under.
//!
//! Bound by the session rule, like `basisprofiel`.

use clap::Subcommand;
use common::args::KvkNummer;
use common::{Annotations, CommandSpec, Context, Outcome, PlanSpec, Result};
use serde_json::json;

use crate::cli::shape;
use crate::cli::source::Kvk;

#[derive(Subcommand, Debug)]
pub(crate) enum Action {
    /// Statutaire naam, handelsnamen en namen per vestiging
    #[command(alias = "get")]
    Toon(Target),
}

#[derive(clap::Args, Debug)]
pub(crate) struct Target {
    #[command(flatten)]
    pub kvk_nummer: KvkNummer,
}

pub(crate) const TOON: CommandSpec = CommandSpec {
    path: &["naamgeving", "toon"],
    title: "Naamgeving van een onderneming",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../schemas/naamgeving.json"),
    examples: &[&["naamgeving", "toon", "68750110"]],
    args: &[KvkNummer::SCHEMA],
};

/// The entries of this group's commands.
pub(crate) const SPECS: &[CommandSpec] = &[TOON];

pub(crate) fn run(action: &Action, ctx: &mut Context<'_>) -> Result<Outcome> {
    let Action::Toon(target) = action;
    let number = target.kvk_nummer.bound(ctx)?;
    let kvk = Kvk::from_env(ctx)?;
    let request = kvk.request(&format!("/v1/naamgevingen/kvknummer/{number}"));
    let request = ctx
        .gate(PlanSpec::new(json!({"kvk_nummer": number})).request(request))?
        .take()?;
    let data = kvk.fetch_of(ctx, &request, &shape::NAAMGEVING, &number)?;
    Ok(Outcome::new(data, kvk.label(), kvk.environment))
}

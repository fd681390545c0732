//! `naamgeving toon`: the statutory name, trade names and names per establishment of a company.

use common::args::KvkNummer;
use common::{Annotations, CommandSpec, Context, Outcome, PlanSpec, Result};

use crate::cli::shape;
use crate::cli::source::Kvk;

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["naamgeving", "toon"],
    title: "Naamgeving van een onderneming",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../../schemas/naamgeving.json"),
    examples: &[&["naamgeving", "toon", "68750110"]],
    args: KvkNummer::SCHEMAS,
}];

pub(crate) fn run(args: &KvkNummer, ctx: &mut Context<'_>) -> Result<Outcome> {
    let number = args.bound(ctx)?;
    let kvk = Kvk::from_env(ctx)?;
    let request = kvk.request(&format!("/v1/naamgevingen/kvknummer/{number}"));
    let plan = PlanSpec::of(args).set("kvk_nummer", number.as_str());
    let mut passed = ctx.gate(plan.request(request))?;
    let data = kvk.fetch_of(ctx, &passed.take()?, &shape::NAAMGEVING, &number)?;
    Ok(passed.answer(data, kvk.label(), kvk.environment))
}

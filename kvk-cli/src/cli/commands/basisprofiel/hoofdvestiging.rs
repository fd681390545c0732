//! `basisprofiel hoofdvestiging`: the main establishment of a company.

use common::{Annotations, CommandSpec, Context, Outcome, Result};

use crate::cli::shape;

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["basisprofiel", "hoofdvestiging"],
    title: "Hoofdvestiging van een onderneming",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../../schemas/vestiging.json"),
    examples: &[&["basisprofiel", "hoofdvestiging", "68750110", "--geo"]],
    args: super::Target::SCHEMAS,
}];

pub(crate) fn run(args: &super::Target, ctx: &mut Context<'_>) -> Result<Outcome> {
    args.part(ctx, "/hoofdvestiging", &shape::VESTIGING)
}

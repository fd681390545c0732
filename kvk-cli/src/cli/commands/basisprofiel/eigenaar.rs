//! `basisprofiel eigenaar`: the owner of a company.

use common::{Annotations, CommandSpec, Context, Outcome, Result};

use crate::cli::shape;

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["basisprofiel", "eigenaar"],
    title: "Eigenaar van een onderneming",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../../schemas/eigenaar.json"),
    examples: &[&["basisprofiel", "eigenaar", "68750110"]],
    args: super::Target::SCHEMAS,
}];

pub(crate) fn run(args: &super::Target, ctx: &mut Context<'_>) -> Result<Outcome> {
    args.part(ctx, "/eigenaar", &shape::EIGENAAR)
}

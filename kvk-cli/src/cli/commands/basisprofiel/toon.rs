//! `basisprofiel toon`: a company's basic profile.

use common::{Annotations, CommandSpec, Context, Outcome, Result};

use crate::cli::shape;

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["basisprofiel", "toon"],
    title: "Basisprofiel van een onderneming",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../../schemas/basisprofiel.json"),
    examples: &[&["basisprofiel", "toon", "68750110"]],
    args: super::Target::SCHEMAS,
}];

pub(crate) fn run(args: &super::Target, ctx: &mut Context<'_>) -> Result<Outcome> {
    args.part(ctx, "", &shape::BASISPROFIEL)
}

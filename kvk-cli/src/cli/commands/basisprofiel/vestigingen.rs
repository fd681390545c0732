//! `basisprofiel vestigingen`: all establishments of a company.

use common::args::KvkNummer;
use common::{Annotations, CommandSpec, Context, Outcome, PlanSpec, Result};

use crate::cli::shape;

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["basisprofiel", "vestigingen"],
    title: "Vestigingen van een onderneming",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../../schemas/vestigingen.json"),
    examples: &[&["basisprofiel", "vestigingen", "68750110"]],
    args: KvkNummer::SCHEMAS,
}];

pub(crate) fn run(args: &KvkNummer, ctx: &mut Context<'_>) -> Result<Outcome> {
    let plan = PlanSpec::of(args);
    super::part(ctx, plan, args, None, "/vestigingen", &shape::VESTIGINGEN)
}

//! `rapportage voorstel`: record a filing as a proposal that a person approves; nothing is sent.
//!
//! It takes `indienen`'s arguments and runs the same checks (the concept re-checked too), then
//! records the proposal: the input as meant, the plan of `rapportage indienen` and its digest,
//! the concept digest, what an approval is bound to (company, scheme, backend, peildatum),
//! 7 days to live. The same input gives back the same live proposal. A
//! person approves it at a terminal (`rvo-cli voorstel goedkeuren ID`) or on the approval page
//! (`OVERHEID_GOEDKEURING_URL`); any agent then applies it with
//! `rapportage indienen --voorstel ID`.
//!
//! Declared not read-only and idempotent (MUT-18: it records a proposal, and the same input
//! gives back the same one), but not gated by `--confirm`: the person's approval of the
//! proposal is its confirmation.

use common::{Annotations, CommandSpec, Context, Outcome, Result};

use crate::cli::commands::rapportage::aanvraag::{self, FilingArgs};
use crate::cli::records;

common::arguments! {
    /// Stel een rapportage voor die een persoon goedkeurt; er wordt niets ingediend
    ///
    /// Dezelfde argumenten en controles als rapportage indienen (ook --concept, dat opnieuw wordt
    /// getoetst). Het voorstel krijgt een id, het plan en de plan-digest, en verloopt na 7 dagen.
    /// Dezelfde invoer geeft hetzelfde open voorstel terug. Een persoon keurt het goed met
    /// rvo-cli voorstel goedkeuren ID (op een terminal) of op de goedkeuringspagina
    /// (OVERHEID_GOEDKEURING_URL); daarna dient rvo-cli rapportage indienen --voorstel ID het in.
    #[derive(clap::Args, Debug)]
    pub(crate) struct Args {
        #[command(flatten)]
        pub filing: FilingArgs => flatten,
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["rapportage", "voorstel"],
    title: "Rapportage voorstellen (ter goedkeuring)",
    annotations: Annotations::PROPOSE,
    output_schema: include_str!("../../../../schemas/voorstel.json"),
    examples: &[&[
        "rapportage",
        "voorstel",
        "68750110",
        "EBR-2027",
        "LED-verlichting,Isolatie dak",
    ]],
    args: Args::SCHEMAS,
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let mut planned = aanvraag::plan(ctx, &args.filing, args.filing.concept_input(), &mut None)?;
    // The gate of this command: `--dry-run` shows the plan and records nothing.
    let passed = ctx.gate(planned.spec()?)?;
    let (store, proposal, is_new) = aanvraag::propose(ctx, &mut planned)?;
    let mut data = records::to_json(ctx, &proposal);
    data["nieuw"] = is_new.into();
    Ok(records::outcome(&passed, &store, data, &proposal.id))
}

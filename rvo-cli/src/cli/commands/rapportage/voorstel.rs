//! `rapportage voorstel`: record a filing as a proposal that a person approves; nothing is sent.
//!
//! It takes `indienen`'s arguments and runs the same checks (the concept re-checked too), then
//! records the proposal: the input as meant, the plan of `rapportage indienen` and its digest,
//! the concept digest, 7 days to live. The same input gives back the same live proposal. A
//! person approves it at a terminal (`rvo-cli voorstel goedkeuren ID`) or on the approval page
//! (`OVERHEID_GOEDKEURING_URL`); any agent then applies it with
//! `rapportage indienen --voorstel ID`.
//!
//! Declared not read-only and idempotent (MUT-18: it records a proposal, and the same input
//! gives back the same one), but not gated by `--confirm`: the person's approval of the
//! proposal is its confirmation.

use common::plan::Plan;
use common::{Annotations, CommandSpec, Context, Outcome, Result};
use overheid_records::{DEFAULT_TTL, NewProposal, ProposedCall};

use crate::cli::backend::Backend;
use crate::cli::clock;
use crate::cli::commands::rapportage::aanvraag::{self, FilingArgs};
use crate::cli::commands::rapportage::indienen;
use crate::cli::records;
use crate::cli::tool::TOOL;

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
    pub filing: FilingArgs,
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
    // `indienen`'s, without `--voorstel` (the last).
    args: indienen::ARGS.split_at(indienen::ARGS.len() - 1).0,
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let mut planned = aanvraag::plan(ctx, &args.filing, args.filing.concept_input(), &mut None)?;
    // The gate of this command: `--dry-run` shows the plan and records nothing.
    let passed = ctx.gate(planned.spec()?)?;
    let command = format!("{} {}", TOOL.name, records::APPLY_COMMAND);
    let plan = Plan::build(TOOL.name, &command, true, false, planned.spec()?);
    let new = NewProposal {
        call: ProposedCall {
            company: planned.aanvraag.kvk_nummer.clone(),
            tool: TOOL.name.into(),
            command: records::APPLY_COMMAND.into(),
            input: serde_json::to_value(&planned.input)
                .map_err(|e| common::Problem::software(e.to_string()))?,
            plan: plan.json,
            plan_digest: plan.digest,
            concept_digest: planned.concept_digest.clone(),
            binding: None,
        },
        ttl: DEFAULT_TTL,
        proposed_by: records::proposer(ctx),
    };
    // The local sandbox's store is the proposals' store: the one connection of this call.
    let mut store = match &mut planned.backend {
        Backend::Lokaal(local) => local.take()?,
        Backend::Http(_) => records::open(ctx)?,
    };
    let (proposal, is_new) = store
        .propose(&new, clock::now())
        .map_err(records::problem)?;
    rvo_cli::hook::pause(rvo_cli::hook::Phase::Proposed);
    ctx.audit_attribute("overheid.voorstel_id", proposal.id.clone().into());
    let mut data = records::to_json(ctx, &proposal);
    data["nieuw"] = is_new.into();
    Ok(records::outcome(&passed, &store, data, &proposal.id))
}

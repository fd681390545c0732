//! `voorstel lijst [--status S]`: the proposals of the session's company, newest first
//! (read-only). Without `KVK_SESSIE_NUMMER`, those of every company in the store.

use common::{Annotations, CommandSpec, Context, Outcome, PlanSpec, Result};
use overheid_records::Status;
use serde_json::{Value, json};

use crate::cli::clock;
use crate::cli::records;

common::arguments! {
    /// Toon de voorstellen van het bedrijf, nieuwste eerst
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        /// Alleen voorstellen met deze status
        #[arg(long, value_name = "STATUS", value_parser = ["open", "goedgekeurd", "afgewezen", "verlopen", "ingediend"])]
        pub status: Option<String> => {"examples": ["open"]},
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["voorstel", "lijst"],
    title: "Voorstellen tonen",
    annotations: Annotations::READ_LOCAL,
    output_schema: include_str!("../../../../schemas/voorstel-lijst.json"),
    examples: &[&["voorstel", "lijst", "--status", "open"]],
    args: Args::SCHEMAS,
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let status = args.status.as_deref().and_then(Status::from_label);
    let passed = ctx.gate(PlanSpec::of(args))?;
    let company = common::session::session_number(ctx)?;
    if let Some(company) = &company {
        ctx.subject(company, "KVK_NUMMER");
    }
    let mut store = records::open(ctx)?;
    let proposals = store
        .proposals(company.as_deref(), status, clock::now())
        .map_err(records::problem)?;
    let items: Vec<Value> = proposals
        .iter()
        .map(|proposal| {
            let mut item = records::to_json(ctx, proposal);
            if let Some(map) = item.as_object_mut() {
                map.remove("plan");
            }
            item
        })
        .collect();
    let data = json!({"aantal": items.len(), "voorstellen": items});
    Ok(records::outcome(&passed, &store, data, "lijst"))
}

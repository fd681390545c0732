//! `voorstel toon ID`: one proposal, its decision and its history (read-only). Another
//! company's proposal is answered exactly as an unknown id.

use common::{Annotations, CommandSpec, Context, Outcome, PlanSpec, Result};
use serde_json::{Value, json};

use crate::cli::records;

common::arguments! {
    /// Toon een voorstel: status, plan, beslissing, geschiedenis
    ///
    /// Een voorstel van een ander bedrijf dan KVK_SESSIE_NUMMER wordt behandeld als onbekend (exit 66).
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        /// Id van het voorstel (vs_…)
        pub id: String => (super::ID_SCHEMA),
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["voorstel", "toon"],
    title: "Voorstel tonen",
    annotations: Annotations::READ_LOCAL,
    output_schema: include_str!("../../../../schemas/voorstel.json"),
    examples: &[&["voorstel", "toon", "vs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]],
    args: Args::SCHEMAS,
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let id = args.id.trim();
    records::check_id(id, "id")?;
    let passed = ctx.gate(PlanSpec::of(args).set("id", id))?;
    let (mut store, proposal) = records::find(ctx, id)?;
    let events = store.events(id).map_err(records::problem)?;
    let mut data = records::to_json(ctx, &proposal);
    data["geschiedenis"] = events
        .iter()
        .map(|event| {
            let mut entry = json!({"status": event.status.label(), "op": event.at});
            if let Some(by) = &event.by {
                entry["door"] =
                    json!({"subject": by.subject, "naam": by.name, "methode": by.method});
            }
            if let Some(digest) = &event.digest {
                entry["digest"] = digest.clone().into();
            }
            entry
        })
        .collect::<Vec<Value>>()
        .into();
    Ok(records::outcome(&passed, &store, data, id))
}

//! `rapportage lijst [KVK_NUMMER]`: the reports of one company, oldest first.

use common::args::KvkNummer;
use common::{Annotations, CommandSpec, Context, Outcome, PlanSpec, Result};
use rvo_cli::backend_types::RapportageLijst;
use serde_json::json;

use crate::cli::backend::http::{Call, error_for, parse};
use crate::cli::backend::{Backend, Overzicht};
use crate::cli::records;

common::arguments! {
    /// Ingediende rapportages van het bedrijf, oudste eerst
    ///
    /// Zonder KVK_NUMMER geldt KVK_SESSIE_NUMMER; een ander nummer dan dat wordt geweigerd (exit 77).
    /// Beschadigde records in de opslag worden overgeslagen en met hun sleutel genoemd in "onleesbaar".
    /// Geen rapportages is een lege lijst (exit 0).
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        #[command(flatten)]
        #[serde(flatten)]
        pub kvk_nummer: KvkNummer => flatten,
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["rapportage", "lijst"],
    title: "Rapportages van een bedrijf",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../../schemas/rapportage-lijst.json"),
    examples: &[&["rapportage", "lijst", "68750110"]],
    args: Args::SCHEMAS,
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let kvk_nummer = args.kvk_nummer.bound(ctx)?;
    let mut backend = Backend::from_env(ctx)?;
    let mut plan = PlanSpec::of(args)
        .set("kvk_nummer", kvk_nummer.as_str())
        .extra("backend", backend.name().into());
    if let Backend::Http(http) = &backend {
        plan = plan.request(http.list_request(&kvk_nummer));
    }
    let mut passed = ctx.gate(plan)?;

    let mut onleesbaar = Vec::new();
    let rapportages: Vec<Overzicht> = match &mut backend {
        Backend::Lokaal(local) => {
            let (filings, unreadable) = match local.existing()? {
                Some(store) => store.filings(Some(&kvk_nummer)).map_err(records::problem)?,
                None => Default::default(),
            };
            let mut sound = Vec::with_capacity(filings.len());
            let mut bad: Vec<(String, String)> = unreadable
                .into_iter()
                .map(|damaged| (damaged.key, damaged.detail))
                .collect();
            for filing in &filings {
                match rvo_cli::record::read(filing) {
                    Ok(result) => sound.push(Overzicht::from_local(result)),
                    Err(problems) => bad.push((filing.key.clone(), problems.join("; "))),
                }
            }
            // A damaged record is named by its key and skipped; the sound reports are shown.
            for (key, reden) in bad {
                ctx.printer.warn(&format!(
                    "Opslag: record {key} is beschadigd en overgeslagen: {reden}"
                ));
                onleesbaar.push(json!({"sleutel": key, "reden": reden}));
            }
            sound
        }
        Backend::Http(_) => {
            let response = ctx.send(&passed.take()?)?;
            if response.status != 200 {
                return Err(error_for(&response, Call::List));
            }
            let lijst: RapportageLijst = parse(&response)?;
            lijst
                .rapportages
                .into_iter()
                .filter(|record| record.aanvraag.kvk_nummer == kvk_nummer)
                .map(Overzicht::from_http)
                .collect()
        }
    };
    let mut data = json!({
        "kvk_nummer": kvk_nummer,
        "aantal": rapportages.len(),
        "backend": backend.name(),
        "rapportages": rapportages,
    });
    if !onleesbaar.is_empty() {
        ctx.audit_attribute("rvo.onleesbare_records", onleesbaar.len().into());
        data["onleesbaar"] = onleesbaar.into();
    }
    Ok(backend.outcome(
        &passed,
        data,
        &format!("rapportages?kvk_nummer={kvk_nummer}"),
    ))
}

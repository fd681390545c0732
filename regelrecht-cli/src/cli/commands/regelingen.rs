//! `regelingen [KVK_NUMMER]`: "Mijn regelingen", the regulations that may apply to a company by
//! each definition's applicability rule on its registration data (spec/concept.md §8).

use std::collections::BTreeMap;

use common::args::KvkNummer;
use common::validate::Validation;
use common::{Annotations, CommandSpec, Context, Environment, Outcome, PlanSpec, Result};
use serde_json::{Value, json};

use crate::cli::laws::SOURCE;
use crate::cli::regeling::applicability::{self, MAY_APPLY};
use crate::cli::regeling::definition::{self, Datum, DefinitionArgs};
use crate::cli::regeling::sourcing;

/// Welke regelingen mogelijk van toepassing zijn op dit bedrijf, op grond van zijn registratie
///
/// Elke regeling heeft een toepasselijkheidsregel op registratiegegevens (bijv. SBI-code,
/// aantal werkzame personen); de gegevens komen van de CLI's van de familie. De uitkomst is
/// "mogelijk van toepassing", nooit een recht: de concept-aanvraag rekent het uit. Gebonden aan
/// KVK_SESSIE_NUMMER.
#[derive(clap::Args, serde::Serialize, Debug)]
pub(crate) struct Args {
    #[command(flatten)]
    #[serde(flatten)]
    pub kvk: KvkNummer,
    /// Toegestane bron (id uit het bronnenregister); herhaalbaar
    #[arg(long, value_name = "BRON")]
    pub toestemming: Vec<String>,
    #[command(flatten)]
    #[serde(flatten)]
    pub regelingen: DefinitionArgs,
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["regelingen"],
    title: "Regelingen voor een bedrijf",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../schemas/regelingen.json"),
    examples: &[&["regelingen", "68750110"]],
    args: &[KvkNummer::SCHEMA, definition::DEFINITIONS_SCHEMA],
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let mut validation = Validation::new();
    args.regelingen.validate(&mut validation);
    validation.finish()?;
    let kvk = args.kvk.bound(ctx)?;
    let catalogue = args.regelingen.load(ctx)?;
    let mut wanted: BTreeMap<&str, &Datum> = BTreeMap::new();
    for definition in catalogue.definitions.values() {
        for condition in definition.toepasselijkheid.iter().flat_map(|a| &a.alle) {
            if let Some(datum) = catalogue.data.get(&condition.gegeven) {
                wanted.insert(&datum.id, datum);
            }
        }
    }
    let wanted: Vec<&Datum> = wanted.into_values().collect();
    let passed = ctx.gate(PlanSpec::of(args).set("kvk_nummer", kvk.as_str()).extra(
        "bronnen",
        sourcing::planned(&catalogue, &wanted, &args.toestemming),
    ))?;
    let (data, missing) = sourcing::fetch(ctx, &catalogue, &wanted, &kvk, &args.toestemming)?;
    let regelingen: Vec<Value> = catalogue
        .definitions
        .values()
        .map(|d| applicability::verdict(d, &data))
        .collect();
    let niet_opgehaald: Vec<Value> = missing
        .iter()
        .map(|(name, why)| match why {
            sourcing::Unsourced::NoConsent { source } => {
                json!({"naam": name, "bron": source, "exit_code": null, "reden": "bron vraagt toestemming; niet opgevraagd"})
            }
            sourcing::Unsourced::Failed { source, failure } => {
                json!({"naam": name, "bron": source, "exit_code": failure.exit_code, "reden": failure.detail})
            }
        })
        .collect();
    let count = regelingen
        .iter()
        .filter(|r| r["uitkomst"] == MAY_APPLY)
        .count();
    let data = json!({
        "kvk_nummer": kvk,
        "aantal_mogelijk_van_toepassing": count,
        "regelingen": regelingen,
        "niet_opgehaald": niet_opgehaald,
        "melding": "\"Mogelijk van toepassing\" is geen recht en geen plicht: stel een concept-aanvraag op (regelrecht-cli concept REGELING) om het uit te rekenen.",
    });
    Ok(passed.answer(data, SOURCE, Environment::Local))
}

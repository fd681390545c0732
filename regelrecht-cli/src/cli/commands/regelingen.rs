//! `regelingen [KVK_NUMMER]`: "Mijn regelingen", the regulations that may apply to a company by
//! each definition's applicability rule on its registration data (spec/concept.md §8), and the
//! schemes of the RVO catalogue (listed by rvo-cli) with why each may apply ([`rvo`]).
//!
//! A source that fails is named on stderr (and in `niet_opgehaald`); when no outcome at all
//! could be computed because of that, the answer is exit 69 naming the sources, never an exit 0
//! with every outcome unknown.

use std::collections::BTreeMap;

use common::args::{KvkNummer, Lang};
use common::child::ChildFailure;
use common::validate::Validation;
use common::{Annotations, CommandSpec, Context, Environment, Outcome, PlanSpec, Problem, Result};
use serde_json::{Value, json};

use crate::cli::laws::SOURCE;
use crate::cli::regeling::applicability::{self, MAY_APPLY, UNKNOWN};
use crate::cli::regeling::definition::{Catalogue, Datum, DefinitionArgs};
use crate::cli::regeling::{rvo, sourcing};

common::arguments! {
    /// Welke regelingen, ook die van RVO, mogelijk gelden voor een bedrijf
    ///
    /// Op grond van de registratie van het bedrijf. Elke regeling heeft een toepasselijkheidsregel op registratiegegevens (bijv. SBI-code,
    /// aantal werkzame personen); de gegevens komen van de CLI's van de familie. Ook de regelingen
    /// van de RVO-catalogus (via rvo-cli), elk met waarom ze mogelijk van toepassing zijn en waar
    /// het verder van afhangt. De uitkomst is "mogelijk van toepassing", nooit een recht: de
    /// concept-aanvraag rekent het uit. Een bron die faalt wordt genoemd; kan daardoor geen enkele
    /// uitkomst bepaald worden, dan exit 69. Gebonden aan KVK_SESSIE_NUMMER. Per regeling de kern
    /// (uitkomst, waarom, waar het van afhangt, de volgende stap); met --lang ook de gebruikte
    /// gegevens met hun herkomst, de regel, de doelgroep en de catalogus (--fields en --jq kiezen uit
    /// alles).
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        #[command(flatten)]
        #[serde(flatten)]
        pub kvk: KvkNummer => flatten,
        /// Toegestane bron (id uit het bronnenregister); herhaalbaar
        #[arg(long, value_name = "BRON")]
        pub toestemming: Vec<String>,
        #[command(flatten)]
        #[serde(flatten)]
        pub regelingen: DefinitionArgs => flatten,
        #[command(flatten)]
        #[serde(flatten)]
        pub lang: Lang => flatten,
    }
}

/// What a scheme's row holds only with `--lang` (CONV-9): the values used with their provenance,
/// the rule, and the catalogue's own texts (12.5 KB for one company, 4.6 KB without them).
const LONG_ONLY: [&str; 6] = [
    "gebruikte_gegevens",
    "regel",
    "omschrijving",
    "doelgroep",
    "url",
    "catalogus",
];

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["regelingen"],
    title: "Regelingen voor een bedrijf",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../schemas/regelingen.json"),
    examples: &[&["regelingen", "68750110"]],
    args: Args::SCHEMAS,
}];

/// The data kinds that the applicability rules and the RVO catalogue's schemes read, each once.
fn wanted(catalogue: &Catalogue) -> Vec<&Datum> {
    let mut wanted: BTreeMap<&str, &Datum> = BTreeMap::new();
    let kinds = catalogue
        .definitions
        .values()
        .flat_map(|d| d.toepasselijkheid.iter().flat_map(|a| &a.alle))
        .map(|condition| condition.gegeven.as_str())
        .chain(rvo::wanted(catalogue));
    for kind in kinds {
        if let Some(datum) = catalogue.data.get(kind) {
            wanted.insert(&datum.id, datum);
        }
    }
    wanted.into_values().collect()
}

/// The data not fetched: one `niet_opgehaald` entry each, and every source that failed, once
/// (named on stderr, and in the refusal when nothing could be computed).
fn unsourced(
    missing: &BTreeMap<String, sourcing::Unsourced>,
) -> (Vec<Value>, BTreeMap<String, &ChildFailure>) {
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
    let mut failed: BTreeMap<String, &ChildFailure> = BTreeMap::new();
    for why in missing.values() {
        // A source that answered without a value did not fail: the registration lacks it.
        if let sourcing::Unsourced::Failed { source, failure } = why
            && failure.code != common::codes::VELD_ONTBREEKT.name
        {
            failed.entry(source.clone()).or_insert(failure);
        }
    }
    (niet_opgehaald, failed)
}

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let mut validation = Validation::new();
    args.regelingen.validate(&mut validation);
    validation.finish()?;
    let kvk = args.kvk.bound(ctx)?;
    let catalogue = args.regelingen.load(ctx)?;
    let wanted = wanted(&catalogue);
    let mut bronnen = sourcing::planned(&catalogue, &wanted, &args.toestemming);
    if let (Some(command), Some(list)) = (&catalogue.rvo_catalogue, bronnen.as_array_mut()) {
        list.push(rvo::planned(command));
    }
    let passed = ctx.gate(
        PlanSpec::of(args)
            .set("kvk_nummer", kvk.as_str())
            .extra("bronnen", bronnen),
    )?;
    let (data, missing) = sourcing::fetch(ctx, &catalogue, &wanted, &kvk, &args.toestemming)?;
    let listed = match &catalogue.rvo_catalogue {
        Some(command) => Some((command, rvo::list(ctx, command)?)),
        None => None,
    };
    let regelingen: Vec<Value> = catalogue
        .definitions
        .values()
        .map(|d| applicability::verdict(d, &data))
        .collect();
    let rvo_regelingen: Vec<Value> = match &listed {
        Some((_, Ok(listed))) => rvo::verdicts(&catalogue, listed, &data, &kvk),
        _ => Vec::new(),
    };
    let (mut niet_opgehaald, mut failed) = unsourced(&missing);
    if let Some((command, Err(failure))) = &listed {
        let source = format!(
            "rvo-catalogus ({} {})",
            command.programma,
            command.commando.join(" ")
        );
        niet_opgehaald.push(json!({"naam": "rvo_regelingen", "bron": source, "exit_code": failure.exit_code, "reden": failure.detail}));
        failed.insert(source, failure);
    }
    let failures: Vec<String> = failed
        .iter()
        .map(|(source, failure)| {
            format!(
                "bron {source} faalde (exit {}, {}): {}",
                failure.exit_code, failure.code, failure.detail
            )
        })
        .collect();
    let outcomes = || regelingen.iter().chain(&rvo_regelingen);
    let computed = outcomes().filter(|r| r["uitkomst"] != UNKNOWN).count();
    if computed == 0 && !failures.is_empty() {
        return Err(Problem::unavailable(format!(
            "geen enkele uitkomst kon bepaald worden: {}",
            failures.join("; ")
        ))
        .with_hint("probeer het later opnieuw; zie de bron voor de oorzaak")
        .into());
    }
    for failure in &failures {
        ctx.printer.warn(&format!(
            "{failure}; regelingen die haar gegevens nodig hebben zijn onbekend"
        ));
    }
    let count = outcomes().filter(|r| r["uitkomst"] == MAY_APPLY).count();
    let (mut regelingen, mut rvo_regelingen) = (regelingen, rvo_regelingen);
    if !args.lang.wanted(ctx) {
        for row in regelingen.iter_mut().chain(rvo_regelingen.iter_mut()) {
            if let Some(row) = row.as_object_mut() {
                row.retain(|member, _| !LONG_ONLY.contains(&member.as_str()));
            }
        }
    }
    let data = json!({
        "kvk_nummer": kvk,
        "aantal_mogelijk_van_toepassing": count,
        "regelingen": regelingen,
        "rvo_regelingen": rvo_regelingen,
        "niet_opgehaald": niet_opgehaald,
        "melding": "\"Mogelijk van toepassing\" is geen recht en geen plicht: het hangt af van wat niet in de registratie staat (zie per regeling hangt_af_van); stel een concept-aanvraag op (regelrecht-cli concept REGELING) om het uit te rekenen.",
    });
    Ok(passed.answer(data, SOURCE, Environment::Local))
}

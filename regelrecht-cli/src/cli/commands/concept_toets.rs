//! `concept-toets --concept FILE|-`: re-evaluate a concept with the ruleset loaded now, the same
//! check before as after filing (spec/concept.md §7). rvo-cli runs this before it files.

use common::validate::Validation;
use common::{
    Annotations, ArgSchema, CommandSpec, Context, Environment, FieldError, Outcome, PlanSpec,
    Problem, Result, session,
};
use serde_json::json;

use crate::cli::laws::{self, CorpusArgs, SOURCE};
use crate::cli::regeling::definition::{self, DefinitionArgs};
use crate::cli::regeling::recheck;

/// Toets een concept-aanvraag opnieuw: dezelfde regels, dezelfde uitkomst?
///
/// Leest het concept (bestand, of '-' voor stdin), controleert dat de concept_digest de inhoud
/// nog dekt en berekent de uitkomsten opnieuw met de nu geladen regels. "overeenkomst": false
/// met de verschillen als het concept is gewijzigd of de regels zijn veranderd.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Het concept (JSON van regelrecht-cli concept), of '-' voor stdin
    #[arg(long, value_name = "BESTAND")]
    pub concept: String,
    #[command(flatten)]
    pub corpus: CorpusArgs,
    #[command(flatten)]
    pub regelingen: DefinitionArgs,
}

pub const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["concept-toets"],
    title: "Concept-aanvraag opnieuw toetsen",
    annotations: Annotations::READ_LOCAL,
    output_schema: include_str!("../../../schemas/concept_toets.json"),
    examples: &[&["concept-toets", "--concept", "concept.json"]],
    args: &[
        ArgSchema::path_or_stdin_json("concept"),
        laws::CORPUS_SCHEMA,
        definition::DEFINITIONS_SCHEMA,
    ],
}];

/// The most bytes of a concept read.
const MAX_CONCEPT_BYTES: u64 = 4 * 1024 * 1024;

pub fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let mut validation = Validation::new();
    args.corpus.validate(&mut validation);
    args.regelingen.validate(&mut validation);
    validation.finish()?;
    let concept = common::input::read_json(&args.concept, MAX_CONCEPT_BYTES)
        .map_err(|detail| Problem::invalid(vec![FieldError::new("concept", detail)]))?;
    let (_, _, kvk) = recheck::header(&concept)?;
    session::bound_kvk_number(ctx, Some(&kvk))?;
    let catalogue = args.regelingen.load(ctx)?;
    let corpus = args.corpus.load(ctx)?;
    ctx.gate(PlanSpec::new(json!({
        "concept_digest": concept["concept_digest"],
        "corpus": args.corpus.arguments(),
        "regelingen": args.regelingen.arguments(),
    })))?;
    let data = recheck::recheck(&catalogue, &corpus, &concept)?;
    Ok(Outcome::new(data, SOURCE, Environment::Local))
}

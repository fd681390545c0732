//! `concept REGELING [KVK_NUMMER]`: the pre-filled draft of a regulation (spec/concept.md §5);
//! `concept --toets FILE|-`: the same check again, before filing (§7).
//!
//! The definition says what the law needs; the source register says where each value comes
//! from. Values from sources come from the family's CLIs run as children; answers come from
//! `--opgave NAAM=WAARDE`, normalised by type; the rest are open questions. Nothing is filed.
//! With `--toets` no source is asked: the concept's own values are re-evaluated with the ruleset
//! loaded now (rvo-cli runs this before it files a concept).

use common::args::{KvkNummer, Peildatum};
use common::validate::Validation;
use common::{
    Annotations, CommandSpec, Context, Environment, FieldError, Outcome, PlanSpec, Problem, Result,
    session,
};

use crate::cli::laws::{CorpusArgs, SOURCE};
use crate::cli::pairs::{self, Name};
use crate::cli::regeling::concept::{self, Request};
use crate::cli::regeling::definition::{self, DefinitionArgs};
use crate::cli::regeling::{recheck, sourcing};

common::arguments! {
    /// Stel een concept-aanvraag op: elk gegeven met zijn bron, open vragen en de uitkomst
    ///
    /// Gegevens uit registraties komen van de CLI's van de familie (bijv. kvk-cli), met hun
    /// herkomst; opgaven geeft u met --opgave NAAM=WAARDE (getallen op z'n Nederlands: 250.000 is
    /// 250000). Een bron die toestemming vraagt, wordt alleen met --toestemming BRON opgevraagd. Een
    /// correctie van een brongegeven (waar dat mag) is ook een --opgave; de herkomst toont wat er
    /// gecorrigeerd is. Er wordt niets ingediend. Gebonden aan KVK_SESSIE_NUMMER. Met --toets
    /// BESTAND wordt een bestaand concept opnieuw getoetst: dekt de concept_digest de inhoud nog, en
    /// geven dezelfde regels dezelfde uitkomst ("overeenkomst")?
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        /// Id van de regeling (zie regelingen); niet bij --toets
        pub regeling: Option<String> => {"pattern": "^[a-z0-9-]{1,80}$"},
        #[command(flatten)]
        #[serde(flatten)]
        pub kvk: KvkNummer => flatten,
        /// Antwoord of correctie als NAAM=WAARDE; herhaalbaar
        #[arg(long, value_name = "NAAM=WAARDE")]
        pub opgave: Vec<String> => {"type": "array", "items": {"type": "string", "pattern": "^[a-z0-9_]+="}},
        /// Toegestane bron (id uit het bronnenregister); herhaalbaar
        #[arg(long, value_name = "BRON")]
        pub toestemming: Vec<String> => {"type": "array", "items": {"type": "string", "minLength": 1}},
        #[command(flatten)]
        #[serde(flatten)]
        pub peildatum: Peildatum => flatten,
        /// Toets dit concept opnieuw (JSON van regelrecht-cli concept), of '-' voor stdin
        #[arg(long, value_name = "BESTAND", conflicts_with_all = ["regeling", "opgave", "toestemming", "peildatum"])]
        pub toets: Option<String> => path_or_stdin_json_object,
        #[command(flatten)]
        #[serde(flatten)]
        pub corpus: CorpusArgs => flatten,
        #[command(flatten)]
        #[serde(flatten)]
        pub regelingen: DefinitionArgs => flatten,
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["concept"],
    title: "Concept-aanvraag opstellen",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../../spec/schemas/concept.schema.json"),
    examples: &[&[
        "concept",
        "informatieplicht-energiebesparing",
        "68750110",
        "--opgave",
        "elektriciteitsverbruik_kwh=250.000",
    ]],
    args: Args::SCHEMAS,
}];

/// The most bytes of a concept read by `--toets`.
const MAX_CONCEPT_BYTES: u64 = 4 * 1024 * 1024;

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    if let Some(source) = &args.toets {
        return toets(args, source, ctx);
    }
    let Some(regeling) = &args.regeling else {
        return Err(Problem::usage("geef de REGELING, of --toets BESTAND")
            .with_hint("regelrecht-cli regelingen toont de regelingen")
            .into());
    };
    let mut validation = Validation::new();
    let well_formed = (1..=80).contains(&regeling.len())
        && regeling
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    validation.check(well_formed, "regeling", || {
        format!("{regeling:?} is geen id van een regeling (kleine letters, cijfers en '-')")
    });
    let date = args.peildatum.date(ctx.today(), &mut validation);
    args.corpus.validate(&mut validation);
    args.regelingen.validate(&mut validation);
    let opgaven = pairs::name_value_pairs(&args.opgave, "opgave", Name::AsGiven, &mut validation);
    validation.finish()?;
    let kvk = args.kvk.bound(ctx)?;
    let catalogue = args.regelingen.load(ctx)?;
    let definition = catalogue.definition(regeling)?;
    let corpus = args.corpus.load(ctx)?;
    let wanted: Vec<&definition::Datum> = definition
        .gegevens
        .iter()
        .filter_map(|f| f.gegeven.as_ref())
        .filter_map(|kind| catalogue.data.get(kind))
        .collect();
    let bronnen = sourcing::planned(&catalogue, &wanted, &args.toestemming);
    let passed = ctx.gate(PlanSpec::of(args)
        .set("regeling", definition.id.as_str())
        .set("kvk_nummer", kvk.as_str())
        .set("peildatum", date.to_string())
    .effect("Stelt een concept op; de bronnen worden als kindproces gevraagd, er wordt niets ingediend.")
    .extra("bronnen", bronnen))?;
    let request = Request {
        kvk_nummer: &kvk,
        opgaven: &opgaven,
        toestemmingen: &args.toestemming,
        date,
    };
    let data = concept::build(ctx, &catalogue, &corpus, definition, &request)?;
    let digest = data["concept_digest"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    Ok(passed
        .answer(data, SOURCE, Environment::Local)
        .source_url(
            definition.origin.clone(),
            "LOCAL",
            definition.sha256.clone(),
        )
        .extra("concept_digest", digest.into()))
}

/// `--toets FILE|-`: the concept re-evaluated (spec/concept.md §7).
fn toets(args: &Args, source: &str, ctx: &mut Context<'_>) -> Result<Outcome> {
    let mut validation = Validation::new();
    args.corpus.validate(&mut validation);
    args.regelingen.validate(&mut validation);
    if args.kvk.kvk_nummer.is_some() {
        validation.push("kvk_nummer", "--toets neemt het KvK-nummer uit het concept");
    }
    validation.finish()?;
    let concept = common::input::read_json(source, MAX_CONCEPT_BYTES)
        .map_err(|detail| Problem::invalid(vec![FieldError::new("toets", detail)]))?;
    let (_, _, kvk) = recheck::header(&concept)?;
    session::bound_kvk_number(ctx, Some(&kvk))?;
    let catalogue = args.regelingen.load(ctx)?;
    let corpus = args.corpus.load(ctx)?;
    // The concept is named by its digest, the file it came from aside.
    let passed = ctx.gate(PlanSpec::of(args).set("toets", concept["concept_digest"].clone()))?;
    let data = recheck::recheck(&catalogue, &corpus, &concept)?;
    Ok(passed.answer(data, SOURCE, Environment::Local))
}

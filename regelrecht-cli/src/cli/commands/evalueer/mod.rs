//! `evalueer LAW_ID`: compute outputs of a law with parameters typed by its declarations, and
//! explain each answer with the article it comes from (and, with `--uitleg`, the trace).
//!
//! An output the engine cannot compute is exit 65 naming what is missing; never a value. The
//! evaluation itself is [`crate::cli::evaluation`]; `--batch` is [`batch`].

use common::args::Peildatum;
use common::validate::Validation;
use common::{Annotations, CommandSpec, Context, Environment, Outcome, PlanSpec, Result};
use regelrecht_engine::{Request, UntranslatableMode};
use serde_json::{Map, Value};

use crate::cli::evaluation::{self, Options};
use crate::cli::laws::{self, CorpusArgs, ENGINE_VERSION, SOURCE};
use crate::cli::pairs::{self, Name};
use crate::cli::{params, problems};

mod batch;

common::arguments! {
    /// Bereken de uitvoer van een wet voor eigen invoer, met grondslag per uitkomst
    ///
    /// Parameters krijgen het type uit de wet (number, amount in eurocent, boolean, date,
    /// string, object, array); een verkeerd type is exit 65. Kan een uitvoer niet berekend
    /// worden (ontbrekende invoer, onvertaalbare constructie), dan exit 65 met wat ontbreekt. De
    /// peildatum is de rekendatum en kiest de wetsversies.
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        /// $id van de wet (zie wet lijst)
        pub law_id: String,
        // Repeatable like --param (an array in discovery): `"type": "array"` makes the schema
        // replace the property instead of being merged into its `items`.
        /// Gevraagde uitvoer; herhaalbaar (bij --batch: voor een geval zonder eigen)
        #[arg(long, value_name = "NAAM", required_unless_present = "batch")]
        pub uitvoer: Vec<String>
            => {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}},
        // NAAM=WAARDE: a NAAM that is not blank, as `pairs::name_value_pairs` requires.
        /// NAAM=WAARDE, getypeerd volgens de wet; herhaalbaar, gaat voor --param-json
        #[arg(long, value_name = "NAAM=WAARDE", conflicts_with = "batch")]
        pub param: Vec<String>
            => {"type": "array", "items": {"type": "string", "pattern": "^[^=]*[^=\\s][^=]*="}},
        // Over MCP the parameters stay available as one JSON object, passed on stdin (DISC-21).
        /// Alle parameters als één JSON-object uit een bestand, of '-' voor stdin
        #[arg(long, value_name = "BESTAND", conflicts_with = "batch")]
        pub param_json: Option<String> => [
            path_or_stdin_json,
            {"contentSchema": {
                "type": "object",
                "description": "Alle parameters als één JSON-object (namen als bij --param)"
            }},
        ],
        /// Onvertaalbare constructies (RFC-012): weigeren, markeren, waarschuwen of stil weigeren
        #[arg(long, value_enum, default_value_t = Onvertaalbaar::Error)]
        pub onvertaalbaar: Onvertaalbaar,
        /// Doorloop de procedure (Awb, RFC-008) tot en met deze fase, bijv. BEKENDMAKING
        #[arg(long, value_name = "NAAM")]
        pub fase: Option<String>,
        /// Met een ontvangstbewijs om de berekening te herhalen
        #[arg(long)]
        pub ontvangstbewijs: bool,
        /// JSON Lines ('-': stdin), per regel {"id", "params", "peildatum"?, "uitvoer"?}; per regel
        /// een uitkomst of probleem terug
        #[arg(long, value_name = "BESTAND")]
        pub batch: Option<String>
            => [path, {"x-stdin": true, "contentMediaType": "application/jsonl"}],
        #[command(flatten)]
        #[serde(flatten)]
        pub peildatum: Peildatum => flatten,
        /// Met de evaluatiestappen (artikel, operatie, waarden, uitkomst)
        #[arg(long)]
        pub uitleg: bool,
        #[command(flatten)]
        #[serde(flatten)]
        pub corpus: CorpusArgs => flatten,
    }
}

/// `--onvertaalbaar`.
#[derive(clap::ValueEnum, serde::Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Onvertaalbaar {
    /// Weiger niet-geaccepteerde constructies (standaard)
    Error,
    /// Reken door; markeer uitvoer die ervan afhangt
    Propagate,
    /// Reken door met een waarschuwing
    Warn,
    /// Weiger niet-geaccepteerde, voer geaccepteerde stil uit
    Ignore,
}

impl Onvertaalbaar {
    /// The engine's mode.
    pub(crate) fn mode(self) -> UntranslatableMode {
        match self {
            Onvertaalbaar::Error => UntranslatableMode::Error,
            Onvertaalbaar::Propagate => UntranslatableMode::Propagate,
            Onvertaalbaar::Warn => UntranslatableMode::Warn,
            Onvertaalbaar::Ignore => UntranslatableMode::Ignore,
        }
    }
}

impl Args {
    /// The evaluation options of these arguments.
    pub(crate) fn options(&self) -> Options<'_> {
        Options {
            mode: self.onvertaalbaar.mode(),
            fase: self.fase.as_deref().map(str::trim),
            uitleg: self.uitleg,
            receipt: self.ontvangstbewijs,
        }
    }

    /// The plan of every evaluation, single or batch: these arguments with the law, the date
    /// it is read on and how it is read normalised. Each mode then sets its own parameters.
    fn plan(&self, law_id: &str, date: impl ToString, options: &Options<'_>) -> PlanSpec {
        PlanSpec::of(self)
            .set("law_id", law_id)
            .set("peildatum", date.to_string())
            .set("onvertaalbaar", options.mode.as_str())
            .set("fase", options.fase)
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["evalueer"],
    title: "Uitvoer van een wet berekenen",
    annotations: Annotations::READ_LOCAL,
    output_schema: include_str!("../../../../schemas/evalueer.json"),
    examples: &[&[
        "evalueer",
        "besluit_activiteiten_leefomgeving",
        "--uitvoer",
        "heeft_onderzoeksplicht",
        "--param",
        "elektriciteitsverbruik_kwh=12000000",
        "--param",
        "aardgasverbruik_m3=31000",
        "--param",
        "betreft_gebruiksfunctie_bbl=false",
        "--param",
        "alleen_hernieuwbare_energie_op_locatie=false",
        "--param",
        "is_activiteit_artikel_3_3a_lid_1_onder_a=false",
        "--param",
        "is_activiteit_artikel_3_3a_lid_1_onder_b=false",
        "--peildatum",
        "2026-01-01",
    ]],
    args: Args::SCHEMAS,
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    if let Some(source) = &args.batch {
        return batch::run(args, source, ctx);
    }
    let law_id = args.law_id.trim();
    let mut validation = Validation::new();
    validation.check(!law_id.is_empty(), "law_id", || "geef een $id".to_string());
    let date = args.peildatum.date(ctx.today(), &mut validation);
    args.corpus.validate(&mut validation);
    let texts = pairs::name_value_pairs(&args.param, "param", Name::Trimmed, &mut validation);
    let json_params: Option<Map<String, Value>> = args
        .param_json
        .as_deref()
        .and_then(|source| params::read_param_json(source, &mut validation));
    let outputs: Vec<String> = args.uitvoer.iter().map(|o| o.trim().to_string()).collect();
    validation.check(!outputs.is_empty(), "uitvoer", || {
        "geef minstens één --uitvoer".to_string()
    });
    validation.check(outputs.iter().all(|o| !o.is_empty()), "uitvoer", || {
        "een --uitvoer is leeg".to_string()
    });
    validation.check(
        args.fase.as_deref().is_none_or(|f| !f.trim().is_empty()),
        "fase",
        || "--fase is leeg".to_string(),
    );
    validation.finish()?;

    let corpus = args.corpus.load(ctx)?;
    let file = laws::select(&corpus, law_id, date)?;
    let law = file.law().map_err(|e| problems::load_error(&e))?;
    let (typed, warnings) = params::typed(law, json_params, &texts)?;
    for warning in &warnings {
        ctx.printer.warn(warning);
    }
    params::check_outputs(&corpus, law, date, &outputs)?;
    params::check_spelling(&corpus, law, &typed.undeclared)?;
    for name in &typed.undeclared {
        ctx.printer.warn(&format!(
            "parameter '{name}' wordt door '{law_id}' niet gedeclareerd (doorgegeven als tekst of JSON-waarde)"
        ));
    }
    let param_json: Map<String, Value> = typed
        .values
        .iter()
        .map(|(k, v)| (k.clone(), v.to_json()))
        .collect();
    let options = args.options();
    // `--param` and `--param-json` are one set of parameters, typed: the plan shows it once.
    let passed = ctx.gate(
        args.plan(law_id, date, &options)
            .set("uitvoer", outputs.clone())
            .set("param", param_json.clone())
            .set("param_json", Value::Null),
    )?;

    params::audit_subjects(ctx, &typed.values);
    let request = Request {
        law_id: law_id.to_string(),
        outputs,
        params: typed.values,
        date,
    };
    let done = evaluation::evaluate(&corpus, &request, &param_json, &options)?;
    for warning in &done.warnings {
        ctx.printer.warn(warning);
    }
    Ok(passed
        .answer(done.data, SOURCE, Environment::Local)
        .source_url(laws::source_uri(file), "LOCAL", file.sha256())
        .extra("law_id", file.id.clone().into())
        .extra("valid_from", file.valid_from.clone().into())
        .extra("engine_version", ENGINE_VERSION.into())
        .extra(
            "wetten",
            evaluation::laws_reached(&corpus, &done.evaluation).into(),
        ))
}

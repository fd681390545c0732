//! `evalueer LAW_ID`: compute outputs of a law with parameters typed by its declarations, and
//! explain each answer with the article it comes from (and, with `--uitleg`, the trace).
//!
//! An output the engine cannot compute is exit 65 naming what is missing; never a value.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::Path;

use common::args::Peildatum;
use common::validate::Validation;
use common::{
    Annotations, ArgSchema, CommandSpec, Context, Environment, FieldError, Outcome, PlanSpec,
    Result,
};
use regelrecht_engine::eval::stages::{StageStatus, StagedEvaluation};
use regelrecht_engine::params::typed_params;
use regelrecht_engine::{
    Corpus, Engine, Evaluation, FieldType, Law, Request, TraceNode, TypedParams,
    UntranslatableMode, Value as EngineValue,
};
use serde_json::{Map, Value, json};

use crate::cli::grondslag::{self, Detail};
use crate::cli::laws::{self, CorpusArgs, ENGINE_VERSION, SOURCE};
use crate::cli::pairs::{self, Name};
use crate::cli::{problems, receipt};

/// Bereken uitvoer van een wet, met de wettelijke grondslag van elke uitkomst
///
/// Parameters krijgen het type uit de wet (number, amount in eurocent, boolean, date,
/// string, object, array); een verkeerd type is exit 65. Kan een uitvoer niet berekend
/// worden (ontbrekende invoer, onvertaalbare constructie), dan exit 65 met wat ontbreekt. De
/// peildatum is de rekendatum en kiest de wetsversies.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// $id van de wet (zie wet lijst)
    pub law_id: String,
    /// Gevraagde uitvoer; herhaalbaar (bij --batch: voor elk geval zonder eigen "uitvoer")
    #[arg(long, value_name = "NAAM", required_unless_present = "batch")]
    pub uitvoer: Vec<String>,
    /// Parameter als NAAM=WAARDE, getypeerd volgens de wet; herhaalbaar, gaat voor --param-json
    #[arg(long, value_name = "NAAM=WAARDE", conflicts_with = "batch")]
    pub param: Vec<String>,
    /// Alle parameters als één JSON-object uit een bestand, of '-' voor stdin
    #[arg(long, value_name = "BESTAND", conflicts_with = "batch")]
    pub param_json: Option<String>,
    /// Onvertaalbare constructies (RFC-012): error weigert; propagate markeert wat ervan afhangt;
    /// warn waarschuwt; ignore: error zonder melding
    #[arg(long, value_enum, default_value_t = Onvertaalbaar::Error)]
    pub onvertaalbaar: Onvertaalbaar,
    /// Doorloop de procedure (Awb, RFC-008) tot en met deze fase, bijv. BEKENDMAKING; elke fase
    /// vuurt haar hooks
    #[arg(long, value_name = "NAAM")]
    pub fase: Option<String>,
    /// Voeg een ontvangstbewijs toe om de berekening te herhalen (ontvangstbewijs controleer)
    #[arg(long)]
    pub ontvangstbewijs: bool,
    /// JSON Lines ('-': stdin), per regel {"id", "params", "peildatum"?, "uitvoer"?}; per regel
    /// een uitkomst of probleem terug
    #[arg(long, value_name = "BESTAND")]
    pub batch: Option<String>,
    #[command(flatten)]
    pub peildatum: Peildatum,
    /// Voeg de evaluatiestappen toe (artikel, operatie, gebruikte waarden, uitkomst)
    #[arg(long)]
    pub uitleg: bool,
    #[command(flatten)]
    pub corpus: CorpusArgs,
}

/// `--onvertaalbaar`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
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

/// How one evaluation runs, beyond its law, outputs, parameters and date.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Options<'a> {
    pub mode: UntranslatableMode,
    pub fase: Option<&'a str>,
    pub uitleg: bool,
    pub receipt: bool,
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
}

/// Parameters that name a data subject, and the subject's identifier type (AUDIT-14).
const SUBJECT_PARAMS: [(&str, &str); 2] = [("bsn", "BSN"), ("kvk_nummer", "KVK_NUMMER")];

/// Names each data subject the parameters identify for the audit record.
pub(crate) fn audit_subjects(
    ctx: &mut Context<'_>,
    params: &std::collections::BTreeMap<String, EngineValue>,
) {
    for (name, id_type) in SUBJECT_PARAMS {
        match params.get(name) {
            Some(EngineValue::String(id)) if !id.is_empty() => ctx.subject(id, id_type),
            Some(EngineValue::Number(n)) => ctx.subject(&n.to_string(), id_type),
            _ => {}
        }
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["evalueer"],
    title: "Uitvoer van een wet berekenen",
    annotations: Annotations::READ_LOCAL,
    output_schema: include_str!("../../../schemas/evalueer.json"),
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
    args: &[
        Peildatum::SCHEMA,
        // Both are repeatable (arrays in discovery). The overrides carry `"type": "array"` so
        // that they replace the property instead of being merged into its `items`.
        ArgSchema {
            name: "param",
            // NAAM=WAARDE: a NAAM that is not blank, as `pairs::name_value_pairs` requires.
            schema: r#"{"type": "array", "items": {"type": "string", "pattern": "^[^=]*[^=\\s][^=]*="}}"#,
        },
        // Over MCP the parameters stay available as one JSON object, passed on stdin (DISC-21).
        ArgSchema::path_or_stdin_json("param_json"),
        ArgSchema {
            name: "param_json",
            schema: r#"{"contentSchema": {"type": "object", "description": "Alle parameters als één JSON-object, met dezelfde namen als bij --param"}}"#,
        },
        laws::CORPUS_SCHEMA,
        ArgSchema {
            name: "uitvoer",
            schema: r#"{"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}}"#,
        },
        ArgSchema::path("batch"),
        ArgSchema {
            name: "batch",
            schema: r#"{"x-stdin": true, "contentMediaType": "application/jsonl"}"#,
        },
    ],
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    if let Some(source) = &args.batch {
        return crate::cli::batch::run(args, source, ctx);
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
        .and_then(|source| read_param_json(source, &mut validation));
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
    let (typed, warnings) = typed(law, json_params, &texts)?;
    for warning in &warnings {
        ctx.printer.warn(warning);
    }
    check_outputs(law, law_id, &outputs)?;
    check_spelling(&corpus, law, &typed.undeclared)?;
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
    ctx.gate(PlanSpec::new(json!({
        "law_id": law_id,
        "uitvoer": outputs,
        "param": param_json,
        "peildatum": date.to_string(),
        "uitleg": args.uitleg,
        "onvertaalbaar": options.mode.as_str(),
        "fase": options.fase,
        "ontvangstbewijs": options.receipt,
        "corpus": args.corpus.arguments(),
    })))?;

    audit_subjects(ctx, &typed.values);
    let request = Request {
        law_id: law_id.to_string(),
        outputs,
        params: typed.values,
        date,
    };
    let done = evaluate(&corpus, &request, &param_json, &options)?;
    for warning in &done.warnings {
        ctx.printer.warn(warning);
    }
    Ok(Outcome::new(done.data, SOURCE, Environment::Local)
        .source_url(laws::source_uri(file), "LOCAL", file.sha256())
        .extra("law_id", file.id.clone().into())
        .extra("valid_from", file.valid_from.clone().into())
        .extra("engine_version", ENGINE_VERSION.into())
        .extra("wetten", laws_reached(&corpus, &done.evaluation).into()))
}

/// How alike a given name must be to a declared one to count as its misspelling.
const SPELLING_SIMILARITY: f64 = 0.85;

/// A parameter the law does not declare but that is close to one it does (and that no other
/// loaded law declares, nor a procedure stage requires) is a misspelling: exit 65 with the name
/// meant. Other undeclared names pass with a warning, for laws the evaluation reaches.
pub(crate) fn check_spelling(corpus: &Corpus, law: &Law, undeclared: &[String]) -> Result<()> {
    if undeclared.is_empty() {
        return Ok(());
    }
    let declared: Vec<&str> = regelrecht_engine::params::declarations(law)
        .into_iter()
        .map(|f| f.name.as_str())
        .collect();
    let suggestion = |name: &str| {
        declared
            .iter()
            .map(|d| (strsim::jaro_winkler(name, d), *d))
            .filter(|(score, _)| *score >= SPELLING_SIMILARITY)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, d)| d)
    };
    let close: Vec<(&String, &str)> = undeclared
        .iter()
        .filter_map(|n| suggestion(n).map(|d| (n, d)))
        .collect();
    if close.is_empty() {
        return Ok(());
    }
    // Only now, on this rare path, look at every law: a name another law declares is meant
    // for that law.
    let known_elsewhere = |name: &str| {
        corpus.files().iter().filter_map(|f| f.law().ok()).any(|l| {
            regelrecht_engine::params::declarations(l)
                .iter()
                .any(|f| f.name == name)
                || l.procedure
                    .iter()
                    .flat_map(|p| &p.stages)
                    .flat_map(|s| &s.requires)
                    .any(|r| r.name == name)
        })
    };
    let errors: Vec<FieldError> = close
        .into_iter()
        .filter(|(name, _)| !known_elsewhere(name))
        .map(|(name, meant)| {
            FieldError::new(
                "param",
                format!(
                    "'{}' kent geen parameter '{name}'; bedoelt u '{meant}'?",
                    law.id
                ),
            )
        })
        .collect();
    if errors.is_empty() {
        return Ok(());
    }
    Err(common::Problem::invalid(errors)
        .with_hint(format!("parameters van deze wet: {}", declared.join(", ")))
        .into())
}

/// Every requested output must be one the law produces (exit 65 listing the unknown ones).
pub(crate) fn check_outputs(law: &Law, law_id: &str, outputs: &[String]) -> Result<()> {
    let unknown: Vec<FieldError> = outputs
        .iter()
        .filter(|o| law.article_for_output(o).is_none())
        .map(|o| FieldError::new("uitvoer", format!("'{law_id}' heeft geen uitvoer '{o}'")))
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    let known: Vec<&str> = law.outputs().map(|(_, f)| f.name.as_str()).collect();
    Err(common::Problem::invalid(unknown)
        .with_hint(format!("uitvoer van deze wet: {}", known.join(", ")))
        .into())
}

/// One finished evaluation: its data, warnings for people, and the evaluation itself.
pub(crate) struct Evaluated {
    pub data: Value,
    pub warnings: Vec<String>,
    /// The evaluation itself (for the law versions it reached, see [`laws_reached`]).
    pub evaluation: Evaluation,
}

/// Evaluates `request` as `options` say: in one stage, or through the procedure up to
/// `--fase`; the data holds the answer, the untranslatable marks, the stages and the receipt.
/// The evaluation keeps its trace (for [`laws_reached`]).
pub(crate) fn evaluate(
    corpus: &Corpus,
    request: &Request,
    params: &Map<String, Value>,
    options: &Options<'_>,
) -> Result<Evaluated> {
    evaluate_traced(corpus, request, params, options, true)
}

/// [`evaluate`], with the engine's trace built only when `--uitleg`, the receipt or the
/// caller (`keep_trace`, to read it afterwards) needs it: most of the work on a small law.
pub(crate) fn evaluate_traced(
    corpus: &Corpus,
    request: &Request,
    params: &Map<String, Value>,
    options: &Options<'_>,
    keep_trace: bool,
) -> Result<Evaluated> {
    let engine = Engine::new(corpus)
        .untranslatable(options.mode)
        .tracing(keep_trace || options.uitleg || options.receipt);
    let (evaluation, procedure) = match options.fase {
        None => (
            engine
                .evaluate(request)
                .map_err(|e| with_all_missing(corpus, request, &e))?,
            None,
        ),
        Some(fase) => {
            let staged = engine
                .evaluate_stages(request, Some(fase))
                .map_err(|e| problems::eval_error(&e, "fase"))?;
            let procedure = procedure_json(&staged);
            match staged.evaluation {
                Some(evaluation) => (evaluation, Some(procedure)),
                None => {
                    let missing = match staged.waiting().map(|s| &s.status) {
                        Some(StageStatus::Waiting(missing)) => missing.clone(),
                        _ => Vec::new(),
                    };
                    return Err(common::Problem::invalid(
                        missing
                            .iter()
                            .map(|m| {
                                FieldError::new(
                                    "param",
                                    format!("fase {} vraagt invoer '{m}'", staged.stages[0].name),
                                )
                            })
                            .collect(),
                    )
                    .with_hint("geef de invoer die de eerste fase van de procedure vraagt")
                    .into());
                }
            }
        }
    };
    let mut data = result_json(&evaluation, params, options.uitleg);
    if options.mode != UntranslatableMode::Error {
        let tainted: Vec<&String> = evaluation
            .tainted
            .iter()
            .filter(|o| evaluation.outputs.contains_key(*o))
            .collect();
        data["onvertaalbaar"] = json!({
            "modus": options.mode.as_str(),
            "gemarkeerd": tainted,
            "waarschuwingen": evaluation.warnings,
        });
    }
    if let Some(procedure) = procedure {
        data["procedure"] = procedure;
    }
    if options.receipt {
        let laws = laws_reached(corpus, &evaluation);
        let asked = receipt::Asked {
            law_id: &request.law_id,
            outputs: &request.outputs,
            params,
            mode: options.mode,
            fase: options.fase,
        };
        data["ontvangstbewijs"] = receipt::receipt(corpus, &asked, &evaluation, &laws);
    }
    Ok(Evaluated {
        data,
        warnings: evaluation.warnings.clone(),
        evaluation,
    })
}

/// The engine's refusal; when it names a missing value, every other required parameter the
/// requested outputs reach in the same law that is not given is listed too (all at once).
fn with_all_missing(
    corpus: &Corpus,
    request: &Request,
    e: &regelrecht_engine::EvalError,
) -> common::Error {
    let error = problems::eval_error(e, "uitvoer");
    let Some(first) = e.missing() else {
        return error;
    };
    let law = corpus
        .select(&request.law_id, request.date)
        .ok()
        .and_then(|f| f.law().ok());
    let others: Vec<String> = law
        .map(|l| {
            regelrecht_engine::params::missing_required_reachable(
                l,
                &request.outputs,
                &request.params,
            )
        })
        .unwrap_or_default()
        .into_iter()
        .filter(|name| name != first)
        .collect();
    match error.into_problem() {
        Some(problem) if !others.is_empty() => {
            let mut errors = problem.errors.clone();
            errors.extend(others.iter().map(|name| {
                FieldError::new(
                    "param",
                    format!("verplichte parameter '{name}' ontbreekt ook"),
                )
            }));
            let names: Vec<&str> = std::iter::once(first)
                .chain(others.iter().map(String::as_str))
                .collect();
            problem
                .with_errors(errors)
                .with_hint(format!(
                    "geef alle ontbrekende parameters mee: {}",
                    names.join(", ")
                ))
                .into()
        }
        Some(problem) => problem.into(),
        None => problems::eval_error(e, "uitvoer"),
    }
}

fn procedure_json(staged: &StagedEvaluation) -> Value {
    let fasen: Vec<Value> = staged
        .stages
        .iter()
        .map(|s| {
            let mut v = json!({"naam": s.name, "omschrijving": s.description});
            match &s.status {
                StageStatus::Done => {
                    v["status"] = "uitgevoerd".into();
                    v["nieuwe_uitvoer"] = s.new_outputs.clone().into();
                }
                StageStatus::Waiting(missing) => {
                    v["status"] = "wacht".into();
                    v["ontbreekt"] = missing.clone().into();
                }
                StageStatus::NotReached => v["status"] = "niet_bereikt".into(),
            }
            v
        })
        .collect();
    json!({
        "wet": staged.procedure_law,
        "id": staged.procedure_id,
        "wacht_op": staged.waiting().map(|s| s.name.clone()),
        "fasen": fasen,
    })
}

/// Parameters typed by the law's declarations, by the one typing rule of every command
/// ([`regelrecht_engine::params::check_value`]): a JSON number given for a `string` parameter
/// (an identifier such as a BSN written as a number) stays that number, as in the reference
/// engine and a scenario, with a warning (returned); every other mismatch is exit 65.
pub(crate) fn typed(
    law: &Law,
    json: Option<Map<String, Value>>,
    texts: &[(String, String)],
) -> Result<(TypedParams, Vec<String>)> {
    let typed = typed_params(law, json.as_ref(), texts).map_err(|e| problems::param_errors(&e))?;
    let declared = regelrecht_engine::params::declarations(law);
    let warnings = json
        .iter()
        .flatten()
        .filter(|(name, value)| {
            value.is_number()
                && !texts.iter().any(|(given, _)| given == *name)
                && declared
                    .iter()
                    .any(|f| f.name == **name && f.field_type == FieldType::String)
        })
        .map(|(name, value)| {
            format!(
                "parameter '{name}' is een tekst volgens de wet maar is gegeven als getal ({value}); als getal doorgegeven"
            )
        })
        .collect();
    Ok((typed, warnings))
}

/// The most bytes `--param-json` reads (from a file or stdin).
const MAX_PARAM_JSON_BYTES: u64 = 1024 * 1024;

/// The JSON object of `--param-json FILE|-`. A file must be a regular file (a FIFO or device is
/// refused, not waited on); errors never quote its contents.
fn read_param_json(source: &str, validation: &mut Validation) -> Option<Map<String, Value>> {
    let text = read_source(source);
    let parsed = text.and_then(|t| match serde_json::from_str::<Value>(&t) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(format!(
            "--param-json moet één JSON-object zijn, niet {}",
            json_kind(&other)
        )),
        Err(e) => Err(format!(
            "--param-json is geen geldige JSON: {}",
            common::input::json_reason(&e)
        )),
    });
    match parsed {
        Ok(map) => Some(map),
        Err(detail) => {
            validation.push("param_json", detail);
            None
        }
    }
}

/// The text of `-` (stdin) or a regular file, at most [`MAX_PARAM_JSON_BYTES`]; the error
/// never quotes the contents.
pub(crate) fn read_source(source: &str) -> std::result::Result<String, String> {
    if source == "-" {
        read_bounded(std::io::stdin().lock())
            .map_err(|e| format!("stdin kon niet gelezen worden: {e}"))
    } else {
        read_param_file(Path::new(source))
    }
}

fn read_param_file(path: &Path) -> std::result::Result<String, String> {
    let shown = path.display();
    let unreadable = |e: std::io::Error| format!("{shown} kon niet gelezen worden: {e}");
    let regular = std::fs::metadata(path).map_err(unreadable)?.is_file();
    let file = if regular {
        std::fs::File::open(path).map_err(unreadable)?
    } else {
        return Err(format!("{shown} is geen gewoon bestand"));
    };
    if !file.metadata().map_err(unreadable)?.is_file() {
        return Err(format!("{shown} is geen gewoon bestand"));
    }
    read_bounded(file).map_err(unreadable)
}

/// At most [`MAX_PARAM_JSON_BYTES`] of UTF-8 text.
fn read_bounded(reader: impl Read) -> std::io::Result<String> {
    let mut text = String::new();
    reader
        .take(MAX_PARAM_JSON_BYTES + 1)
        .read_to_string(&mut text)?;
    if text.len() as u64 > MAX_PARAM_JSON_BYTES {
        return Err(std::io::Error::other(format!(
            "groter dan {MAX_PARAM_JSON_BYTES} bytes"
        )));
    }
    Ok(text)
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "een boolean",
        Value::Number(_) => "een getal",
        Value::String(_) => "een tekst",
        Value::Array(_) => "een lijst",
        Value::Object(_) => "een object",
    }
}

fn result_json(evaluation: &Evaluation, params: &Map<String, Value>, uitleg: bool) -> Value {
    let uitvoer: Map<String, Value> = evaluation
        .outputs
        .iter()
        .map(|(k, v)| (k.clone(), v.to_json()))
        .collect();
    let mut articles: Vec<&str> = Vec::new();
    for basis in &evaluation.basis {
        if !articles.contains(&basis.article.as_str()) {
            articles.push(&basis.article);
        }
    }
    let grondslag = grondslag::entries(&evaluation.basis, Detail::Evaluation);
    let mut used = params.clone();
    for (name, value) in &evaluation.resolved_inputs {
        used.entry(name.clone()).or_insert_with(|| value.to_json());
    }
    // Built by moving the parts in, in this order (`json!` would copy each through `to_value`).
    let mut data = Map::new();
    data.insert("law_id".into(), evaluation.law_id.clone().into());
    data.insert("peildatum".into(), evaluation.date.to_string().into());
    data.insert("valid_from".into(), evaluation.valid_from.clone().into());
    data.insert("uitvoer".into(), Value::Object(uitvoer));
    data.insert("artikel".into(), articles.join(", ").into());
    // A list of plain records: serialising it cannot fail.
    data.insert(
        "wettelijke_grondslag".into(),
        serde_json::to_value(grondslag).unwrap_or_default(),
    );
    data.insert("gebruikte_invoer".into(), Value::Object(used));
    data.insert(
        "regulation_sha256".into(),
        evaluation.law_sha256.clone().into(),
    );
    if uitleg {
        let mut steps = Vec::new();
        flatten_trace(&evaluation.trace, 0, &mut steps);
        data.insert("uitleg".into(), steps.into());
    }
    Value::Object(data)
}

/// The trace as a list of steps in evaluation order, each with its depth: readable as JSON
/// and as a table (`--output table`).
fn flatten_trace(node: &TraceNode, depth: usize, out: &mut Vec<Value>) {
    let mut step = Map::new();
    step.insert("niveau".into(), depth.into());
    step.insert("soort".into(), node.kind.as_str().into());
    step.insert("naam".into(), node.name.clone().into());
    if let Some(law) = &node.law {
        step.insert("wet".into(), law.clone().into());
    }
    if let Some(article) = &node.article {
        step.insert("artikel".into(), article.clone().into());
    }
    if let Some(op) = &node.operation {
        step.insert("operatie".into(), op.clone().into());
    }
    if !node.used.is_empty() {
        let used: Map<String, Value> = node
            .used
            .iter()
            .map(|(k, v)| (k.clone(), v.to_json()))
            .collect();
        step.insert("gebruikt".into(), used.into());
    }
    if let Some(value) = &node.value {
        step.insert("waarde".into(), value.to_json());
    }
    if let Some(message) = &node.message {
        step.insert("toelichting".into(), message.clone().into());
    }
    out.push(step.into());
    for child in &node.children {
        flatten_trace(child, depth + 1, out);
    }
}

/// Every law version the evaluation reached, for provenance.
pub(crate) fn laws_reached(corpus: &Corpus, evaluation: &Evaluation) -> Vec<Value> {
    let mut ids = BTreeSet::new();
    collect_laws(&evaluation.trace, &mut ids);
    ids.insert(evaluation.law_id.as_str());
    ids.into_iter()
        .filter_map(|id| corpus.select(id, evaluation.date).ok())
        .map(laws::law_json)
        .collect()
}

fn collect_laws<'t>(node: &'t TraceNode, ids: &mut BTreeSet<&'t str>) {
    if let Some(law) = &node.law {
        ids.insert(law);
    }
    for child in &node.children {
        collect_laws(child, ids);
    }
}

//! The evaluation service: one evaluation of a law as `evalueer`, its batch and
//! `ontvangstbewijs controleer` run it, in one stage or through the procedure up to a stage,
//! with the data every one of them prints (answer, legal basis, untranslatable marks, stages,
//! trace and receipt) and the law versions it reached.

use std::collections::BTreeSet;

use common::{FieldError, Result};
use regelrecht_engine::eval::stages::{StageStatus, StagedEvaluation};
use regelrecht_engine::{Corpus, Engine, Evaluation, Request, TraceNode, UntranslatableMode};
use serde_json::{Map, Value, json};

use crate::cli::grondslag::{self, Detail};
use crate::cli::outputs::outputs_json;
use crate::cli::{laws, problems, receipt};

/// How one evaluation runs, beyond its law, outputs, parameters and date.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Options<'a> {
    pub(crate) mode: UntranslatableMode,
    pub(crate) fase: Option<&'a str>,
    pub(crate) uitleg: bool,
    pub(crate) receipt: bool,
}

/// One finished evaluation: its data, warnings for people, and the evaluation itself.
pub(crate) struct Evaluated {
    pub(crate) data: Value,
    pub(crate) warnings: Vec<String>,
    /// The evaluation itself (for the law versions it reached, see [`laws_reached`]).
    pub(crate) evaluation: Evaluation,
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
            .keys()
            .filter(|o| evaluation.outputs.contains_key(*o))
            .collect();
        let herkomst: Map<String, Value> = evaluation
            .tainted
            .iter()
            .filter(|(o, _)| evaluation.outputs.contains_key(*o))
            .map(|(o, t)| {
                (
                    o.clone(),
                    json!({"law_id": t.law, "artikel": t.article, "constructie": t.construct}),
                )
            })
            .collect();
        data["onvertaalbaar"] = json!({
            "modus": options.mode.as_str(),
            "gemarkeerd": tainted,
            "herkomst": herkomst,
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

fn result_json(evaluation: &Evaluation, params: &Map<String, Value>, uitleg: bool) -> Value {
    let uitvoer = outputs_json(evaluation, false);
    let mut articles: Vec<&str> = Vec::new();
    for basis in evaluation.basis.iter().filter(|b| b.producing) {
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

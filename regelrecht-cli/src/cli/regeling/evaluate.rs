//! The outcomes of a regulation definition on a set of field values: what the engine computes,
//! per output, with article and legal basis; the lists (e.g. measures) with their unmet
//! conditions; the RVO schemes that follow; and the ruleset that was used (spec/concept.md §6).
//!
//! An output whose needed parameters are not all known is `open` with what it lacks: the engine
//! never sees a guessed or partial value, so a missing answer or a failed source cannot turn into
//! a wrong outcome.

use std::collections::{BTreeMap, BTreeSet};

use chrono::NaiveDate;
use common::Result;
use regelrecht_engine::{Corpus, Engine, ErrorKind, Law, Request, TraceNode, Value as EngineValue};
use serde_json::{Map, Value, json};

use super::definition::Definition;
use crate::cli::grondslag::{self, Detail};
use crate::cli::laws::{self, ENGINE_VERSION};
use crate::cli::problems;

/// What a definition evaluates to.
pub(crate) struct Outcomes {
    pub uitkomsten: Vec<Value>,
    pub lijsten: Map<String, Value>,
    pub rvo: Vec<Value>,
    pub ruleset: Value,
}

/// The law `id` in force on `date`.
pub(crate) fn law<'c>(corpus: &'c Corpus, id: &str, date: NaiveDate) -> Result<&'c Law> {
    let file = laws::select(corpus, id, date)?;
    file.law().map_err(|e| problems::load_error(&e))
}

/// The parameters an output needs: those of the article producing it, and of every output of
/// the same or another law it takes as input.
pub(crate) fn needed_parameters(
    corpus: &Corpus,
    law_id: &str,
    output: &str,
    date: NaiveDate,
) -> Result<BTreeSet<String>> {
    let mut needed = BTreeSet::new();
    let mut todo = vec![(law_id.to_string(), output.to_string())];
    let mut seen = BTreeSet::new();
    while let Some((law_id, output)) = todo.pop() {
        if !seen.insert((law_id.clone(), output.clone())) {
            continue;
        }
        let law = law(corpus, &law_id, date)?;
        let Some(exec) = law.article_for_output(&output).and_then(|a| a.execution()) else {
            continue;
        };
        needed.extend(
            exec.parameters
                .iter()
                .filter(|p| p.required != Some(false))
                .map(|p| p.name.clone()),
        );
        for input in &exec.input {
            if let Some(source) = &input.source
                && let Some(out) = &source.output
            {
                let other = source.regulation.clone().unwrap_or_else(|| law_id.clone());
                todo.push((other, out.clone()));
            }
        }
    }
    Ok(needed)
}

/// Evaluate every output of `definition` with `values` (JSON by field name).
pub(crate) fn outcomes(
    corpus: &Corpus,
    definition: &Definition,
    values: &BTreeMap<String, Value>,
    date: NaiveDate,
) -> Result<Outcomes> {
    let params: BTreeMap<String, EngineValue> = values
        .iter()
        .filter_map(|(k, v)| EngineValue::from_json(v).ok().map(|v| (k.clone(), v)))
        .collect();
    let engine = Engine::new(corpus);
    let mut uitkomsten = Vec::new();
    let mut lijsten = Map::new();
    let mut computed: BTreeMap<String, Value> = BTreeMap::new();
    let mut reached: BTreeSet<String> = BTreeSet::new();
    for evaluation in &definition.evaluaties {
        let law = law(corpus, &evaluation.wet, date)?;
        reached.insert(evaluation.wet.clone());
        let mut items = Vec::new();
        for output in &evaluation.uitvoer {
            let needed = needed_parameters(corpus, &evaluation.wet, output, date)?;
            let mut lacking: Vec<String> = needed
                .iter()
                .filter(|n| !params.contains_key(*n))
                .cloned()
                .collect();
            let mut result = None;
            if lacking.is_empty() {
                let request = Request {
                    law_id: evaluation.wet.clone(),
                    outputs: vec![output.clone()],
                    params: params.clone(),
                    date,
                };
                match engine.evaluate(&request) {
                    Ok(e) => {
                        collect_laws(&e.trace, &mut reached);
                        result = Some(e);
                    }
                    Err(e) => match &e.kind {
                        ErrorKind::MissingValue { name, .. }
                        | ErrorKind::MissingExternalData { name, .. } => lacking.push(name.clone()),
                        _ => return Err(problems::eval_error(&e, "regeling")),
                    },
                }
            }
            let value = result
                .as_ref()
                .and_then(|e| e.outputs.get(output))
                .map(EngineValue::to_json);
            let article = law.article_for_output(output);
            let mut entry = json!({
                "wet": evaluation.wet,
                "uitvoer": output,
                "status": if value.is_some() { "berekend" } else { "open" },
                "waarde": value.clone().unwrap_or(Value::Null),
                "artikel": article.map(|a| a.number.clone()),
                "wettelijke_grondslag": result.as_ref().map_or_else(Vec::new, |e| {
                    grondslag::entries(&e.basis, Detail::Evaluation)
                        .iter()
                        .filter_map(|g| serde_json::to_value(g).ok())
                        .collect()
                }),
            });
            if !lacking.is_empty() {
                entry["ontbreekt"] = lacking.clone().into();
            }
            computed.insert(output.clone(), value.clone().unwrap_or(Value::Null));
            if evaluation.lijst.is_some() {
                items.push(list_item(law, output, value.as_ref(), &params));
            }
            uitkomsten.push(entry);
        }
        if let Some(name) = &evaluation.lijst {
            lijsten.insert(name.clone(), items.into());
        }
    }
    Ok(Outcomes {
        uitkomsten,
        lijsten,
        rvo: rvo_schemes(definition, &computed),
        ruleset: ruleset(corpus, definition, &reached, date),
    })
}

/// The RVO schemes that follow from the computed outputs, each with the output it follows.
fn rvo_schemes(definition: &Definition, computed: &BTreeMap<String, Value>) -> Vec<Value> {
    definition
        .rvo
        .iter()
        .map(|scheme| {
            let applies = computed.get(&scheme.als).cloned().unwrap_or(Value::Null);
            json!({
                "regeling_id": scheme.regeling_id,
                "als": scheme.als,
                "van_toepassing": applies,
                "rapportage": scheme.rapportage,
            })
        })
        .collect()
}

/// The ruleset that was used: the definition, every law version the evaluations reached, and
/// the engine.
fn ruleset(
    corpus: &Corpus,
    definition: &Definition,
    reached: &BTreeSet<String>,
    date: NaiveDate,
) -> Value {
    let wetten: Vec<Value> = reached
        .iter()
        .filter_map(|id| corpus.select(id, date).ok())
        .map(laws::law_json)
        .collect();
    json!({
        "regeling": {
            "id": definition.id,
            "versie": definition.versie,
            "sha256": definition.sha256,
        },
        "wetten": wetten,
        "engine_version": ENGINE_VERSION,
    })
}

/// One list item: its code (the article number), name (the output's description), whether it
/// applies, and the conditions (boolean parameters of its article) that are not met.
fn list_item(
    law: &Law,
    output: &str,
    value: Option<&Value>,
    params: &BTreeMap<String, EngineValue>,
) -> Value {
    let article = law.article_for_output(output);
    let exec = article.and_then(|a| a.execution());
    let naam = exec
        .and_then(|e| e.output.iter().find(|f| f.name == output))
        .and_then(|f| f.description.clone());
    let unmet: Vec<Value> = exec
        .iter()
        .flat_map(|e| &e.parameters)
        .filter(|p| matches!(params.get(&p.name), Some(EngineValue::Bool(false))))
        .map(|p| {
            json!({
                "gegeven": p.name,
                "randvoorwaarde": p.description,
            })
        })
        .collect();
    let mut item = json!({
        "code": article.map(|a| a.number.clone()),
        "naam": naam,
        "uitvoer": output,
        "van_toepassing": value.cloned().unwrap_or(Value::Null),
    });
    if value == Some(&Value::Bool(false)) {
        item["niet_vervulde_randvoorwaarden"] = unmet.into();
    }
    item
}

fn collect_laws(node: &TraceNode, ids: &mut BTreeSet<String>) {
    if let Some(law) = &node.law {
        ids.insert(law.clone());
    }
    for child in &node.children {
        collect_laws(child, ids);
    }
}

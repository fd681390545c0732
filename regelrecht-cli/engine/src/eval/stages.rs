//! Procedures (RFC-008): a decision goes through the stages of its procedure (AWB:
//! `AANVRAAG`, `BEHANDELING`, `BESLUIT`, `BEKENDMAKING`, `BEZWAAR`). Each stage may require
//! external inputs; the article producing the decision is executed once per stage, so the
//! hooks of that stage fire, and each stage sees the outputs of the stages before it.
//!
//! The procedure is the one whose `applies_to.legal_character` matches the article's
//! `produces` (the `procedure_id` it names, else the default one), from any law in force.
//! Running stops after the stage asked for, or earlier at the first stage whose required
//! inputs are missing: then the result says which inputs that stage waits for.

use super::{Engine, Evaluation, Request};
use crate::error::EvalError;
use crate::law::{Procedure, Stage};
use crate::value::Value;
use std::collections::BTreeMap;

/// What happened to one stage.
#[derive(Debug, Clone, PartialEq)]
pub enum StageStatus {
    /// Executed.
    Done,
    /// Not entered: these required inputs are missing.
    Waiting(Vec<String>),
    /// After the stage asked for, or after a waiting stage.
    NotReached,
}

/// One stage and its outcome.
#[derive(Debug, Clone)]
pub struct StageResult {
    /// The stage's name.
    pub name: String,
    /// Its description in the procedure.
    pub description: Option<String>,
    /// Done, waiting or not reached.
    pub status: StageStatus,
    /// Outputs that first appeared in this stage.
    pub new_outputs: Vec<String>,
}

/// A procedure run up to a stage.
#[derive(Debug, Clone)]
pub struct StagedEvaluation {
    /// `$id` of the law defining the procedure.
    pub procedure_law: String,
    /// The procedure's id.
    pub procedure_id: String,
    /// Every stage of the procedure, in order.
    pub stages: Vec<StageResult>,
    /// The evaluation of the last executed stage, with the outputs of all executed stages
    /// in `all_outputs`; `None` when the first stage already waits.
    pub evaluation: Option<Evaluation>,
}

impl StagedEvaluation {
    /// The stage that waits for inputs, if any.
    pub fn waiting(&self) -> Option<&StageResult> {
        self.stages
            .iter()
            .find(|s| matches!(s.status, StageStatus::Waiting(_)))
    }
}

impl Engine<'_> {
    /// The procedure governing the article that produces `output` of `law_id` on `date`.
    pub fn procedure_for(
        &self,
        law_id: &str,
        output: &str,
        date: chrono::NaiveDate,
    ) -> Result<(String, Procedure), EvalError> {
        let file = self.corpus.select(law_id, date).map_err(|_| {
            EvalError::new(crate::error::ErrorKind::LawNotFound {
                law: law_id.to_string(),
            })
        })?;
        let law = file.law()?;
        let article = super::run::article_for_output(law, output)?;
        let produces = article.execution().and_then(|e| e.produces.as_ref());
        let Some(character) = produces.and_then(|p| p.legal_character.as_deref()) else {
            return Err(EvalError::invalid(format!(
                "{law_id} artikel {} legt geen rechtskarakter vast (produces.legal_character) en kent dus geen procedure",
                article.number
            )));
        };
        let wanted = produces.and_then(|p| p.procedure_id.as_deref());
        let mut found: Option<(String, Procedure)> = None;
        // Only the laws whose scan found a procedure are looked at (none is made otherwise).
        for id in self.corpus.ids_declaring(|d| d.procedure) {
            let Ok(file) = self.corpus.select(id, date) else {
                continue;
            };
            // Only a law whose text names a procedure is parsed for one.
            if !file.declares.procedure {
                continue;
            }
            let Ok(law) = file.law() else { continue };
            for p in &law.procedure {
                let character_fits = p.applies_to.legal_character.as_deref() == Some(character);
                let chosen = match wanted {
                    Some(w) => p.id == w,
                    None => p.default,
                };
                if character_fits && chosen && found.is_none() {
                    found = Some((law.id.clone(), p.clone()));
                }
            }
        }
        found.ok_or_else(|| {
            EvalError::invalid(format!(
                "geen procedure voor rechtskarakter {character}{} in de geladen wetten (RFC-008; de Awb definieert die voor BESCHIKKING)",
                wanted.map(|w| format!(" met id '{w}'")).unwrap_or_default()
            ))
        })
    }

    /// Runs the procedure of the first requested output from its first stage through
    /// `until` (the last stage when `None`).
    pub fn evaluate_stages(
        &self,
        request: &Request,
        until: Option<&str>,
    ) -> Result<StagedEvaluation, EvalError> {
        let first = request
            .outputs
            .first()
            .ok_or_else(|| EvalError::invalid("geef minstens één uitvoer op"))?;
        let (procedure_law, procedure) =
            self.procedure_for(&request.law_id, first, request.date)?;
        let last = match until {
            Some(name) => procedure
                .stages
                .iter()
                .position(|s| s.name == name)
                .ok_or_else(|| {
                    EvalError::invalid(format!(
                        "procedure '{}' kent geen fase '{name}'; fasen: {}",
                        procedure.id,
                        names(&procedure.stages)
                    ))
                })?,
            None => procedure.stages.len().saturating_sub(1),
        };
        let mut accumulated: BTreeMap<String, Value> = BTreeMap::new();
        let mut evaluation: Option<Evaluation> = None;
        let mut stages = Vec::new();
        let mut stopped = false;
        for (index, stage) in procedure.stages.iter().enumerate() {
            let mut result = StageResult {
                name: stage.name.clone(),
                description: stage.description.clone(),
                status: StageStatus::NotReached,
                new_outputs: Vec::new(),
            };
            if !stopped && index <= last {
                let missing: Vec<String> = stage
                    .requires
                    .iter()
                    .filter(|r| {
                        !request.params.contains_key(&r.name) && !accumulated.contains_key(&r.name)
                    })
                    .map(|r| r.name.clone())
                    .collect();
                if missing.is_empty() {
                    let mut params = accumulated.clone();
                    params.extend(request.params.clone());
                    let staged = Request {
                        params,
                        ..request.clone()
                    };
                    let mut done = self.evaluate_at(&staged, &stage.name)?;
                    for (name, value) in &done.all_outputs {
                        if !accumulated.contains_key(name) {
                            result.new_outputs.push(name.clone());
                        }
                        accumulated.insert(name.clone(), value.clone());
                    }
                    done.all_outputs = accumulated.clone();
                    evaluation = Some(done);
                    result.status = StageStatus::Done;
                } else {
                    result.status = StageStatus::Waiting(missing);
                    stopped = true;
                }
            }
            stages.push(result);
        }
        Ok(StagedEvaluation {
            procedure_law,
            procedure_id: procedure.id,
            stages,
            evaluation,
        })
    }
}

fn names(stages: &[Stage]) -> String {
    stages
        .iter()
        .map(|s| s.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

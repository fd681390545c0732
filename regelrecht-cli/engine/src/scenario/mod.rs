//! A runner for RegelRecht's BDD language (`bdd/grammar.yaml`): reads `.feature` files, matches
//! each step against the canonical grammar ([`grammar`]) and performs the step's semantic
//! action on this engine ([`world`]). The grammar is data, the action set is fixed: a new
//! wording needs no code, a new action needs one handler.
//!
//! A scenario passes when every step runs and holds. One that cannot be run (a step outside the
//! grammar, a construct the reader does not know, a tier the runner does not speak) fails with
//! its reason; a scenario tagged `@wip` (the reference's own marker for a documented engine
//! gap) is skipped with that reason unless asked for, never silently.

pub mod feature;
pub mod grammar;
mod world;

use crate::load::Corpus;
use feature::Feature;
use grammar::Grammar;
use std::collections::BTreeMap;
use world::World;

/// The tiers this runner speaks (all of the grammar's).
pub const SUPPORTED_TIERS: [&str; 4] = ["core", "notes", "untranslatable", "provenance"];

/// What happened to one scenario.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Every step held.
    Passed,
    /// A step failed or could not be run.
    Failed {
        /// Line of the step (0: the scenario as a whole).
        line: usize,
        /// The step as written.
        step: String,
        /// Why.
        reason: String,
    },
    /// Not run, with the reason.
    Skipped {
        /// Why.
        reason: String,
    },
}

/// The result of one scenario.
#[derive(Debug, Clone)]
pub struct ScenarioResult {
    /// The feature file as given.
    pub file: String,
    /// The feature's name.
    pub feature: String,
    /// The scenario's name.
    pub name: String,
    /// Line of `Scenario:`.
    pub line: usize,
    /// The tiers it belongs to (its feature's `@tier:` tags; untagged is `core`).
    pub tiers: Vec<String>,
    /// Passed, failed or skipped.
    pub outcome: Outcome,
}

/// Counts for one tier.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Passed.
    pub passed: usize,
    /// Failed (including unrunnable).
    pub failed: usize,
    /// Skipped (`@wip`).
    pub skipped: usize,
}

impl Counts {
    fn add(&mut self, outcome: &Outcome) {
        match outcome {
            Outcome::Passed => self.passed += 1,
            Outcome::Failed { .. } => self.failed += 1,
            Outcome::Skipped { .. } => self.skipped += 1,
        }
    }
}

/// Options of a run.
#[derive(Debug, Clone, Copy, Default)]
pub struct RunOptions {
    /// Also run scenarios tagged `@wip`.
    pub wip: bool,
}

/// The tiers a feature declares.
fn tiers(tags: &[String]) -> Vec<String> {
    let declared: Vec<String> = tags
        .iter()
        .filter_map(|t| t.strip_prefix("tier:"))
        .map(str::to_string)
        .collect();
    if declared.is_empty() {
        vec!["core".to_string()]
    } else {
        declared
    }
}

/// Runs every scenario of `feature` (read from `file`) against `corpus`.
pub fn run_feature(
    corpus: &Corpus,
    feature: &Feature,
    file: &str,
    options: RunOptions,
) -> Vec<ScenarioResult> {
    let grammar = Grammar::builtin();
    let feature_tiers = tiers(&feature.tags);
    let unsupported: Vec<&String> = feature_tiers
        .iter()
        .filter(|t| !SUPPORTED_TIERS.contains(&t.as_str()))
        .collect();
    feature
        .scenarios
        .iter()
        .map(|scenario| {
            let wip = feature.tags.iter().chain(&scenario.tags).any(|t| t == "wip");
            let outcome = if !unsupported.is_empty() {
                Outcome::Failed {
                    line: 0,
                    step: String::new(),
                    reason: format!(
                        "tier {} wordt door deze runner niet ondersteund",
                        unsupported
                            .iter()
                            .map(|t| t.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                }
            } else if wip && !options.wip {
                Outcome::Skipped {
                    reason: "@wip: een bekend, gedocumenteerd gat (ook de referentie-engine slaat het over); draai mee met --wip".to_string(),
                }
            } else if let Some(reason) = &scenario.unreadable {
                Outcome::Failed {
                    line: scenario.line,
                    step: String::new(),
                    reason: reason.clone(),
                }
            } else {
                let mut world = World::new(corpus);
                let steps = feature.background.iter().chain(&scenario.steps);
                steps
                    .map(|step| {
                        let found = grammar.find(&step.text);
                        let result = match found {
                            None => Err("deze stap staat niet in de grammatica (bdd/grammar.yaml)".to_string()),
                            Some((def, _)) if def.datatable == step.table.is_empty() => Err(if def.datatable {
                                "deze stap verwacht een tabel".to_string()
                            } else {
                                "deze stap neemt geen tabel".to_string()
                            }),
                            Some((def, args)) => world.apply(&def.action, &args, &step.table),
                        };
                        result.map_err(|reason| Outcome::Failed {
                            line: step.line,
                            step: format!("{} {}", step.keyword, step.text),
                            reason,
                        })
                    })
                    .find_map(Result::err)
                    .unwrap_or(Outcome::Passed)
            };
            ScenarioResult {
                file: file.to_string(),
                feature: feature.name.clone(),
                name: scenario.name.clone(),
                line: scenario.line,
                tiers: feature_tiers.clone(),
                outcome,
            }
        })
        .collect()
}

/// Totals over results: overall and per tier (in [`SUPPORTED_TIERS`] order, then others).
pub fn summarize(results: &[ScenarioResult]) -> (Counts, Vec<(String, Counts)>) {
    let mut total = Counts::default();
    let mut per: BTreeMap<String, Counts> = BTreeMap::new();
    for r in results {
        total.add(&r.outcome);
        for tier in &r.tiers {
            per.entry(tier.clone()).or_default().add(&r.outcome);
        }
    }
    let mut ordered: Vec<(String, Counts)> = Vec::new();
    for tier in SUPPORTED_TIERS {
        if let Some(c) = per.remove(tier) {
            ordered.push((tier.to_string(), c));
        }
    }
    ordered.extend(per);
    (total, ordered)
}

//! Evaluation of law outputs: the public API ([`Engine`], [`Request`], [`Evaluation`],
//! [`Basis`]) and the assembly of an answer from the articles producing the requested outputs.
//!
//! The evaluator core (version selection, caching, lazy outputs, cycle detection) is in `run`;
//! executing one article is in `article`, with its inputs, open terms, hooks and overrides each
//! in their own module; `tracing` builds the trace.

mod article;
mod hooks;
mod inputs;
mod open_terms;
mod overrides;
mod run;
pub mod stages;
mod tracing;
pub mod untranslatable;

use crate::data::DataSources;
use crate::error::EvalError;
use crate::law::{Article, Law};
use crate::load::Corpus;
use crate::trace::{TraceKind, TraceNode};
use crate::value::Value;
use chrono::NaiveDate;
use run::Run;
use std::collections::BTreeMap;
use std::rc::Rc;
pub use untranslatable::Taint;
use untranslatable::UntranslatableMode;

/// What to evaluate.
#[derive(Debug, Clone)]
pub struct Request {
    /// `$id` of the law.
    pub law_id: String,
    /// Outputs wanted (at least one).
    pub outputs: Vec<String>,
    /// Parameter values by name (inputs with a source may be given here too).
    pub params: BTreeMap<String, Value>,
    /// Calculation date (peildatum).
    pub date: NaiveDate,
}

/// Where an output's value legally comes from: the article that produced it, or one on the
/// chain behind that article.
#[derive(Debug, Clone, PartialEq)]
pub struct Basis {
    /// The output.
    pub output: String,
    /// `$id` of the law of the article.
    pub law_id: String,
    /// `valid_from` of the law version applied.
    pub valid_from: Option<String>,
    /// Name of that law.
    pub law_name: Option<String>,
    /// BWB id of that law.
    pub bwb_id: Option<String>,
    /// Article number.
    pub article: String,
    /// Article URL.
    pub url: Option<String>,
    /// How the article took part. The article that produced the value: `direct`, `override` or
    /// `hook`. One on the chain behind it: `bron` (it gave an input from another law),
    /// `intern` (another output of the same law), `open_norm` (it implements an open term),
    /// `hook` (a hook before the actions whose outputs the actions may read).
    pub how: &'static str,
    /// The input or open term an article on the chain gave.
    pub via: Option<String>,
    /// Whether this is the article that produced the value (the first entry of an output),
    /// not one on the chain behind it.
    pub producing: bool,
}

/// The result of an evaluation.
#[derive(Debug, Clone)]
pub struct Evaluation {
    /// `$id` of the evaluated law.
    pub law_id: String,
    /// `valid_from` of the version used.
    pub valid_from: Option<String>,
    /// SHA-256 of that version's file.
    pub law_sha256: String,
    /// Where the file came from (`builtin:…` or a path).
    pub law_origin: String,
    /// The calculation date.
    pub date: NaiveDate,
    /// The requested outputs.
    pub outputs: BTreeMap<String, Value>,
    /// Every output of the executed articles, including co-products and outputs added by hooks
    /// or replaced by overrides (a decision is indivisible).
    pub all_outputs: BTreeMap<String, Value>,
    /// Legal basis of each requested output: the article that produced it, then every article
    /// on the chain behind that one (each law version once per output), in order.
    pub basis: Vec<Basis>,
    /// Inputs resolved from other laws, open terms or same-law outputs, by name.
    pub resolved_inputs: BTreeMap<String, Value>,
    /// What was evaluated (its root only when the engine does not trace, see
    /// [`Engine::tracing`]).
    pub trace: TraceNode,
    /// How each output in `all_outputs` came about: `direct`, `override` or `hook` (the
    /// reference engine's "reactive").
    pub provenance: BTreeMap<String, &'static str>,
    /// Outputs in `all_outputs` tainted as untranslatable (only in `propagate` mode), each with
    /// the article whose construct tainted it.
    pub tainted: BTreeMap<String, Taint>,
    /// Untranslatable constructs that ran unaccepted (only in `warn` mode).
    pub warnings: Vec<String>,
    /// The untranslatable mode of the evaluation.
    pub mode: UntranslatableMode,
}

/// Evaluates outputs of laws in a corpus.
pub struct Engine<'c> {
    corpus: &'c Corpus,
    mode: UntranslatableMode,
    data: Option<&'c DataSources>,
    tracing: bool,
}

impl<'c> Engine<'c> {
    /// An engine over `corpus` (untranslatable mode `error`, no data sources).
    pub fn new(corpus: &'c Corpus) -> Engine<'c> {
        Engine {
            corpus,
            mode: UntranslatableMode::default(),
            data: None,
            tracing: true,
        }
    }

    /// The same engine building the trace ([`Evaluation::trace`], the trace of an error) or
    /// not: without it an evaluation's trace is its root only, with the answer as value. On by
    /// default; a caller that never reads the trace turns it off (it is most of the work on a
    /// small law).
    pub fn tracing(mut self, on: bool) -> Engine<'c> {
        self.tracing = on;
        self
    }

    /// The same engine with another untranslatable mode (RFC-012).
    pub fn untranslatable(mut self, mode: UntranslatableMode) -> Engine<'c> {
        self.mode = mode;
        self
    }

    /// The same engine reading external inputs from `data` when no parameter gives them.
    pub fn data(mut self, data: &'c DataSources) -> Engine<'c> {
        self.data = Some(data);
        self
    }

    /// The corpus this engine evaluates.
    pub fn corpus(&self) -> &'c Corpus {
        self.corpus
    }

    /// Evaluates the requested outputs. Any output that cannot be computed is an error.
    pub fn evaluate(&self, request: &Request) -> Result<Evaluation, EvalError> {
        self.evaluate_at(request, "BESLUIT")
    }

    /// Evaluates the requested outputs with their articles executed at `stage` (the hooks of
    /// that stage fire); [`Engine::evaluate`] is stage `BESLUIT`.
    pub fn evaluate_at(&self, request: &Request, stage: &str) -> Result<Evaluation, EvalError> {
        if request.outputs.is_empty() {
            return Err(EvalError::invalid("geef minstens één uitvoer op"));
        }
        let mut run = Run::new(
            self.corpus,
            request.date,
            &request.law_id,
            &request.params,
            tracing::root(request),
        );
        run.mode = self.mode;
        run.data = self.data;
        run.tracing = self.tracing;
        let result = self.evaluate_in(&mut run, request, stage);
        tracing::attach(run.into_trace(), result)
    }

    fn evaluate_in<'r>(
        &self,
        run: &mut Run<'r>,
        request: &'r Request,
        stage: &'r str,
    ) -> Result<Evaluation, EvalError> {
        let file = run.select(&request.law_id)?;
        let law = file.law()?;
        // Group requested outputs by producing article (in article order), execute each once.
        // An output no article produces may come from a hook firing on one of them.
        let mut articles: Vec<&Article> = Vec::new();
        let mut from_hooks: Vec<&str> = Vec::new();
        for output in &request.outputs {
            match law.article_for_output(output) {
                Some(article) => {
                    if !articles.iter().any(|a| a.number == article.number) {
                        articles.push(article);
                    }
                }
                None => from_hooks.push(output),
            }
        }
        for output in from_hooks {
            let article = run.article_for_hook_output(law, output, stage, &articles)?;
            if !articles.iter().any(|a| a.number == article.number) {
                articles.push(article);
            }
        }
        let mut outputs = BTreeMap::new();
        let mut resolved_inputs = BTreeMap::new();
        let mut provenance = BTreeMap::new();
        let mut tainted = BTreeMap::new();
        let mut results = Vec::with_capacity(articles.len());
        for article in articles {
            results.push(run.execute(file, law, article, &request.params, stage)?);
        }
        // Nothing executes after this: without the cache's references the results are moved
        // out rather than copied (unless one article's result serves twice).
        run.forget_executions();
        for result in results {
            match Rc::try_unwrap(result) {
                Ok(result) => {
                    outputs.extend(result.outputs);
                    resolved_inputs.extend(result.resolved_inputs);
                    provenance.extend(result.provenance);
                    tainted.extend(result.tainted);
                }
                Err(result) => {
                    outputs.extend(result.outputs.clone());
                    resolved_inputs.extend(result.resolved_inputs.clone());
                    provenance.extend(result.provenance.clone());
                    tainted.extend(result.tainted.clone());
                }
            }
        }
        let mut wanted = BTreeMap::new();
        let mut basis = Vec::new();
        for name in &request.outputs {
            let value = outputs
                .get(name)
                .cloned()
                .ok_or_else(|| run::output_not_found(&law.id, name))?;
            wanted.insert(name.clone(), value);
            if let Some(source) = provenance.get(name) {
                basis_of(name, source, &mut basis);
            }
        }
        Ok(Evaluation {
            law_id: law.id.clone(),
            valid_from: file.valid_from.clone(),
            law_sha256: file.sha256().to_string(),
            law_origin: file.origin.display(),
            date: request.date,
            outputs: wanted,
            all_outputs: outputs,
            basis,
            resolved_inputs,
            trace: TraceNode::new(TraceKind::Evaluation, ""),
            provenance: provenance
                .into_iter()
                .map(|(k, source)| (k, source.how))
                .collect(),
            tainted,
            warnings: std::mem::take(&mut run.warnings),
            mode: self.mode,
        })
    }
}

/// The legal basis of `output`, pushed to `basis`: the article of the law version that produced
/// it (the version applied on the calculation date, not the newest one), then every article on
/// the chain behind it.
fn basis_of(output: &str, source: &run::Source<'_>, basis: &mut Vec<Basis>) {
    let entry = |law: &Law, article: &Article, how: &'static str, via: Option<&str>| Basis {
        producing: false,
        output: output.to_string(),
        law_id: law.id.clone(),
        valid_from: law.valid_from.clone(),
        law_name: law.display_name(),
        bwb_id: law.bwb_id.clone(),
        article: article.number.clone(),
        url: article.url.clone(),
        how,
        via: via.map(str::to_string),
    };
    basis.push(Basis {
        producing: true,
        ..entry(source.law, source.article, source.how, None)
    });
    for link in source.chain.iter() {
        basis.push(entry(link.law, link.article, link.how, link.via));
    }
}

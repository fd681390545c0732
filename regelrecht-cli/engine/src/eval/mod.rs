//! Evaluation of law outputs: selecting the version in force, executing the producing article
//! (inputs, open terms, hooks, actions, overrides), lazily following cross-law references with
//! cycle detection, caching per article and parameters, and recording a trace.

use crate::error::{ErrorKind, EvalError};
use crate::law::{Action, Article, Law};
use crate::load::{Corpus, LawFile, Selection};
use crate::ops;
use crate::resolve;
use crate::scope::ArticleScope;
use crate::trace::{TraceBuilder, TraceKind, TraceNode};
use crate::units;
use crate::value::Value;
use chrono::NaiveDate;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;

/// Maximum nesting of cross-law, internal and open-term resolutions.
const MAX_NESTING: usize = 64;

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

/// Where an output's value legally comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct Basis {
    /// The output.
    pub output: String,
    /// `$id` of the law whose article produced it.
    pub law_id: String,
    /// Name of that law.
    pub law_name: Option<String>,
    /// BWB id of that law.
    pub bwb_id: Option<String>,
    /// Article number.
    pub article: String,
    /// Article URL.
    pub url: Option<String>,
    /// `direct`, `override` or `hook`.
    pub how: &'static str,
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
    /// Legal basis of each requested output.
    pub basis: Vec<Basis>,
    /// Inputs resolved from other laws, open terms or same-law outputs, by name.
    pub resolved_inputs: BTreeMap<String, Value>,
    /// What was evaluated.
    pub trace: TraceNode,
}

/// Evaluates outputs of laws in a corpus.
pub struct Engine<'c> {
    corpus: &'c Corpus,
}

#[derive(Debug, Clone)]
struct ArticleResult {
    outputs: BTreeMap<String, Value>,
    resolved_inputs: BTreeMap<String, Value>,
    provenance: BTreeMap<String, (String, String, &'static str)>,
}

struct Run<'c> {
    corpus: &'c Corpus,
    date: NaiveDate,
    contextual_law: String,
    stack: Vec<String>,
    cache: HashMap<String, Rc<ArticleResult>>,
    trace: RefCell<TraceBuilder>,
}

impl<'c> Engine<'c> {
    /// An engine over `corpus`.
    pub fn new(corpus: &'c Corpus) -> Engine<'c> {
        Engine { corpus }
    }

    /// Evaluates the requested outputs. Any output that cannot be computed is an error.
    pub fn evaluate(&self, request: &Request) -> Result<Evaluation, EvalError> {
        if request.outputs.is_empty() {
            return Err(EvalError::invalid("geef minstens één uitvoer op"));
        }
        let mut root = TraceNode::new(TraceKind::Evaluation, request.outputs.join(", "));
        root.law = Some(request.law_id.clone());
        let mut run = Run {
            corpus: self.corpus,
            date: request.date,
            contextual_law: request.law_id.clone(),
            stack: Vec::new(),
            cache: HashMap::new(),
            trace: RefCell::new(TraceBuilder::new(root)),
        };
        let result = self.evaluate_in(&mut run, request);
        let trace = run.trace.into_inner();
        match result {
            Ok(mut evaluation) => {
                let value = if evaluation.outputs.len() == 1 {
                    evaluation.outputs.values().next().cloned()
                } else {
                    Some(Value::Object(evaluation.outputs.clone()))
                };
                evaluation.trace = trace.finish(value);
                Ok(evaluation)
            }
            Err(mut error) => {
                let mut node = trace.finish(None);
                node.message = Some(error.to_string());
                error.trace = Some(Box::new(node));
                Err(error)
            }
        }
    }

    fn evaluate_in(&self, run: &mut Run<'c>, request: &Request) -> Result<Evaluation, EvalError> {
        let file = run.select(&request.law_id)?;
        let law = file.law()?;
        // Group requested outputs by producing article (in article order), execute each once.
        let mut articles: Vec<&Article> = Vec::new();
        for output in &request.outputs {
            let article = law.article_for_output(output).ok_or_else(|| {
                EvalError::new(ErrorKind::OutputNotFound {
                    law: law.id.clone(),
                    output: output.clone(),
                })
            })?;
            if !articles.iter().any(|a| a.number == article.number) {
                articles.push(article);
            }
        }
        let mut outputs = BTreeMap::new();
        let mut resolved_inputs = BTreeMap::new();
        let mut provenance = BTreeMap::new();
        for article in articles {
            let result = run.execute(file, law, article, request.params.clone(), "BESLUIT")?;
            outputs.extend(result.outputs.clone());
            resolved_inputs.extend(result.resolved_inputs.clone());
            provenance.extend(result.provenance.clone());
        }
        let mut wanted = BTreeMap::new();
        let mut basis = Vec::new();
        for name in &request.outputs {
            let value = outputs.get(name).cloned().ok_or_else(|| {
                EvalError::new(ErrorKind::OutputNotFound {
                    law: law.id.clone(),
                    output: name.clone(),
                })
            })?;
            wanted.insert(name.clone(), value);
            if let Some((law_id, article, how)) = provenance.get(name) {
                basis.push(self.basis(name, law_id, article, how));
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
        })
    }

    fn basis(&self, output: &str, law_id: &str, article: &str, how: &'static str) -> Basis {
        let law = self
            .corpus
            .versions(law_id)
            .next()
            .and_then(|f| f.law().ok());
        let art = law.and_then(|l| l.article(article));
        Basis {
            output: output.to_string(),
            law_id: law_id.to_string(),
            law_name: law.and_then(|l| l.name.clone()),
            bwb_id: law.and_then(|l| l.bwb_id.clone()),
            article: article.to_string(),
            url: art.and_then(|a| a.url.clone()),
            how,
        }
    }
}

fn node(kind: TraceKind, name: &str, law: &str, article: Option<&str>) -> TraceNode {
    let mut n = TraceNode::new(kind, name);
    n.law = Some(law.to_string());
    n.article = article.map(str::to_string);
    n
}

fn cache_key(
    law: &LawFile,
    article: &str,
    params: &BTreeMap<String, Value>,
    stage: &str,
) -> String {
    let params: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!(
        "{}@{:?}#{article}|{stage}|{}",
        law.id,
        law.valid_from,
        params.join("\u{0}")
    )
}

impl<'c> Run<'c> {
    fn select(&self, law_id: &str) -> Result<&'c LawFile, EvalError> {
        let date = self.date.format("%Y-%m-%d").to_string();
        self.corpus.select(law_id, self.date).map_err(|reason| {
            EvalError::new(match reason {
                Selection::NotFound => ErrorKind::LawNotFound {
                    law: law_id.to_string(),
                },
                Selection::NotYetInForce => ErrorKind::LawNotInForce {
                    law: law_id.to_string(),
                    date,
                },
                Selection::Ended(to) => ErrorKind::LawEnded {
                    law: law_id.to_string(),
                    date,
                    valid_to: to.to_string(),
                },
            })
        })
    }

    /// Runs `f` with `key` on the resolution stack; a key already on the stack is a cycle.
    fn nested<T>(
        &mut self,
        key: String,
        f: impl FnOnce(&mut Self) -> Result<T, EvalError>,
    ) -> Result<T, EvalError> {
        if let Some(pos) = self.stack.iter().position(|k| *k == key) {
            let mut path = self.stack[pos..].to_vec();
            path.push(key);
            return Err(EvalError::new(ErrorKind::Cycle { path }));
        }
        if self.stack.len() >= MAX_NESTING {
            return Err(EvalError::invalid(format!(
                "verwijzingen zijn dieper genest dan {MAX_NESTING} niveaus"
            )));
        }
        self.stack.push(key.clone());
        let result = f(self);
        self.stack.pop();
        result.map_err(|e| {
            if e.context.first() == Some(&key) {
                e
            } else {
                e.within(key)
            }
        })
    }

    fn traced<T>(
        &mut self,
        node: TraceNode,
        f: impl FnOnce(&mut Self) -> Result<T, EvalError>,
        value: impl Fn(&T) -> Option<Value>,
    ) -> Result<T, EvalError> {
        self.trace.borrow_mut().push(node);
        let result = f(self);
        match &result {
            Ok(v) => self.trace.borrow_mut().pop(value(v), None),
            Err(e) => self.trace.borrow_mut().pop(None, Some(e.kind.to_string())),
        }
        result
    }

    /// Executes one article as a whole, as the reference engine does.
    fn execute(
        &mut self,
        file: &'c LawFile,
        law: &'c Law,
        article: &'c Article,
        params: BTreeMap<String, Value>,
        stage: &str,
    ) -> Result<Rc<ArticleResult>, EvalError> {
        let key = cache_key(file, &article.number, &params, stage);
        if let Some(hit) = self.cache.get(&key) {
            self.trace.borrow_mut().leaf(node(
                TraceKind::Cached,
                &law.id,
                &law.id,
                Some(&article.number),
            ));
            return Ok(Rc::clone(hit));
        }
        let trace_node = node(TraceKind::Article, &law.id, &law.id, Some(&article.number));
        let result = self.traced(
            trace_node,
            |run| run.execute_uncached(file, law, article, params, stage),
            |_| None,
        )?;
        let result = Rc::new(result);
        self.cache.insert(key, Rc::clone(&result));
        Ok(result)
    }

    fn execute_uncached(
        &mut self,
        file: &'c LawFile,
        law: &'c Law,
        article: &'c Article,
        params: BTreeMap<String, Value>,
        stage: &str,
    ) -> Result<ArticleResult, EvalError> {
        let mr = article.machine_readable.as_ref();
        for u in mr.iter().flat_map(|m| &m.untranslatables) {
            if !u.accepted {
                return Err(EvalError::new(ErrorKind::Untranslatable {
                    law: law.id.clone(),
                    article: article.number.clone(),
                    construct: u.construct.clone(),
                    reason: u.reason.clone(),
                }));
            }
        }
        let empty_defs = BTreeMap::new();
        let definitions = mr.map_or(&empty_defs, |m| &m.definitions);
        let exec = article.execution();

        // 1. Inputs with a source (unless given as parameters).
        let mut values = params.clone();
        let mut resolved_inputs = BTreeMap::new();
        let mut unresolved_external = BTreeSet::new();
        for input in exec.iter().flat_map(|e| &e.input) {
            let Some(source) = &input.source else {
                continue;
            };
            if params.contains_key(&input.name) {
                continue;
            }
            let output = source.output.as_deref().unwrap_or(&input.name);
            let value = if let Some(regulation) = &source.regulation {
                let no_outputs = BTreeMap::new();
                let target_params = {
                    let scope = self.scope(
                        law,
                        article,
                        &values,
                        definitions,
                        &no_outputs,
                        &unresolved_external,
                    );
                    let mut target = BTreeMap::new();
                    for (name, reference) in &source.parameters {
                        let value = match reference.strip_prefix('$') {
                            Some(var) => ops::Scope::resolve(&scope, var)?,
                            None => Value::String(reference.clone()),
                        };
                        target.insert(name.clone(), value);
                    }
                    target
                };
                self.cross_law(regulation, output, &input.name, target_params)?
            } else if source.output.is_some() {
                self.internal(file, law, output, &input.name, params.clone())?
            } else {
                unresolved_external.insert(input.name.clone());
                let mut n = node(
                    TraceKind::Input,
                    &input.name,
                    &law.id,
                    Some(&article.number),
                );
                n.message = Some("externe gegevensbron: niet als parameter gegeven".to_string());
                self.trace.borrow_mut().leaf(n);
                continue;
            };
            resolved_inputs.insert(input.name.clone(), value.clone());
            values.insert(input.name.clone(), value);
        }

        // 2. Open terms (IoC).
        let mut open_term_values = BTreeMap::new();
        for term in mr.iter().flat_map(|m| &m.open_terms) {
            let value = self.open_term(law, article, term, &params, &open_term_values)?;
            open_term_values.insert(term.id.clone(), value.clone());
            resolved_inputs.insert(term.id.clone(), value.clone());
            values.insert(term.id.clone(), value);
        }

        // 3. Hooks before the actions.
        let produces = exec.and_then(|e| e.produces.as_ref());
        let mut provenance = BTreeMap::new();
        let pre = self.fire_hooks("pre_actions", produces, stage, &values, &mut provenance)?;
        values.extend(pre.clone());

        // 4. Actions, in order.
        let mut outputs = BTreeMap::new();
        let actions = exec.map_or(&[][..], |e| &e.actions[..]);
        units::check_article(article)?;
        for action in actions {
            let value = self.action(
                law,
                article,
                action,
                &outputs,
                definitions,
                &values,
                &unresolved_external,
            )?;
            provenance.insert(
                action.output.clone(),
                (law.id.clone(), article.number.clone(), "direct"),
            );
            outputs.insert(action.output.clone(), value);
        }

        // 5. Hooks after the actions; they see the outputs too.
        let mut post_values = values.clone();
        post_values.extend(outputs.clone());
        let post = self.fire_hooks(
            "post_actions",
            produces,
            stage,
            &post_values,
            &mut provenance,
        )?;
        for (name, value) in post.into_iter().chain(pre) {
            outputs.entry(name).or_insert(value);
        }

        // 6. Overrides by the law being evaluated (lex specialis).
        let names: Vec<String> = outputs.keys().cloned().collect();
        for name in names {
            let found = resolve::override_for(
                self.corpus,
                self.date,
                &self.contextual_law,
                &law.id,
                &article.number,
                &name,
            )?;
            let Some((ofile, olaw, oarticle)) = found else {
                continue;
            };
            let key = format!("override:{}#{}", olaw.id, oarticle.number);
            if self.stack.contains(&key) {
                continue;
            }
            let oparams = declared_params(oarticle, &post_values);
            let mut n = node(TraceKind::Override, &name, &olaw.id, Some(&oarticle.number));
            n.message = Some(format!(
                "vervangt {}#{name} van artikel {}",
                law.id, article.number
            ));
            let result = self.traced(
                n,
                |run| {
                    run.nested(key, |run| {
                        run.execute(ofile, olaw, oarticle, oparams, "BESLUIT")
                    })
                },
                |_| None,
            )?;
            if let Some(value) = result.outputs.get(&name) {
                outputs.insert(name.clone(), value.clone());
                provenance.insert(name, (olaw.id.clone(), oarticle.number.clone(), "override"));
            }
        }
        Ok(ArticleResult {
            outputs,
            resolved_inputs,
            provenance,
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn scope<'s>(
        &self,
        law: &'s Law,
        article: &'s Article,
        values: &'s BTreeMap<String, Value>,
        definitions: &'s BTreeMap<String, crate::law::Definition>,
        outputs: &'s BTreeMap<String, Value>,
        unresolved_external: &'s BTreeSet<String>,
    ) -> ArticleScope<'s> {
        ArticleScope {
            outputs,
            definitions,
            values,
            unresolved_external,
            date: self.date,
            law: &law.id,
            article: &article.number,
            used: RefCell::new(Vec::new()),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn action(
        &mut self,
        law: &Law,
        article: &Article,
        action: &Action,
        outputs: &BTreeMap<String, Value>,
        definitions: &BTreeMap<String, crate::law::Definition>,
        values: &BTreeMap<String, Value>,
        unresolved_external: &BTreeSet<String>,
    ) -> Result<Value, EvalError> {
        let scope = self.scope(
            law,
            article,
            values,
            definitions,
            outputs,
            unresolved_external,
        );
        let result = ops::eval(&action.expr, &scope);
        let mut n = node(
            TraceKind::Action,
            &action.output,
            &law.id,
            Some(&article.number),
        );
        n.operation = match &action.expr {
            crate::expr::Expr::Op(op) => Some(op.name().to_string()),
            _ => None,
        };
        n.used = scope.used.into_inner();
        match &result {
            Ok(v) => n.value = Some(v.clone()),
            Err(e) => n.message = Some(e.kind.to_string()),
        }
        self.trace.borrow_mut().leaf(n);
        result.map_err(|e| e.within(format!("{}#{}", law.id, action.output)))
    }

    fn cross_law(
        &mut self,
        regulation: &str,
        output: &str,
        input: &str,
        params: BTreeMap<String, Value>,
    ) -> Result<Value, EvalError> {
        let key = format!("{regulation}#{output}");
        let n = node(TraceKind::CrossLaw, input, regulation, None);
        self.traced(
            n,
            |run| {
                run.nested(key, |run| {
                    let file = run.select(regulation)?;
                    let law = file.law()?;
                    let article = law.article_for_output(output).ok_or_else(|| {
                        EvalError::new(ErrorKind::OutputNotFound {
                            law: regulation.to_string(),
                            output: output.to_string(),
                        })
                    })?;
                    let result = run.execute(file, law, article, params, "BESLUIT")?;
                    result.outputs.get(output).cloned().ok_or_else(|| {
                        EvalError::new(ErrorKind::OutputNotFound {
                            law: regulation.to_string(),
                            output: output.to_string(),
                        })
                    })
                })
            },
            |v| Some(v.clone()),
        )
    }

    fn internal(
        &mut self,
        file: &'c LawFile,
        law: &'c Law,
        output: &str,
        input: &str,
        params: BTreeMap<String, Value>,
    ) -> Result<Value, EvalError> {
        let key = format!("{}#{output}", law.id);
        let n = node(TraceKind::InternalInput, input, &law.id, None);
        self.traced(
            n,
            |run| {
                run.nested(key, |run| {
                    let article = law.article_for_output(output).ok_or_else(|| {
                        EvalError::new(ErrorKind::OutputNotFound {
                            law: law.id.clone(),
                            output: output.to_string(),
                        })
                    })?;
                    let result = run.execute(file, law, article, params, "BESLUIT")?;
                    result.outputs.get(output).cloned().ok_or_else(|| {
                        EvalError::new(ErrorKind::OutputNotFound {
                            law: law.id.clone(),
                            output: output.to_string(),
                        })
                    })
                })
            },
            |v| Some(v.clone()),
        )
    }

    fn open_term(
        &mut self,
        law: &'c Law,
        article: &'c Article,
        term: &'c crate::law::OpenTerm,
        params: &BTreeMap<String, Value>,
        resolved: &BTreeMap<String, Value>,
    ) -> Result<Value, EvalError> {
        let key = format!("open_term:{}#{}#{}", law.id, article.number, term.id);
        let n = node(
            TraceKind::OpenTerm,
            &term.id,
            &law.id,
            Some(&article.number),
        );
        self.traced(
            n,
            |run| {
                run.nested(key, |run| {
                    let found = resolve::implementation(run.corpus, run.date, &law.id, &article.number, &term.id, params)?;
                    if let Some((ifile, ilaw, iarticle)) = found {
                        if let Some(expected) = &term.delegation_type
                            && &ilaw.regulatory_layer != expected {
                                return Err(EvalError::invalid(format!(
                                    "implementatie {} van open norm '{}' is {} maar delegation_type vraagt {expected}",
                                    ilaw.id, term.id, ilaw.regulatory_layer
                                )));
                            }
                        let iparams = declared_params(iarticle, params);
                        let result = run.execute(ifile, ilaw, iarticle, iparams, "BESLUIT")?;
                        return result.outputs.get(&term.id).cloned().ok_or_else(|| {
                            EvalError::invalid(format!("implementatie {} artikel {} levert open norm '{}' niet", ilaw.id, iarticle.number, term.id))
                        });
                    }
                    if let Some(default) = &term.default {
                        let mut values = params.clone();
                        values.extend(resolved.clone());
                        let defs = BTreeMap::new();
                        let none = BTreeSet::new();
                        let mut outputs = BTreeMap::new();
                        for action in &default.actions {
                            let v = run.action(law, article, action, &outputs, &defs, &values, &none)?;
                            outputs.insert(action.output.clone(), v);
                        }
                        return Ok(outputs.remove(&term.id).unwrap_or(Value::Null));
                    }
                    if term.required {
                        return Err(EvalError::new(ErrorKind::MissingImplementation {
                            law: law.id.clone(),
                            article: article.number.clone(),
                            open_term: term.id.clone(),
                        }));
                    }
                    Ok(Value::Null)
                })
            },
            |v| Some(v.clone()),
        )
    }

    fn fire_hooks(
        &mut self,
        hook_point: &str,
        produces: Option<&crate::law::Produces>,
        stage: &str,
        values: &BTreeMap<String, Value>,
        provenance: &mut BTreeMap<String, (String, String, &'static str)>,
    ) -> Result<BTreeMap<String, Value>, EvalError> {
        let mut out: BTreeMap<String, Value> = BTreeMap::new();
        let Some(legal_character) = produces.and_then(|p| p.legal_character.as_deref()) else {
            return Ok(out);
        };
        let decision_type = produces.and_then(|p| p.decision_type.as_deref());
        let mut sources: BTreeMap<String, &Law> = BTreeMap::new();
        for (hfile, hlaw, harticle) in resolve::hooks(
            self.corpus,
            self.date,
            hook_point,
            legal_character,
            decision_type,
            stage,
        )? {
            let key = format!("hook:{}#{}", hlaw.id, harticle.number);
            if self.stack.contains(&key) {
                continue;
            }
            let hparams = declared_params(harticle, values);
            let mut n = node(
                TraceKind::Hook,
                &harticle.number,
                &hlaw.id,
                Some(&harticle.number),
            );
            n.message = Some(format!("{hook_point} bij {legal_character} (fase {stage})"));
            let result = self.traced(
                n,
                |run| {
                    run.nested(key, |run| {
                        run.execute(hfile, hlaw, harticle, hparams, "BESLUIT")
                    })
                },
                |_| None,
            )?;
            for (name, value) in &result.outputs {
                let wins = match sources.get(name) {
                    None => true,
                    Some(existing) => {
                        let (a, b) = (
                            resolve::layer_rank(&hlaw.regulatory_layer),
                            resolve::layer_rank(&existing.regulatory_layer),
                        );
                        a < b || (a == b && hlaw.valid_from > existing.valid_from)
                    }
                };
                if wins {
                    sources.insert(name.clone(), hlaw);
                    out.insert(name.clone(), value.clone());
                    provenance.entry(name.clone()).or_insert((
                        hlaw.id.clone(),
                        harticle.number.clone(),
                        "hook",
                    ));
                }
            }
        }
        Ok(out)
    }
}

/// Only the parameters an article declares (least privilege for implementations, hooks and overrides).
fn declared_params(article: &Article, values: &BTreeMap<String, Value>) -> BTreeMap<String, Value> {
    article
        .execution()
        .iter()
        .flat_map(|e| &e.parameters)
        .filter_map(|p| values.get(&p.name).map(|v| (p.name.clone(), v.clone())))
        .collect()
}

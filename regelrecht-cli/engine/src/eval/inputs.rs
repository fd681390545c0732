//! Inputs of an article that have a `source`: outputs of other laws (cross-law, with the
//! source's parameter mapping), other outputs of the same law, or external data that must be
//! given as a parameter or found in a registered data source ([`crate::data`]). Inputs given as parameters are not resolved.

use super::run::{Key, Link, Run, extend_chain};
use super::tracing::explained;
use super::untranslatable::Taint;
use crate::error::EvalError;
use crate::law::{Article, Definition, Law};
use crate::load::LawFile;
use crate::ops;
use crate::scope::Vars;
use crate::trace::TraceKind;
use crate::trace::node;
use crate::value::Value;
use std::collections::{BTreeMap, BTreeSet};

/// The values an article's inputs make available (besides its parameters).
pub(super) struct Inputs<'c> {
    /// Inputs resolved from other laws or same-law outputs, by name.
    pub(super) resolved: BTreeMap<String, Value>,
    /// Inputs from an external source that were not given as parameters.
    pub(super) unresolved_external: BTreeSet<String>,
    /// Where the first input tainted as untranslatable got its taint, if one was.
    pub(super) tainted: Option<Taint>,
    /// The articles that produced the inputs, and the articles behind them.
    pub(super) chain: Vec<Link<'c>>,
}

impl<'c> Run<'c> {
    /// Resolves the inputs with a source of `article`, in order; an input's source parameters
    /// may refer to parameters and to inputs resolved before it.
    pub(super) fn resolve_inputs(
        &mut self,
        file: &'c LawFile,
        law: &'c Law,
        article: &'c Article,
        params: &BTreeMap<String, Value>,
        definitions: &BTreeMap<String, Definition>,
    ) -> Result<Inputs<'c>, EvalError> {
        let mut resolved = BTreeMap::new();
        let mut unresolved_external = BTreeSet::new();
        let mut tainted = None;
        let mut chain = Vec::new();
        for input in article.execution().iter().flat_map(|e| &e.input) {
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
                    let vars = Vars {
                        inputs: &resolved,
                        ..Vars::params(params)
                    };
                    let scope = self.scope(
                        law,
                        article,
                        vars,
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
                let (value, link, behind) =
                    self.cross_law(regulation, output, &input.name, target_params)?;
                extend_chain(&mut chain, link, &behind);
                tainted = tainted.or_else(|| self.taint_of(regulation, output));
                value
            } else if source.output.is_some() {
                let (value, link, behind) =
                    self.internal(file, law, output, &input.name, params)?;
                extend_chain(&mut chain, link, &behind);
                tainted = tainted.or_else(|| self.taint_of(&law.id, output));
                value
            } else if let Some(value) = self.data.and_then(|d| {
                let vars = Vars {
                    inputs: &resolved,
                    ..Vars::params(params)
                };
                d.lookup(&input.name, &vars.to_map())
            }) {
                self.leaf(|| {
                    let mut n = explained(
                        TraceKind::Input,
                        &input.name,
                        &law.id,
                        &article.number,
                        "uit een externe gegevensbron",
                    );
                    n.value = Some(value.clone());
                    n
                });
                value
            } else {
                unresolved_external.insert(input.name.clone());
                self.leaf(|| {
                    explained(
                        TraceKind::Input,
                        &input.name,
                        &law.id,
                        &article.number,
                        "externe gegevensbron: niet als parameter gegeven",
                    )
                });
                continue;
            };
            resolved.insert(input.name.clone(), value);
        }
        Ok(Inputs {
            resolved,
            unresolved_external,
            tainted,
            chain,
        })
    }

    /// `output` of the law `regulation` in force, for `input`, with the article that produced
    /// it and the chain behind that.
    fn cross_law(
        &mut self,
        regulation: &'c str,
        output: &'c str,
        input: &'c str,
        params: BTreeMap<String, Value>,
    ) -> Result<Produced<'c>, EvalError> {
        let key = Key::Output {
            law: regulation,
            output,
        };
        self.traced_nested(
            || node(TraceKind::CrossLaw, input, regulation, None),
            key,
            |run| {
                let file = run.select(regulation)?;
                let law = file.law()?;
                run.output_of(file, law, output, &params, "bron", Some(input))
            },
            |(v, _, _)| Some(v.clone()),
        )
    }

    /// Another `output` of the same law, for `input`, with the article that produced it and
    /// the chain behind that.
    fn internal(
        &mut self,
        file: &'c LawFile,
        law: &'c Law,
        output: &'c str,
        input: &'c str,
        params: &BTreeMap<String, Value>,
    ) -> Result<Produced<'c>, EvalError> {
        let key = Key::Output {
            law: &law.id,
            output,
        };
        self.traced_nested(
            || node(TraceKind::InternalInput, input, &law.id, None),
            key,
            |run| run.output_of(file, law, output, params, "intern", Some(input)),
            |(v, _, _)| Some(v.clone()),
        )
    }
}

/// A value, the link to the article that produced it and the chain behind that article.
type Produced<'c> = (Value, Link<'c>, std::rc::Rc<[Link<'c>]>);

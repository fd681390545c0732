//! Open terms (inversion of control): an article leaves a value to a lower regulation that
//! `implements` it. The winning implementation is executed with only the parameters it
//! declares; without one the term's default actions apply, a required term is an error and an
//! optional one is null.

use super::article::declared_params;
use super::run::{Key, Link, Run, extend_chain};
use super::untranslatable::Taint;
use crate::error::{ErrorKind, EvalError};
use crate::law::{Article, Law, OpenTerm};
use crate::resolve;
use crate::scope::Vars;
use crate::trace::TraceKind;
use crate::trace::node;
use crate::value::Value;
use std::collections::{BTreeMap, BTreeSet};

/// The open terms of an article: their values by term id, the implementing articles (and the
/// chains behind them), and the first taint an implementation carried.
pub(super) struct OpenTerms<'c> {
    pub(super) values: BTreeMap<String, Value>,
    pub(super) chain: Vec<Link<'c>>,
    pub(super) tainted: Option<Taint>,
}

impl<'c> Run<'c> {
    /// The values of the open terms of `article`, by term id, filled in declaration order.
    pub(super) fn open_terms(
        &mut self,
        law: &'c Law,
        article: &'c Article,
        params: &BTreeMap<String, Value>,
    ) -> Result<OpenTerms<'c>, EvalError> {
        let mut filled = OpenTerms {
            values: BTreeMap::new(),
            chain: Vec::new(),
            tainted: None,
        };
        let terms = article.machine_readable.iter().flat_map(|m| &m.open_terms);
        for term in terms {
            let (value, implementation) =
                self.open_term(law, article, term, params, &filled.values)?;
            if let Some((link, behind)) = implementation {
                extend_chain(&mut filled.chain, link, &behind);
                if filled.tainted.is_none() {
                    filled.tainted = self.taint_of(&link.law.id, &term.id);
                }
            }
            filled.values.insert(term.id.clone(), value);
        }
        Ok(filled)
    }

    /// The value of one open term, and the implementing article with the chain behind it when
    /// an implementation gave it; `resolved` holds the terms filled before it.
    fn open_term(
        &mut self,
        law: &'c Law,
        article: &'c Article,
        term: &'c OpenTerm,
        params: &BTreeMap<String, Value>,
        resolved: &BTreeMap<String, Value>,
    ) -> Result<(Value, Option<Implemented<'c>>), EvalError> {
        let key = Key::OpenTerm {
            law: &law.id,
            article: &article.number,
            term: &term.id,
        };
        let n = || {
            node(
                TraceKind::OpenTerm,
                &term.id,
                &law.id,
                Some(&article.number),
            )
        };
        self.traced_nested(
            n,
            key,
            |run| {
                let found = resolve::implementation(
                    run.corpus,
                    run.date,
                    &law.id,
                    &article.number,
                    &term.id,
                    params,
                )?;
                if let Some((ifile, ilaw, iarticle)) = found {
                    if let Some(expected) = &term.delegation_type
                        && &ilaw.regulatory_layer != expected
                    {
                        return Err(EvalError::invalid(format!(
                            "implementatie {} van open norm '{}' is {} maar delegation_type vraagt {expected}",
                            ilaw.id, term.id, ilaw.regulatory_layer
                        )));
                    }
                    let iparams = declared_params(iarticle, Vars::params(params));
                    let result = run.execute(ifile, ilaw, iarticle, &iparams, "BESLUIT")?;
                    let (value, link, behind) = result
                        .produced(&term.id, "open_norm", Some(&term.id))
                        .ok_or_else(|| {
                            EvalError::invalid(format!(
                                "implementatie {} artikel {} levert open norm '{}' niet",
                                ilaw.id, iarticle.number, term.id
                            ))
                        })?;
                    return Ok((value, Some((link, behind))));
                }
                if let Some(default) = &term.default {
                    let values = Vars {
                        inputs: resolved,
                        ..Vars::params(params)
                    };
                    let defs = BTreeMap::new();
                    let none = BTreeSet::new();
                    let mut outputs = BTreeMap::new();
                    for action in &default.actions {
                        let v = run.action(law, article, action, &outputs, &defs, values, &none)?;
                        outputs.insert(action.output.clone(), v);
                    }
                    return Ok((outputs.remove(&term.id).unwrap_or(Value::Null), None));
                }
                if term.required {
                    return Err(EvalError::new(ErrorKind::MissingImplementation {
                        law: law.id.clone(),
                        article: article.number.clone(),
                        open_term: term.id.clone(),
                    }));
                }
                Ok((Value::Null, None))
            },
            |(v, _)| Some(v.clone()),
        )
    }
}

/// The article implementing an open term, and the chain behind it.
type Implemented<'c> = (Link<'c>, std::rc::Rc<[Link<'c>]>);

//! Executing one article as a whole: untranslatable constructs as the mode says, then inputs, open
//! terms, hooks before the actions, the actions in order, hooks after them, and overrides by
//! the law being evaluated. Also the scope the actions read from.

use super::run::{ArticleResult, Link, Run, Source, extend_chain};
use super::tracing::explained;
use super::untranslatable::{self, Taint};
use crate::error::EvalError;
use crate::expr::Expr;
use crate::law::{Action, Article, Definition, Law};
use crate::load::LawFile;
use crate::ops;
use crate::scope::{ArticleScope, Vars};
use crate::trace::TraceKind;
use crate::trace::node;
use crate::units;
use crate::value::Value;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// Outputs by name, with the taints of those that are tainted.
type TaintedOutputs<'t> = (BTreeMap<String, Value>, &'t BTreeMap<String, Taint>);

/// The article's outputs after the hooks and the overrides (a hook's output where no action gave
/// one, an override over either), and which of them are tainted, by what: the article's own
/// taint, else the hook's or the override's. `hooks` are the outputs and taints of the hooks
/// after the actions, then of those before them.
fn merge_outputs(
    outputs: &mut BTreeMap<String, Value>,
    taint: Option<&Taint>,
    hooks: [TaintedOutputs<'_>; 2],
    (replaced, replaced_taints): TaintedOutputs<'_>,
) -> BTreeMap<String, Taint> {
    let [(post_outputs, post_tainted), (pre_outputs, pre_tainted)] = hooks;
    let mut tainted = BTreeMap::new();
    if let Some(taint) = taint {
        for name in outputs.keys() {
            tainted.insert(name.clone(), taint.clone());
        }
    }
    for (name, value) in post_outputs.into_iter().chain(pre_outputs) {
        if let std::collections::btree_map::Entry::Vacant(slot) = outputs.entry(name) {
            let name = slot.key();
            let hook_taint = post_tainted.get(name).or_else(|| pre_tainted.get(name));
            if let Some(t) = taint.or(hook_taint) {
                tainted.insert(name.clone(), t.clone());
            }
            slot.insert(value);
        }
    }
    for (name, value) in replaced {
        match replaced_taints.get(&name).or(taint) {
            Some(t) => tainted.insert(name.clone(), t.clone()),
            None => tainted.remove(&name),
        };
        outputs.insert(name, value);
    }
    tainted
}

/// Only the parameters an article declares (least privilege for implementations, hooks and overrides).
pub(super) fn declared_params(article: &Article, values: Vars<'_>) -> BTreeMap<String, Value> {
    article
        .execution()
        .iter()
        .flat_map(|e| &e.parameters)
        .filter_map(|p| values.get(&p.name).map(|v| (p.name.clone(), v.clone())))
        .collect()
}

impl<'c> Run<'c> {
    /// Executes `article` without consulting the cache (see [`Run::execute`]).
    pub(super) fn execute_uncached(
        &mut self,
        file: &'c LawFile,
        law: &'c Law,
        article: &'c Article,
        params: &BTreeMap<String, Value>,
        stage: &str,
    ) -> Result<ArticleResult<'c>, EvalError> {
        let verdict = untranslatable::check(self.mode, law, article)?;
        self.record_untranslatable(law, article, verdict.warnings);
        let mr = article.machine_readable.as_ref();
        let empty_defs = BTreeMap::new();
        let definitions = mr.map_or(&empty_defs, |m| &m.definitions);
        let exec = article.execution();

        // 1. Inputs with a source (unless given as parameters).
        let inputs = self.resolve_inputs(file, law, article, params, definitions)?;
        let mut resolved_inputs = inputs.resolved;
        let unresolved_external = inputs.unresolved_external;
        let mut chain = inputs.chain;
        // The taint of the whole article: its own construct, else a tainted input.
        let mut taint = verdict.taint.or(inputs.tainted);

        // 2. Open terms (IoC).
        let open_terms = self.open_terms(law, article, params)?;
        resolved_inputs.extend(open_terms.values);
        for link in open_terms.chain {
            extend_chain(&mut chain, link, &[]);
        }
        taint = taint.or(open_terms.tainted);
        let mut values = Vars {
            inputs: &resolved_inputs,
            ..Vars::params(params)
        };

        // 3. Hooks before the actions: the actions may read their outputs.
        let produces = exec.and_then(|e| e.produces.as_ref());
        let mut provenance = BTreeMap::new();
        let pre = self.fire_hooks("pre_actions", produces, stage, values, &mut provenance)?;
        values.hooks = &pre.outputs;
        for link in &pre.chain {
            extend_chain(&mut chain, *link, &[]);
        }

        // 4. Actions, in order.
        let mut outputs = BTreeMap::new();
        let actions = exec.map_or(&[][..], |e| &e.actions[..]);
        article
            .unit_check
            .get_or_init(|| units::check_article(article))
            .clone()?;
        let chain: Rc<[Link<'c>]> = Rc::from(chain);
        for action in actions {
            let value = self.action(
                law,
                article,
                action,
                &outputs,
                definitions,
                values,
                &unresolved_external,
            )?;
            provenance.insert(
                action.output.clone(),
                Source {
                    law,
                    article,
                    how: "direct",
                    chain: Rc::clone(&chain),
                },
            );
            outputs.insert(action.output.clone(), value);
        }

        // 5. Hooks after the actions; they see the outputs too.
        let post_values = Vars {
            outputs: &outputs,
            ..values
        };
        let post = self.fire_hooks(
            "post_actions",
            produces,
            stage,
            post_values,
            &mut provenance,
        )?;

        // 6. Overrides by the law being evaluated (lex specialis), of the actions' and the
        // hooks' outputs; they read what the hooks after the actions read.
        let names: BTreeSet<&str> = [&outputs, &post.outputs, &pre.outputs]
            .into_iter()
            .flat_map(|m| m.keys().map(String::as_str))
            .collect();
        let (replaced, replaced_taints) =
            self.apply_overrides(law, article, post_values, &names, &mut provenance)?;
        drop(names);
        let tainted = merge_outputs(
            &mut outputs,
            taint.as_ref(),
            [(post.outputs, &post.tainted), (pre.outputs, &pre.tainted)],
            (replaced, &replaced_taints),
        );
        Ok(ArticleResult {
            outputs,
            resolved_inputs,
            provenance,
            tainted,
        })
    }

    /// Untranslatable constructs the mode lets run with a warning: traced on the article and
    /// recorded once for the whole evaluation.
    fn record_untranslatable(&mut self, law: &Law, article: &Article, warnings: Vec<String>) {
        for warning in warnings {
            self.leaf(|| {
                explained(
                    TraceKind::Article,
                    &article.number,
                    &law.id,
                    &article.number,
                    warning.clone(),
                )
            });
            if !self.warnings.contains(&warning) {
                self.warnings.push(warning);
            }
        }
    }

    /// The variables visible to the actions of `article`.
    pub(super) fn scope<'s>(
        &'s self,
        law: &'s Law,
        article: &'s Article,
        values: Vars<'s>,
        definitions: &'s BTreeMap<String, Definition>,
        outputs: &'s BTreeMap<String, Value>,
        unresolved_external: &'s BTreeSet<String>,
    ) -> ArticleScope<'s> {
        ArticleScope {
            outputs,
            definitions,
            values,
            unresolved_external,
            date: self.date,
            date_iso: &self.date_iso,
            law: &law.id,
            article: &article.number,
            used: RefCell::new(self.tracing.then(Vec::new)),
        }
    }

    /// Evaluates one action, tracing the variables it read and its value or error.
    #[allow(
        clippy::too_many_arguments,
        reason = "the evaluation's state is passed as it is borrowed, not bundled for one call"
    )]
    pub(super) fn action(
        &mut self,
        law: &Law,
        article: &Article,
        action: &Action,
        outputs: &BTreeMap<String, Value>,
        definitions: &BTreeMap<String, Definition>,
        values: Vars<'_>,
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
        self.leaf(|| {
            let mut n = node(
                TraceKind::Action,
                &action.output,
                &law.id,
                Some(&article.number),
            );
            n.operation = match &action.expr {
                Expr::Op(op) => Some(op.name().to_string()),
                _ => None,
            };
            n.used = scope.used.into_inner().unwrap_or_default();
            match &result {
                Ok(v) => n.value = Some(v.clone()),
                Err(e) => n.message = Some(e.kind.to_string()),
            }
            n
        });
        result.map_err(|e| e.within(format!("{}#{}", law.id, action.output)))
    }
}

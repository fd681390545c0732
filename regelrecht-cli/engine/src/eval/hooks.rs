//! Hooks: articles of other laws that fire before or after the actions of an article producing
//! a given legal character (and decision type, at a stage). Each hook runs with only the
//! parameters it declares; when hooks produce the same output, the higher regulatory layer
//! wins, then the later version.

use super::article::declared_params;
use super::run::{Key, Link, Provenance, Run, Source, extend_chain};
use super::tracing::explained;
use super::untranslatable::Taint;
use crate::error::EvalError;
use crate::law::{Article, Law, Produces};
use crate::resolve;
use crate::scope::Vars;
use crate::trace::TraceKind;
use crate::value::Value;
use std::collections::BTreeMap;

/// What the hooks at one hook point gave: their outputs, the hook articles (and the chains
/// behind them), and the taint of each output from a tainted hook.
#[derive(Default)]
pub(super) struct Fired<'c> {
    pub(super) outputs: BTreeMap<String, Value>,
    pub(super) chain: Vec<Link<'c>>,
    pub(super) tainted: BTreeMap<String, Taint>,
}

impl<'c> Run<'c> {
    /// The article of `law` whose execution at `stage` gives `output` through a hook (an
    /// output no article of `law` produces itself, such as Awb 3:46's `motivering_vereist` for
    /// a decision): one of `chosen` (the articles already executed for the other requested
    /// outputs) when a hook gives it there, else the only article of `law` on which such a hook
    /// fires. None, or several with none chosen, is an error naming them.
    pub(super) fn article_for_hook_output(
        &self,
        law: &'c Law,
        output: &str,
        stage: &str,
        chosen: &[&'c Article],
    ) -> Result<&'c Article, EvalError> {
        let mut firing: Vec<&'c Article> = Vec::new();
        let mut hook_articles: Vec<String> = Vec::new();
        for article in &law.articles {
            let Some(produces) = article.execution().and_then(|e| e.produces.as_ref()) else {
                continue;
            };
            let Some(legal_character) = produces.legal_character.as_deref() else {
                continue;
            };
            for hook_point in ["pre_actions", "post_actions"] {
                for (_, hlaw, harticle) in resolve::hooks(
                    self.corpus,
                    self.date,
                    hook_point,
                    legal_character,
                    produces.decision_type.as_deref(),
                    stage,
                )? {
                    let gives = harticle
                        .execution()
                        .is_some_and(|e| e.output.iter().any(|o| o.name == output));
                    if gives {
                        let name = format!("{} artikel {}", hlaw.id, harticle.number);
                        if !hook_articles.contains(&name) {
                            hook_articles.push(name);
                        }
                        if !firing.iter().any(|a| a.number == article.number) {
                            firing.push(article);
                        }
                    }
                }
            }
        }
        if let Some(article) = firing
            .iter()
            .find(|a| chosen.iter().any(|c| c.number == a.number))
        {
            return Ok(article);
        }
        match firing.as_slice() {
            [] => Err(super::run::output_not_found(&law.id, output)),
            [article] => Ok(article),
            several => {
                let numbers: Vec<&str> = several.iter().map(|a| a.number.as_str()).collect();
                Err(EvalError::invalid(format!(
                    "uitvoer '{output}' komt uit een hook ({}) die afgaat bij meerdere artikelen \
                     van {} ({}); vraag ook een uitvoer van het bedoelde artikel",
                    hook_articles.join(", "),
                    law.id,
                    numbers.join(", ")
                )))
            }
        }
    }

    /// Fires the hooks at `hook_point` (`pre_actions` or `post_actions`) for an article that
    /// `produces`; returns their outputs and records their provenance where none is known yet.
    pub(super) fn fire_hooks(
        &mut self,
        hook_point: &str,
        produces: Option<&Produces>,
        stage: &str,
        values: Vars<'_>,
        provenance: &mut Provenance<'c>,
    ) -> Result<Fired<'c>, EvalError> {
        let mut fired = Fired::default();
        let Some(legal_character) = produces.and_then(|p| p.legal_character.as_deref()) else {
            return Ok(fired);
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
            let key = Key::Hook {
                law: &hlaw.id,
                article: &harticle.number,
            };
            if self.is_resolving(key) {
                continue;
            }
            let hparams = declared_params(harticle, values);
            let n = || {
                explained(
                    TraceKind::Hook,
                    &harticle.number,
                    &hlaw.id,
                    &harticle.number,
                    format!("{hook_point} bij {legal_character} (fase {stage})"),
                )
            };
            let result = self.traced_nested(
                n,
                key,
                |run| run.execute(hfile, hlaw, harticle, &hparams, "BESLUIT"),
                |_| None,
            )?;
            for (name, value) in &result.outputs {
                let Some((_, link, behind)) = result.produced(name, "hook", None) else {
                    continue;
                };
                extend_chain(&mut fired.chain, link, &behind);
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
                    fired.outputs.insert(name.clone(), value.clone());
                    match result.tainted.get(name) {
                        Some(taint) => fired.tainted.insert(name.clone(), taint.clone()),
                        None => fired.tainted.remove(name),
                    };
                    provenance.entry(name.clone()).or_insert(Source {
                        law: link.law,
                        article: link.article,
                        how: "hook",
                        chain: behind,
                    });
                }
            }
        }
        Ok(fired)
    }
}

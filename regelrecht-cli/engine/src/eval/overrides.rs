//! Overrides (lex specialis): the law being evaluated may replace an output of an article of
//! another law with the output of one of its own articles, executed with only the parameters
//! that article declares.

use super::article::declared_params;
use super::run::{Key, Provenance, Run, Source};
use super::tracing::explained;
use super::untranslatable::Taint;
use crate::error::EvalError;
use crate::law::{Article, Law};
use crate::resolve;
use crate::scope::Vars;
use crate::trace::TraceKind;
use crate::value::Value;
use std::collections::{BTreeMap, BTreeSet};

/// The values an override replaced, and the taints of those that came tainted.
type Replaced = (BTreeMap<String, Value>, BTreeMap<String, Taint>);

impl<'c> Run<'c> {
    /// The replacement of each output of `article` (`names`) that the contextual law
    /// overrides, recording the override as its provenance, and the taint of each replacement
    /// from a tainted overriding article. `values` are what the overriding article may read.
    pub(super) fn apply_overrides(
        &mut self,
        law: &Law,
        article: &Article,
        values: Vars<'_>,
        names: &BTreeSet<&str>,
        provenance: &mut Provenance<'c>,
    ) -> Result<Replaced, EvalError> {
        let mut replaced = BTreeMap::new();
        let mut tainted = BTreeMap::new();
        for &name in names {
            let found = resolve::override_for(
                self.corpus,
                self.date,
                self.contextual_law,
                &law.id,
                &article.number,
                name,
            )?;
            let Some((ofile, olaw, oarticle)) = found else {
                continue;
            };
            let key = Key::Override {
                law: &olaw.id,
                article: &oarticle.number,
            };
            if self.is_resolving(key) {
                continue;
            }
            let oparams = declared_params(oarticle, values);
            let n = || {
                explained(
                    TraceKind::Override,
                    name,
                    &olaw.id,
                    &oarticle.number,
                    format!("vervangt {}#{name} van artikel {}", law.id, article.number),
                )
            };
            let result = self.traced_nested(
                n,
                key,
                |run| run.execute(ofile, olaw, oarticle, &oparams, "BESLUIT"),
                |_| None,
            )?;
            if let Some((value, link, behind)) = result.produced(name, "override", None) {
                replaced.insert(name.to_string(), value);
                if let Some(taint) = result.tainted.get(name) {
                    tainted.insert(name.to_string(), taint.clone());
                }
                provenance.insert(
                    name.to_string(),
                    Source {
                        law: link.law,
                        article: link.article,
                        how: "override",
                        chain: behind,
                    },
                );
            }
        }
        Ok((replaced, tainted))
    }
}

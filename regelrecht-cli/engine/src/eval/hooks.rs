//! Hooks: articles of other laws that fire before or after the actions of an article producing
//! a given legal character (and decision type, at a stage). Each hook runs with only the
//! parameters it declares; when hooks produce the same output, the higher regulatory layer
//! wins, then the later version.

use super::article::declared_params;
use super::run::{Key, Provenance, Run};
use super::tracing::explained;
use crate::error::EvalError;
use crate::law::{Law, Produces};
use crate::resolve;
use crate::scope::Vars;
use crate::trace::TraceKind;
use crate::value::Value;
use std::collections::BTreeMap;

impl<'c> Run<'c> {
    /// Fires the hooks at `hook_point` (`pre_actions` or `post_actions`) for an article that
    /// `produces`; returns their outputs and records their provenance where none is known yet.
    pub(super) fn fire_hooks(
        &mut self,
        hook_point: &str,
        produces: Option<&Produces>,
        stage: &str,
        values: Vars<'_>,
        provenance: &mut Provenance<'c>,
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
                    provenance
                        .entry(name.clone())
                        .or_insert((hlaw, harticle, "hook"));
                }
            }
        }
        Ok(out)
    }
}

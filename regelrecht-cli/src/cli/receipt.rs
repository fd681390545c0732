//! Execution receipts (RFC-013): everything needed to reproduce one evaluation — engine,
//! schema, the hash of every law version reached, the parameters, calculation date, the
//! untranslatable mode and stage, the accepted untranslatable constructs that ran, and the
//! results — sealed with a SHA-256 over its canonical JSON. `ontvangstbewijs controleer`
//! re-runs a receipt and confirms the same result ("the same check before as after").

use std::collections::BTreeSet;

use common::digest::canonical_sha256;
use regelrecht_engine::{Corpus, Evaluation, TraceKind, TraceNode, UntranslatableMode};
use serde_json::{Map, Value, json};

use crate::cli::laws::ENGINE_VERSION;
use crate::cli::outputs::outputs_json;

/// The receipt format's version.
pub(crate) const VERSION: u64 = 1;

/// What an evaluation was asked.
pub(crate) struct Asked<'a> {
    pub law_id: &'a str,
    pub outputs: &'a [String],
    pub params: &'a Map<String, Value>,
    pub mode: UntranslatableMode,
    pub fase: Option<&'a str>,
}

/// `(law, article)` of every article executed, from the trace.
fn executed(node: &TraceNode, out: &mut BTreeSet<(String, String)>) {
    if node.kind == TraceKind::Article
        && let (Some(law), Some(article)) = (&node.law, &node.article)
    {
        out.insert((law.clone(), article.clone()));
    }
    for child in &node.children {
        executed(child, out);
    }
}

/// The receipt of `evaluation`; `laws` are the law versions it reached (`laws::law_json`).
pub(crate) fn receipt(
    corpus: &Corpus,
    asked: &Asked<'_>,
    evaluation: &Evaluation,
    laws: &[Value],
) -> Value {
    let mut articles = BTreeSet::new();
    executed(&evaluation.trace, &mut articles);
    let mut accepted = Vec::new();
    for (law_id, number) in &articles {
        let article = corpus
            .select(law_id, evaluation.date)
            .ok()
            .and_then(|f| f.law().ok())
            .and_then(|l| l.article(number));
        for u in article
            .iter()
            .flat_map(|a| a.machine_readable.iter())
            .flat_map(|m| &m.untranslatables)
        {
            accepted.push(json!({
                "law_id": law_id,
                "artikel": number,
                "constructie": u.construct,
                "geaccepteerd": u.accepted,
            }));
        }
    }
    let schema = corpus
        .select(asked.law_id, evaluation.date)
        .ok()
        .and_then(|f| f.law().ok())
        .and_then(|l| l.schema.clone());
    let wetten: Vec<Value> = laws
        .iter()
        .map(|l| json!({"law_id": l["law_id"], "valid_from": l["valid_from"], "sha256": l["sha256"]}))
        .collect();
    let resultaat = outputs_json(evaluation, false);
    let mut body = json!({
        "versie": VERSION,
        "engine": ENGINE_VERSION,
        "schema": schema,
        "law_id": asked.law_id,
        "peildatum": evaluation.date.to_string(),
        "uitvoer": asked.outputs,
        "parameters": asked.params,
        "onvertaalbaar": asked.mode.as_str(),
        "fase": asked.fase,
        "wetten": wetten,
        "onvertaalbaarheden": accepted,
        "resultaat": resultaat,
        "gemarkeerd": evaluation.tainted.keys().filter(|o| evaluation.outputs.contains_key(*o)).collect::<Vec<_>>(),
    });
    body["sha256"] = seal(&body).into();
    body
}

/// The SHA-256 over the canonical JSON of a receipt without its `sha256` member.
pub(crate) fn seal(receipt: &Value) -> String {
    let mut body = receipt.clone();
    if let Some(map) = body.as_object_mut() {
        map.remove("sha256");
    }
    canonical_sha256(&body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seal_covers_everything_but_itself() {
        let mut r = json!({"a": 1, "b": [1, 2]});
        let s = seal(&r);
        r["sha256"] = s.clone().into();
        assert_eq!(seal(&r), s);
        r["a"] = 2.into();
        assert_ne!(seal(&r), s);
    }
}

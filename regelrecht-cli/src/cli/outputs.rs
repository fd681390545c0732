//! An evaluation's outputs as JSON, as `evalueer`, its receipt and `ontvangstbewijs controleer`
//! print them: an output tainted as untranslatable is the reference's mark, not its value.

use regelrecht_engine::{Evaluation, Taint};
use serde_json::{Map, Value, json};

/// The outputs of `evaluation` as JSON: the requested ones, or (`all`) every output of the
/// articles executed, with their hooks and overrides. An output tainted as untranslatable
/// (`--onvertaalbaar propagate`) is not its value but the mark, as the reference's sentinel:
/// `{"__untranslatable": true, "article", "construct"}`. The mark is the value, so `--fields`,
/// `--jq` and an MCP result cannot keep the number and lose the mark.
pub(crate) fn outputs_json(evaluation: &Evaluation, all: bool) -> Map<String, Value> {
    let outputs = if all {
        &evaluation.all_outputs
    } else {
        &evaluation.outputs
    };
    outputs
        .iter()
        .map(|(k, v)| {
            let value = match evaluation.tainted.get(k) {
                Some(taint) => untranslatable_mark(taint),
                None => v.to_json(),
            };
            (k.clone(), value)
        })
        .collect()
}

/// The reference engine's sentinel for an untranslatable value (RFC-012).
fn untranslatable_mark(taint: &Taint) -> Value {
    json!({
        "__untranslatable": true,
        "article": taint.article,
        "construct": taint.construct,
    })
}

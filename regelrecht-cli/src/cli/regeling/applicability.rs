//! "Mijn regelingen": which regulations *may* apply to a company, decided by each definition's
//! applicability rule on registration data (spec/concept.md §8). The answer is "mogelijk van
//! toepassing", never an entitlement: only the concept, with the law, says more.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::definition::{Applicability, Condition, Definition};
use super::sourcing::Sourced;

/// The verdict text for a regulation whose rule holds.
pub(crate) const MAY_APPLY: &str = "mogelijk van toepassing";
/// The verdict text for a regulation whose rule does not hold.
pub(crate) const NOT_INDICATED: &str = "niet aangewezen op grond van de registratie";
/// The verdict text when registration data needed by the rule is missing.
pub(crate) const UNKNOWN: &str = "onbekend: registratiegegevens ontbreken";

/// Whether `condition` holds for `value`.
fn holds(condition: &Condition, value: &Value) -> bool {
    let items: Vec<&Value> = match value {
        Value::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    let number = value.as_f64();
    condition
        .minstens
        .is_none_or(|m| number.is_some_and(|n| n >= m))
        && condition
            .hoogstens
            .is_none_or(|m| number.is_some_and(|n| n <= m))
        && condition.een_van.as_ref().is_none_or(|allowed| {
            items
                .iter()
                .any(|i| i.as_str().is_some_and(|s| allowed.iter().any(|a| a == s)))
        })
        && condition.begint_met.as_ref().is_none_or(|prefixes| {
            items.iter().any(|i| {
                i.as_str()
                    .is_some_and(|s| prefixes.iter().any(|p| s.starts_with(p.as_str())))
            })
        })
}

/// What a rule says on registration data: the verdict text, the data it used (with where each
/// value came from) and the data kinds it lacked.
pub(crate) struct Verdict {
    pub uitkomst: &'static str,
    pub used: serde_json::Map<String, Value>,
    pub missing: Vec<String>,
}

/// `rule` on `data`: `MAY_APPLY` when every condition holds, `UNKNOWN` when data is missing.
pub(crate) fn judge(rule: &Applicability, data: &BTreeMap<String, Sourced>) -> Verdict {
    let mut used = serde_json::Map::new();
    let mut missing = Vec::new();
    let mut all = true;
    for condition in &rule.alle {
        match data.get(&condition.gegeven) {
            Some(s) => {
                used.insert(
                    condition.gegeven.clone(),
                    json!({"waarde": s.value, "bron": s.source, "opgehaald_op": s.retrieved_at, "herkomst_sha256": s.response_sha256}),
                );
                all &= holds(condition, &s.value);
            }
            None => missing.push(condition.gegeven.clone()),
        }
    }
    let uitkomst = if !missing.is_empty() {
        UNKNOWN
    } else if all {
        MAY_APPLY
    } else {
        NOT_INDICATED
    };
    Verdict {
        uitkomst,
        used,
        missing,
    }
}

/// The entry of `definition` for a company with registration data `data`.
pub(crate) fn verdict(definition: &Definition, data: &BTreeMap<String, Sourced>) -> Value {
    let Some(rule) = &definition.toepasselijkheid else {
        return json!({
            "id": definition.id,
            "naam": definition.naam,
            "uitkomst": UNKNOWN,
            "toelichting": "deze regeling heeft geen toepasselijkheidsregel",
        });
    };
    let verdict = judge(rule, data);
    json!({
        "id": definition.id,
        "naam": definition.naam,
        "uitkomst": verdict.uitkomst,
        "toelichting": rule.omschrijving,
        "omschrijving": definition.omschrijving,
        "regel": rule.alle,
        "gebruikte_gegevens": verdict.used,
        "ontbreekt": verdict.missing,
    })
}

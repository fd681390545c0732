//! The same check before as after (spec/concept.md §7): a concept re-evaluated with the ruleset
//! loaded now. It matches only when its digest still covers its contents (nothing was edited)
//! and the same ruleset gives the same outcomes.

use std::collections::BTreeMap;

use common::{FieldError, Problem, Result};
use regelrecht_engine::Corpus;
use serde_json::{Value, json};

use super::concept::{CONCEPT_VERSION, digest};
use super::definition::Catalogue;
use super::evaluate;

/// The concept's regulation id and date, checked (exit 65 when the document is no concept).
pub(crate) fn header(concept: &Value) -> Result<(String, chrono::NaiveDate, String)> {
    let text = |key: &str| concept.get(key).and_then(Value::as_str);
    let bad = |detail: &str| Problem::invalid(vec![FieldError::new("toets", detail)]);
    if text("concept_versie") != Some(CONCEPT_VERSION) {
        return Err(
            bad("geen concept van deze versie (concept_versie ontbreekt of wijkt af)").into(),
        );
    }
    let id = concept["regeling"]["id"]
        .as_str()
        .ok_or_else(|| bad("regeling.id ontbreekt"))?;
    let date = text("peildatum")
        .and_then(common::args::parse_date)
        .ok_or_else(|| bad("peildatum ontbreekt of is ongeldig"))?;
    let kvk = text("kvk_nummer").ok_or_else(|| bad("kvk_nummer ontbreekt"))?;
    Ok((id.to_string(), date, kvk.to_string()))
}

/// Re-evaluate `concept`; the result says whether it matches and, if not, how it differs.
pub(crate) fn recheck(catalogue: &Catalogue, corpus: &Corpus, concept: &Value) -> Result<Value> {
    let (id, date, _) = header(concept)?;
    let definition = catalogue.definition(&id)?;
    let stated = concept["concept_digest"].as_str().unwrap_or_default();
    let actual = digest(concept);
    let mut verschillen = Vec::new();
    if stated != actual {
        verschillen.push(json!({
            "onderdeel": "concept_digest",
            "toelichting": "de digest dekt de inhoud niet meer: het concept is na het opstellen gewijzigd",
        }));
    }
    let values: BTreeMap<String, Value> = concept["velden"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| Some((f["naam"].as_str()?.to_string(), f["waarde"].clone())))
        .filter(|(_, v)| !v.is_null())
        .collect();
    let outcomes = evaluate::outcomes(corpus, definition, &values, date)?;
    if outcomes.ruleset != concept["ruleset"] {
        verschillen.push(json!({
            "onderdeel": "ruleset",
            "toelichting": "de regeling of een wet is gewijzigd sinds het concept is opgesteld",
            "concept": concept["ruleset"],
            "nu": outcomes.ruleset,
        }));
    }
    let before = concept["uitkomsten"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for now in &outcomes.uitkomsten {
        let then = before
            .iter()
            .find(|b| b["wet"] == now["wet"] && b["uitvoer"] == now["uitvoer"]);
        if then.map(|t| &t["waarde"]) != Some(&now["waarde"]) {
            verschillen.push(json!({
                "onderdeel": "uitkomst",
                "wet": now["wet"],
                "uitvoer": now["uitvoer"],
                "concept": then.map_or(Value::Null, |t| t["waarde"].clone()),
                "nu": now["waarde"],
            }));
        }
    }
    if before.len() != outcomes.uitkomsten.len() {
        verschillen.push(
            json!({"onderdeel": "uitkomsten", "toelichting": "andere uitvoer dan in het concept"}),
        );
    }
    if Value::from(outcomes.lijsten.clone()) != concept["lijsten"]
        || Value::from(outcomes.rvo.clone()) != concept["rvo"]
    {
        verschillen.push(json!({"onderdeel": "lijsten", "toelichting": "de lijsten of RVO-regelingen wijken af"}));
    }
    Ok(json!({
        "regeling": concept["regeling"],
        "kvk_nummer": concept["kvk_nummer"],
        "concept_digest": stated,
        "berekend_digest": actual,
        "overeenkomst": verschillen.is_empty(),
        "verschillen": verschillen,
        "ruleset": outcomes.ruleset,
    }))
}

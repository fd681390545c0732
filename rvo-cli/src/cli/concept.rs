//! Filing a concept-aanvraag (`rapportage indienen --concept FILE|-`): the same check before as
//! after. The concept is re-evaluated by `regelrecht-cli concept --toets -`, run as a child through
//! its profile (one engine, no copy of it here), also when a recorded proposal is applied; a concept that was edited, or whose outcome the
//! ruleset loaded now no longer gives, is refused (exit 65). Then its Bal 5.15a contents are
//! built ([`rvo_cli::inhoud`]).

use common::child::run_json;
use common::{FieldError, Problem, Result, session};
use rvo_cli::inhoud::{FromConcept, InhoudInput, from_concept};
use serde_json::Value;

/// The most bytes of a concept read.
pub(crate) const MAX_CONCEPT_BYTES: u64 = 4 * 1024 * 1024;

/// The family program that evaluates concepts.
const EVALUATOR: &str = "regelrecht-cli";

/// Re-evaluate and convert `input.concept` (read from a file, or recorded in a proposal), with
/// the measures and year given beside it.
pub(crate) fn file_concept(
    ctx: &mut common::Context<'_>,
    input: &InhoudInput<'_>,
) -> Result<FromConcept> {
    let concept = input.concept;
    let kvk = concept["kvk_nummer"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    session::bound_kvk_number(ctx, Some(&kvk))?;
    let toets = recheck(ctx, concept)?;
    if toets["overeenkomst"] != Value::Bool(true)
        || toets["concept_digest"] != concept["concept_digest"]
    {
        let errors: Vec<FieldError> = toets["verschillen"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|v| {
                let part = v["onderdeel"].as_str().unwrap_or("concept");
                let what = match (v["uitvoer"].as_str(), v["toelichting"].as_str()) {
                    (Some(output), _) => format!(
                        "uitkomst {output}: in het concept {}, nu {}",
                        v["concept"], v["nu"]
                    ),
                    (None, Some(text)) => text.to_string(),
                    (None, None) => "wijkt af".to_string(),
                };
                FieldError::new("concept", format!("{part}: {what}"))
            })
            .collect();
        return Err(Problem::invalid(errors)
            .with_hint("stel het concept opnieuw op met regelrecht-cli concept en dien dat in")
            .into());
    }
    from_concept(input).map_err(|errors| {
        Problem::invalid(
            errors
                .into_iter()
                .map(|e| FieldError::new(e.pointer.trim_start_matches('/'), e.detail))
                .collect(),
        )
        .into()
    })
}

/// `regelrecht-cli concept --toets -` with the concept on stdin.
fn recheck(ctx: &common::Context<'_>, concept: &Value) -> Result<Value> {
    let bytes = serde_json::to_vec(concept).map_err(|e| Problem::software(e.to_string()))?;
    let args = ["concept", "--toets", "-", "--output=json"].map(String::from);
    match run_json(ctx, EVALUATOR, &args, Some(bytes))? {
        Ok(result) => Ok(result),
        Err(failure) if failure.exit_code == 65 => Err(Problem::invalid(vec![FieldError::new(
            "concept",
            format!("{EVALUATOR} weigert het concept: {}", failure.detail),
        )])
        .into()),
        Err(failure) if failure.exit_code == 66 => Err(Problem::invalid(vec![FieldError::new(
            "concept",
            format!("het concept is niet opnieuw te toetsen: {}", failure.detail),
        )])
        .into()),
        Err(failure) => Err(Problem::unavailable(format!(
            "het concept kon niet opnieuw getoetst worden door {EVALUATOR} (exit {}): {}",
            failure.exit_code, failure.detail
        ))
        .with_hint(
            "zet OVERHEID_CLI_DIR op de map met regelrecht-cli, of installeer het naast rvo-cli",
        )
        .into()),
    }
}

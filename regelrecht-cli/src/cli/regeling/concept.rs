//! The pre-filled draft ("concept-aanvraag", spec/concept.md §5): every field with its value and
//! where it came from, the open questions, the outcomes and the ruleset, sealed by
//! `concept_digest`.

use std::collections::BTreeMap;

use chrono::{NaiveDate, SecondsFormat, Utc};
use common::digest::canonical_sha256;
use common::{FieldError, Problem, Result};
use regelrecht_engine::params::declarations;
use regelrecht_engine::{Corpus, FieldType, Law};
use serde_json::{Map, Value, json};

use super::definition::{Catalogue, Datum, Definition, Field, Kind};
use super::evaluate::{self, Outcomes, law};
use super::opgave::normalise;
use super::sourcing::{self, Sourced, Unsourced};
use common::Context;

/// The schema version of a concept document.
pub(crate) const CONCEPT_VERSION: &str = "1";

/// What the entrepreneur brings: the company, answers and consents.
pub(crate) struct Request<'a> {
    pub kvk_nummer: &'a str,
    pub opgaven: &'a [(String, String)],
    pub toestemmingen: &'a [String],
    pub date: NaiveDate,
}

/// The law parameter a field feeds (its type, description and unit), if a law declares it.
pub(crate) struct Declared {
    pub field_type: FieldType,
    pub description: Option<String>,
    pub unit: Option<String>,
}

/// The declaration of `field` in its own `wet` or one of the definition's evaluated laws.
pub(crate) fn declared(
    corpus: &Corpus,
    definition: &Definition,
    field: &Field,
    date: NaiveDate,
) -> Result<Option<Declared>> {
    let mut law_ids: Vec<&str> = field.wet.iter().map(String::as_str).collect();
    law_ids.extend(definition.evaluaties.iter().map(|e| e.wet.as_str()));
    for id in law_ids {
        let law: &Law = law(corpus, id, date)?;
        if let Some(f) = declarations(law).into_iter().find(|f| f.name == field.naam) {
            return Ok(Some(Declared {
                field_type: f.field_type,
                description: f.description.clone(),
                unit: f.unit().map(String::from),
            }));
        }
    }
    Ok(None)
}

fn type_name(declared: Option<&Declared>, datum: Option<&Datum>) -> String {
    declared
        .map(|d| d.field_type.as_str().to_string())
        .or_else(|| datum.map(|d| d.value_type.clone()))
        .unwrap_or_else(|| "string".into())
}

fn now() -> String {
    Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Build the concept of `definition` for `request`, in the steps the module's header names:
/// the person's [`answers`] checked, the sources [`fetched`], every field [`Draft::fill`]ed with
/// its value and where it came from (or left an open question, or named as not fetched), then
/// the outcomes, and the whole [`seal`]ed.
pub(crate) fn build(
    ctx: &Context<'_>,
    catalogue: &Catalogue,
    corpus: &Corpus,
    definition: &Definition,
    request: &Request<'_>,
) -> Result<Value> {
    let date = request.date;
    let mut declarations: BTreeMap<&str, Option<Declared>> = BTreeMap::new();
    for field in &definition.gegevens {
        declarations.insert(&field.naam, declared(corpus, definition, field, date)?);
    }
    let answers = answers(catalogue, definition, &declarations, request)?;
    let (sourced, unsourced) = fetched(ctx, catalogue, definition, request)?;
    let mut draft = Draft::default();
    for field in &definition.gegevens {
        let known = Known {
            declared: declarations[field.naam.as_str()].as_ref(),
            datum: field.gegeven.as_ref().and_then(|k| catalogue.data.get(k)),
            answer: answers.get(field.naam.as_str()),
            sourced: field.gegeven.as_ref().and_then(|k| sourced.get(k)),
            unsourced: field.gegeven.as_ref().and_then(|k| unsourced.get(k)),
        };
        draft.fill(corpus, field, &known, date)?;
    }
    let outcomes = evaluate::outcomes(corpus, definition, &draft.values, date)?;
    let complete = draft.open.is_empty()
        && draft.niet_opgehaald.is_empty()
        && outcomes
            .uitkomsten
            .iter()
            .all(|u| u["status"] == "berekend");
    let mut concept = json!({
        "concept_versie": CONCEPT_VERSION,
        "regeling": {"id": definition.id, "naam": definition.naam, "versie": definition.versie},
        "kvk_nummer": request.kvk_nummer,
        "peildatum": date.to_string(),
        "status": if complete { "compleet" } else { "onvolledig" },
        "toestemmingen": request.toestemmingen,
        "velden": draft.velden,
        "open_vragen": draft.open,
        "niet_opgehaald": draft.niet_opgehaald,
    });
    seal(&mut concept, outcomes);
    Ok(concept)
}

/// Step: the person's answers, before any source is asked: every `--opgave` names a field that
/// may be given or corrected and is valid for its type, and every `--toestemming` names a
/// source of the register. All that is wrong is refused together (exit 2).
fn answers<'d, 'r>(
    catalogue: &Catalogue,
    definition: &'d Definition,
    declarations: &BTreeMap<&str, Option<Declared>>,
    request: &Request<'r>,
) -> Result<BTreeMap<&'d str, (Value, &'r str)>> {
    let mut errors = Vec::new();
    let mut answers = BTreeMap::new();
    for (name, text) in request.opgaven {
        let Some(field) = definition.field(name) else {
            let known: Vec<&str> = definition
                .gegevens
                .iter()
                .map(|f| f.naam.as_str())
                .collect();
            errors.push(FieldError::new(
                "opgave",
                format!(
                    "'{name}' is geen gegeven van deze regeling; gegevens: {}",
                    known.join(", ")
                ),
            ));
            continue;
        };
        if !field.opgave && !field.mag_corrigeren {
            errors.push(FieldError::new(
                "opgave",
                format!("'{name}' komt uit een bron en mag niet gecorrigeerd worden"),
            ));
            continue;
        }
        let field_type = declarations[field.naam.as_str()]
            .as_ref()
            .map_or(FieldType::String, |d| d.field_type);
        match normalise(text, field_type, field) {
            Ok(value) => {
                answers.insert(field.naam.as_str(), (value, text.as_str()));
            }
            Err(detail) => errors.push(FieldError::new("opgave", format!("{name}: {detail}"))),
        }
    }
    for consent in request.toestemmingen {
        if !catalogue.sources.contains_key(consent) {
            errors.push(FieldError::new(
                "toestemming",
                format!("'{consent}' is geen bron in het bronnenregister"),
            ));
        }
    }
    if !errors.is_empty() {
        return Err(Problem::invalid(errors).into());
    }
    Ok(answers)
}

/// Step: the sources asked, one call per source for every data kind the definition takes from
/// it: what each answered, and why each other kind has no value.
fn fetched(
    ctx: &Context<'_>,
    catalogue: &Catalogue,
    definition: &Definition,
    request: &Request<'_>,
) -> Result<(BTreeMap<String, Sourced>, BTreeMap<String, Unsourced>)> {
    let wanted: Vec<&Datum> = definition
        .gegevens
        .iter()
        .filter_map(|f| f.gegeven.as_ref())
        .filter_map(|kind| catalogue.data.get(kind))
        .collect();
    sourcing::fetch(
        ctx,
        catalogue,
        &wanted,
        request.kvk_nummer,
        request.toestemmingen,
    )
}

/// What is known of one field when it is filled in.
struct Known<'k> {
    /// Its law parameter, if a law declares it.
    declared: Option<&'k Declared>,
    /// The data kind it takes from a source, as the register describes it.
    datum: Option<&'k Datum>,
    /// The person's answer, normalised, and as given.
    answer: Option<&'k (Value, &'k str)>,
    /// What its source answered.
    sourced: Option<&'k Sourced>,
    /// Why its source gave no value.
    unsourced: Option<&'k Unsourced>,
}

/// The concept's fields as they are filled in, one by one.
#[derive(Default)]
struct Draft {
    /// Every field, with its value and where it came from (`velden`).
    velden: Vec<Value>,
    /// The questions for the person (`open_vragen`).
    open: Vec<Value>,
    /// The values a source could not give (`niet_opgehaald`).
    niet_opgehaald: Vec<Value>,
    /// The values the outcomes are computed from.
    values: BTreeMap<String, Value>,
}

impl Draft {
    /// Step: one field filled in: the person's answer (a correction keeps the source's record),
    /// else its source's value, else a law constant; without one it is [`Draft::unfilled`].
    fn fill(
        &mut self,
        corpus: &Corpus,
        field: &Field,
        known: &Known<'_>,
        date: NaiveDate,
    ) -> Result<()> {
        let unit = field
            .eenheid
            .clone()
            .or_else(|| known.declared.and_then(|d| d.unit.clone()));
        let mut entry = json!({
            "naam": field.naam,
            "type": type_name(known.declared, known.datum),
            "mag_corrigeren": field.mag_corrigeren,
        });
        if let Some(unit) = &unit {
            entry["eenheid"] = unit.clone().into();
        }
        let source_record = known.sourced.map(|s| {
            json!({
                "waarde": s.value,
                "soort": s.kind,
                "bron": s.source,
                "bron_url": s.source_url,
                "opgehaald_op": s.retrieved_at,
                "herkomst_sha256": s.response_sha256,
            })
        });
        if let Some((value, text)) = known.answer {
            entry["waarde"] = value.clone();
            entry["soort"] = json!(Kind::Opgave);
            entry["bron"] = "opgave".into();
            entry["opgehaald_op"] = now().into();
            entry["herkomst_sha256"] =
                canonical_sha256(&json!({"naam": field.naam, "opgave": text})).into();
            if let Some(record) = source_record {
                entry["correctie_van"] = record;
            }
            self.values.insert(field.naam.clone(), value.clone());
        } else if let Some(record) = source_record {
            for key in [
                "waarde",
                "soort",
                "bron",
                "bron_url",
                "opgehaald_op",
                "herkomst_sha256",
            ] {
                entry[key] = record[key].clone();
            }
            self.values
                .insert(field.naam.clone(), record["waarde"].clone());
        } else if let Some(constant) = &field.wetsconstante {
            let (value, sha) = law_constant(corpus, constant, date)?;
            entry["waarde"] = value.clone();
            entry["soort"] = json!(Kind::Wetsconstante);
            entry["bron"] = format!("wet:{}", constant.wet).into();
            entry["opgehaald_op"] = Value::Null;
            entry["herkomst_sha256"] = sha.into();
            self.values.insert(field.naam.clone(), value);
        } else {
            entry["waarde"] = Value::Null;
            self.unfilled(field, known, unit);
        }
        self.velden.push(entry);
        Ok(())
    }

    /// Step: a field without a value: an open question (an opgave), or a source that was not
    /// called or failed. A source that could not be fetched is named as such
    /// (`niet_opgehaald`), never put to the person as a question. A source that answered
    /// without the value leaves a question when the field may be given, and so does one that
    /// was not asked for lack of consent (which is also named, with the option to give).
    fn unfilled(&mut self, field: &Field, known: &Known<'_>, unit: Option<String>) {
        let mut question = json!({
            "naam": field.naam,
            "vraag": known.declared
                .and_then(|d| d.description.clone())
                .or_else(|| known.datum.and_then(|d| d.omschrijving.clone()))
                .unwrap_or_else(|| field.naam.clone()),
            "type": type_name(known.declared, known.datum),
        });
        if let Some(unit) = unit {
            question["eenheid"] = unit.into();
        }
        if let Some(allowed) = &field.waarden {
            question["waarden"] = allowed.clone().into();
        }
        if field.gegeven.is_none() {
            self.open.push(question);
            return;
        }
        let (source, reason, exit_code, unfetched, ask) = match known.unsourced {
            Some(Unsourced::NoConsent { source }) => (
                source.clone(),
                format!(
                    "bron '{source}' vraagt toestemming; niet opgevraagd (geef --toestemming {source})"
                ),
                None,
                true,
                field.mag_corrigeren,
            ),
            Some(Unsourced::Failed { source, failure })
                if failure.code == common::codes::VELD_ONTBREEKT.name =>
            {
                (
                    source.clone(),
                    format!("{} ({})", failure.detail, failure.code),
                    Some(failure.exit_code),
                    !field.mag_corrigeren,
                    field.mag_corrigeren,
                )
            }
            Some(Unsourced::Failed { source, failure }) => (
                source.clone(),
                format!(
                    "bron '{source}' kon niet worden bevraagd: {} ({}); dit is geen vraag \
                     voor de aanvrager: stel het concept opnieuw op als de bron antwoordt",
                    failure.detail, failure.code
                ),
                Some(failure.exit_code),
                true,
                false,
            ),
            None => (String::new(), "niet opgehaald".into(), None, true, false),
        };
        if unfetched {
            self.niet_opgehaald.push(json!({
                "naam": field.naam,
                "bron": source,
                "exit_code": exit_code,
                "reden": reason,
            }));
        }
        if ask {
            question["reden"] = reason.into();
            self.open.push(question);
        }
    }
}

/// Put the outcomes in `concept` and set `concept_digest` over all of it.
pub(crate) fn seal(concept: &mut Value, outcomes: Outcomes) {
    concept["uitkomsten"] = outcomes.uitkomsten.into();
    concept["lijsten"] = outcomes.lijsten.into();
    concept["rvo"] = outcomes.rvo.into();
    concept["ruleset"] = outcomes.ruleset;
    concept["melding"] = "Dit is een concept: er is niets ingediend. Controleer elk gegeven en zijn bron; corrigeer met --opgave NAAM=WAARDE, dan wordt opnieuw berekend.".into();
    let digest = digest(concept);
    concept["concept_digest"] = digest.into();
}

/// SHA-256 of the canonical JSON of `concept` without its `concept_digest`.
pub(crate) fn digest(concept: &Value) -> String {
    let mut body = concept.clone();
    if let Some(map) = body.as_object_mut() {
        map.remove("concept_digest");
    }
    canonical_sha256(&body)
}

/// The value of a law constant and the SHA-256 of the law file it is in.
fn law_constant(
    corpus: &Corpus,
    constant: &super::definition::LawConstant,
    date: NaiveDate,
) -> Result<(Value, String)> {
    let file = crate::cli::laws::select(corpus, &constant.wet, date)?;
    let law = file
        .law()
        .map_err(|e| crate::cli::problems::load_error(&e))?;
    let header: Map<String, Value> = json!({
        "gemeente_code": law.gemeente_code,
        "waterschap_code": law.waterschap_code,
        "provincie_code": law.provincie_code,
        "bwb_id": law.bwb_id,
        "valid_from": law.valid_from,
    })
    .as_object()
    .cloned()
    .unwrap_or_default();
    let value = match (&constant.definitie, &constant.eigenschap) {
        (Some(name), _) => law
            .articles
            .iter()
            .filter_map(|a| a.machine_readable.as_ref())
            .find_map(|m| m.definitions.get(name))
            .map(|d| d.value.to_json()),
        (None, Some(property)) => header.get(property).filter(|v| !v.is_null()).cloned(),
        (None, None) => None,
    };
    let value = value.ok_or_else(|| {
        Problem::invalid(vec![FieldError::new(
            "regeling",
            format!("wetsconstante niet gevonden in '{}'", constant.wet),
        )])
    })?;
    Ok((value, file.sha256().to_string()))
}

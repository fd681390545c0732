//! Finding the laws that take part in an evaluation besides the requested one: implementations
//! of open terms (IoC, with municipality/water-board scope and lex superior / lex posterior
//! priority), hooks and overrides. Only files that declare such constructs are parsed.

use crate::error::{ErrorKind, EvalError};
use crate::law::{Article, Law};
use crate::load::{Corpus, LawFile};
use crate::value::Value;
use chrono::NaiveDate;
use std::collections::{BTreeMap, BTreeSet};

/// A law version and one of its articles.
pub(crate) type Located<'c> = (&'c LawFile, &'c Law, &'c Article);

/// Rank of a regulatory layer; lower is higher authority.
pub fn layer_rank(layer: &str) -> u8 {
    match layer {
        "VERDRAG" => 0,
        "EU_VERORDENING" => 1,
        "EU_RICHTLIJN" => 2,
        "GRONDWET" => 3,
        "WET" => 4,
        "KONINKLIJK_BESLUIT" => 5,
        "AMVB" => 6,
        "MINISTERIELE_REGELING" => 7,
        "PROVINCIALE_VERORDENING" => 8,
        "WATERSCHAPS_VERORDENING" => 9,
        "GEMEENTELIJKE_VERORDENING" => 10,
        "BELEIDSREGEL" => 11,
        _ => 12,
    }
}

/// The versions in force on `date` of the laws `ids` (each parsed).
fn candidates<'c>(
    corpus: &'c Corpus,
    date: NaiveDate,
    ids: BTreeSet<&str>,
) -> Result<Vec<(&'c LawFile, &'c Law)>, EvalError> {
    let mut out = Vec::new();
    for id in ids {
        if let Ok(file) = corpus.select(id, date) {
            out.push((file, file.law()?));
        }
    }
    Ok(out)
}

fn in_scope(law: &Law, params: &BTreeMap<String, Value>) -> bool {
    let matches = |code: &Option<String>, key: &str| match code {
        Some(code) => matches!(params.get(key), Some(Value::String(s)) if s == code),
        None => true,
    };
    matches(&law.gemeente_code, "gemeente_code") && matches(&law.waterschap_code, "waterschap_code")
}

/// The winning implementation of an open term, if any.
pub(crate) fn implementation<'c>(
    corpus: &'c Corpus,
    date: NaiveDate,
    law_id: &str,
    article: &str,
    term: &str,
    params: &BTreeMap<String, Value>,
) -> Result<Option<Located<'c>>, EvalError> {
    let mut found: Vec<Located<'c>> = Vec::new();
    // Only the laws whose scan says they may implement this term are parsed.
    for (file, law) in candidates(corpus, date, corpus.ids_implementing(law_id, article, term))? {
        if !in_scope(law, params) {
            continue;
        }
        for art in &law.articles {
            let implements = art.machine_readable.iter().flat_map(|m| &m.implements);
            if implements
                .into_iter()
                .any(|i| i.law == law_id && i.article == article && i.open_term == term)
            {
                found.push((file, law, art));
            }
        }
    }
    let mut best: Option<Located<'c>> = None;
    for candidate in found {
        best = Some(match best {
            None => candidate,
            Some(current) => {
                let rank = |l: &Law| layer_rank(&l.regulatory_layer);
                let (c, b) = (rank(candidate.1), rank(current.1));
                if c != b {
                    if c < b { candidate } else { current }
                } else if candidate.0.valid_from != current.0.valid_from {
                    if candidate.0.valid_from > current.0.valid_from {
                        candidate
                    } else {
                        current
                    }
                } else {
                    return Err(EvalError::new(ErrorKind::Invalid {
                        message: format!(
                            "open norm '{term}' heeft meerdere even zware implementaties: {} en {}",
                            candidate.1.id, current.1.id
                        ),
                    }));
                }
            }
        });
    }
    Ok(best)
}

/// Hook articles firing at `hook_point` for an article producing `legal_character`.
pub(crate) fn hooks<'c>(
    corpus: &'c Corpus,
    date: NaiveDate,
    hook_point: &str,
    legal_character: &str,
    decision_type: Option<&str>,
    stage: &str,
) -> Result<Vec<Located<'c>>, EvalError> {
    let mut out = Vec::new();
    for (file, law) in candidates(corpus, date, corpus.ids_declaring(|d| d.hooks))? {
        for art in &law.articles {
            let fires = art.machine_readable.iter().flat_map(|m| &m.hooks).any(|h| {
                h.hook_point == hook_point
                    && h.applies_to.legal_character.as_deref() == Some(legal_character)
                    && h.applies_to.stage.as_deref().unwrap_or("BESLUIT") == stage
                    && h.applies_to
                        .decision_type
                        .as_deref()
                        .is_none_or(|dt| Some(dt) == decision_type)
            });
            if fires {
                out.push((file, law, art));
            }
        }
    }
    Ok(out)
}

/// Every output that a hook in force on `date` gives when it fires on an article of `law` (at any
/// stage): outputs that can be requested of `law` although none of its articles produces them.
pub fn hook_outputs(
    corpus: &Corpus,
    law: &Law,
    date: NaiveDate,
) -> Result<BTreeSet<String>, EvalError> {
    let mut found = BTreeSet::new();
    let produced: Vec<(&str, Option<&str>)> = law
        .articles
        .iter()
        .filter_map(|a| a.execution()?.produces.as_ref())
        .filter_map(|p| Some((p.legal_character.as_deref()?, p.decision_type.as_deref())))
        .collect();
    if produced.is_empty() {
        return Ok(found);
    }
    let hook_laws = candidates(corpus, date, corpus.ids_declaring(|d| d.hooks))?;
    for article in hook_laws.iter().flat_map(|(_, law)| &law.articles) {
        let fires = article
            .machine_readable
            .iter()
            .flat_map(|m| &m.hooks)
            .any(|h| {
                produced.iter().any(|(character, decision)| {
                    h.applies_to.legal_character.as_deref() == Some(*character)
                        && h.applies_to
                            .decision_type
                            .as_deref()
                            .is_none_or(|dt| Some(dt) == *decision)
                })
            });
        if fires {
            found.extend(
                article
                    .execution()
                    .iter()
                    .flat_map(|e| &e.output)
                    .map(|o| o.name.clone()),
            );
        }
    }
    Ok(found)
}

/// The article of `contextual_law` overriding `output` of `law_id` article `article`, if any.
pub(crate) fn override_for<'c>(
    corpus: &'c Corpus,
    date: NaiveDate,
    contextual_law: &str,
    law_id: &str,
    article: &str,
    output: &str,
) -> Result<Option<Located<'c>>, EvalError> {
    let Ok(file) = corpus.select(contextual_law, date) else {
        return Ok(None);
    };
    if !file.declares.overrides {
        return Ok(None);
    }
    let law = file.law()?;
    let mut matching = law.articles.iter().filter(|a| {
        a.machine_readable
            .iter()
            .flat_map(|m| &m.overrides)
            .any(|o| o.law == law_id && o.article == article && o.output == output)
    });
    let first = matching.next();
    if matching.next().is_some() {
        return Err(EvalError::invalid(format!(
            "meerdere overrides uit '{contextual_law}' voor uitvoer '{output}' van {law_id} artikel {article}"
        )));
    }
    Ok(first.map(|a| (file, law, a)))
}

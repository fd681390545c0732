//! Values from sources: each source of the register is a family CLI, run as a child through its
//! own profile (spec/concept.md §4). First its discovery (`--help --json`): the command must exist,
//! be read-only and take `kvk_nummer`. Then one call per source with every needed path in
//! `--fields` and `--provenance`, so each value comes with its retrieval time and the digest of
//! the source's answer. A source that needs consent is not run without `--toestemming ID`.

use std::collections::BTreeMap;

use common::Context;
use common::Result;
use common::child::{ChildFailure, run_json};
use serde_json::Value;

use super::definition::{Catalogue, Datum, Kind, Source};

/// One value from a source.
#[derive(Clone, Debug)]
pub(crate) struct Sourced {
    pub value: Value,
    pub source: String,
    pub kind: Kind,
    pub retrieved_at: Option<String>,
    pub response_sha256: Option<String>,
    pub source_url: Option<String>,
}

/// Why a data kind has no value.
#[derive(Clone, Debug)]
pub(crate) enum Unsourced {
    /// The source needs consent and none was given: it was not called.
    NoConsent { source: String },
    /// The source failed (its exit code and error detail), or answered without the path.
    Failed {
        source: String,
        failure: ChildFailure,
    },
}

/// Fetch `wanted` data kinds for company `kvk`; every kind ends up in exactly one of the maps.
pub(crate) fn fetch(
    ctx: &Context<'_>,
    catalogue: &Catalogue,
    wanted: &[&Datum],
    kvk: &str,
    consent: &[String],
) -> Result<(BTreeMap<String, Sourced>, BTreeMap<String, Unsourced>)> {
    let mut by_source: BTreeMap<&str, Vec<&Datum>> = BTreeMap::new();
    for datum in wanted {
        by_source
            .entry(datum.bron.as_str())
            .or_default()
            .push(datum);
    }
    let mut got = BTreeMap::new();
    let mut missing = BTreeMap::new();
    for (source_id, data) in by_source {
        // The catalogue was checked: every data kind names a known source.
        let Some(source) = catalogue.sources.get(source_id) else {
            continue;
        };
        if !may_call(source, consent) {
            for datum in data {
                missing.insert(
                    datum.id.clone(),
                    Unsourced::NoConsent {
                        source: source.id.clone(),
                    },
                );
            }
            continue;
        }
        match call(ctx, source, &data, kvk)? {
            Ok(envelope) => {
                let provenance = &envelope["provenance"];
                let text = |key: &str| {
                    provenance
                        .get(key)
                        .and_then(Value::as_str)
                        .map(String::from)
                };
                for datum in data {
                    match at_path(&envelope["data"], &datum.veld) {
                        Some(value) if !value.is_null() => {
                            got.insert(
                                datum.id.clone(),
                                Sourced {
                                    value,
                                    source: source.id.clone(),
                                    kind: source.soort,
                                    retrieved_at: text("retrieved_at"),
                                    response_sha256: text("response_sha256"),
                                    source_url: text("source_url"),
                                },
                            );
                        }
                        _ => {
                            missing.insert(
                                datum.id.clone(),
                                Unsourced::Failed {
                                    source: source.id.clone(),
                                    failure: ChildFailure {
                                        exit_code: 76,
                                        code: common::codes::VELD_ONTBREEKT.name.into(),
                                        detail: format!(
                                            "{} gaf geen waarde voor {}",
                                            source.programma, datum.veld
                                        ),
                                    },
                                },
                            );
                        }
                    }
                }
            }
            Err(failure) => {
                for datum in data {
                    missing.insert(
                        datum.id.clone(),
                        Unsourced::Failed {
                            source: source.id.clone(),
                            failure: failure.clone(),
                        },
                    );
                }
            }
        }
    }
    Ok((got, missing))
}

/// Whether `source` may be called: always, or only with its consent (`--toestemming ID`). One
/// predicate for the plan and for the gate before the call (PDR-015).
pub(crate) fn may_call(source: &Source, consent: &[String]) -> bool {
    !source.toestemming_nodig || consent.contains(&source.id)
}

/// The source calls `fetch` would make for `wanted`, for the plan (DRY-6): each source once, with
/// whether it will be asked (a source that needs consent only with it).
pub(crate) fn planned(catalogue: &Catalogue, wanted: &[&Datum], consent: &[String]) -> Value {
    let mut ids: Vec<&str> = wanted.iter().map(|d| d.bron.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    ids.iter()
        .filter_map(|id| catalogue.sources.get(*id))
        .map(|source| {
            let fields: Vec<&str> = wanted
                .iter()
                .filter(|d| d.bron == source.id)
                .map(|d| d.veld.as_str())
                .collect();
            serde_json::json!({
                "bron": source.id,
                "programma": source.programma,
                "commando": source.commando,
                "fields": fields,
                "toestemming_nodig": source.toestemming_nodig,
                "wordt_opgevraagd": may_call(source, consent),
            })
        })
        .collect()
}

/// Discovery of a family program's command (`programma --help --json`): it must exist, be
/// read-only and, when `takes_kvk`, take `kvk_nummer`. `naam` names the source in a failure.
pub(crate) fn usable(
    ctx: &Context<'_>,
    naam: &str,
    programma: &str,
    commando: &[String],
    takes_kvk: bool,
) -> Result<std::result::Result<(), ChildFailure>> {
    let discovery = match run_json(ctx, programma, &["--help".into(), "--json".into()], None)? {
        Ok(document) => document,
        Err(failure) => return Ok(Err(failure)),
    };
    let name = commando.join("_");
    let tool = discovery["tools"]
        .as_array()
        .and_then(|tools| tools.iter().find(|t| t["name"] == name.as_str()));
    let unusable = |detail: String| {
        Ok(Err(ChildFailure {
            exit_code: 76,
            code: "BRON_ONBRUIKBAAR".into(),
            detail,
        }))
    };
    let Some(tool) = tool else {
        return unusable(format!(
            "{naam} ({programma}) kent het commando '{}' niet",
            commando.join(" ")
        ));
    };
    if tool["annotations"]["readOnlyHint"] != Value::Bool(true) {
        return unusable(format!(
            "{programma} {} is niet alleen-lezen en wordt niet als bron gebruikt",
            commando.join(" ")
        ));
    }
    if takes_kvk
        && tool["inputSchema"]["properties"]
            .get("kvk_nummer")
            .is_none()
    {
        return unusable(format!(
            "{programma} {} neemt geen kvk_nummer",
            commando.join(" ")
        ));
    }
    Ok(Ok(()))
}

/// `programma commando… args… --fields=… --provenance --output=json`: the envelope, or why not.
pub(crate) fn envelope(
    ctx: &Context<'_>,
    programma: &str,
    mut args: Vec<String>,
    fields: &[&str],
) -> Result<std::result::Result<Value, ChildFailure>> {
    args.push(format!("--fields={}", fields.join(",")));
    args.push("--provenance".into());
    args.push("--output=json".into());
    let envelope = run_json(ctx, programma, &args, None)?;
    Ok(envelope.and_then(|e| {
        if e.get("data").is_some() && e["provenance"].is_object() {
            Ok(e)
        } else {
            Err(ChildFailure {
                exit_code: 76,
                code: "PARSE_FOUT".into(),
                detail: format!("{programma} gaf geen herkomst-envelop"),
            })
        }
    }))
}

/// Discovery, then the call. Any failure is the source's, reported per field.
fn call(
    ctx: &Context<'_>,
    source: &Source,
    data: &[&Datum],
    kvk: &str,
) -> Result<std::result::Result<Value, ChildFailure>> {
    if let Err(failure) = usable(ctx, &source.naam, &source.programma, &source.commando, true)? {
        return Ok(Err(failure));
    }
    let fields: Vec<&str> = data.iter().map(|d| d.veld.as_str()).collect();
    let mut args = source.commando.clone();
    args.push(kvk.to_string());
    envelope(ctx, &source.programma, args, &fields)
}

/// The value at a `--fields` path (`a.b`, `lijst[].x`) of `data`; `[]` collects over a list.
pub(crate) fn at_path(data: &Value, path: &str) -> Option<Value> {
    let mut current = vec![data.clone()];
    let mut listed = false;
    for step in path.split('.') {
        let (name, each) = match step.strip_suffix("[]") {
            Some(name) => (name, true),
            None => (step, false),
        };
        let mut next = Vec::new();
        for value in current {
            let member = value.get(name)?.clone();
            if each {
                next.extend(member.as_array()?.iter().cloned());
            } else {
                next.push(member);
            }
        }
        listed |= each;
        current = next;
    }
    if listed {
        Some(Value::Array(current))
    } else {
        current.into_iter().next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_select_members_and_lists() {
        let data = json!({"a": {"b": 1}, "l": [{"x": "01"}, {"x": "47"}]});
        assert_eq!(at_path(&data, "a.b"), Some(json!(1)));
        assert_eq!(at_path(&data, "l[].x"), Some(json!(["01", "47"])));
        assert_eq!(at_path(&data, "a.c"), None);
    }
}

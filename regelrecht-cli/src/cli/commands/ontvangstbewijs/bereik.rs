//! What a reference receipt (RFC-013) says about the laws and the engine, against what is
//! loaded now: every law version of its scope is resolved by its hash (another version of the
//! same law is another entry, not a changed one), the version it evaluated must be the one in
//! force on the calculation date now, and its engine configuration and schema version must be
//! the ones this engine computes in. Each difference is named with its kind ([`Change`]).

use regelrecht_engine::format::schema_version;
use regelrecht_engine::{Corpus, LawFile};
use serde_json::{Value, json};

use super::claim::{ClaimedLaw, EngineConfig, ReferenceClaim};

/// What kind of thing differs; a receipt with any of them is not confirmed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Kind {
    /// A value the receipt lists.
    Value,
    /// A law version's hash (its text).
    Law,
    /// The laws loaded (a version missing or added), or the sources and jurisdiction scopes.
    Scope,
    /// The engine configuration (connectivity, legal status, identity).
    Config,
    /// The schema version of the evaluated law.
    Schema,
}

impl Kind {
    /// The name printed in the result's `gewijzigd`.
    pub(super) fn label(self) -> &'static str {
        match self {
            Kind::Value => "waarde",
            Kind::Law => "wet",
            Kind::Scope => "bereik",
            Kind::Config => "configuratie",
            Kind::Schema => "schemaversie",
        }
    }
}

/// One difference, for people.
pub(super) struct Change {
    pub kind: Kind,
    pub text: String,
}

impl Change {
    pub(super) fn new(kind: Kind, text: impl Into<String>) -> Change {
        Change {
            kind,
            text: text.into(),
        }
    }
}

/// `id (geldig vanaf D)`, as differences name a law version.
fn version_name(law_id: &str, valid_from: Option<&str>) -> String {
    match valid_from {
        Some(from) => format!("{law_id} (geldig vanaf {from})"),
        None => law_id.to_string(),
    }
}

/// The scope of `claimed` against `corpus`: one `wetten` entry per law version the receipt
/// names, and every difference. `evaluated` is the version of the receipt's law in force on its
/// calculation date now.
pub(super) fn compare(
    claimed: &[ClaimedLaw],
    reference: &ReferenceClaim,
    corpus: &Corpus,
    evaluated: &LawFile,
    changes: &mut Vec<Change>,
) -> Vec<Value> {
    let mut wetten = Vec::with_capacity(claimed.len());
    // The files the receipt's entries resolved to, or named as changed (by id and valid_from).
    let mut accounted: Vec<(&str, Option<&str>)> = Vec::new();
    for law in claimed {
        let (now, same) = resolve(law, corpus, &mut accounted, changes);
        wetten.push(json!({
            "law_id": law.law_id,
            "valid_from": law.valid_from,
            "sha256_bewijs": law.sha256,
            "sha256_nu": now,
            "gelijk": same,
        }));
    }
    also_loaded(corpus, claimed, &accounted, changes);
    let then = &reference.evaluated;
    if evaluated.sha256() != then.sha256 {
        changes.push(Change::new(
            Kind::Law,
            format!(
                "op de peildatum geldt nu {} met hash {}; het ontvangstbewijs rekende met {} met hash {}",
                version_name(&evaluated.id, evaluated.valid_from.as_deref()),
                evaluated.sha256(),
                version_name(&then.law_id, then.valid_from.as_deref()),
                then.sha256
            ),
        ));
    }
    for (key, value) in [
        ("sources", &reference.sources),
        ("scopes", &reference.scopes),
    ] {
        let empty = value.is_null() || value.as_array().is_some_and(Vec::is_empty);
        if !empty {
            changes.push(Change::new(
                Kind::Scope,
                format!("het ontvangstbewijs noemt scope.{key} {value}; deze engine rekent zonder"),
            ));
        }
    }
    wetten
}

/// One law version the receipt names, resolved by its hash: the hash of the file it is now (if
/// any) and whether that is the same file. Another hash of the same version is a changed law; no
/// version at all, or only others, is another scope.
fn resolve<'c>(
    law: &ClaimedLaw,
    corpus: &'c Corpus,
    accounted: &mut Vec<(&'c str, Option<&'c str>)>,
    changes: &mut Vec<Change>,
) -> (Option<String>, bool) {
    let versions: Vec<&LawFile> = corpus.versions(&law.law_id).collect();
    let by_hash = versions.iter().find(|f| f.sha256() == law.sha256);
    let name = version_name(&law.law_id, law.valid_from.as_deref());
    let now = match by_hash {
        Some(file) => {
            accounted.push((&file.id, file.valid_from.as_deref()));
            for (key, then, written) in [
                ("valid_from", &law.valid_from, &file.valid_from),
                ("valid_to", &law.valid_to, &file.valid_to),
            ] {
                if then != written {
                    changes.push(Change::new(
                        Kind::Scope,
                        format!(
                            "wet {name}: het ontvangstbewijs noemt {key} {}, het bestand met die hash {}",
                            shown(then),
                            shown(written)
                        ),
                    ));
                }
            }
            Some(file.sha256().to_string())
        }
        None => {
            let same_version = versions
                .iter()
                .find(|f| f.valid_from == law.valid_from)
                .or_else(|| (versions.len() == 1).then(|| &versions[0]));
            match same_version {
                Some(file) => {
                    accounted.push((&file.id, file.valid_from.as_deref()));
                    changes.push(Change::new(
                        Kind::Law,
                        format!("wet {name} is niet meer dezelfde versie (andere hash)"),
                    ));
                    Some(file.sha256().to_string())
                }
                None if versions.is_empty() => {
                    changes.push(Change::new(
                        Kind::Scope,
                        format!("wet {name} is niet geladen; het ontvangstbewijs rekende ermee"),
                    ));
                    None
                }
                None => {
                    changes.push(Change::new(
                        Kind::Scope,
                        format!(
                            "wet {name} is niet geladen (wel andere versies); het ontvangstbewijs rekende ermee"
                        ),
                    ));
                    None
                }
            }
        }
    };
    (now, by_hash.is_some())
}

/// A version loaded now that the receipt does not name takes part in the same evaluation (an
/// implementation, a hook, a newer version): another scope. A built-in law the receipt does not
/// name at all is not part of the corpus it was computed over.
fn also_loaded(
    corpus: &Corpus,
    claimed: &[ClaimedLaw],
    accounted: &[(&str, Option<&str>)],
    changes: &mut Vec<Change>,
) {
    for file in corpus.files() {
        if accounted.contains(&(file.id.as_str(), file.valid_from.as_deref())) {
            continue;
        }
        if file.is_builtin() && !claimed.iter().any(|l| l.law_id == file.id) {
            continue;
        }
        changes.push(Change::new(
            Kind::Scope,
            format!(
                "wet {} is nu ook geladen ({}); het ontvangstbewijs noemt die versie niet",
                version_name(&file.id, file.valid_from.as_deref()),
                file.origin.display()
            ),
        ));
    }
}

/// The engine configuration and schema version of a reference receipt against this engine's and
/// the evaluated law's.
pub(super) fn compare_engine(
    reference: &ReferenceClaim,
    law_schema: Option<&str>,
    changes: &mut Vec<Change>,
) {
    let own = EngineConfig::own();
    for (key, then, now) in [
        (
            "connectivity",
            &reference.config.connectivity,
            &own.connectivity,
        ),
        (
            "legal_status",
            &reference.config.legal_status,
            &own.legal_status,
        ),
        ("identity", &reference.config.identity, &own.identity),
    ] {
        if then != now {
            changes.push(Change::new(
                Kind::Config,
                format!("engine_config.{key} is {then}; deze engine rekent met {now}"),
            ));
        }
    }
    if let Some(claimed) = &reference.schema_version {
        let declared = law_schema.and_then(schema_version);
        if schema_version(claimed) != declared {
            let declared = declared.map_or("geen".to_string(), |(a, b, c)| format!("v{a}.{b}.{c}"));
            changes.push(Change::new(
                Kind::Schema,
                format!(
                    "het ontvangstbewijs noemt schemaversie {claimed}; de wet declareert {declared}"
                ),
            ));
        }
    }
}

fn shown(value: &Option<String>) -> &str {
    value.as_deref().unwrap_or("geen")
}

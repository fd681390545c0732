//! What a receipt claims, read from either of two formats:
//!
//! - this tool's own receipt (`evalueer --ontvangstbewijs`, `versie` 1), sealed with a SHA-256
//!   over its canonical JSON; a seal that does not match is refused;
//! - the reference engine's execution receipt (RFC-013, `evaluate --receipt`): `provenance`,
//!   `engine_config`, `scope`, `execution` and `results`. It carries no seal, so what can be
//!   checked is what it names: its engine configuration, the hash (`sha256:<hex>` of the file's
//!   bytes) of every law version in its scope, the version it evaluated, and its outputs. Only an
//!   engine version whose receipts this tool has been checked against is read (exit 65 naming
//!   any other), and only a schema version this engine reads.
//!
//! Either way the result is one [`Claim`], which `controleer` re-runs.

use chrono::NaiveDate;
use common::validate::Validation;
use common::{FieldError, Problem, Result};
use regelrecht_engine::{UntranslatableMode, parse_iso_date};
use serde_json::{Map, Value};

use crate::cli::receipt;

/// Which format a receipt was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Format {
    /// This tool's own sealed receipt.
    Own,
    /// The reference engine's RFC-013 execution receipt (no seal).
    Reference,
}

impl Format {
    /// The name printed in the result's `formaat`.
    pub(super) fn label(self) -> &'static str {
        match self {
            Format::Own => "regelrecht-cli",
            Format::Reference => "referentie-engine",
        }
    }

    /// What the result's `verzegeling` says.
    pub(super) fn seal(self) -> &'static str {
        match self {
            Format::Own => "klopt",
            Format::Reference => "geen",
        }
    }
}

/// A law version a receipt names, with the SHA-256 (hex) of its file then.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ClaimedLaw {
    pub law_id: String,
    pub valid_from: Option<String>,
    /// `valid_to` as the receipt names it (the reference's scope; own receipts have none).
    pub valid_to: Option<String>,
    pub sha256: String,
}

/// The reference engine versions whose receipts this tool reads: those its evaluations were
/// compared with (regelrecht-engine 0.3.0, commit 2f4afae6, over the shared corpus).
pub(super) const REFERENCE_VERSIONS: [&str; 1] = ["0.3.0"];

/// The engine configuration a reference receipt was computed in (RFC-013 `engine_config`), as
/// far as it is not the untranslatable mode (which the re-run adopts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct EngineConfig {
    pub connectivity: Value,
    pub legal_status: Value,
    pub identity: Value,
}

impl EngineConfig {
    /// What this tool computes in: alone (`solo`), as a simulation, without an identity.
    pub(super) fn own() -> EngineConfig {
        EngineConfig {
            connectivity: "solo".into(),
            legal_status: "simulation".into(),
            identity: Value::Null,
        }
    }
}

/// What only a reference receipt says: its configuration, the schema version and law version
/// of the evaluated law, and the whole scope of laws it had loaded.
pub(super) struct ReferenceClaim {
    pub config: EngineConfig,
    /// `provenance.schema_version` (`v0.5.0`), when given.
    pub schema_version: Option<String>,
    /// The evaluated law's version: `regulation_valid_from` and `regulation_hash`.
    pub evaluated: ClaimedLaw,
    /// `scope.sources` and `scope.scopes` (corpus sources and jurisdiction scopes): this tool
    /// computes with neither, so anything but empty is another scope.
    pub sources: Value,
    pub scopes: Value,
}

/// Everything a receipt claims about one evaluation.
pub(super) struct Claim {
    pub format: Format,
    pub law_id: String,
    pub date: NaiveDate,
    pub mode: UntranslatableMode,
    pub fase: Option<String>,
    pub outputs: Vec<String>,
    pub params: Map<String, Value>,
    /// An own receipt: the law versions its evaluation reached. A reference receipt: every law
    /// version it had loaded (`scope.loaded_regulations`).
    pub laws: Vec<ClaimedLaw>,
    /// The values the receipt lists (an own receipt: the requested outputs; a reference receipt:
    /// every output of the executed articles, their hooks and overrides).
    pub results: Map<String, Value>,
    /// The engine that wrote the receipt, as it names itself.
    pub engine: Value,
    /// `gemarkeerd` and `onvertaalbaarheden` (own format only; the reference has neither).
    pub marks: Option<(Value, Value)>,
    /// What only a reference receipt says.
    pub reference: Option<ReferenceClaim>,
}

/// Reads `receipt` in whichever format it is. An incomplete receipt, or an own receipt whose
/// seal does not match, is invalid input (65) naming what is wrong.
pub(super) fn read(receipt: &Value) -> Result<Claim> {
    if is_reference(receipt) {
        reference(receipt)
    } else {
        own(receipt)
    }
}

/// An RFC-013 receipt: the reference engine's five top-level members.
fn is_reference(receipt: &Value) -> bool {
    ["provenance", "execution", "results"]
        .iter()
        .all(|key| receipt[key].is_object())
        && receipt.get("versie").is_none()
}

fn text<'v>(value: &'v Value, path: &str, validation: &mut Validation) -> &'v str {
    let found = path
        .split('.')
        .try_fold(value, |v, key| v.get(key))
        .and_then(Value::as_str);
    validation.check(found.is_some(), "bestand", || {
        format!("het ontvangstbewijs mist \"{path}\"")
    });
    found.unwrap_or_default()
}

fn date(text: &str, validation: &mut Validation) -> Option<NaiveDate> {
    let date = parse_iso_date(text);
    validation.check(date.is_some() || text.is_empty(), "bestand", || {
        format!("peildatum '{text}' is geen datum")
    });
    date
}

fn mode(text: &str, validation: &mut Validation) -> Option<UntranslatableMode> {
    let mode = text.parse().ok();
    validation.check(mode.is_some() || text.is_empty(), "bestand", || {
        format!("onbekende modus '{text}'")
    });
    mode
}

fn names(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|o| o.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn object(value: &Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

fn validated<T>(value: Option<T>) -> Result<T> {
    value.ok_or_else(|| Problem::software("gevalideerde velden ontbreken").into())
}

fn own(receipt: &Value) -> Result<Claim> {
    let mut validation = Validation::new();
    let law_id = text(receipt, "law_id", &mut validation).to_string();
    let date_text = text(receipt, "peildatum", &mut validation);
    let mode_text = text(receipt, "onvertaalbaar", &mut validation);
    let seal = text(receipt, "sha256", &mut validation);
    validation.check(receipt["versie"] == receipt::VERSION, "bestand", || {
        format!(
            "alleen versie {} van het ontvangstbewijs of een ontvangstbewijs van de \
             referentie-engine (RFC-013) wordt gelezen",
            receipt::VERSION
        )
    });
    let date = date(date_text, &mut validation);
    let mode = mode(mode_text, &mut validation);
    let outputs = names(&receipt["uitvoer"]);
    validation.check(!outputs.is_empty(), "bestand", || {
        "het ontvangstbewijs noemt geen uitvoer".to_string()
    });
    validation.finish()?;
    if receipt::seal(receipt) != seal {
        return Err(Problem::invalid(vec![FieldError::new(
            "bestand",
            "de verzegeling (sha256) klopt niet: het ontvangstbewijs is gewijzigd",
        )])
        .into());
    }
    let laws = receipt["wetten"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|l| ClaimedLaw {
            law_id: l["law_id"].as_str().unwrap_or("?").to_string(),
            valid_from: l["valid_from"].as_str().map(str::to_string),
            valid_to: None,
            sha256: l["sha256"].as_str().unwrap_or_default().to_string(),
        })
        .collect();
    Ok(Claim {
        format: Format::Own,
        law_id,
        date: validated(date)?,
        mode: validated(mode)?,
        fase: receipt["fase"].as_str().map(str::to_string),
        outputs,
        params: object(&receipt["parameters"]),
        laws,
        results: object(&receipt["resultaat"]),
        engine: receipt["engine"].clone(),
        marks: Some((
            receipt["gemarkeerd"].clone(),
            receipt["onvertaalbaarheden"].clone(),
        )),
        reference: None,
    })
}

/// `sha256:<64 hex>` of the reference's hashes, as bare lower-case hex; anything else is
/// kept as written, so that it can never match a real digest.
fn hex(hash: &str) -> String {
    hash.strip_prefix("sha256:")
        .filter(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()))
        .map_or_else(|| hash.to_string(), str::to_ascii_lowercase)
}

/// What this engine can repeat of a reference receipt: a schema version it reads, no values
/// accepted from another organisation, no separate reference date.
fn check_repeatable(receipt: &Value, schema_version: Option<&str>, validation: &mut Validation) {
    if let Some(version) = schema_version {
        let refusal = regelrecht_engine::format::schema_refusal(version);
        validation.check(refusal.is_none(), "bestand", || {
            format!(
                "schemaversie van het ontvangstbewijs: {}",
                refusal.unwrap_or_default()
            )
        });
    }
    let accepted = receipt["accepted_values"]
        .as_array()
        .is_some_and(|a| !a.is_empty());
    validation.check(!accepted, "bestand", || {
        "het ontvangstbewijs bevat waarden van een andere organisatie (accepted_values, \
         RFC-009); die kan deze engine niet herhalen"
            .to_string()
    });
    validation.check(
        receipt["execution"]
            .get("reference_date")
            .is_none_or(Value::is_null),
        "bestand",
        || {
            "het ontvangstbewijs noemt een aparte reference_date; die wordt niet ondersteund"
                .to_string()
        },
    );
}

/// Every law version in a reference receipt's scope, with its hash, each once.
fn loaded_laws(receipt: &Value) -> Vec<ClaimedLaw> {
    let mut laws: Vec<ClaimedLaw> = Vec::new();
    for loaded in receipt["scope"]["loaded_regulations"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let text = |key: &str| loaded[key].as_str().map(str::to_string);
        let law = ClaimedLaw {
            law_id: text("id").unwrap_or_else(|| "?".into()),
            valid_from: text("valid_from"),
            valid_to: text("valid_to"),
            sha256: hex(loaded["hash"].as_str().unwrap_or_default()),
        };
        if !laws.contains(&law) {
            laws.push(law);
        }
    }
    laws
}

/// A reference receipt's `engine_config`.
fn engine_config(engine_config: &Value) -> EngineConfig {
    EngineConfig {
        connectivity: engine_config["connectivity"].clone(),
        legal_status: engine_config["legal_status"].clone(),
        identity: engine_config
            .get("identity")
            .cloned()
            .unwrap_or(Value::Null),
    }
}

fn reference(receipt: &Value) -> Result<Claim> {
    let mut validation = Validation::new();
    let provenance = &receipt["provenance"];
    let law_id = text(receipt, "provenance.regulation_id", &mut validation).to_string();
    let date_text = text(receipt, "execution.calculation_date", &mut validation);
    let date = date(date_text, &mut validation);
    let mode_text = receipt["engine_config"]["untranslatable_mode"]
        .as_str()
        .unwrap_or("error");
    let mode = mode(mode_text, &mut validation);
    let results = object(&receipt["results"]["outputs"]);
    let requested = names(&receipt["results"]["requested_outputs"]);
    // A receipt without `requested_outputs` (the reference omits an empty list) asked for all.
    let outputs = if requested.is_empty() {
        results.keys().cloned().collect()
    } else {
        requested.clone()
    };
    validation.check(!outputs.is_empty(), "bestand", || {
        "het ontvangstbewijs noemt geen uitvoer".to_string()
    });
    for name in &requested {
        validation.check(results.contains_key(name), "bestand", || {
            format!("het ontvangstbewijs noemt uitvoer '{name}' als gevraagd, maar geeft er geen waarde van")
        });
    }
    let primary_hash = provenance["regulation_hash"].as_str();
    validation.check(primary_hash.is_some(), "bestand", || {
        "het ontvangstbewijs mist \"provenance.regulation_hash\": zonder hash is de \
         wetsversie niet te controleren"
            .to_string()
    });
    let engine = provenance["engine"].as_str().unwrap_or("?");
    let version = provenance["engine_version"].as_str().unwrap_or("?");
    validation.check(
        engine == "regelrecht" && REFERENCE_VERSIONS.contains(&version),
        "bestand",
        || {
            format!(
                "ontvangstbewijs van engine '{engine} {version}': alleen die van regelrecht {} \
                 worden gelezen",
                REFERENCE_VERSIONS.join(", ")
            )
        },
    );
    let schema_version = provenance["schema_version"].as_str().map(str::to_string);
    check_repeatable(receipt, schema_version.as_deref(), &mut validation);
    validation.finish()?;
    let evaluated = ClaimedLaw {
        law_id: law_id.clone(),
        valid_from: provenance["regulation_valid_from"]
            .as_str()
            .map(str::to_string),
        valid_to: None,
        sha256: hex(primary_hash.unwrap_or_default()),
    };
    let laws = loaded_laws(receipt);
    let config = engine_config(&receipt["engine_config"]);
    Ok(Claim {
        format: Format::Reference,
        law_id,
        date: validated(date)?,
        mode: validated(mode)?,
        fase: None,
        outputs,
        params: object(&receipt["execution"]["parameters"]),
        laws,
        results,
        engine: Value::String(format!("{engine} {version}")),
        marks: None,
        reference: Some(ReferenceClaim {
            config,
            schema_version,
            evaluated,
            sources: receipt["scope"]["sources"].clone(),
            scopes: receipt["scope"]["scopes"].clone(),
        }),
    })
}

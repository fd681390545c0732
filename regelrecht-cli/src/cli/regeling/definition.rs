//! Regulation definitions and the source register, as data (spec/concept.md §2–§3).
//!
//! Both are JSON files: the embedded ones (every `*.json` under `regelrecht-cli/regelingen/`,
//! compiled in by `build.rs`), then those of the directories of `REGELRECHT_REGELINGEN` and
//! `--regelingen`. A file named `bronnen.json` is a source register: its sources and data kinds
//! are added to the register, replacing entries with the same id. A file named `rvo.json` says
//! when each scheme of the RVO catalogue may apply on registration data (the catalogue itself is
//! rvo-cli's; [`super::rvo`]), again replacing entries with the same id. Every other file is one
//! regulation definition; a later one with the same id replaces an earlier one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::validate::Validation;
use common::{Context, Problem, Result};
use serde::{Deserialize, Serialize};

/// Colon-separated directories with regulation definitions and source registers.
pub(crate) const DEFINITIONS_ENV: &str = "REGELRECHT_REGELINGEN";

/// The file name of a source register inside a definitions directory.
const REGISTER_FILE: &str = "bronnen.json";

/// The file name of the RVO catalogue's applicability rules inside a definitions directory.
const RVO_FILE: &str = "rvo.json";

/// The most bytes one definition file may have.
const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// The most definition files read from all directories together.
const MAX_FILES: usize = 1000;

/// `(file name, JSON text)` of every embedded definition and register.
const EMBEDDED: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/regelingen.rs"));

/// What kind of value a field holds, by where it comes from (PDR-014).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Kind {
    /// From a base register (e.g. the Handelsregister).
    Registratie,
    /// A statement by an issuer the holder shares (e.g. a grid operator's attestation).
    Attestatie,
    /// The entrepreneur's own declaration.
    Opgave,
    /// A constant of a law in the corpus.
    Wetsconstante,
}

/// One source: a family CLI command that takes the company's KvK number as its argument.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Source {
    pub id: String,
    pub naam: String,
    /// The family program, found next to this one or in `OVERHEID_CLI_DIR`.
    pub programma: String,
    /// The command path, e.g. `["basisprofiel", "toon"]`.
    pub commando: Vec<String>,
    /// `registratie` or `attestatie`.
    pub soort: Kind,
    /// Whether the source may only be called after explicit consent (`--toestemming ID`).
    pub toestemming_nodig: bool,
}

/// One kind of data and where it comes from: a `--fields` path in a source's answer.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Datum {
    pub id: String,
    #[serde(default)]
    pub omschrijving: Option<String>,
    pub bron: String,
    /// A `--fields` path (profile §6.1).
    pub veld: String,
    /// `string`, `number`, `boolean` or `array`.
    #[serde(rename = "type")]
    pub value_type: String,
}

/// The source register file.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RegisterFile {
    #[serde(default)]
    #[allow(
        dead_code,
        reason = "documentation inside the file, not used by the code"
    )]
    pub omschrijving: Option<String>,
    #[serde(default)]
    pub bronnen: Vec<Source>,
    #[serde(default)]
    pub gegevens: Vec<Datum>,
}

/// The family command that lists the RVO catalogue (read-only, no company argument).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CatalogueCommand {
    pub programma: String,
    pub commando: Vec<String>,
}

/// When one scheme of the RVO catalogue may apply on registration data.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RvoApplicability {
    /// The scheme's id in the RVO catalogue (`EIA-2026`).
    pub regeling_id: String,
    pub toepasselijkheid: Applicability,
    /// What else it depends on, that no registration says.
    #[serde(default)]
    pub hangt_af_van: Vec<String>,
    /// The regulation definition whose concept computes it, when there is one.
    #[serde(default)]
    pub concept: Option<String>,
}

/// The `rvo.json` file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RvoFile {
    #[serde(default)]
    #[allow(
        dead_code,
        reason = "documentation inside the file, not used by the code"
    )]
    pub omschrijving: Option<String>,
    #[serde(default)]
    pub catalogus: Option<CatalogueCommand>,
    #[serde(default)]
    pub regelingen: Vec<RvoApplicability>,
}

/// The law and outputs one evaluation asks for.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Evaluation {
    pub wet: String,
    pub uitvoer: Vec<String>,
    /// When set, the boolean outputs form a list of that name (e.g. measures): each item's code is
    /// its article number, its name the output's description, its conditions the article's
    /// parameters.
    #[serde(default)]
    pub lijst: Option<String>,
}

/// A law constant: a definition of an article, or a header property of the law.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LawConstant {
    pub wet: String,
    /// A `definitions` name of one of the law's articles …
    #[serde(default)]
    pub definitie: Option<String>,
    /// … or a header property (`gemeente_code`, `bwb_id`, …).
    #[serde(default)]
    pub eigenschap: Option<String>,
}

/// One field of a regulation: its name (the law's parameter name) and where its value comes
/// from: exactly one of `gegeven`, `opgave`, `wetsconstante`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Field {
    pub naam: String,
    /// A data kind of the source register.
    #[serde(default)]
    pub gegeven: Option<String>,
    /// The entrepreneur answers; the question is the law parameter's description.
    #[serde(default)]
    pub opgave: bool,
    #[serde(default)]
    pub wetsconstante: Option<LawConstant>,
    /// The law that declares the parameter, when it is not one of the evaluated laws.
    #[serde(default)]
    pub wet: Option<String>,
    /// The unit an opgave is in (a value may carry it; another unit is an error).
    #[serde(default)]
    pub eenheid: Option<String>,
    /// The smallest number allowed.
    #[serde(default)]
    pub minimum: Option<f64>,
    /// The allowed texts.
    #[serde(default)]
    pub waarden: Option<Vec<String>>,
    /// Whether the entrepreneur may correct a value from a source with `--opgave`.
    #[serde(default)]
    pub mag_corrigeren: bool,
}

/// Which outputs lead to which RVO scheme, and which fields fill its report.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RvoScheme {
    pub regeling_id: String,
    /// The boolean output that makes the scheme apply.
    pub als: String,
    /// Report member → field name or list name.
    #[serde(default)]
    pub rapportage: BTreeMap<String, String>,
}

/// One applicability condition on registration data.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Condition {
    pub gegeven: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minstens: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hoogstens: Option<f64>,
    /// The value (or one element of it) equals one of these.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub een_van: Option<Vec<String>>,
    /// The value (or one element of it) starts with one of these (e.g. an SBI section).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub begint_met: Option<Vec<String>>,
}

/// When a regulation may apply to a company, on registration data.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Applicability {
    pub omschrijving: String,
    /// Every condition must hold.
    pub alle: Vec<Condition>,
}

/// One regulation definition.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Definition {
    pub id: String,
    pub naam: String,
    pub versie: String,
    #[serde(default)]
    pub omschrijving: Option<String>,
    pub evaluaties: Vec<Evaluation>,
    pub gegevens: Vec<Field>,
    #[serde(default)]
    pub rvo: Vec<RvoScheme>,
    #[serde(default)]
    pub toepasselijkheid: Option<Applicability>,
    /// SHA-256 of the file, set when loaded.
    #[serde(skip)]
    pub sha256: String,
    /// Where it came from, set when loaded.
    #[serde(skip)]
    pub origin: String,
}

impl Definition {
    /// The field called `name`.
    pub(crate) fn field(&self, name: &str) -> Option<&Field> {
        self.gegevens.iter().find(|f| f.naam == name)
    }
}

/// Every loaded definition and the merged source register.
#[derive(Debug, Default)]
pub(crate) struct Catalogue {
    pub definitions: BTreeMap<String, Definition>,
    pub sources: BTreeMap<String, Source>,
    pub data: BTreeMap<String, Datum>,
    /// SHA-256 of every register file read, in order.
    pub register_sha256: Vec<String>,
    /// The command that lists the RVO catalogue.
    pub rvo_catalogue: Option<CatalogueCommand>,
    /// When each RVO scheme may apply, by its id.
    pub rvo: BTreeMap<String, RvoApplicability>,
}

common::arguments! {
    /// `--regelingen`, for the commands that read regulation definitions; it names local
    /// directories (DISC-21).
    #[derive(clap::Args, Debug, Default, serde::Serialize)]
    pub(crate) struct DefinitionArgs {
        /// Map met regelingen (*.json) en bronnen.json, naast ingebouwde en REGELRECHT_REGELINGEN; herhaalbaar
        #[arg(long = "regelingen", value_name = "MAP")]
        #[serde(serialize_with = "common::plan::paths")]
        pub regelingen: Vec<PathBuf> => path,
    }
}

impl DefinitionArgs {
    /// Every `--regelingen` must be a directory (exit 65).
    pub(crate) fn validate(&self, validation: &mut Validation) {
        for dir in &self.regelingen {
            validation.check(dir.is_dir(), "regelingen", || {
                format!("--regelingen {}: geen bestaande map", dir.display())
            });
        }
    }

    /// The embedded definitions, then `REGELRECHT_REGELINGEN`, then `--regelingen`. A malformed
    /// file is exit 65 naming it; a `REGELRECHT_REGELINGEN` entry that is no directory is 78.
    pub(crate) fn load(&self, ctx: &Context<'_>) -> Result<Catalogue> {
        let mut catalogue = Catalogue::default();
        for (name, text) in EMBEDDED {
            catalogue.add(name, &format!("urn:regelrecht:regeling:{name}"), text)?;
        }
        let mut dirs: Vec<PathBuf> = Vec::new();
        for dir in ctx
            .env(DEFINITIONS_ENV)
            .map(|list| std::env::split_paths(list).collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .filter(|p| !p.as_os_str().is_empty())
        {
            if !dir.is_dir() {
                return Err(Problem::config(format!(
                    "{DEFINITIONS_ENV} noemt {}, maar dat is geen bestaande map",
                    dir.display()
                ))
                .into());
            }
            dirs.push(dir);
        }
        dirs.extend(self.regelingen.iter().cloned());
        let mut count = 0;
        for dir in dirs {
            for path in json_files(&dir)? {
                count += 1;
                if count > MAX_FILES {
                    return Err(Problem::invalid(vec![common::FieldError::new(
                        "regelingen",
                        format!("meer dan {MAX_FILES} definitiebestanden"),
                    )])
                    .into());
                }
                let text = read_file(&path)?;
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                catalogue.add(&name, &crate::cli::laws::file_uri(&path), &text)?;
            }
        }
        catalogue.check()?;
        Ok(catalogue)
    }
}

fn json_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        Problem::invalid(vec![common::FieldError::new(
            "regelingen",
            format!("{} kon niet gelezen worden: {e}", dir.display()),
        )])
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    Ok(files)
}

fn read_file(path: &Path) -> Result<String> {
    let bad =
        |detail: String| Problem::invalid(vec![common::FieldError::new("regelingen", detail)]);
    let size = std::fs::metadata(path)
        .map_err(|e| bad(format!("{} kon niet gelezen worden: {e}", path.display())))?
        .len();
    if size > MAX_FILE_BYTES {
        return Err(bad(format!(
            "{} is groter dan {MAX_FILE_BYTES} bytes",
            path.display()
        ))
        .into());
    }
    Ok(std::fs::read_to_string(path)
        .map_err(|e| bad(format!("{} kon niet gelezen worden: {e}", path.display())))?)
}

impl Catalogue {
    fn add(&mut self, name: &str, origin: &str, text: &str) -> Result<()> {
        let bad = |e: serde_json::Error| {
            Problem::invalid(vec![common::FieldError::new(
                "regelingen",
                format!("{name}: regel {}: {e}", e.line()),
            )])
        };
        let sha256 = common::digest::sha256_hex(text.as_bytes());
        if name == REGISTER_FILE {
            let register: RegisterFile = serde_json::from_str(text).map_err(bad)?;
            for source in register.bronnen {
                self.sources.insert(source.id.clone(), source);
            }
            for datum in register.gegevens {
                self.data.insert(datum.id.clone(), datum);
            }
            self.register_sha256.push(sha256);
        } else if name == RVO_FILE {
            let rvo: RvoFile = serde_json::from_str(text).map_err(bad)?;
            if rvo.catalogus.is_some() {
                self.rvo_catalogue = rvo.catalogus;
            }
            for scheme in rvo.regelingen {
                self.rvo.insert(scheme.regeling_id.clone(), scheme);
            }
        } else {
            let mut definition: Definition = serde_json::from_str(text).map_err(bad)?;
            definition.sha256 = sha256;
            definition.origin = origin.to_string();
            self.definitions.insert(definition.id.clone(), definition);
        }
        Ok(())
    }

    /// Every reference resolves: a field names exactly one origin, a data kind a known source,
    /// a source a plain program name (exit 65 naming the definition).
    fn check(&self) -> Result<()> {
        let mut errors = Vec::new();
        for datum in self.data.values() {
            if !self.sources.contains_key(&datum.bron) {
                errors.push(format!(
                    "gegeven '{}' noemt onbekende bron '{}'",
                    datum.id, datum.bron
                ));
            }
        }
        for source in self.sources.values() {
            if !matches!(source.soort, Kind::Registratie | Kind::Attestatie) {
                errors.push(format!(
                    "bron '{}' moet soort registratie of attestatie hebben",
                    source.id
                ));
            }
        }
        for d in self.definitions.values() {
            for field in &d.gegevens {
                let origins = usize::from(field.gegeven.is_some())
                    + usize::from(field.opgave)
                    + usize::from(field.wetsconstante.is_some());
                if origins != 1 {
                    errors.push(format!(
                        "regeling '{}', gegeven '{}': geef precies één van gegeven, opgave, wetsconstante",
                        d.id, field.naam
                    ));
                }
                if let Some(kind) = &field.gegeven
                    && !self.data.contains_key(kind)
                {
                    errors.push(format!(
                        "regeling '{}', gegeven '{}': '{kind}' staat niet in het bronnenregister",
                        d.id, field.naam
                    ));
                }
            }
            for condition in d.toepasselijkheid.iter().flat_map(|a| &a.alle) {
                if !self.data.contains_key(&condition.gegeven) {
                    errors.push(format!(
                        "regeling '{}', toepasselijkheid: '{}' staat niet in het bronnenregister",
                        d.id, condition.gegeven
                    ));
                }
            }
        }
        for scheme in self.rvo.values() {
            for condition in &scheme.toepasselijkheid.alle {
                if !self.data.contains_key(&condition.gegeven) {
                    errors.push(format!(
                        "RVO-regeling '{}', toepasselijkheid: '{}' staat niet in het bronnenregister",
                        scheme.regeling_id, condition.gegeven
                    ));
                }
            }
            if let Some(id) = &scheme.concept
                && !self.definitions.contains_key(id)
            {
                errors.push(format!(
                    "RVO-regeling '{}': concept '{id}' is geen regeling",
                    scheme.regeling_id
                ));
            }
        }
        if errors.is_empty() {
            return Ok(());
        }
        Err(Problem::invalid(
            errors
                .into_iter()
                .map(|e| common::FieldError::new("regelingen", e))
                .collect(),
        )
        .into())
    }

    /// The definition with this id; unknown is exit 66 listing the known ones.
    pub(crate) fn definition(&self, id: &str) -> Result<&Definition> {
        Ok(self.definitions.get(id).ok_or_else(|| {
            let known: Vec<&str> = self.definitions.keys().map(String::as_str).collect();
            Problem::not_found(format!("regeling '{id}' is niet gedefinieerd"))
                .with_hint(format!("bekende regelingen: {}", known.join(", ")))
        })?)
    }
}

//! `wet notities LAW_ID`: the stand-off notes on a law (RFC-005, W3C Web Annotations with a
//! TextQuoteSelector), each resolved against the article texts of the version in force:
//! found (exact or fuzzy, wherever the text now is, so a renumbered article keeps its notes),
//! ambiguous (several places and none decides) or orphaned (the text is gone).
//!
//! Notes come from `--notities PAD` (an `annotations.yaml`, or a directory holding
//! `<law_id>/annotations.yaml`) and otherwise from `annotations/<law_id>/annotations.yaml`
//! next to or inside each corpus directory (RegelRecht's layout). A notes file must satisfy the
//! annotation schema (RFC-005; the version its `$schema` names, else the newest shipped), or
//! it is invalid input (65) listing every violation with its path.

use std::path::{Path, PathBuf};

use common::args::Peildatum;
use common::validate::Validation;
use common::{
    Annotations, CommandSpec, Context, Environment, FieldError, Outcome, PlanSpec, Problem, Result,
};
use regelrecht_engine::load::read_text_file;
use regelrecht_engine::notes::{self, Status};
use regelrecht_engine::validate::Validator;
use serde_json::{Value, json};

use crate::cli::laws::{self, CorpusArgs, ENGINE_VERSION, SOURCE};
use crate::cli::problems;

common::arguments! {
    /// Toon de notities bij een wet, elk opgezocht in de artikeltekst (exact of vaag)
    ///
    /// Een notitie wijst tekst aan met een citaat en de tekst ervoor en erna (W3C
    /// TextQuoteSelector) en volgt die tekst, ook als een artikel een ander nummer krijgt. Per
    /// notitie: gevonden (exact of vaag, met artikel en positie), dubbelzinnig of verweesd.
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        /// $id van de wet (zie wet lijst)
        pub law_id: String,
        /// Notities (annotations.yaml) of een map met <law_id>/annotations.yaml; standaard
        /// annotations/ bij elke corpusmap
        #[arg(long, value_name = "PAD")]
        #[serde(serialize_with = "common::plan::optional_path")]
        pub notities: Option<PathBuf> => path,
        #[command(flatten)]
        #[serde(flatten)]
        pub peildatum: Peildatum => flatten,
        #[command(flatten)]
        #[serde(flatten)]
        pub corpus: CorpusArgs => flatten,
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["wet", "notities"],
    title: "Notities bij een wet",
    annotations: Annotations::READ_LOCAL,
    output_schema: include_str!("../../../../schemas/wet_notities.json"),
    examples: &[&[
        "wet",
        "notities",
        "besluit_activiteiten_leefomgeving",
        "--peildatum",
        "2026-01-01",
    ]],
    args: Args::SCHEMAS,
}];

/// Largest annotation file read.
const MAX_NOTES_BYTES: u64 = 1024 * 1024;

/// The annotation file for `law_id`: under `--notities`, else in a corpus directory's
/// `annotations/` (inside it or next to it).
fn notes_file(args: &Args, ctx: &Context<'_>, law_id: &str) -> Option<PathBuf> {
    let in_dir = |dir: &Path| dir.join(law_id).join("annotations.yaml");
    if let Some(path) = &args.notities {
        return Some(if path.is_dir() {
            in_dir(path)
        } else {
            path.clone()
        });
    }
    laws::env_dirs(ctx)
        .iter()
        .chain(&args.corpus.corpus)
        .flat_map(|d| [d.join("annotations"), d.join("../annotations")])
        .map(|d| in_dir(&d))
        .find(|f| f.is_file())
}

/// A notes file that does not satisfy the annotation schema is invalid input (65), every
/// violation with its path (never a value from the file).
fn check_notes(path: &Path, text: &str) -> Result<()> {
    let report = Validator::new().check_notes(text);
    if report.violations.is_empty() {
        return Ok(());
    }
    let errors = report
        .violations
        .iter()
        .map(|v| {
            let at = if v.path.is_empty() { "/" } else { &v.path };
            FieldError::new(
                "notities",
                format!("{}: {at}: {}", path.display(), v.problem),
            )
        })
        .collect();
    Err(Problem::invalid(errors)
        .with_hint(format!(
            "het notitiebestand voldoet niet aan het notitieschema (annotation-schema {}); zie regelrecht-cli wet valideer",
            report.schema_version.unwrap_or("?")
        ))
        .into())
}

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let law_id = args.law_id.trim();
    let mut validation = Validation::new();
    validation.check(!law_id.is_empty(), "law_id", || "geef een $id".to_string());
    let date = args.peildatum.date(ctx.today(), &mut validation);
    args.corpus.validate(&mut validation);
    if let Some(path) = &args.notities {
        validation.check(path.exists(), "notities", || {
            format!("{}: bestaat niet", path.display())
        });
    }
    validation.finish()?;
    let corpus = args.corpus.load(ctx)?;
    let file = laws::select(&corpus, law_id, date)?;
    let law = file.law().map_err(|e| problems::load_error(&e))?;
    let source = notes_file(args, ctx, law_id);
    let annotations = match &source {
        None => Vec::new(),
        Some(path) => {
            let text = read_text_file(path, MAX_NOTES_BYTES)
                .map_err(|e| Problem::invalid(vec![FieldError::new("notities", e.to_string())]))?;
            check_notes(path, &text)?;
            notes::parse_annotations(&text)
                .map_err(|e| {
                    Problem::invalid(vec![FieldError::new(
                        "notities",
                        format!("{}: {e}", path.display()),
                    )])
                })?
                .annotations
        }
    };
    let passed = ctx.gate(
        PlanSpec::of(args)
            .set("law_id", law_id)
            .set("peildatum", date.to_string())
            .set("notities", source.as_ref().map(|p| p.display().to_string())),
    )?;

    let articles: Vec<(&str, &str)> = law
        .articles
        .iter()
        .map(|a| (a.number.as_str(), a.text.as_str()))
        .collect();
    let mut counts = json!({"found": 0, "ambiguous": 0, "orphaned": 0, "skipped": 0});
    let notities: Vec<Value> = annotations
        .iter()
        .filter(|a| a.law_id() == law_id)
        .map(|note| {
            let resolution = notes::resolve(&note.target.selector, &articles);
            let status = resolution.status.as_str();
            counts[status] = (counts[status].as_u64().unwrap_or(0) + 1).into();
            let mut v = json!({
                "motivatie": note.motivation,
                "auteur": note.creator,
                "citaat": note.target.selector.exact,
                "ervoor": note.target.selector.prefix,
                "erna": note.target.selector.suffix,
                "status": status,
                "vastgelegde_status": note.resolution,
                "workflow": note.workflow,
                "tekst": note.texts(),
            });
            if let Some(m) = resolution.single() {
                v["artikel"] = m.article.clone().into();
                v["begin"] = m.start.into();
                v["eind"] = m.end.into();
                v["exact"] = (m.confidence >= 1.0).into();
                v["zekerheid"] = json!((m.confidence * 1000.0).round() / 1000.0);
                v["gevonden_tekst"] = m.text.clone().into();
            }
            if resolution.status == Status::Ambiguous {
                v["kandidaten"] = resolution
                    .matches
                    .iter()
                    .map(|m| json!({"artikel": m.article, "begin": m.start, "eind": m.end}))
                    .collect::<Vec<_>>()
                    .into();
            }
            v
        })
        .collect();
    let data = json!({
        "law_id": law_id,
        "valid_from": file.valid_from,
        "peildatum": date.to_string(),
        "bestand": source.as_ref().map(|p| laws::file_uri(p)),
        "aantal": notities.len(),
        "per_status": counts,
        "notities": notities,
    });
    Ok(passed
        .answer(data, SOURCE, Environment::Local)
        .source_url(laws::source_uri(file), "LOCAL", file.sha256())
        .extra("law_id", file.id.clone().into())
        .extra("engine_version", ENGINE_VERSION.into()))
}

//! `wet valideer PAD…`: validate law files against the format, as the reference's `validate`
//! does: the JSON Schema of the version each file's `$schema` declares (RegelRecht v0.2.0 to
//! v0.5.6, shipped in the program; a file without `$schema` or with a version that is not
//! shipped is invalid), the engine's own reading of the law, and the unit checks (RFC-023).
//! A notes file (RFC-005, top-level `annotations` and no `$id`) is checked against the
//! annotation schema. Every violation is listed with its path; any invalid file ends the run
//! with exit 1 (`WET_ONGELDIG`) after the data.
//!
//! The schemas are compiled only here, each when a file first declares it, so no other command
//! pays for them at start-up.

use std::path::{Path, PathBuf};

use common::digest::canonical_sha256;
use common::validate::Validation;
use common::{
    Annotations, CommandSpec, Context, Environment, ExitStatus, Outcome, PlanSpec, Problem, Result,
};
use regelrecht_engine::Origin;
use regelrecht_engine::load::{Limits, corpus_files, is_law_text, read_text_file};
use regelrecht_engine::notes::is_notes_text;
use regelrecht_engine::validate::{Report, Validator, schema_versions};
use serde_json::{Value, json};

use crate::cli::laws::{ENGINE_VERSION, SOURCE};
use crate::cli::problems;

common::arguments! {
    /// Toets wetbestanden aan het formaat
    ///
    /// PAD is een wetbestand of een map (zoals --corpus). Toetst elk bestand aan het JSON Schema
    /// van de versie die zijn $schema noemt (v0.2.0 t/m v0.5.6; zonder $schema of met een andere
    /// versie is het ongeldig), de engine en de eenheden (RFC-023); een notitiebestand
    /// (annotations) aan het notitieschema. Elke fout met haar pad. Exit 1 als een bestand
    /// ongeldig is.
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        /// Wetbestanden of mappen
        #[arg(value_name = "PAD", required = true)]
        #[serde(serialize_with = "common::plan::paths")]
        pub paden: Vec<PathBuf> => [
            path,
            {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}},
        ],
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["wet", "valideer"],
    title: "Wetbestanden valideren",
    annotations: Annotations::READ_LOCAL,
    output_schema: include_str!("../../../../schemas/wet_valideer.json"),
    examples: &[&["wet", "valideer", "."]],
    args: Args::SCHEMAS,
}];

/// The bounds of reading, as the corpus reads files (size, count, depth, the deadline).
fn limits(ctx: &Context<'_>) -> Limits {
    Limits {
        deadline: Some(ctx.deadline()),
        ..Limits::default()
    }
}

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let mut validation = Validation::new();
    for path in &args.paden {
        let usable = std::fs::metadata(path).is_ok_and(|m| m.is_dir() || m.is_file());
        validation.check(usable, "paden", || {
            format!("{}: geen bestaande map of wetbestand", path.display())
        });
    }
    validation.finish()?;
    let limits = limits(ctx);
    // Each file with what it is: a law, or notes (a file named on its own is a law unless it
    // is notes; in a directory anything else is passed over).
    let mut files: Vec<(PathBuf, Content)> = Vec::new();
    for path in &args.paden {
        if path.is_dir() {
            for file in corpus_files(path, limits).map_err(|e| problems::load_error(&e))? {
                let text = read_text_file(&file, limits.max_file_bytes)
                    .map_err(|e| problems::load_error(&e))?;
                if is_law_text(&text) {
                    files.push((file, Content::Law));
                } else if is_notes_text(&text) {
                    files.push((file, Content::Notes));
                }
            }
        } else {
            let text = read_text_file(path, limits.max_file_bytes)
                .map_err(|e| problems::load_error(&e))?;
            let content = if is_notes_text(&text) {
                Content::Notes
            } else {
                Content::Law
            };
            files.push((path.clone(), content));
        }
    }
    let passed = ctx.gate(PlanSpec::of(args))?;

    let mut validator = Validator::new();
    let mut resultaten = Vec::with_capacity(files.len());
    let mut invalid = 0usize;
    for (file, content) in &files {
        let text =
            read_text_file(file, limits.max_file_bytes).map_err(|e| problems::load_error(&e))?;
        let report = match content {
            Content::Law => validator.check(&Origin::File(file.clone()), &text),
            Content::Notes => validator.check_notes(&text),
        };
        if !report.violations.is_empty() {
            invalid += 1;
        }
        resultaten.push(result_json(file, *content, &report));
    }
    let data = json!({
        "geldig": invalid == 0,
        "bestanden": files.len(),
        "ongeldig": invalid,
        "schema": shipped_versions(),
        "resultaten": resultaten,
    });
    let digest = canonical_sha256(&data);
    let mut outcome = passed
        .answer(data, SOURCE, Environment::Local)
        .source_url("urn:regelrecht:valideer", "LOCAL", digest)
        .extra("engine_version", ENGINE_VERSION.into());
    if invalid > 0 {
        outcome = outcome.failed(
            Problem::new(
                ExitStatus::Error,
                common::codes::WET_ONGELDIG,
                "Wetbestand ongeldig",
                format!("{invalid} van {} bestanden ongeldig", files.len()),
            )
            .with_hint("zie per bestand de overtredingen met hun pad in de uitvoer op stdout"),
        );
    }
    Ok(outcome)
}

/// The shipped schema versions, as `v0.2.0 t/m v0.5.6`.
fn shipped_versions() -> String {
    let versions: Vec<&str> = schema_versions().collect();
    format!(
        "{} t/m {}",
        versions.first().unwrap_or(&"?"),
        versions.last().unwrap_or(&"?")
    )
}

/// What a file holds.
#[derive(Clone, Copy)]
enum Content {
    /// A law (one version), checked against the law schema of its `$schema`.
    Law,
    /// Stand-off notes (RFC-005), checked against the annotation schema.
    Notes,
}

fn result_json(file: &Path, content: Content, report: &Report) -> Value {
    let fouten: Vec<Value> = report
        .violations
        .iter()
        .map(|v| {
            let mut fout = json!({"soort": v.kind.as_str(), "pad": v.path, "melding": v.problem});
            if let Some(line) = v.line {
                fout["regel"] = line.into();
            }
            fout
        })
        .collect();
    json!({
        "bestand": file.display().to_string(),
        "inhoud": match content {
            Content::Law => "wet",
            Content::Notes => "notities",
        },
        "law_id": report.law_id,
        "schema": report.schema,
        "schemaversie": report.schema_version,
        "geldig": fouten.is_empty(),
        "fouten": fouten,
    })
}

//! `wet valideer PAD…`: validate law files against the format, as the reference's `validate`
//! does: the JSON Schema (RegelRecht v0.5.6, shipped in the program), the `$schema` version,
//! the engine's own reading of the law, and the unit checks (RFC-023). Every violation is listed
//! with its path; any invalid file ends the run with exit 1 (`WET_ONGELDIG`) after the data.
//!
//! The schema is compiled only here, so no other command pays for it at start-up.

use std::path::{Path, PathBuf};

use common::digest::canonical_sha256;
use common::validate::Validation;
use common::{
    Annotations, ArgSchema, CommandSpec, Context, Environment, ExitStatus, Outcome, PlanSpec,
    Problem, Result,
};
use regelrecht_engine::Origin;
use regelrecht_engine::load::{Limits, corpus_files, is_law_text, read_text_file};
use regelrecht_engine::validate::{Report, SCHEMA_VERSION, Validator};
use serde_json::{Value, json};

use crate::cli::laws::{ENGINE_VERSION, SOURCE};
use crate::cli::problems;

/// Toets wetbestanden aan het formaat
///
/// PAD is een wetbestand of een map (zoals --corpus). Toetst aan het JSON Schema v0.5.6,
/// $schema (v0.2.0 t/m v0.5.6), de engine en de eenheden (RFC-023); elke fout met haar pad.
/// Exit 1 als een bestand ongeldig is.
#[derive(clap::Args, serde::Serialize, Debug)]
pub(crate) struct Args {
    /// Wetbestanden of mappen
    #[arg(value_name = "PAD", required = true)]
    #[serde(serialize_with = "common::plan::paths")]
    pub paden: Vec<PathBuf>,
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["wet", "valideer"],
    title: "Wetbestanden valideren",
    annotations: Annotations::READ_LOCAL,
    output_schema: include_str!("../../../../schemas/wet_valideer.json"),
    examples: &[&["wet", "valideer", "."]],
    args: &[
        ArgSchema::path("paden"),
        ArgSchema {
            name: "paden",
            schema: r#"{"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}}"#,
        },
    ],
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
    let mut files: Vec<PathBuf> = Vec::new();
    for path in &args.paden {
        if path.is_dir() {
            for file in corpus_files(path, limits).map_err(|e| problems::load_error(&e))? {
                let text = read_text_file(&file, limits.max_file_bytes)
                    .map_err(|e| problems::load_error(&e))?;
                if is_law_text(&text) {
                    files.push(file);
                }
            }
        } else {
            files.push(path.clone());
        }
    }
    let passed = ctx.gate(PlanSpec::of(args))?;

    let validator = Validator::new();
    let mut resultaten = Vec::with_capacity(files.len());
    let mut invalid = 0usize;
    for file in &files {
        let text =
            read_text_file(file, limits.max_file_bytes).map_err(|e| problems::load_error(&e))?;
        let report = validator.check(&Origin::File(file.clone()), &text);
        if !report.violations.is_empty() {
            invalid += 1;
        }
        resultaten.push(result_json(file, &report));
    }
    let data = json!({
        "geldig": invalid == 0,
        "bestanden": files.len(),
        "ongeldig": invalid,
        "schema": SCHEMA_VERSION,
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

fn result_json(file: &Path, report: &Report) -> Value {
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
        "law_id": report.law_id,
        "schema": report.schema,
        "geldig": fouten.is_empty(),
        "fouten": fouten,
    })
}

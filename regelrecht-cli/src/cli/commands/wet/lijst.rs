//! `wet lijst`: every loaded law, one row per law with each of its versions, built in or from a
//! corpus directory.
//!
//! What a row shows (name, layer, BWB id, outputs) comes from the scan of each file's lines,
//! kept in the cache's index of the directory, so a 25,000-file checkout is listed without
//! parsing its laws; a file the scan is not sure of is parsed, and if that fails it is reported
//! (exit 65, file and line). `wet valideer` checks every file in full.

use common::digest::canonical_sha256;
use common::validate::Validation;
use common::{Annotations, CommandSpec, Context, Environment, Outcome, PlanSpec, Result};
use regelrecht_engine::load::Listed;
use serde_json::{Value, json};

use crate::cli::laws::{self, CorpusArgs, ENGINE_VERSION, SOURCE};
use crate::cli::problems;

common::arguments! {
    /// Om een law_id te vinden: alle geladen wetten met naam, BWB-id, uitvoer, versies
    ///
    /// Elk bestand wordt volledig gelezen; een ongeldig bestand geeft exit 65 met bestand en regel.
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        #[command(flatten)]
        #[serde(flatten)]
        pub corpus: CorpusArgs => flatten,
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["wet", "lijst"],
    title: "Geladen wetten",
    annotations: Annotations::READ_LOCAL,
    output_schema: include_str!("../../../../schemas/wet_lijst.json"),
    examples: &[&["wet", "lijst"]],
    args: Args::SCHEMAS,
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let mut validation = Validation::new();
    args.corpus.validate(&mut validation);
    validation.finish()?;
    let corpus = args.corpus.load(ctx)?;
    // Files in a schema version this engine does not read are left out (loading warned); the
    // others are listed from the index where it describes them, none made into a law file.
    let mut files: Vec<Listed<'_>> = corpus.listed().collect();
    files.sort_by(|a, b| (a.id(), a.valid_from()).cmp(&(b.id(), b.valid_from())));
    let passed = ctx.gate(PlanSpec::of(args))?;

    let mut wetten: Vec<Value> = Vec::new();
    for group in files.chunk_by(|a, b| a.id() == b.id()) {
        wetten.push(entry(group)?);
    }
    let data = json!({"aantal": wetten.len(), "aantal_versies": files.len(), "wetten": wetten});
    let digest = canonical_sha256(&data);
    let directories: Vec<Value> = laws::env_dirs(ctx)
        .iter()
        .chain(&args.corpus.corpus)
        .map(|d| laws::file_uri(d).into())
        .collect();
    Ok(passed
        .answer(data, SOURCE, Environment::Local)
        .source_url("urn:regelrecht:corpus", "LOCAL", digest)
        .extra("corpus", directories.into())
        .extra("engine_version", ENGINE_VERSION.into()))
}

/// One law: its newest version's name (a `#output` name resolved), layer, BWB id and outputs,
/// and every loaded version with its dates and file.
fn entry(versions: &[Listed<'_>]) -> Result<Value> {
    // Versions are sorted by valid_from.
    let newest = &versions[versions.len() - 1];
    let summary = newest.summary().map_err(|e| problems::load_error(&e))?;
    let sources: Vec<(String, bool)> = versions.iter().map(laws::listed_source_uri).collect();
    let versies: Vec<Value> = versions
        .iter()
        .zip(&sources)
        .map(|(f, (bron, ingebouwd))| {
            json!({
                "valid_from": f.valid_from(),
                "valid_to": f.valid_to(),
                "ingebouwd": ingebouwd,
                "bron": bron,
            })
        })
        .collect();
    let (bron, ingebouwd) = &sources[sources.len() - 1];
    Ok(json!({
        "law_id": newest.id(),
        "naam": summary.name,
        "laag": summary.layer,
        "valid_from": newest.valid_from(),
        "valid_to": newest.valid_to(),
        "bwb_id": summary.bwb_id,
        "uitvoer": summary.outputs,
        "ingebouwd": ingebouwd,
        "bron": bron,
        "versies": versies,
    }))
}

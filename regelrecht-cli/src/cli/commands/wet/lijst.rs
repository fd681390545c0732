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
    // Sorted by `$id` and `valid_from`, each read once (from the index's text, checked as it is
    // read), not once per comparison: 25,000 files take some 400,000 comparisons.
    let mut files: Vec<Keyed<'_>> = corpus
        .listed()
        .map(|listed| Keyed {
            id: listed.id(),
            valid_from: listed.valid_from(),
            listed,
        })
        .collect();
    files.sort_by(|a, b| (a.id, a.valid_from).cmp(&(b.id, b.valid_from)));
    let passed = ctx.gate(PlanSpec::of(args))?;

    let mut wetten: Vec<Value> = Vec::new();
    for group in files.chunk_by(|a, b| a.id == b.id) {
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

/// A listed law file with its sort key.
struct Keyed<'c> {
    id: &'c str,
    valid_from: Option<&'c str>,
    listed: Listed<'c>,
}

/// One law: its newest version's name (a `#output` name resolved), layer, BWB id and outputs,
/// and every loaded version with its dates and file.
fn entry(versions: &[Keyed<'_>]) -> Result<Value> {
    // Versions are sorted by valid_from.
    let newest = &versions[versions.len() - 1];
    let summary = newest
        .listed
        .summary()
        .map_err(|e| problems::load_error(&e))?;
    let mut newest_source = (String::new(), false);
    let mut versies = Vec::with_capacity(versions.len());
    for (at, keyed) in versions.iter().enumerate() {
        let f = &keyed.listed;
        let (bron, ingebouwd) = laws::listed_source_uri(f);
        if at + 1 == versions.len() {
            newest_source = (bron.clone(), ingebouwd);
        }
        versies.push(object([
            ("valid_from", keyed.valid_from.into()),
            ("valid_to", f.valid_to().into()),
            ("ingebouwd", ingebouwd.into()),
            ("bron", bron.into()),
        ]));
    }
    let (bron, ingebouwd) = newest_source;
    Ok(object([
        ("law_id", newest.id.into()),
        ("naam", summary.name.into()),
        ("laag", summary.layer.into()),
        ("valid_from", newest.valid_from.into()),
        ("valid_to", newest.listed.valid_to().into()),
        ("bwb_id", summary.bwb_id.into()),
        ("uitvoer", summary.outputs.into()),
        ("ingebouwd", ingebouwd.into()),
        ("bron", bron.into()),
        ("versies", versies.into()),
    ]))
}

/// A JSON object of `members` in their order, its map made at its size at once (a listing
/// makes 47,000 of them; `json!` grows each map as it goes).
fn object<const N: usize>(members: [(&str, Value); N]) -> Value {
    let mut map = serde_json::Map::with_capacity(N);
    for (name, value) in members {
        map.insert(name.to_string(), value);
    }
    Value::Object(map)
}

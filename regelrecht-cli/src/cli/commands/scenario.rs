//! `scenario PAD…`: run RegelRecht BDD scenarios (`.feature` files, or every one under a
//! directory) against the loaded laws, with the step grammar `bdd/grammar.yaml`.
//!
//! The data lists every scenario with its result and a summary (also per tier); the closing
//! line `N passed, N failed[, N skipped]; core p/n, …` goes to stderr for people. Any failed
//! or unrunnable scenario ends the run with exit 1 (`SCENARIO_GEFAALD`) after the data.

use std::path::{Path, PathBuf};

use common::digest::canonical_sha256;
use common::validate::Validation;
use common::{
    Annotations, CommandSpec, Context, Environment, ExitStatus, Outcome, PlanSpec, Problem, Result,
};
use regelrecht_engine::load::{Limits, find_files, read_text_file};
use regelrecht_engine::scenario::{self, Counts, Outcome as ScenarioOutcome, RunOptions};
use serde_json::{Map, Value, json};

use crate::cli::laws::{CorpusArgs, ENGINE_VERSION, SOURCE};
use crate::cli::problems;

common::arguments! {
    /// Voer RegelRecht-scenario's (.feature) uit tegen de geladen wetten
    ///
    /// Elke PAD is een .feature-bestand of een map (alle .feature-bestanden daaronder);
    /// --ingebouwd voegt de meegeleverde scenario's van de ingebouwde wetten toe. Stappen
    /// volgen de canonieke grammatica van RegelRecht (bdd/grammar.yaml, tiers core, notes,
    /// untranslatable, provenance). Per scenario: passed, failed (met stap en reden; ook een
    /// scenario dat niet uitgevoerd kan worden) of skipped (@wip, met reden). De slotregel
    /// "N passed, N failed" staat op stderr; exit 1 zodra een scenario faalt.
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        /// .feature-bestanden of mappen
        #[arg(value_name = "PAD", required_unless_present = "ingebouwd")]
        #[serde(serialize_with = "common::plan::paths")]
        pub paden: Vec<PathBuf>
            => [path, {"type": "array", "items": {"type": "string", "minLength": 1}}],
        /// (Ook) de scenario's van de ingebouwde wetten
        #[arg(long)]
        pub ingebouwd: bool,
        /// Ook scenario's met de tag @wip (bekende gaten)
        #[arg(long)]
        pub wip: bool,
        #[command(flatten)]
        #[serde(flatten)]
        pub corpus: CorpusArgs => flatten,
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["scenario"],
    title: "Scenario's uitvoeren",
    annotations: Annotations::READ_LOCAL,
    output_schema: include_str!("../../../schemas/scenario.json"),
    examples: &[&["scenario", "--ingebouwd"]],
    args: Args::SCHEMAS,
}];

/// The scenarios shipped for the built-in laws (`--ingebouwd`).
const BUILTIN: &[(&str, &str)] = &[(
    "ingebouwd:energiebesparing.feature",
    include_str!("../../../scenarios/energiebesparing.feature"),
)];

/// Largest feature file read.
const MAX_FEATURE_BYTES: u64 = 1024 * 1024;

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let mut validation = Validation::new();
    for path in &args.paden {
        validation.check(path.exists(), "paden", || {
            format!("{}: bestaat niet", path.display())
        });
    }
    args.corpus.validate(&mut validation);
    validation.finish()?;
    let limits = Limits {
        deadline: Some(ctx.deadline()),
        ..Limits::default()
    };
    let mut files: Vec<PathBuf> = Vec::new();
    for path in &args.paden {
        if path.is_dir() {
            files.extend(
                find_files(path, &["feature"], limits).map_err(|e| problems::load_error(&e))?,
            );
        } else {
            files.push(path.clone());
        }
    }
    let corpus = args.corpus.load(ctx)?;
    let passed = ctx.gate(PlanSpec::of(args))?;

    let options = RunOptions { wip: args.wip };
    let mut results = Vec::new();
    if args.ingebouwd {
        for (name, text) in BUILTIN {
            let feature = scenario::feature::parse(text);
            results.extend(scenario::run_feature(&corpus, &feature, name, options));
        }
    }
    for file in &files {
        let text = read_text_file(file, MAX_FEATURE_BYTES).map_err(|e| problems::load_error(&e))?;
        let feature = scenario::feature::parse(&text);
        results.extend(scenario::run_feature(
            &corpus,
            &feature,
            &shown(file),
            options,
        ));
    }
    let (total, tiers) = scenario::summarize(&results);
    let line = summary_line(&total, &tiers);

    let scenarios: Vec<Value> = results.iter().map(result_json).collect();
    let per_tier: Map<String, Value> = tiers
        .iter()
        .map(|(tier, c)| (tier.clone(), counts_json(c)))
        .collect();
    let mut samenvatting = counts_json(&total);
    samenvatting["per_tier"] = per_tier.into();
    samenvatting["regel"] = line.clone().into();
    let data = json!({
        "bestanden": files.len() + if args.ingebouwd { BUILTIN.len() } else { 0 },
        "scenarios": scenarios,
        "samenvatting": samenvatting,
    });
    let digest = canonical_sha256(&data);
    let mut outcome = passed
        .answer(data, SOURCE, Environment::Local)
        .source_url("urn:regelrecht:scenario", "LOCAL", digest)
        .extra("engine_version", ENGINE_VERSION.into())
        .extra("grammatica", "bdd/grammar.yaml (RegelRecht)".into())
        .closing(line.clone());
    if total.failed > 0 {
        outcome = outcome.failed(
            Problem::new(
                ExitStatus::Error,
                common::codes::SCENARIO_GEFAALD,
                "Scenario's gefaald",
                line,
            )
            .with_hint("zie per scenario de stap en de reden in de uitvoer op stdout"),
        );
    }
    Ok(outcome)
}

fn shown(path: &Path) -> String {
    path.display().to_string()
}

/// `N passed, N failed[, N skipped]; core p/n, …` (n counts every scenario of the tier).
pub(crate) fn summary_line(total: &Counts, tiers: &[(String, Counts)]) -> String {
    let mut line = format!("{} passed, {} failed", total.passed, total.failed);
    if total.skipped > 0 {
        line.push_str(&format!(", {} skipped", total.skipped));
    }
    if !tiers.is_empty() {
        let per: Vec<String> = tiers
            .iter()
            .map(|(t, c)| format!("{t} {}/{}", c.passed, c.passed + c.failed + c.skipped))
            .collect();
        line.push_str(&format!("; {}", per.join(", ")));
    }
    line
}

fn counts_json(c: &Counts) -> Value {
    json!({"passed": c.passed, "failed": c.failed, "skipped": c.skipped})
}

fn result_json(r: &scenario::ScenarioResult) -> Value {
    let mut v = json!({
        "bestand": r.file,
        "regel": r.line,
        "feature": r.feature,
        "scenario": r.name,
        "tiers": r.tiers,
    });
    match &r.outcome {
        ScenarioOutcome::Passed => v["resultaat"] = "passed".into(),
        ScenarioOutcome::Failed { line, step, reason } => {
            v["resultaat"] = "failed".into();
            if *line > 0 && !step.is_empty() {
                v["stap"] = json!({"regel": line, "tekst": step});
            }
            v["reden"] = reason.clone().into();
        }
        ScenarioOutcome::Skipped { reason } => {
            v["resultaat"] = "skipped".into();
            v["reden"] = reason.clone().into();
        }
    }
    v
}

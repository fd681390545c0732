//! `wet toon LAW_ID`: one law version as a legal engineer reads it — parameters with types and
//! descriptions, inputs and their sources, outputs, definitions (thresholds), open terms,
//! and the articles with their text.

use common::args::Peildatum;
use common::validate::Validation;
use common::{Annotations, CommandSpec, Context, Environment, Outcome, PlanSpec, Result};
use regelrecht_engine::{Article, Field, Law, LawFile};
use serde_json::{Value, json};

use crate::cli::laws::{self, CorpusArgs, ENGINE_VERSION, SOURCE};
use crate::cli::problems;

common::arguments! {
    /// Toon één wet: parameters, invoer en bronnen, uitvoer, definities, artikelen (vóór evalueer)
    ///
    /// Kiest de versie die geldt op de peildatum.
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        /// $id van de wet (zie wet lijst)
        pub law_id: String => {"minLength": 1, "examples": ["besluit_activiteiten_leefomgeving"]},
        #[command(flatten)]
        #[serde(flatten)]
        pub peildatum: Peildatum => flatten,
        #[command(flatten)]
        #[serde(flatten)]
        pub corpus: CorpusArgs => flatten,
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["wet", "toon"],
    title: "Eén wet bekijken",
    annotations: Annotations::READ_LOCAL,
    output_schema: include_str!("../../../../schemas/wet_toon.json"),
    examples: &[&[
        "wet",
        "toon",
        "besluit_activiteiten_leefomgeving",
        "--peildatum",
        "2026-01-01",
    ]],
    args: Args::SCHEMAS,
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let law_id = args.law_id.trim();
    let mut validation = Validation::new();
    validation.check(!law_id.is_empty(), "law_id", || "geef een $id".to_string());
    let date = args.peildatum.date(ctx.today(), &mut validation);
    args.corpus.validate(&mut validation);
    validation.finish()?;
    let corpus = args.corpus.load(ctx)?;
    let file = laws::select(&corpus, law_id, date)?;
    let law = file.law().map_err(|e| problems::load_error(&e))?;
    let passed = ctx.gate(
        PlanSpec::of(args)
            .set("law_id", law_id)
            .set("peildatum", date.to_string()),
    )?;

    let data = describe(file, law, &date.to_string());
    Ok(passed
        .answer(data, SOURCE, Environment::Local)
        .source_url(laws::source_uri(file), "LOCAL", file.sha256())
        .extra("law_id", file.id.clone().into())
        .extra("valid_from", file.valid_from.clone().into())
        .extra("engine_version", ENGINE_VERSION.into()))
}

fn describe(file: &LawFile, law: &Law, peildatum: &str) -> Value {
    let mut parameters = Vec::new();
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    let mut definitions = Vec::new();
    let mut open_terms = Vec::new();
    let mut implements = Vec::new();
    for article in &law.articles {
        let Some(mr) = &article.machine_readable else {
            continue;
        };
        for (name, def) in &mr.definitions {
            definitions.push(json!({
                "naam": name,
                "waarde": def.value.to_json(),
                "type": def.r#type,
                "eenheid": def.unit,
                "artikel": article.number,
            }));
        }
        if let Some(exec) = &mr.execution {
            for f in &exec.parameters {
                add_parameter(&mut parameters, f, article);
            }
            inputs.extend(exec.input.iter().map(|f| field(f, article)));
            outputs.extend(exec.output.iter().map(|f| field(f, article)));
        }
        for term in &mr.open_terms {
            open_terms.push(json!({
                "id": term.id,
                "type": term.term_type.as_str(),
                "verplicht": term.required,
                "gedelegeerd_aan": term.delegated_to,
                "omschrijving": term.description,
                "artikel": article.number,
            }));
        }
        for imp in &mr.implements {
            implements.push(json!({
                "wet": imp.law,
                "artikel": imp.article,
                "open_norm": imp.open_term,
            }));
        }
    }
    let articles: Vec<Value> = law
        .articles
        .iter()
        .map(|a| {
            json!({
                "nummer": a.number,
                "url": a.url,
                "uitvoerbaar": a.execution().is_some(),
                "tekst": a.text,
            })
        })
        .collect();
    json!({
        "law_id": law.id,
        "naam": law.name,
        "laag": law.regulatory_layer,
        "bwb_id": law.bwb_id,
        "url": law.url,
        "peildatum": peildatum,
        "valid_from": file.valid_from,
        "valid_to": file.valid_to,
        "ingebouwd": file.is_builtin(),
        "bron": laws::source_uri(file),
        "regulation_sha256": file.sha256(),
        "parameters": parameters,
        "invoer": inputs,
        "uitvoer": outputs,
        "definities": definitions,
        "open_normen": open_terms,
        "implementeert": implements,
        "artikelen": articles,
    })
}

/// Each parameter once, with every article that declares it (`artikelen`, in order; `artikel`
/// is the first) and `verplicht` when any of them requires it.
fn add_parameter(parameters: &mut Vec<Value>, f: &Field, article: &Article) {
    if let Some(known) = parameters.iter_mut().find(|p| p["naam"] == f.name.as_str()) {
        if let Some(list) = known["artikelen"].as_array_mut() {
            list.push(article.number.clone().into());
        }
        if f.required == Some(true) {
            known["verplicht"] = true.into();
        }
        return;
    }
    let mut value = field(f, article);
    value["artikelen"] = json!([article.number]);
    parameters.push(value);
}

fn field(f: &Field, article: &Article) -> Value {
    let mut value = json!({
        "naam": f.name,
        "type": f.field_type.as_str(),
        "omschrijving": f.description,
        "eenheid": f.unit(),
        "artikel": article.number,
    });
    if let Some(required) = f.required {
        value["verplicht"] = required.into();
    }
    if let Some(source) = &f.source {
        value["bron"] = json!({
            "wet": source.regulation,
            "uitvoer": source.output.clone().unwrap_or_else(|| f.name.clone()),
            "parameters": source.parameters,
            "omschrijving": source.description,
        });
    }
    value
}

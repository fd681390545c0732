//! `ontvangstbewijs controleer BESTAND|-`: re-run an execution receipt (from `evalueer
//! --ontvangstbewijs`, or the reference engine's `evaluate --receipt`; see [`super::claim`])
//! and confirm the same result: the seal is intact (own receipts), every law version it names
//! has the same SHA-256 now (a reference receipt's whole scope, each version resolved by its
//! hash, [`super::bereik`]), the engine configuration is the same, and the same parameters give
//! the same values for every output it lists, in the same mode and stage. A receipt whose seal
//! does not match, or of an engine or schema version this tool does not read, is exit 65; a
//! receipt that no longer reproduces prints what differs, by kind (`gewijzigd`: waarde, wet,
//! bereik, configuratie, schemaversie), and ends with exit 1 (`ONTVANGSTBEWIJS_AFWIJKEND`).

use std::str::FromStr;

use common::validate::Validation;
use common::{
    Annotations, CommandSpec, Context, Environment, ExitStatus, Outcome, PlanSpec, Problem, Result,
};
use regelrecht_engine::Request;
use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::bereik::{self, Change, Kind};
use super::claim::{self, Claim, Format};
use crate::cli::evaluation::{self, Options};
use crate::cli::laws::{self, CorpusArgs, ENGINE_VERSION, SOURCE};
use crate::cli::outputs;
use crate::cli::params;

common::arguments! {
    /// Om een eerdere berekening te controleren: herhaal haar ontvangstbewijs
    ///
    /// Leest een ontvangstbewijs (de uitvoer van evalueer --ontvangstbewijs, of het
    /// ontvangstbewijs van de referentie-engine, RFC-013) uit BESTAND, '-' (stdin) of de JSON
    /// zelf, controleert de verzegeling (SHA-256; de referentie-engine verzegelt niet), vergelijkt de
    /// hash van elke genoemde wetsversie met de geladen versie (bij de referentie-engine het hele
    /// bereik, elke versie op haar hash) en de engineconfiguratie, en rekent opnieuw met dezelfde
    /// parameters, peildatum, modus en fase. Gelijk: exit 0. Afwijkend: wat er verschilt (waarde,
    /// wet, bereik, configuratie, schemaversie) en exit 1.
    #[derive(clap::Args, Debug)]
    pub(crate) struct Args {
        /// Het ontvangstbewijs: een bestand, '-' voor stdin, of de JSON zelf (begint met '{')
        #[arg(value_name = "BESTAND")]
        pub bestand: String => path_or_stdin_json_object,
        #[command(flatten)]
        pub corpus: CorpusArgs => flatten,
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["ontvangstbewijs", "controleer"],
    title: "Ontvangstbewijs controleren",
    annotations: Annotations::READ_LOCAL,
    output_schema: include_str!("../../../../schemas/ontvangstbewijs_controleer.json"),
    examples: &[&["ontvangstbewijs", "controleer", EXAMPLE]],
    args: Args::SCHEMAS,
}];

/// A receipt of `evalueer` on the built-in Bal (informatieplicht at 60 000 kWh), inline.
const EXAMPLE: &str = r#"{"versie":1,"engine":"regelrecht-engine 0.1.0","schema":"https://raw.githubusercontent.com/MinBZK/regelrecht/refs/tags/schema-v0.5.6/schema/v0.5.6/schema.json","law_id":"besluit_activiteiten_leefomgeving","peildatum":"2026-01-01","uitvoer":["heeft_informatieplicht"],"parameters":{"aardgasverbruik_m3":1000,"alleen_hernieuwbare_energie_op_locatie":false,"betreft_gebruiksfunctie_bbl":false,"elektriciteitsverbruik_kwh":60000,"is_activiteit_artikel_3_3a_lid_1_onder_a":false,"is_activiteit_artikel_3_3a_lid_1_onder_b":false},"onvertaalbaar":"error","fase":null,"wetten":[{"law_id":"besluit_activiteiten_leefomgeving","valid_from":"2026-01-01","sha256":"2cac22aca24581fbc4e82615ad78829fb2b915cafa9e2d64f4677dce95bc586a"}],"onvertaalbaarheden":[],"resultaat":{"heeft_informatieplicht":true},"gemarkeerd":[],"sha256":"94d8e5073f9e2370046c09e24b43d56629d04d1a6172a16c0a8fdf4579703dd2"}"#;

/// Largest receipt given inline (a file or stdin is read up to the same 1 MiB).
const MAX_RECEIPT_BYTES: u64 = 1024 * 1024;

fn read(source: &str) -> std::result::Result<Value, String> {
    let text = if source.trim_start().starts_with('{') {
        if source.len() as u64 > MAX_RECEIPT_BYTES {
            return Err(format!("groter dan {MAX_RECEIPT_BYTES} bytes"));
        }
        source.to_string()
    } else {
        params::read_source(source)?
    };
    let value: Value = serde_json::from_str(&text)
        .map_err(|e| format!("geen geldige JSON: {}", common::input::json_reason(&e)))?;
    // The receipt itself, the data of `evalueer --ontvangstbewijs`, or its envelope.
    let receipt = value
        .get("ontvangstbewijs")
        .or_else(|| value.get("data").and_then(|d| d.get("ontvangstbewijs")))
        .cloned()
        .unwrap_or(value);
    if !receipt.is_object() {
        return Err("een ontvangstbewijs is een JSON-object".into());
    }
    Ok(receipt)
}

/// Every output the receipt lists against its value now: one `uitvoer` entry each, and a
/// difference of kind value for each that changed.
fn compare_outputs(
    claim: &Claim,
    computed: &serde_json::Map<String, Value>,
    changes: &mut Vec<Change>,
) -> Vec<Value> {
    let mut uitvoer = Vec::new();
    for (name, before) in &claim.results {
        let after = computed.get(name).cloned().unwrap_or(Value::Null);
        let same = same_value(&after, before);
        if !same {
            let after_text = if computed.contains_key(name) {
                after.to_string()
            } else {
                "niet berekend".to_string()
            };
            changes.push(Change::new(
                Kind::Value,
                format!("uitvoer {name}: was {before}, nu {after_text}"),
            ));
        }
        uitvoer.push(json!({"naam": name, "bewijs": before, "nu": after, "gelijk": same}));
    }
    uitvoer
}

/// An own receipt's marks (`gemarkeerd`, `onvertaalbaarheden`) against those of the evaluation
/// now.
fn compare_marks(claim: &Claim, now: &Value, changes: &mut Vec<Change>) {
    if let Some((gemarkeerd, onvertaalbaarheden)) = &claim.marks {
        for (key, then) in [
            ("gemarkeerd", gemarkeerd),
            ("onvertaalbaarheden", onvertaalbaarheden),
        ] {
            if *then != now[key] {
                changes.push(Change::new(
                    Kind::Value,
                    format!("{key}: was {then}, nu {}", now[key]),
                ));
            }
        }
    }
}

/// The closing line: confirmed, or the kinds that differ and every difference.
fn closing_line(kinds: &[Kind], verschillen: &[&str]) -> String {
    if verschillen.is_empty() {
        "ontvangstbewijs bevestigd: zelfde wetten, zelfde uitkomst".to_string()
    } else {
        let kinds: Vec<&str> = kinds.iter().map(|k| k.label()).collect();
        format!(
            "ontvangstbewijs wijkt af ({}): {}",
            kinds.join(", "),
            verschillen.join("; ")
        )
    }
}

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let mut validation = Validation::new();
    args.corpus.validate(&mut validation);
    let receipt = match read(&args.bestand) {
        Ok(r) => r,
        Err(detail) => {
            validation.push("bestand", detail);
            Value::Null
        }
    };
    validation.finish()?;
    let claim = claim::read(&receipt)?;

    let corpus = args.corpus.load(ctx)?;
    let file = laws::select(&corpus, &claim.law_id, claim.date)?;
    let law = file
        .law()
        .map_err(|e| crate::cli::problems::load_error(&e))?;
    // What is checked is the receipt's claim, so its law is a member of the plan: a request
    // assembled from the file, not only the arguments.
    let passed = ctx.gate(PlanSpec::of_request(&json!({
        "bestand": args.bestand,
        "law_id": claim.law_id,
        "corpus": args.corpus.arguments(),
    })))?;
    let (typed, _) = params::typed(law, Some(claim.params.clone()), &[])?;
    params::audit_subjects(ctx, &typed.values);
    let request = Request {
        law_id: claim.law_id.clone(),
        outputs: claim.outputs.clone(),
        params: typed.values,
        date: claim.date,
    };
    let options = Options {
        mode: claim.mode,
        fase: claim.fase.as_deref(),
        uitleg: false,
        receipt: true,
    };
    let again = evaluation::evaluate(&corpus, &request, &claim.params, &options)?;
    let now = &again.data["ontvangstbewijs"];

    let mut changes: Vec<Change> = Vec::new();
    let wetten = match &claim.reference {
        None => {
            let empty = Vec::new();
            let now_laws = now["wetten"].as_array().unwrap_or(&empty);
            compare_laws(&claim, now_laws, &mut changes)
        }
        Some(reference) => {
            bereik::compare_engine(reference, law.schema.as_deref(), &mut changes);
            bereik::compare(&claim.laws, reference, &corpus, file, &mut changes)
        }
    };
    // An own receipt lists the requested outputs; a reference receipt every output of the
    // articles executed (with their hooks and overrides): each is compared.
    let computed: serde_json::Map<String, Value> = match claim.format {
        Format::Own => now["resultaat"].as_object().cloned().unwrap_or_default(),
        Format::Reference => outputs::outputs_json(&again.evaluation, true),
    };
    let uitvoer = compare_outputs(&claim, &computed, &mut changes);
    compare_marks(&claim, now, &mut changes);
    let engine_same = claim.engine == now["engine"];
    let gelijk = changes.is_empty();
    let mut kinds: Vec<Kind> = changes.iter().map(|c| c.kind).collect();
    kinds.sort_unstable();
    kinds.dedup();
    let verschillen: Vec<&str> = changes.iter().map(|c| c.text.as_str()).collect();
    let data = json!({
        "gelijk": gelijk,
        "formaat": claim.format.label(),
        "verzegeling": claim.format.seal(),
        "law_id": claim.law_id,
        "peildatum": claim.date.to_string(),
        "wetten": wetten,
        "uitvoer": uitvoer,
        "engine": {"bewijs": claim.engine, "nu": now["engine"], "gelijk": engine_same},
        "gewijzigd": kinds.iter().map(|k| k.label()).collect::<Vec<_>>(),
        "verschillen": verschillen,
    });
    let line = closing_line(&kinds, &verschillen);
    let mut outcome = passed
        .answer(data, SOURCE, Environment::Local)
        .source_url(laws::source_uri(file), "LOCAL", file.sha256())
        .extra("engine_version", ENGINE_VERSION.into())
        .closing(line.clone());
    if !gelijk {
        outcome = outcome.failed(Problem::new(
            ExitStatus::Error,
            common::codes::ONTVANGSTBEWIJS_AFWIJKEND,
            "Ontvangstbewijs wijkt af",
            line,
        ));
    }
    Ok(outcome)
}

/// The law versions an own receipt names against those the evaluation reaches now, as the
/// result's `wetten`; every difference is pushed to `changes`. An own receipt names exactly the
/// versions its evaluation reached, so each must still be reached with the same hash, and no
/// other may be reached.
fn compare_laws(claim: &Claim, now_laws: &[Value], changes: &mut Vec<Change>) -> Vec<Value> {
    let mut wetten = Vec::new();
    for claimed in &claim.laws {
        let now = now_laws
            .iter()
            .find(|n| n["law_id"] == claimed.law_id.as_str());
        let same = now.is_some_and(|n| n["sha256"] == claimed.sha256.as_str());
        if !same {
            changes.push(Change::new(
                Kind::Law,
                format!("wet {} is niet meer dezelfde versie", claimed.law_id),
            ));
        }
        wetten.push(json!({
            "law_id": claimed.law_id,
            "valid_from": claimed.valid_from,
            "sha256_bewijs": claimed.sha256,
            "sha256_nu": now.map(|n| n["sha256"].clone()),
            "gelijk": same,
        }));
    }
    for n in now_laws {
        if !claim.laws.iter().any(|l| n["law_id"] == l.law_id.as_str()) {
            changes.push(Change::new(
                Kind::Scope,
                format!(
                    "wet {} wordt nu ook gebruikt",
                    n["law_id"].as_str().unwrap_or("?")
                ),
            ));
        }
    }
    wetten
}

/// Equal outputs: numbers by their exact decimal value (the reference writes decimals as
/// binary floating point, `1` and `1.0` are the same amount), the rest as JSON.
fn same_value(now: &Value, then: &Value) -> bool {
    match (now, then) {
        (Value::Number(a), Value::Number(b)) => decimal(a).is_some() && decimal(a) == decimal(b),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_value(x, y))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(k, v)| b.get(k).is_some_and(|w| same_value(v, w)))
        }
        _ => now == then,
    }
}

fn decimal(number: &serde_json::Number) -> Option<Decimal> {
    let text = number.to_string();
    Decimal::from_str(&text)
        .or_else(|_| Decimal::from_scientific(&text))
        .ok()
}

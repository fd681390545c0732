//! `ontvangstbewijs controleer BESTAND|-`: re-run an execution receipt (from `evalueer
//! --ontvangstbewijs`, or the reference engine's `evaluate --receipt`; see [`super::claim`])
//! and confirm the same result: the seal is intact (own receipts), every law version it names
//! has the same SHA-256 now, and the same parameters give the same outputs in the same mode
//! and stage. A receipt whose seal does not match is exit 65; a receipt that no longer
//! reproduces prints what differs and ends with exit 1 (`ONTVANGSTBEWIJS_AFWIJKEND`).

use std::str::FromStr;

use common::validate::Validation;
use common::{
    Annotations, ArgSchema, CommandSpec, Context, Environment, ExitStatus, Outcome, PlanSpec,
    Problem, Result,
};
use regelrecht_engine::Request;
use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::claim::{self, Claim, ClaimedLaw, Format};
use crate::cli::evaluation::{self, Options};
use crate::cli::laws::{self, CorpusArgs, ENGINE_VERSION, SOURCE};
use crate::cli::params;

/// Om een eerdere berekening te controleren: herhaal haar ontvangstbewijs
///
/// Leest een ontvangstbewijs (de uitvoer van evalueer --ontvangstbewijs, of het
/// ontvangstbewijs van de referentie-engine, RFC-013) uit BESTAND, '-' (stdin) of de JSON
/// zelf, controleert de verzegeling (SHA-256; de referentie-engine verzegelt niet), vergelijkt de hash van elke genoemde
/// wetsversie met de geladen versie en rekent opnieuw met dezelfde parameters, peildatum,
/// modus en fase. Gelijk: exit 0. Afwijkend: de verschillen en exit 1.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Het ontvangstbewijs: een bestand, '-' voor stdin, of de JSON zelf (begint met '{')
    #[arg(value_name = "BESTAND")]
    pub bestand: String,
    #[command(flatten)]
    pub corpus: CorpusArgs,
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["ontvangstbewijs", "controleer"],
    title: "Ontvangstbewijs herhalen en bevestigen",
    annotations: Annotations::READ_LOCAL,
    output_schema: include_str!("../../../../schemas/ontvangstbewijs_controleer.json"),
    examples: &[&["ontvangstbewijs", "controleer", EXAMPLE]],
    args: &[
        ArgSchema::path_or_stdin_json_object("bestand"),
        laws::CORPUS_SCHEMA,
    ],
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

    let mut verschillen: Vec<String> = Vec::new();
    let empty = Vec::new();
    let now_laws = now["wetten"].as_array().unwrap_or(&empty);
    let wetten = compare_laws(&claim, now_laws, &mut verschillen);
    let mut uitvoer = Vec::new();
    let now_out = now["resultaat"].as_object().cloned().unwrap_or_default();
    for (name, before) in &claim.results {
        let after = now_out.get(name).cloned().unwrap_or(Value::Null);
        let same = same_value(&after, before);
        if !same {
            verschillen.push(format!("uitvoer {name}: was {before}, nu {after}"));
        }
        uitvoer.push(json!({"naam": name, "bewijs": before, "nu": after, "gelijk": same}));
    }
    if let Some((gemarkeerd, onvertaalbaarheden)) = &claim.marks {
        for (key, then) in [
            ("gemarkeerd", gemarkeerd),
            ("onvertaalbaarheden", onvertaalbaarheden),
        ] {
            if *then != now[key] {
                verschillen.push(format!("{key}: was {then}, nu {}", now[key]));
            }
        }
    }
    let engine_same = claim.engine == now["engine"];
    let gelijk = verschillen.is_empty();
    let data = json!({
        "gelijk": gelijk,
        "formaat": claim.format.label(),
        "verzegeling": claim.format.seal(),
        "law_id": claim.law_id,
        "peildatum": claim.date.to_string(),
        "wetten": wetten,
        "uitvoer": uitvoer,
        "engine": {"bewijs": claim.engine, "nu": now["engine"], "gelijk": engine_same},
        "verschillen": verschillen,
    });
    let line = if gelijk {
        "ontvangstbewijs bevestigd: zelfde wetten, zelfde uitkomst".to_string()
    } else {
        format!("ontvangstbewijs wijkt af: {}", verschillen.join("; "))
    };
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

/// The law versions the receipt names against those the evaluation reaches now, as the
/// result's `wetten`; every difference is pushed to `verschillen`.
///
/// An own receipt names exactly the versions its evaluation reached, so each must still be
/// reached with the same hash. The reference's receipt names every version it had loaded,
/// reached or not, so there only the versions reached now are compared: each must be named,
/// with the same hash.
fn compare_laws(claim: &Claim, now_laws: &[Value], verschillen: &mut Vec<String>) -> Vec<Value> {
    let current = |claimed: &ClaimedLaw| {
        now_laws.iter().find(|n| {
            n["law_id"] == claimed.law_id.as_str()
                && (claim.format == Format::Own
                    || claimed.valid_from.is_none()
                    || n["valid_from"].as_str() == claimed.valid_from.as_deref())
        })
    };
    let mut wetten = Vec::new();
    for claimed in &claim.laws {
        let now = current(claimed);
        if claim.format == Format::Reference && now.is_none() && claimed.law_id != claim.law_id {
            continue;
        }
        let same = now.is_some_and(|n| n["sha256"] == claimed.sha256.as_str());
        if !same {
            verschillen.push(format!(
                "wet {} is niet meer dezelfde versie",
                claimed.law_id
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
            verschillen.push(format!(
                "wet {} wordt nu ook gebruikt",
                n["law_id"].as_str().unwrap_or("?")
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

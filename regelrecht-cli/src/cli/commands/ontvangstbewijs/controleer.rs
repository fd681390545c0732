//! `ontvangstbewijs controleer BESTAND|-`: re-run an execution receipt (from `evalueer
//! --ontvangstbewijs`) and confirm the same result: the seal is intact, every law version it
//! names has the same SHA-256 now, and the same parameters give the same outputs in the same
//! mode and stage. A receipt whose seal does not match is exit 65; a receipt that no longer
//! reproduces prints what differs and ends with exit 1 (`ONTVANGSTBEWIJS_AFWIJKEND`).

use chrono::NaiveDate;
use common::validate::Validation;
use common::{
    Annotations, ArgSchema, CommandSpec, Context, Environment, ExitStatus, FieldError, Outcome,
    PlanSpec, Problem, Result,
};
use regelrecht_engine::{Request, UntranslatableMode, parse_iso_date};
use serde_json::{Map, Value, json};

use crate::cli::commands::evalueer::{self, Options};
use crate::cli::laws::{self, CorpusArgs, ENGINE_VERSION, SOURCE};
use crate::cli::receipt;

/// Herhaal een ontvangstbewijs en bevestig dezelfde uitkomst
///
/// Leest een ontvangstbewijs (of de uitvoer van evalueer --ontvangstbewijs) uit BESTAND,
/// '-' (stdin) of de JSON zelf, controleert de verzegeling (SHA-256), vergelijkt de hash van elke genoemde
/// wetsversie met de geladen versie en rekent opnieuw met dezelfde parameters, peildatum,
/// modus en fase. Gelijk: exit 0. Afwijkend: de verschillen en exit 1.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Het ontvangstbewijs: een bestand, '-' voor stdin, of de JSON zelf (begint met '{')
    #[arg(value_name = "BESTAND")]
    pub bestand: String,
    #[command(flatten)]
    pub corpus: CorpusArgs,
}

pub const SPECS: &[CommandSpec] = &[CommandSpec {
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
        evalueer::read_source(source)?
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

fn text<'v>(receipt: &'v Value, key: &str, validation: &mut Validation) -> &'v str {
    let value = receipt[key].as_str();
    validation.check(value.is_some(), "bestand", || {
        format!("het ontvangstbewijs mist \"{key}\"")
    });
    value.unwrap_or_default()
}

pub fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
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
    let mut validation = Validation::new();
    let law_id = text(&receipt, "law_id", &mut validation).to_string();
    let date_text = text(&receipt, "peildatum", &mut validation).to_string();
    let mode_text = text(&receipt, "onvertaalbaar", &mut validation).to_string();
    let seal = text(&receipt, "sha256", &mut validation).to_string();
    validation.check(receipt["versie"] == receipt::VERSION, "bestand", || {
        format!(
            "alleen versie {} van het ontvangstbewijs wordt gelezen",
            receipt::VERSION
        )
    });
    let date: Option<NaiveDate> = parse_iso_date(&date_text);
    validation.check(date.is_some() || date_text.is_empty(), "bestand", || {
        format!("peildatum '{date_text}' is geen datum")
    });
    let mode: Option<UntranslatableMode> = mode_text.parse().ok();
    validation.check(mode.is_some() || mode_text.is_empty(), "bestand", || {
        format!("onbekende modus '{mode_text}'")
    });
    let outputs: Vec<String> = receipt["uitvoer"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|o| o.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    validation.check(!outputs.is_empty(), "bestand", || {
        "het ontvangstbewijs noemt geen uitvoer".to_string()
    });
    let params: Map<String, Value> = receipt["parameters"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    validation.finish()?;
    if receipt::seal(&receipt) != seal {
        return Err(Problem::invalid(vec![FieldError::new(
            "bestand",
            "de verzegeling (sha256) klopt niet: het ontvangstbewijs is gewijzigd",
        )])
        .into());
    }
    let (Some(date), Some(mode)) = (date, mode) else {
        return Err(Problem::software("gevalideerde velden ontbreken").into());
    };
    let fase = receipt["fase"].as_str();

    let corpus = args.corpus.load(ctx)?;
    let file = laws::select(&corpus, &law_id, date)?;
    let law = file
        .law()
        .map_err(|e| crate::cli::problems::load_error(&e))?;
    ctx.gate(PlanSpec::new(json!({
        "bestand": args.bestand,
        "law_id": law_id,
        "corpus": args.corpus.arguments(),
    })))?;
    let (typed, _) = evalueer::typed(law, Some(params.clone()), &[])?;
    evalueer::audit_subjects(ctx, &typed.values);
    let request = Request {
        law_id: law_id.clone(),
        outputs,
        params: typed.values,
        date,
    };
    let options = Options {
        mode,
        fase,
        uitleg: false,
        receipt: true,
    };
    let again = evalueer::evaluate(&corpus, &request, &params, &options)?;
    let now = &again.data["ontvangstbewijs"];

    let mut verschillen: Vec<String> = Vec::new();
    let empty = Vec::new();
    let then_laws = receipt["wetten"].as_array().unwrap_or(&empty);
    let now_laws = now["wetten"].as_array().unwrap_or(&empty);
    let mut wetten = Vec::new();
    for l in then_laws {
        let current = now_laws.iter().find(|n| n["law_id"] == l["law_id"]);
        let same = current.is_some_and(|c| c["sha256"] == l["sha256"]);
        if !same {
            verschillen.push(format!(
                "wet {} is niet meer dezelfde versie",
                l["law_id"].as_str().unwrap_or("?")
            ));
        }
        wetten.push(json!({
            "law_id": l["law_id"],
            "valid_from": l["valid_from"],
            "sha256_bewijs": l["sha256"],
            "sha256_nu": current.map(|c| c["sha256"].clone()),
            "gelijk": same,
        }));
    }
    for n in now_laws {
        if !then_laws.iter().any(|l| l["law_id"] == n["law_id"]) {
            verschillen.push(format!(
                "wet {} wordt nu ook gebruikt",
                n["law_id"].as_str().unwrap_or("?")
            ));
        }
    }
    let mut uitvoer = Vec::new();
    let then_out = receipt["resultaat"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let now_out = now["resultaat"].as_object().cloned().unwrap_or_default();
    for (name, before) in &then_out {
        let after = now_out.get(name).cloned().unwrap_or(Value::Null);
        let same = &after == before;
        if !same {
            verschillen.push(format!("uitvoer {name}: was {before}, nu {after}"));
        }
        uitvoer.push(json!({"naam": name, "bewijs": before, "nu": after, "gelijk": same}));
    }
    for key in ["gemarkeerd", "onvertaalbaarheden"] {
        if receipt[key] != now[key] {
            verschillen.push(format!("{key}: was {}, nu {}", receipt[key], now[key]));
        }
    }
    let engine_same = receipt["engine"] == now["engine"];
    let gelijk = verschillen.is_empty();
    let data = json!({
        "gelijk": gelijk,
        "verzegeling": "klopt",
        "law_id": law_id,
        "peildatum": date.to_string(),
        "wetten": wetten,
        "uitvoer": uitvoer,
        "engine": {"bewijs": receipt["engine"], "nu": now["engine"], "gelijk": engine_same},
        "verschillen": verschillen,
    });
    let line = if gelijk {
        "ontvangstbewijs bevestigd: zelfde wetten, zelfde uitkomst".to_string()
    } else {
        format!("ontvangstbewijs wijkt af: {}", verschillen.join("; "))
    };
    let mut outcome = Outcome::new(data, SOURCE, Environment::Local)
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

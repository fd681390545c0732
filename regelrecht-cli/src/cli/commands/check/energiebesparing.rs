//! `check energiebesparing KVK_NUMMER`: does the energy-saving duty (Bal art. 5.15), the
//! information duty (5.15a) or the research duty (5.15b) apply, and when is the next report due?
//!
//! Answered from the built-in Besluit activiteiten leefomgeving only, so the answer does not
//! depend on what else is on disk. Bound by the session rule: with `KVK_SESSIE_NUMMER` set,
//! only that number; the number is the data subject of the audit record.

use common::args::{KvkNummer, Peildatum, check_kvk_nummer};
use common::validate::Validation;
use common::{Annotations, CommandSpec, Context, Environment, Outcome, PlanSpec, Result, session};
use regelrecht_engine::builtin::BAL_ID;
use regelrecht_engine::{Corpus, EnergyCheck, EnergyFacts, check_energiebesparing};
use rust_decimal::Decimal;
use serde_json::{Map, Value, json};

use crate::cli::grondslag::{self, Detail};
use crate::cli::laws::{self, ENGINE_VERSION, SOURCE};
use crate::cli::next_steps::{Arg, step};
use crate::cli::problems;

common::arguments! {
    /// Of de energiebesparings-, informatie- of onderzoeksplicht geldt, met artikel (Bal 5.15–5.15b)
    ///
    /// Gebonden aan de sessie: met KVK_SESSIE_NUMMER alleen dat KvK-nummer. Beantwoord uit de
    /// ingebouwde tekst van het Besluit activiteiten leefomgeving; werkt zonder netwerk. De
    /// peildatum bepaalt de volgende rapportagedatum.
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        #[command(flatten)]
        #[serde(flatten)]
        pub kvk_nummer: KvkNummer => flatten,
        /// Elektriciteit per kalenderjaar, in kWh
        #[arg(long, value_name = "KWH", allow_hyphen_values = true)]
        pub elektriciteit_kwh: String => (VERBRUIK),
        /// Energie per kalenderjaar, in m3 aardgasequivalent
        #[arg(long, value_name = "M3", allow_hyphen_values = true)]
        pub gas_m3: String => (VERBRUIK),
        /// 5.15 lid 3 onder b: maatregelen voor een gebruiksfunctie (art. 3.84 Bbl)
        #[arg(long)]
        pub gebruiksfunctie_bbl: bool,
        /// 5.15 lid 3 onder c: alleen ter plaatse opgewekte hernieuwbare energie
        #[arg(long)]
        pub alleen_hernieuwbaar_op_locatie: bool,
        /// Activiteit van art. 3.3a lid 1 onder a (5.15a lid 2, 5.15b lid 3)
        #[arg(long = "activiteit-3-3a-lid-1-a")]
        pub activiteit_3_3a_lid_1_a: bool,
        /// Activiteit van art. 3.3a lid 1 onder b (5.15 lid 3 onder d, 5.15a lid 3, 5.15b lid 3)
        #[arg(long = "activiteit-3-3a-lid-1-b")]
        pub activiteit_3_3a_lid_1_b: bool,
        #[command(flatten)]
        #[serde(flatten)]
        pub peildatum: Peildatum => flatten,
    }
}

const VERBRUIK: &str = r#"{"type": "number", "minimum": 0}"#;

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["check", "energiebesparing"],
    title: "Energiebesparingsplicht toetsen",
    annotations: Annotations::READ_LOCAL,
    output_schema: include_str!("../../../../schemas/check_energiebesparing.json"),
    examples: &[
        &[
            "check",
            "energiebesparing",
            "68750110",
            "--elektriciteit-kwh",
            "62000",
            "--gas-m3",
            "31000",
        ],
        &[
            "check",
            "energiebesparing",
            "68750110",
            "--elektriciteit-kwh",
            "12000000",
            "--gas-m3",
            "0",
            "--peildatum",
            "2027-12-02",
        ],
    ],
    args: Args::SCHEMAS,
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let number = args.kvk_nummer.resolve(ctx)?;
    let mut validation = Validation::new();
    check_kvk_nummer(&number, &mut validation);
    let kwh = usage(
        "elektriciteit_kwh",
        &args.elektriciteit_kwh,
        "kWh",
        &mut validation,
    );
    let gas = usage("gas_m3", &args.gas_m3, "m3", &mut validation);
    let date = args.peildatum.date(ctx.today(), &mut validation);
    let corpus = Corpus::with_builtins();
    if args.peildatum.is_given()
        && let Err(err) = laws::select(&corpus, BAL_ID, date)
    {
        let detail = err.problem().map(|p| p.detail.clone()).unwrap_or_default();
        validation.push(
            "peildatum",
            format!(
                "{detail}: de ingebouwde tekst van het Bal (art. 5.15–5.15b) geldt vanaf 2026-01-01"
            ),
        );
    }
    validation.finish()?;
    session::enforce(ctx, &number)?;
    let facts = EnergyFacts {
        elektriciteit_kwh: kwh.unwrap_or_default(),
        gas_m3: gas.unwrap_or_default(),
        gebruiksfunctie_bbl: args.gebruiksfunctie_bbl,
        alleen_hernieuwbaar_op_locatie: args.alleen_hernieuwbaar_op_locatie,
        activiteit_3_3a_lid_1_a: args.activiteit_3_3a_lid_1_a,
        activiteit_3_3a_lid_1_b: args.activiteit_3_3a_lid_1_b,
    };
    let passed = ctx.gate(
        PlanSpec::of(args)
            .set("kvk_nummer", number.as_str())
            .set(
                "elektriciteit_kwh",
                facts.elektriciteit_kwh.normalize().to_string(),
            )
            .set("gas_m3", facts.gas_m3.normalize().to_string())
            .set("peildatum", date.to_string()),
    )?;

    let check = check_energiebesparing(&corpus, &facts, date)
        .map_err(|e| problems::eval_error(&e, "peildatum"))?;
    let file = laws::select(&corpus, BAL_ID, date)?;
    let mut data = result_json(&number, &date.to_string(), &check);
    data["volgende_stappen"] = next_steps(args, &data, &facts).into();
    Ok(passed
        .answer(data, SOURCE, Environment::Local)
        .source_url(laws::source_uri(file), "LOCAL", file.sha256())
        .extra("law_id", file.id.clone().into())
        .extra("valid_from", file.valid_from.clone().into())
        .extra("engine_version", ENGINE_VERSION.into()))
}

/// The regulation whose concept files the information duty (`regelingen/…`).
const CONCEPT_REGELING: &str = "informatieplicht-energiebesparing";

/// Where the answer leads: the text of each article whose duty holds (of 5.15 when none does:
/// its thresholds and exceptions say why), and with the information duty the concept, with the
/// consumptions and the exceptions given here as its answers (what was not given stays a question
/// the concept asks, never a presumed "nee").
fn next_steps(args: &Args, data: &Value, facts: &EnergyFacts) -> Vec<Value> {
    let peildatum = data["peildatum"].as_str().unwrap_or_default().to_string();
    let duties = [
        ("heeft_energiebesparingsplicht", "energiebesparingsplicht"),
        ("heeft_informatieplicht", "informatieplicht"),
        ("heeft_onderzoeksplicht", "onderzoeksplicht"),
    ];
    let holding: Vec<_> = duties
        .iter()
        .filter(|(output, _)| data[*output] == Value::Bool(true))
        .collect();
    let shown: Vec<_> = if holding.is_empty() {
        duties.iter().take(1).collect()
    } else {
        holding
    };
    let mut steps = Vec::new();
    for (output, name) in shown {
        let Some(basis) = data["wettelijke_grondslag"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|entry| entry["uitvoer"] == *output)
        else {
            continue;
        };
        let (Some(bwb), Some(article)) = (basis["bwb_id"].as_str(), basis["artikel"].as_str())
        else {
            continue;
        };
        steps.push(step(
            &format!("de tekst van artikel {article} ({name})"),
            "koop-cli",
            &["regeling", "artikel"],
            &[
                Arg::Positional("bwb_id", bwb.to_string()),
                Arg::Positional("artikel", article.to_string()),
                Arg::Flag("peildatum", "--peildatum", peildatum.clone().into()),
            ],
        ));
    }
    if data["heeft_informatieplicht"] == Value::Bool(true) {
        let dutch = |n: Decimal| n.normalize().to_string().replace('.', ",");
        let mut answers = vec![
            format!(
                "elektriciteitsverbruik_kwh={}",
                dutch(facts.elektriciteit_kwh)
            ),
            format!("aardgasverbruik_m3={}", dutch(facts.gas_m3)),
        ];
        for (given, name) in [
            (args.gebruiksfunctie_bbl, "betreft_gebruiksfunctie_bbl"),
            (
                args.alleen_hernieuwbaar_op_locatie,
                "alleen_hernieuwbare_energie_op_locatie",
            ),
            (
                args.activiteit_3_3a_lid_1_a,
                "is_activiteit_artikel_3_3a_lid_1_onder_a",
            ),
            (
                args.activiteit_3_3a_lid_1_b,
                "is_activiteit_artikel_3_3a_lid_1_onder_b",
            ),
        ] {
            if given {
                answers.push(format!("{name}=ja"));
            }
        }
        steps.push(step(
            "de concept-aanvraag voor de informatieplicht, met deze verbruiken als opgave",
            "regelrecht-cli",
            &["concept"],
            &[
                Arg::Positional("regeling", CONCEPT_REGELING.into()),
                Arg::Positional(
                    "kvk_nummer",
                    data["kvk_nummer"].as_str().unwrap_or_default().into(),
                ),
                Arg::Flag("opgave", "--opgave", answers.into()),
                Arg::Flag("peildatum", "--peildatum", peildatum.into()),
            ],
        ));
    }
    steps
}

/// A yearly usage: a non-negative number, written without thousands separators.
/// A consumption as a person types it (the family's number rule, [`common::number`]), in `unit`.
fn usage(name: &str, text: &str, unit: &str, validation: &mut Validation) -> Option<Decimal> {
    match common::number::parse(text, Some(unit)) {
        Ok(n) if !n.is_sign_negative() => Some(n),
        Ok(_) => {
            validation.push(
                name,
                format!("{name} mag niet negatief zijn (gegeven: {text})"),
            );
            None
        }
        Err(reason) => {
            validation.push(name, format!("{name}: {reason}"));
            None
        }
    }
}

fn result_json(number: &str, peildatum: &str, check: &EnergyCheck) -> Value {
    let grondslag = grondslag::entries(&check.basis, Detail::Answer);
    let to_map = |values: &std::collections::BTreeMap<String, regelrecht_engine::Value>| {
        values
            .iter()
            .map(|(k, v)| (k.clone(), v.to_json()))
            .collect::<Map<String, Value>>()
    };
    json!({
        "kvk_nummer": number,
        "peildatum": peildatum,
        "heeft_energiebesparingsplicht": check.energiebesparingsplicht,
        "heeft_informatieplicht": check.informatieplicht,
        "heeft_onderzoeksplicht": check.onderzoeksplicht,
        "volgende_rapportagedatum": check.volgende_rapportagedatum,
        "rapportagefrequentie_jaren": check.rapportagefrequentie_jaren.to_json(),
        "wettelijke_grondslag": grondslag,
        "gebruikte_waarden": to_map(&check.params),
        "drempelwaarden": to_map(&check.drempelwaarden),
    })
}

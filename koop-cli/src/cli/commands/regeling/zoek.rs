//! `regeling zoek TREFWOORD …`: search laws by title words, each law once, in the version in
//! force on the peildatum. The search term is always quoted data in the CQL query, never syntax.
//! Zero hits is exit 0 with an empty list.

use common::args::Peildatum;
use common::validate::Validation;
use common::{Annotations, ArgSchema, CommandSpec, Context, Outcome, PlanSpec, Result};
use koop_cli::cql::{self, SearchParams};
use koop_cli::links;
use koop_cli::sru::dedup_by_id;
use serde_json::{Map, Value, json};

use super::lookup::{self, date, text};
use crate::cli::problems::to_error;
use crate::cli::source::Koop;

/// Most results per page.
const MAX_RESULTS: u32 = 100;

/// Zoek regelingen op woorden in de titel
///
/// Alle woorden moeten in de (citeer)titel voorkomen. Elke regeling verschijnt één keer, in de
/// versie die op de peildatum (standaard vandaag) gold. Nul treffers is geen fout: exit 0 met een
/// lege lijst. Blader met --start en volgende_start.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Woorden die in de titel moeten voorkomen (tekst, geen zoeksyntaxis)
    pub trefwoord: String,
    /// Rechtsgebied, bv. Bestuursrecht of "Sociale zekerheid"
    #[arg(long, value_name = "RECHTSGEBIED")]
    pub onderwerp: Option<String>,
    /// Soort regeling: wet, AMvB, ministeriele-regeling, KB, rijkswet, verdrag, beleidsregel, …
    #[arg(long = "type", id = "type", value_name = "TYPE")]
    pub regeling_type: Option<String>,
    #[command(flatten)]
    pub peildatum: Peildatum,
    /// Hoeveel resultaten (1–100)
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub max: u32,
    /// Eerste resultaat (vanaf 1; neem volgende_start van de vorige pagina)
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub start: u32,
}

pub const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["regeling", "zoek"],
    title: "Regelingen zoeken",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../../schemas/zoek.json"),
    examples: &[
        &["regeling", "zoek", "zorgtoeslag"],
        &[
            "regeling",
            "zoek",
            "energiebesparing",
            "--type",
            "AMvB",
            "--peildatum",
            "2025-01-01",
            "--max",
            "5",
        ],
    ],
    args: &[
        ArgSchema {
            name: "trefwoord",
            schema: r#"{"minLength": 1, "maxLength": 500}"#,
        },
        ArgSchema {
            name: "type",
            schema: r#"{"examples": ["wet", "AMvB", "ministeriele-regeling"]}"#,
        },
        Peildatum::SCHEMA,
        ArgSchema {
            name: "max",
            schema: r#"{"type": "integer", "minimum": 1, "maximum": 100}"#,
        },
        ArgSchema {
            name: "start",
            schema: r#"{"type": "integer", "minimum": 1}"#,
        },
    ],
}];

pub fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let mut validation = Validation::new();
    let peildatum = args.peildatum.date(ctx.today(), &mut validation);
    let regeling_type = args
        .regeling_type
        .as_deref()
        .map(cql::canonical_type)
        .transpose();
    let regeling_type = lookup::check(&mut validation, regeling_type);
    validation.check((1..=MAX_RESULTS).contains(&args.max), "max", || {
        format!(
            "--max moet tussen 1 en {MAX_RESULTS} liggen, niet {}",
            args.max
        )
    });
    validation.check(args.start >= 1, "start", || {
        "--start begint bij 1".to_string()
    });
    let params = SearchParams {
        trefwoord: args.trefwoord.clone(),
        onderwerp: args.onderwerp.clone(),
        regeling_type: regeling_type.clone().ok().flatten(),
        peildatum,
    };
    let query = lookup::check(&mut validation, cql::search_query(&params));
    validation.finish()?;
    let (regeling_type, query) = (regeling_type.map_err(to_error)?, query.map_err(to_error)?);

    let mut arguments = Map::new();
    arguments.insert("trefwoord".into(), normalised(&args.trefwoord).into());
    if let Some(onderwerp) = &args.onderwerp {
        arguments.insert("onderwerp".into(), normalised(onderwerp).into());
    }
    if let Some(t) = regeling_type {
        arguments.insert("type".into(), t.into());
    }
    arguments.insert("peildatum".into(), peildatum.to_string().into());
    arguments.insert("max".into(), args.max.into());
    arguments.insert("start".into(), args.start.into());

    let koop = Koop::from_env(ctx)?;
    let request = koop.search_request(&query, args.start, args.max);
    ctx.gate(PlanSpec::new(Value::Object(arguments)).request(request.clone()))?;
    let answer = koop.search(ctx, &request)?;
    let resultaten: Vec<Value> = dedup_by_id(answer.records, Some(peildatum))
        .into_iter()
        .map(|r| {
            let wetten_url = links::wetten_url_regeling(&r.bwb_id, peildatum);
            json!({
                "bwb_id": r.bwb_id,
                "titel": r.titel,
                "type": text(r.regeling_type),
                "rechtsgebieden": r.rechtsgebieden,
                "verantwoordelijke": text(r.verantwoordelijke),
                "geldig_vanaf": date(r.geldig_vanaf),
                "geldig_tot": date(r.geldig_tot),
                "toestand_url": text(r.toestand_url),
                "wetten_url": wetten_url,
            })
        })
        .collect();
    let data = json!({
        "zoekopdracht": query,
        "peildatum": peildatum.to_string(),
        "totaal": answer.totaal,
        "resultaten": resultaten,
        "volgende_start": answer.volgende_start,
    });
    Ok(Outcome::new(data, koop.label(), koop.environment)
        .extra("query", query.into())
        .extra("peildatum", peildatum.to_string().into()))
}

fn normalised(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

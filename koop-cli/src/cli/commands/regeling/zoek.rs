//! `regeling zoek TREFWOORD …`: search laws by title words, each law once, in the version in
//! force on the peildatum. The search term is always quoted data in the CQL query, never syntax.
//! Zero hits is exit 0 with an empty list.

use common::args::Peildatum;
use common::paging::{Alles, MAX_PER_PAGINA, Paging};
use common::validate::Validation;
use common::{Annotations, CommandSpec, Context, Outcome, PlanSpec, Result};
use koop_cli::cql::{self, SearchParams};
use koop_cli::links;
use koop_cli::sru::dedup_by_id;
use serde_json::{Value, json};

use super::lookup::{self, date, text};
use crate::cli::problems::to_error;
use crate::cli::source::Koop;

common::arguments! {
    /// Zoek regelingen op woorden in de titel (om een BWB-id te vinden)
    ///
    /// Alle woorden moeten in de (citeer)titel voorkomen. Elke regeling verschijnt één keer, in de
    /// versie die op de peildatum (standaard vandaag) gold. Nul treffers is geen fout: exit 0 met een
    /// lege lijst. Blader met --pagina en --per-pagina, of lees met --alles de volgende pagina's mee.
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        /// Woorden in de titel (geen zoeksyntaxis)
        pub trefwoord: String => {"minLength": 1, "maxLength": 500},
        /// Rechtsgebied, bv. Bestuursrecht of "Sociale zekerheid"
        #[arg(long, value_name = "RECHTSGEBIED")]
        pub onderwerp: Option<String>,
        /// Bijv. wet, AMvB, ministeriele-regeling, KB, rijkswet, verdrag, beleidsregel
        #[arg(long, value_name = "TYPE")]
        pub r#type: Option<String> => {"examples": ["wet", "AMvB", "ministeriele-regeling"]},
        #[command(flatten)]
        #[serde(flatten)]
        pub peildatum: Peildatum => flatten,
        #[command(flatten)]
        #[serde(flatten)]
        pub paging: Paging => flatten,
        /// Oude spelling: hoeveel resultaten (= --per-pagina)
        #[arg(long, hide = true, value_name = "N", conflicts_with_all = ["pagina", "per_pagina", "alles"])]
        pub max: Option<u32>,
        /// Oude spelling: eerste resultaat, vanaf 1 (--pagina telt pagina's)
        #[arg(long, hide = true, value_name = "N", conflicts_with_all = ["pagina", "per_pagina", "alles"])]
        pub start: Option<u32>,
    }
}

/// Where a search starts and how many results it asks for: SRU's `startRecord` and
/// `maximumRecords`, from `--pagina/--per-pagina` or, exactly as before, from the old
/// `--start/--max`.
struct Window {
    start: u64,
    max: u32,
}

impl Window {
    fn of(args: &Args, validation: &mut Validation) -> Self {
        if args.start.is_none() && args.max.is_none() {
            args.paging.check(validation);
            return Self {
                start: args.paging.first_item(),
                max: args.paging.per_pagina,
            };
        }
        let (start, max) = (args.start.unwrap_or(1), args.max.unwrap_or(10));
        validation.check((1..=MAX_PER_PAGINA).contains(&max), "per_pagina", || {
            format!("--max moet tussen 1 en {MAX_PER_PAGINA} liggen, niet {max}")
        });
        validation.check(start >= 1, "pagina", || "--start begint bij 1".to_string());
        Self {
            start: u64::from(start),
            max,
        }
    }

    /// The page this window is, when it starts on a page boundary.
    fn pagina(&self) -> Option<u64> {
        let skipped = self.start.checked_sub(1)?;
        (skipped % u64::from(self.max) == 0).then(|| skipped / u64::from(self.max) + 1)
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
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
            "--per-pagina",
            "5",
        ],
    ],
    args: Args::SCHEMAS,
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let mut validation = Validation::new();
    let peildatum = args.peildatum.date(ctx.today(), &mut validation);
    let regeling_type = args.r#type.as_deref().map(cql::canonical_type).transpose();
    let regeling_type = lookup::check(&mut validation, regeling_type);
    let window = Window::of(args, &mut validation);
    let params = SearchParams {
        trefwoord: args.trefwoord.clone(),
        onderwerp: args.onderwerp.clone(),
        regeling_type: regeling_type.clone().ok().flatten(),
        peildatum,
    };
    let query = lookup::check(&mut validation, cql::search_query(&params));
    validation.finish()?;
    let (regeling_type, query) = (regeling_type.map_err(to_error)?, query.map_err(to_error)?);

    let plan = PlanSpec::of(args)
        .set("trefwoord", normalised(&args.trefwoord))
        .set("onderwerp", args.onderwerp.as_deref().map(normalised))
        .set("type", regeling_type)
        .set("peildatum", peildatum.to_string());
    // One window, in the words it was given in: pages, or the old spelling's start and count.
    let plan = match window.pagina() {
        Some(pagina) => plan
            .set("pagina", pagina)
            .set("per_pagina", window.max)
            .set("start", Value::Null)
            .set("max", Value::Null),
        None => plan
            .set("start", window.start)
            .set("max", window.max)
            .set("pagina", Value::Null)
            .set("per_pagina", Value::Null),
    };

    let koop = Koop::from_env(ctx)?;
    let page = |start: u64| {
        let start = u32::try_from(start).unwrap_or(u32::MAX);
        koop.search_request(&query, start, window.max)
    };
    let request = page(window.start);
    let mut passed = ctx.gate(plan.request(request))?;
    let request = passed.take()?;
    let mut answer = koop.search(ctx, &request)?;
    let mut afgekapt = None;
    if args.paging.alles {
        let mut walk = Alles::new();
        walk.read(answer.records.len());
        let mut next_start = answer.volgende_start;
        let mut last_start = window.start;
        // A next position must move forward; an answer that points back ends the walk.
        while let Some(start) = next_start.filter(|s| *s > last_start) {
            last_start = start;
            if !walk.may_continue() {
                afgekapt = Some(walk.capped());
                break;
            }
            let next = koop.search(ctx, &passed.follow(page(start))?)?;
            walk.read(next.records.len());
            if next.records.is_empty() {
                break;
            }
            answer.records.extend(next.records);
            answer.totaal = next.totaal;
            next_start = next.volgende_start;
        }
        answer.volgende_start = next_start;
    }
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
    let mut data = json!({
        "zoekopdracht": query,
        "peildatum": peildatum.to_string(),
        "totaal": answer.totaal,
        "resultaten": resultaten,
        "volgende_start": answer.volgende_start,
    });
    if let Some(afgekapt) = afgekapt {
        data["afgekapt"] = afgekapt;
    }
    Ok(passed
        .answer(data, koop.label(), koop.environment)
        .extra("query", query.into())
        .extra("peildatum", peildatum.to_string().into()))
}

fn normalised(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

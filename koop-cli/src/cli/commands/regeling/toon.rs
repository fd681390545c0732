//! `regeling toon BWB_ID [--peildatum D]`: a whole law as it was in force on a date, every article
//! as plain text with its leden, structural path and link, plus the texts outside articles.

use common::args::{Lang, Peildatum};
use common::validate::Validation;
use common::{Annotations, CommandSpec, Context, Outcome, PlanSpec, Result};
use koop_cli::toestand::{Artikel, Tekstdeel, parse_toestand};
use koop_cli::{BwbId, links};
use serde::Serialize;
use serde_json::Value;

use super::lookup::{self, Header, to_data};
use crate::cli::problems::to_error;

common::arguments! {
    /// Hele regeling zoals die op de peildatum gold (groot; voor één artikel: regeling artikel)
    ///
    /// Elk artikel als platte tekst (lijsten, tabellen en verwijzingen als tekst), met leden, het
    /// structuurpad (Hoofdstuk 5 / Afdeling 5.4 / …) en een link naar wetten.overheid.nl. Teksten buiten
    /// artikelen (aanhef, hoofdstukteksten, bijlagen, slot) staan in overige_teksten. Voor één artikel
    /// is `regeling artikel` goedkoper. De tekst van een artikel staat er één keer in; de leden elk
    /// apart (dezelfde tekst nog eens) met --lang, of als --fields of --jq ze noemt.
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        /// Bv. BWBR0018451
        pub bwb_id: String => (super::BWB_ID_SCHEMA),
        #[command(flatten)]
        #[serde(flatten)]
        pub peildatum: Peildatum => flatten,
        #[command(flatten)]
        #[serde(flatten)]
        pub lang: Lang => flatten,
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["regeling", "toon"],
    title: "Regeling ophalen",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../../schemas/regeling.json"),
    examples: &[
        &["regeling", "toon", "BWBR0018451"],
        &[
            "regeling",
            "toon",
            "BWBR0018451",
            "--peildatum",
            "2025-01-01",
        ],
    ],
    args: Args::SCHEMAS,
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let mut validation = Validation::new();
    let id = lookup::check(&mut validation, BwbId::parse(&args.bwb_id));
    let peildatum = args.peildatum.date(ctx.today(), &mut validation);
    validation.finish()?;
    let id = id.map_err(to_error)?;
    let plan = PlanSpec::of(args)
        .set("bwb_id", id.as_str())
        .set("peildatum", peildatum.to_string());

    let mut located = lookup::locate(ctx, &id, peildatum, plan)?;
    let body = located.take_body();
    let law = parse_toestand(&body).map_err(to_error)?;
    drop(body);
    let artikelen: Vec<ArtikelMetLink> = law
        .artikelen
        .into_iter()
        .map(|a| ArtikelMetLink::new(a, id.as_str(), peildatum))
        .collect();
    let long = args.lang.wanted(ctx);
    let data = Regeling {
        header: Header::new(
            &located,
            &id,
            peildatum,
            law.titel,
            law.citeertitel,
            law.soort,
        ),
        aantal_artikelen: artikelen.len(),
        artikelen,
        overige_teksten: law.overige_teksten,
    };
    let mut data = to_data(&data)?;
    if !long {
        for artikel in data["artikelen"].as_array_mut().into_iter().flatten() {
            without_leden(artikel);
        }
    }
    Ok(located.outcome(data, peildatum))
}

/// An article's compact form (issue 40 item 4): its text once, without `leden`, which is the same
/// text again lid by lid (kept with `--lang`, `--fields` or `--jq`).
pub(crate) fn without_leden(artikel: &mut Value) {
    if let Some(artikel) = artikel.as_object_mut() {
        artikel.remove("leden");
    }
}

/// The answer of `regeling toon` (schemas/regeling.json).
#[derive(Debug, Serialize)]
struct Regeling {
    #[serde(flatten)]
    header: Header,
    aantal_artikelen: usize,
    artikelen: Vec<ArtikelMetLink>,
    overige_teksten: Vec<Tekstdeel>,
}

/// One article as the commands answer it: the parsed [`Artikel`] plus its link on
/// wetten.overheid.nl, made from the article's own anchor.
#[derive(Debug, Serialize)]
pub(crate) struct ArtikelMetLink {
    #[serde(flatten)]
    pub artikel: Artikel,
    pub wetten_url: String,
}

impl ArtikelMetLink {
    pub(crate) fn new(artikel: Artikel, bwb_id: &str, peildatum: chrono::NaiveDate) -> Self {
        let wetten_url = links::wetten_url_anchor(bwb_id, peildatum, &artikel.anker);
        ArtikelMetLink {
            artikel,
            wetten_url,
        }
    }
}

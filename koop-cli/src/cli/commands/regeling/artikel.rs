//! `regeling artikel BWB_ID ARTIKEL [--peildatum D]`: one article, the cheap call. The toestand is
//! read until that article ends; no other article's text is rendered and the law's JSON is never
//! built. An unknown number is exit 66 with the numbers nearby in the hint.

use common::args::{Lang, Peildatum};
use common::validate::Validation;
use common::{Annotations, CommandSpec, Context, Outcome, PlanSpec, Result};
use koop_cli::BwbId;
use koop_cli::toestand::extract_artikel;
use serde::Serialize;

use super::lookup::{self, Header, to_data};
use super::toon::{ArtikelMetLink, without_leden};
use crate::cli::problems::to_error;

/// Longest article number accepted.
const MAX_ARTIKEL_CHARS: usize = 40;

common::arguments! {
    /// Voor de tekst van één artikel, zoals het op de peildatum gold
    ///
    /// Het artikel als platte tekst met leden, structuurpad en link naar wetten.overheid.nl, met de
    /// titel en geldigheid van de regeling erbij. Goedkoper dan `regeling toon`. Een onbekend nummer
    /// geeft exit 66 met de nummers in de buurt in de hint. De tekst staat er één keer in; de leden
    /// elk apart (dezelfde tekst nog eens) met --lang, of als --fields of --jq ze noemt.
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        /// Bv. BWBR0018451
        pub bwb_id: String => (super::BWB_ID_SCHEMA),
        /// Zoals in de kop, bv. 5.15, 1:3 of 2a
        pub artikel: String => {"minLength": 1, "maxLength": 40, "examples": ["5.15", "1:3", "2a"]},
        #[command(flatten)]
        #[serde(flatten)]
        pub peildatum: Peildatum => flatten,
        #[command(flatten)]
        #[serde(flatten)]
        pub lang: Lang => flatten,
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["regeling", "artikel"],
    title: "Artikel van een regeling",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../../schemas/artikel.json"),
    examples: &[
        &["regeling", "artikel", "BWBR0018451", "2"],
        &[
            "regeling",
            "artikel",
            "BWBR0041330",
            "5.15",
            "--peildatum",
            "2026-01-01",
        ],
    ],
    args: Args::SCHEMAS,
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let mut validation = Validation::new();
    let id = lookup::check(&mut validation, BwbId::parse(&args.bwb_id));
    let nummer = args.artikel.trim();
    validation.check(
        !nummer.is_empty()
            && nummer.chars().count() <= MAX_ARTIKEL_CHARS
            && !nummer.chars().any(char::is_control),
        "artikel",
        || format!("{nummer:?} is geen artikelnummer (1 tot {MAX_ARTIKEL_CHARS} tekens, bv. 5.15)"),
    );
    let peildatum = args.peildatum.date(ctx.today(), &mut validation);
    validation.finish()?;
    let id = id.map_err(to_error)?;
    let plan = PlanSpec::of(args)
        .set("bwb_id", id.as_str())
        .set("artikel", nummer)
        .set("peildatum", peildatum.to_string());

    let mut located = lookup::locate(ctx, &id, peildatum, plan)?;
    let body = located.take_body();
    let found = extract_artikel(&body, nummer).map_err(to_error)?;
    drop(body);
    let data = ArtikelAntwoord {
        header: Header::new(
            &located,
            &id,
            peildatum,
            found.titel,
            found.citeertitel,
            found.soort,
        ),
        artikel: ArtikelMetLink::new(found.artikel, id.as_str(), peildatum),
    };
    let mut data = to_data(&data)?;
    if !args.lang.wanted(ctx) {
        without_leden(&mut data["artikel"]);
    }
    Ok(located.outcome(data, peildatum))
}

/// The answer of `regeling artikel` (schemas/artikel.json).
#[derive(Debug, Serialize)]
struct ArtikelAntwoord {
    #[serde(flatten)]
    header: Header,
    artikel: ArtikelMetLink,
}

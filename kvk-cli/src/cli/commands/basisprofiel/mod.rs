//! `basisprofiel toon|eigenaar|hoofdvestiging|vestigingen`: one company's profile, each part
//! one command.
//!
//! Bound by the session rule: with `KVK_SESSIE_NUMMER` set, only that number.

pub(crate) mod eigenaar;
pub(crate) mod hoofdvestiging;
pub(crate) mod toon;
pub(crate) mod vestigingen;

use common::args::KvkNummer;
use common::{Context, Outcome, PlanSpec, Result};

use crate::cli::shape::Shape;
use crate::cli::source::Kvk;

common::commands! {
    pub(crate) enum Action {
        /// Voor naam, werkzame personen, SBI-activiteiten, hoofdvestiging en eigenaar van een bedrijf
        #[command(alias = "get")]
        Toon(Target) => toon,
        /// Voor rechtsvorm, RSIN en adressen van de eigenaar
        Eigenaar(Target) => eigenaar,
        /// Voor adressen, werkzame personen en activiteiten van de hoofdvestiging
        Hoofdvestiging(Target) => hoofdvestiging,
        /// Voor de vestigingen van een bedrijf en hun aantal
        Vestigingen(KvkNummer) => vestigingen,
    }
}

common::arguments! {
    /// The arguments of a part with addresses: the company, and whether to include geodata.
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Target {
        #[command(flatten)]
        #[serde(flatten)]
        pub kvk_nummer: KvkNummer => flatten,
        /// Met coördinaten en BAG-ids bij de adressen
        #[arg(long)]
        pub geo: bool,
    }
}

impl Target {
    /// This part of the profile, with or without geodata.
    fn part(&self, ctx: &mut Context<'_>, suffix: &str, shape: &Shape) -> Result<Outcome> {
        part(
            ctx,
            PlanSpec::of(self),
            &self.kvk_nummer,
            Some(self.geo),
            suffix,
            shape,
        )
    }
}

/// One part of the profile (`/v1/basisprofielen/{kvk_nummer}{suffix}`) of the company
/// `kvk_nummer` names, bound by the session rule; with geodata when `geo` says so (the parts
/// that have addresses). `plan` is of the command's arguments; the number in it becomes the
/// one the call is about.
fn part(
    ctx: &mut Context<'_>,
    plan: PlanSpec,
    kvk_nummer: &KvkNummer,
    geo: Option<bool>,
    suffix: &str,
    shape: &Shape,
) -> Result<Outcome> {
    let number = kvk_nummer.bound(ctx)?;
    let kvk = Kvk::from_env(ctx)?;
    let mut request = kvk.request(&format!("/v1/basisprofielen/{number}{suffix}"));
    if let Some(geo) = geo {
        request = request.query(&[("geoData", geo.to_string())]);
    }
    let mut passed = ctx.gate(plan.set("kvk_nummer", number.as_str()).request(request))?;
    let data = kvk.fetch_of(ctx, &passed.take()?, shape, &number)?;
    Ok(passed.answer(data, kvk.label(), kvk.environment))
}

//! `basisprofiel toon|eigenaar|hoofdvestiging|vestigingen`: one company's profile.
//!
//! Bound by the session rule: with `KVK_SESSIE_NUMMER` set, only that number.

use clap::Subcommand;
use common::args::KvkNummer;
use common::{Annotations, CommandSpec, Context, Outcome, PlanSpec, Result};
use serde_json::json;

use crate::cli::shape::{self, Shape};
use crate::cli::source::Kvk;

#[derive(Subcommand, Debug)]
pub(crate) enum Action {
    /// Basisprofiel: naam, registratie, handelsnamen, SBI-activiteiten, hoofdvestiging en eigenaar
    #[command(alias = "get")]
    Toon(Target),
    /// Eigenaar: rechtsvorm, RSIN en adressen
    Eigenaar(Target),
    /// Hoofdvestiging: adressen, werkzame personen, activiteiten
    Hoofdvestiging(Target),
    /// Alle vestigingen van de onderneming
    Vestigingen(NumberOnly),
}

/// The company, and whether to include geodata.
#[derive(clap::Args, Debug)]
pub(crate) struct Target {
    #[command(flatten)]
    pub kvk_nummer: KvkNummer,
    /// Voeg geodata (coördinaten, BAG-ids) toe aan de adressen
    #[arg(long)]
    pub geo: bool,
}

/// Just the company.
#[derive(clap::Args, Debug)]
pub(crate) struct NumberOnly {
    #[command(flatten)]
    pub kvk_nummer: KvkNummer,
}

pub(crate) const TOON: CommandSpec = CommandSpec {
    path: &["basisprofiel", "toon"],
    title: "Basisprofiel van een onderneming",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../schemas/basisprofiel.json"),
    examples: &[&["basisprofiel", "toon", "68750110"]],
    args: &[KvkNummer::SCHEMA],
};

pub(crate) const EIGENAAR: CommandSpec = CommandSpec {
    path: &["basisprofiel", "eigenaar"],
    title: "Eigenaar van een onderneming",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../schemas/eigenaar.json"),
    examples: &[&["basisprofiel", "eigenaar", "68750110"]],
    args: &[KvkNummer::SCHEMA],
};

pub(crate) const HOOFDVESTIGING: CommandSpec = CommandSpec {
    path: &["basisprofiel", "hoofdvestiging"],
    title: "Hoofdvestiging van een onderneming",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../schemas/vestiging.json"),
    examples: &[&["basisprofiel", "hoofdvestiging", "68750110", "--geo"]],
    args: &[KvkNummer::SCHEMA],
};

pub(crate) const VESTIGINGEN: CommandSpec = CommandSpec {
    path: &["basisprofiel", "vestigingen"],
    title: "Vestigingen van een onderneming",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../schemas/vestigingen.json"),
    examples: &[&["basisprofiel", "vestigingen", "68750110"]],
    args: &[KvkNummer::SCHEMA],
};

/// The entries of this group's commands.
pub(crate) const SPECS: &[CommandSpec] = &[TOON, EIGENAAR, HOOFDVESTIGING, VESTIGINGEN];

pub(crate) fn run(action: &Action, ctx: &mut Context<'_>) -> Result<Outcome> {
    let (argument, geo, suffix, shape): (_, _, _, &Shape) = match action {
        Action::Toon(t) => (&t.kvk_nummer, Some(t.geo), "", &shape::BASISPROFIEL),
        Action::Eigenaar(t) => (&t.kvk_nummer, Some(t.geo), "/eigenaar", &shape::EIGENAAR),
        Action::Hoofdvestiging(t) => (
            &t.kvk_nummer,
            Some(t.geo),
            "/hoofdvestiging",
            &shape::VESTIGING,
        ),
        Action::Vestigingen(n) => (&n.kvk_nummer, None, "/vestigingen", &shape::VESTIGINGEN),
    };
    let number = argument.bound(ctx)?;
    let kvk = Kvk::from_env(ctx)?;

    let mut request = kvk.request(&format!("/v1/basisprofielen/{number}{suffix}"));
    let mut arguments = json!({"kvk_nummer": number});
    if let Some(geo) = geo {
        request = request.query(&[("geoData", geo.to_string())]);
        arguments["geo"] = geo.into();
    }
    let request = ctx
        .gate(PlanSpec::new(arguments).request(request))?
        .take()?;
    let data = kvk.fetch_of(ctx, &request, shape, &number)?;
    Ok(Outcome::new(data, kvk.label(), kvk.environment))
}

//! The clap definition of koop-cli and the dispatch to its commands.

use clap::{Parser, Subcommand};
use common::{Context, GlobalArgs, Outcome, Result};

use crate::commands::regeling;

/// Nederlandse wet- en regelgeving uit het Basiswettenbestand (BWB) van KOOP.
///
/// Zoekt regelingen via de SRU-zoekdienst en leest de officiële toestand-XML uit de repository,
/// zoals de regeling gold op een peildatum (standaard vandaag). Geen sleutel nodig.
/// Machineleesbare beschrijving: koop-cli --help --json.
#[derive(Parser, Debug)]
#[command(name = "koop-cli", version)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Regelingen: zoeken, ophalen, één artikel, versies
    #[command(subcommand)]
    Regeling(regeling::Action),
}

impl common::Tool for Cli {
    fn globals(&self) -> &GlobalArgs {
        &self.global
    }

    fn run(self, ctx: &mut Context<'_>) -> Result<Outcome> {
        match self.command {
            Command::Regeling(action) => regeling::run(action, ctx),
        }
    }
}

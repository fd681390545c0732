//! The clap definition of kvk-cli and the dispatch to its commands.

use clap::{Parser, Subcommand};
use common::{Context, GlobalArgs, Outcome, Result};

use crate::commands::{basisprofiel, naamgeving, vestigingsprofiel, zoeken};

/// KvK Handelsregister: zoeken, basisprofiel, vestigingsprofiel en naamgeving.
///
/// Standaard tegen de openbare testomgeving van de KvK (fictieve gegevens).
/// Zet KVK_API_BASE en KVK_API_KEY voor productie. Machineleesbare
/// beschrijving: kvk-cli --help --json.
#[derive(Parser, Debug)]
#[command(name = "kvk-cli", version)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    Zoeken(Box<zoeken::Args>),
    /// Basisprofiel van een ingeschreven onderneming
    #[command(subcommand)]
    Basisprofiel(basisprofiel::Action),
    /// Vestigingsprofiel van één vestiging
    #[command(subcommand)]
    Vestigingsprofiel(vestigingsprofiel::Action),
    /// Naamgeving van een ingeschreven onderneming
    #[command(subcommand)]
    Naamgeving(naamgeving::Action),
}

impl common::Tool for Cli {
    fn globals(&self) -> &GlobalArgs {
        &self.global
    }

    fn run(self, ctx: &mut Context<'_>) -> Result<Outcome> {
        match self.command {
            Command::Zoeken(args) => zoeken::run(&args, ctx),
            Command::Basisprofiel(action) => basisprofiel::run(&action, ctx),
            Command::Vestigingsprofiel(action) => vestigingsprofiel::run(&action, ctx),
            Command::Naamgeving(action) => naamgeving::run(&action, ctx),
        }
    }
}

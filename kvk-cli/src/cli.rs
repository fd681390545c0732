//! The commands of kvk-cli and their dispatch.

use clap::Subcommand;
use common::{Context, Outcome, Result};

use crate::commands::{basisprofiel, naamgeving, vestigingsprofiel, zoeken};

/// The commands of this tool.
#[derive(Subcommand, Debug)]
pub(crate) enum Command {
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

impl common::Commands for Command {
    fn run(self, ctx: &mut Context<'_>) -> Result<Outcome> {
        match self {
            Command::Zoeken(args) => zoeken::run(&args, ctx),
            Command::Basisprofiel(action) => basisprofiel::run(&action, ctx),
            Command::Vestigingsprofiel(action) => vestigingsprofiel::run(&action, ctx),
            Command::Naamgeving(action) => naamgeving::run(&action, ctx),
        }
    }
}

//! The commands of rvo-cli and their dispatch.

use clap::Subcommand;
use common::{Context, Outcome, Result};

use crate::commands::{rapportage, regeling};

/// The commands of this tool.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Regelingen van RVO uit de ingebedde catalogus
    #[command(subcommand)]
    Regeling(regeling::Action),
    /// Rapportages indienen en teruglezen (gebonden aan KVK_SESSIE_NUMMER)
    #[command(subcommand)]
    Rapportage(rapportage::Action),
}

impl common::Commands for Command {
    fn run(self, ctx: &mut Context<'_>) -> Result<Outcome> {
        match self {
            Command::Regeling(action) => regeling::run(&action, ctx),
            Command::Rapportage(action) => rapportage::run(&action, ctx),
        }
    }
}

//! The commands of koop-cli and their dispatch.

use clap::Subcommand;
use common::{Context, Outcome, Result};

use crate::commands::regeling;

/// The commands of this tool.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Regelingen: zoeken, ophalen, één artikel, versies
    #[command(subcommand)]
    Regeling(regeling::Action),
}

impl common::Commands for Command {
    fn run(self, ctx: &mut Context<'_>) -> Result<Outcome> {
        match self {
            Command::Regeling(action) => regeling::run(action, ctx),
        }
    }
}

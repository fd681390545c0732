//! The commands of regelrecht-cli and their dispatch.

use clap::Subcommand;
use common::{Context, Outcome, Result};

use crate::commands::{check_energiebesparing, evalueer, wet_lijst, wet_toon};

/// The commands of this tool.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Geladen wetten bekijken
    #[command(subcommand)]
    Wet(Wet),
    Evalueer(evalueer::Args),
    /// Vaste vragen, beantwoord uit de ingebouwde wetten
    #[command(subcommand)]
    Check(Check),
}

#[derive(Subcommand, Debug)]
pub enum Wet {
    Lijst(wet_lijst::Args),
    Toon(wet_toon::Args),
}

#[derive(Subcommand, Debug)]
pub enum Check {
    Energiebesparing(check_energiebesparing::Args),
}

impl common::Commands for Command {
    fn run(self, ctx: &mut Context<'_>) -> Result<Outcome> {
        match self {
            Command::Wet(Wet::Lijst(args)) => wet_lijst::run(&args, ctx),
            Command::Wet(Wet::Toon(args)) => wet_toon::run(&args, ctx),
            Command::Evalueer(args) => evalueer::run(&args, ctx),
            Command::Check(Check::Energiebesparing(args)) => {
                check_energiebesparing::run(&args, ctx)
            }
        }
    }
}

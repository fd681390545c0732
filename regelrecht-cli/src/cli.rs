//! The clap definition of regelrecht-cli and the dispatch to its commands.

use clap::{Parser, Subcommand};
use common::{Context, GlobalArgs, Outcome, Result};

use crate::commands::{check_energiebesparing, evalueer, wet_lijst, wet_toon};

/// RegelRecht: machineleesbare Nederlandse wetgeving lokaal uitvoeren, met de wettelijke grondslag.
///
/// Wetten komen uit de ingebouwde set (Besluit activiteiten leefomgeving, art. 5.15–5.15b)
/// en uit elke *.yaml onder de mappen van --corpus en REGELRECHT_CORPUS. Alles werkt
/// zonder netwerk. Machineleesbare beschrijving: regelrecht-cli --help --json.
#[derive(Parser, Debug)]
#[command(name = "regelrecht-cli", version)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

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

impl common::Tool for Cli {
    fn globals(&self) -> &GlobalArgs {
        &self.global
    }

    fn run(self, ctx: &mut Context<'_>) -> Result<Outcome> {
        match self.command {
            Command::Wet(Wet::Lijst(args)) => wet_lijst::run(&args, ctx),
            Command::Wet(Wet::Toon(args)) => wet_toon::run(&args, ctx),
            Command::Evalueer(args) => evalueer::run(&args, ctx),
            Command::Check(Check::Energiebesparing(args)) => {
                check_energiebesparing::run(&args, ctx)
            }
        }
    }
}

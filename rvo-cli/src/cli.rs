//! The clap definition of rvo-cli and the dispatch to its commands.

use clap::{Parser, Subcommand};
use common::{Context, GlobalArgs, Outcome, Result};

use crate::commands::{rapportage, regeling};

/// RVO-regelingen opzoeken en rapportages indienen, precies één keer.
///
/// De regelingen komen uit een ingebedde catalogus met een eigen peildatum (geen live koppeling
/// met RVO). Rapportages gaan standaard naar een lokale proefopslag: er gaat niets naar RVO.
/// Met RVO_API_BASE gaan ze naar een backend volgens spec/rvo-backend.md. Indienen is een
/// muterende opdracht: eerst het plan, dan --confirm. Machineleesbare beschrijving:
/// rvo-cli --help --json.
#[derive(Parser, Debug)]
#[command(name = "rvo-cli", version)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Regelingen van RVO uit de ingebedde catalogus
    #[command(subcommand)]
    Regeling(regeling::Action),
    /// Rapportages indienen en teruglezen (gebonden aan KVK_SESSIE_NUMMER)
    #[command(subcommand)]
    Rapportage(rapportage::Action),
}

impl common::Tool for Cli {
    fn globals(&self) -> &GlobalArgs {
        &self.global
    }

    fn run(self, ctx: &mut Context<'_>) -> Result<Outcome> {
        match self.command {
            Command::Regeling(action) => regeling::run(&action, ctx),
            Command::Rapportage(action) => rapportage::run(&action, ctx),
        }
    }
}

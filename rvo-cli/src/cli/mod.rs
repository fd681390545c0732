//! The rvo-cli binary (not the library): its commands and their dispatch, the backends they
//! file to, and what the tool declares about itself.
//!
//! - [`commands`]: one module per command (arguments, metadata, `run`).
//! - [`backend`]: the local store or the HTTP backend, chosen from the environment.
//! - [`tool`]: the tool's declaration (environment, commands, defaults).
//! - [`clock`]: what "now" is for this call.

pub mod backend;
pub mod clock;
pub mod commands;
pub mod tool;

use clap::Subcommand;
use common::{Context, Outcome, Result};

use crate::cli::commands::{rapportage, regeling};

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

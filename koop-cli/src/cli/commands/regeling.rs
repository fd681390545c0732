//! `regeling …`: the command group and its dispatch.

use clap::Subcommand;
use common::{Context, Outcome, Result};

use super::{artikel, get, versies, zoek};

#[derive(Subcommand, Debug)]
pub enum Action {
    Zoek(zoek::Args),
    Get(get::Args),
    Artikel(artikel::Args),
    Versies(versies::Args),
}

pub fn run(action: Action, ctx: &mut Context<'_>) -> Result<Outcome> {
    match action {
        Action::Zoek(args) => zoek::run(&args, ctx),
        Action::Get(args) => get::run(&args, ctx),
        Action::Artikel(args) => artikel::run(&args, ctx),
        Action::Versies(args) => versies::run(&args, ctx),
    }
}

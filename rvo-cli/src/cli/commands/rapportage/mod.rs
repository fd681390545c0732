//! `rapportage indienen|status|lijst`: filing a report exactly once, and reading back what was
//! filed. Bound by the session rule: with `KVK_SESSIE_NUMMER` set, only that company.

pub mod indienen;
pub mod lijst;
pub mod status;

use clap::Subcommand;
use common::{Context, Outcome, Result};

#[derive(Subcommand, Debug)]
pub enum Action {
    Indienen(indienen::Args),
    Status(status::Args),
    Lijst(lijst::Args),
}

pub fn run(action: &Action, ctx: &mut Context<'_>) -> Result<Outcome> {
    match action {
        Action::Indienen(args) => indienen::run(args, ctx),
        Action::Status(args) => status::run(args, ctx),
        Action::Lijst(args) => lijst::run(args, ctx),
    }
}

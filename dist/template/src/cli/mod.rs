//! The tool's commands, listed once: `common::commands!` derives the clap parser, the side
//! table and the dispatch from this enum and each command module's `Args`, `SPECS` and `run`.
//!
//! - [`commands`]: one module per command.
//! - [`tool`]: what the tool declares about itself (environment, audit log, defaults).

pub(crate) mod commands;
pub(crate) mod tool;

use crate::cli::commands::groet;

common::commands! {
    /// The commands of this tool.
    pub enum Command {
        /// Een begroeting, gemaakt zonder bron (een voorbeeld om te vervangen)
        Groet(groet::Args) => groet,
    }
}

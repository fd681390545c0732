//! The koop-cli binary: its commands and their dispatch. Everything under `src/cli/` belongs to the
//! binary (arguments, discovery metadata, requests, the mapping to the profile's errors); the
//! library (`src/lib.rs`) parses what KOOP answers and does no I/O.
//!
//! - [`commands`]: one module per command; [`tool`]: what the tool declares about itself;
//! - [`source`]: the KOOP sources and their requests; [`problems`]: core errors as profile errors.

pub(crate) mod commands;
pub(crate) mod problems;
pub(crate) mod source;
pub(crate) mod tool;

use commands::regeling;

common::commands! {
    /// The commands of this tool.
    pub enum Command {
        /// Regelingen: zoeken, ophalen, één artikel, versies
        #[command(subcommand)]
        Regeling(regeling::Action) => regeling,
    }
}

//! The kvk-cli binary: its commands and their dispatch.
//!
//! - [`commands`]: one module per command (its arguments, its entries, its `run`);
//! - [`tool`]: what the tool declares about itself;
//! - [`source`]: the KvK API and its requests; [`shape`]: the answers' expected shapes.

pub(crate) mod commands;
pub(crate) mod shape;
pub(crate) mod source;
pub(crate) mod tool;

use commands::{basisprofiel, naamgeving, vestigingsprofiel, zoek};

common::commands! {
    /// The commands of this tool.
    pub(crate) enum Command {
        #[command(alias = "zoeken")]
        Zoek(Box<zoek::Args>) => zoek,
        /// Basisprofiel van een ingeschreven onderneming
        #[command(subcommand)]
        Basisprofiel(basisprofiel::Action) => basisprofiel,
        /// Vestigingsprofiel van één vestiging
        #[command(subcommand)]
        Vestigingsprofiel(vestigingsprofiel::Action) => vestigingsprofiel,
        /// Naamgeving van een ingeschreven onderneming
        #[command(subcommand)]
        Naamgeving(naamgeving::Action) => naamgeving,
    }
}

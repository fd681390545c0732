//! The rvo-cli binary (not the library): its commands and their dispatch, the backends they
//! file to, and what the tool declares about itself.
//!
//! - [`commands`]: one module per command (arguments, metadata, `run`).
//! - [`approval`]: what an approval is bound to, where a person approves, and the check of a
//!   decision's approval token before a proposal is applied (profile §10.3).
//! - [`backend`]: the local store or the HTTP backend, chosen from the environment.
//! - [`tool`]: the tool's declaration (environment, defaults).
//! - [`clock`]: what "now" is for this call.
//! - [`records`]: the store of proposals (overheid-records) as this tool uses it.
//! - [`concept`]: filing a concept-aanvraag, re-evaluated by regelrecht-cli first.

pub(crate) mod approval;
pub(crate) mod backend;
pub(crate) mod clock;
pub(crate) mod commands;
pub(crate) mod concept;
pub(crate) mod records;
pub(crate) mod tool;

use crate::cli::commands::{rapportage, regeling, voorstel};

common::commands! {
    /// The commands of this tool.
    pub enum Command {
        /// Regelingen van RVO uit de ingebedde catalogus
        #[command(subcommand)]
        Regeling(regeling::Action) => regeling,
        /// Rapportages indienen en teruglezen (gebonden aan KVK_SESSIE_NUMMER)
        #[command(subcommand)]
        Rapportage(rapportage::Action) => rapportage,
        /// Voorstellen die een persoon goedkeurt voordat ze worden ingediend (gebonden aan KVK_SESSIE_NUMMER)
        #[command(subcommand)]
        Voorstel(voorstel::Action) => voorstel,
    }
}

//! The regelrecht-cli binary: its commands and their dispatch.
//!
//! - [`commands`]: one module per command (its arguments, its entries, its `run`);
//! - [`tool`]: what the tool declares about itself;
//! - [`grondslag`]: the legal basis of an answer, as every command prints it;
//! - [`evaluation`]: one evaluation of a law, as every evaluating command runs it; [`params`]:
//!   a law's parameters, typed and checked; [`next_steps`]: the commands a result leads on to;
//! - [`outputs`]: an evaluation's outputs as JSON; [`receipt`]: its execution receipt;
//! - [`laws`]: the built-in laws and the corpus directories (their variables in [`settings`]);
//!   [`problems`]: engine errors as profile errors; [`pairs`]: `NAAM=WAARDE` options.

pub(crate) mod commands;
pub(crate) mod evaluation;
pub(crate) mod grondslag;
pub(crate) mod laws;
pub(crate) mod next_steps;
pub(crate) mod outputs;
pub(crate) mod pairs;
pub(crate) mod params;
pub(crate) mod problems;
pub(crate) mod receipt;
pub(crate) mod regeling;
pub(crate) mod settings;
pub(crate) mod tool;

use commands::{check, concept, evalueer, ontvangstbewijs, regelingen, scenario, wet};

common::commands! {
    /// The commands of this tool.
    pub enum Command {
        /// Geladen wetten bekijken
        #[command(subcommand)]
        Wet(wet::Action) => wet,
        Evalueer(evalueer::Args) => evalueer,
        Scenario(scenario::Args) => scenario,
        /// Ontvangstbewijzen van berekeningen herhalen
        #[command(subcommand)]
        Ontvangstbewijs(ontvangstbewijs::Action) => ontvangstbewijs,
        /// Vaste vragen, beantwoord uit de ingebouwde wetten
        #[command(subcommand)]
        Check(check::Action) => check,
        Concept(concept::Args) => concept,
        Regelingen(regelingen::Args) => regelingen,
    }
}

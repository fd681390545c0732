//! Every tool's parser: the profile's global options and the tool's commands.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::context::Context;
use crate::error::Result;
use crate::output::OutputFormat;
use crate::provenance::Outcome;

/// A tool's commands: a clap subcommand enum that runs the chosen command.
pub trait Commands: Subcommand + std::fmt::Debug {
    /// Run the selected command.
    fn run(self, ctx: &mut Context<'_>) -> Result<Outcome>;
}

/// The parser of every tool: the global options and the tool's commands.
#[derive(Parser, Debug)]
pub struct Cli<C: Commands> {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: C,
}

/// Options every command of every tool accepts (rules OUT-*, FIELDS-*, PROV-*, DRY-*, MUT-*).
#[derive(Args, Clone, Debug, Default)]
pub struct GlobalArgs {
    /// Uitvoerformaat: json (compact), pretty of table; standaard json buiten een terminal
    #[arg(
        long,
        short = 'o',
        global = true,
        value_enum,
        value_name = "FORMAAT",
        hide_possible_values = true
    )]
    pub output: Option<OutputFormat>,

    /// Alleen deze velden: kommalijst van paden (naam,adres.plaats,lijst[].x) of één JSONPath ($...)
    #[arg(long, global = true, value_name = "VELDEN")]
    pub fields: Option<String>,

    /// Omhul het resultaat met herkomstgegevens: {"data": …, "provenance": …}
    #[arg(long, global = true)]
    pub provenance: bool,

    /// Toon het plan (verzoeken, geheimen als ***) zonder iets te versturen of te wijzigen
    #[arg(long, global = true)]
    pub dry_run: bool,

    /// Voer een mutatie uit; met =DIGEST alleen als het plan die digest heeft
    #[arg(
        long,
        global = true,
        value_name = "DIGEST",
        num_args = 0..=1,
        require_equals = true
    )]
    pub confirm: Option<Option<String>>,

    /// Pad van het auditlog (JSON Lines); gaat voor de omgevingsvariabelen
    #[arg(long, global = true, value_name = "PAD")]
    pub audit_log: Option<PathBuf>,

    /// Tijdslimiet in seconden voor het hele commando
    #[arg(
        long,
        global = true,
        value_name = "SECONDEN",
        allow_negative_numbers = true
    )]
    pub timeout: Option<f64>,

    /// Geen kleur in de uitvoer (ook via NO_COLOR)
    #[arg(long, global = true)]
    pub no_color: bool,

    /// Geen waarschuwingen op stderr
    #[arg(long, short = 'q', global = true)]
    pub quiet: bool,
}

impl GlobalArgs {
    /// `--confirm` without a digest (`Some(None)`), with one, or absent.
    /// `--confirm=` (an empty digest, e.g. from an unset variable) is a digest
    /// that matches no plan, never a bare `--confirm`.
    pub fn confirmation(&self) -> Option<Option<&str>> {
        self.confirm.as_ref().map(Option::as_deref)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Parser)]
    struct Probe {
        #[command(flatten)]
        global: GlobalArgs,
    }

    fn confirmation(args: &[&str]) -> Option<Option<String>> {
        let probe =
            Probe::try_parse_from(std::iter::once("t").chain(args.iter().copied())).unwrap();
        probe.global.confirmation().map(|c| c.map(str::to_string))
    }

    #[test]
    fn an_empty_confirm_digest_is_a_digest_not_a_bare_confirm() {
        assert_eq!(confirmation(&[]), None);
        assert_eq!(confirmation(&["--confirm"]), Some(None));
        assert_eq!(confirmation(&["--confirm=abc"]), Some(Some("abc".into())));
        assert_eq!(confirmation(&["--confirm="]), Some(Some(String::new())));
    }

    #[test]
    fn a_negative_timeout_reaches_the_range_check() {
        let probe = Probe::try_parse_from(["t", "--timeout", "-1"]).unwrap();
        assert_eq!(probe.global.timeout, Some(-1.0));
    }
}

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
        require_equals = true,
        default_missing_value = ""
    )]
    pub confirm: Option<String>,

    /// Pad van het auditlog (JSON Lines); gaat voor de omgevingsvariabelen
    #[arg(long, global = true, value_name = "PAD")]
    pub audit_log: Option<PathBuf>,

    /// Tijdslimiet in seconden voor het hele commando
    #[arg(long, global = true, value_name = "SECONDEN")]
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
    pub fn confirmation(&self) -> Option<Option<&str>> {
        self.confirm
            .as_deref()
            .map(|d| if d.is_empty() { None } else { Some(d) })
    }
}

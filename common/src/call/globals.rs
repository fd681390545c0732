//! The options every command of every tool accepts (rules OUT-*, FIELDS-*, PROV-*, DRY-*,
//! MUT-*): what the parser fills in and a running command reads, so the parser and the context
//! share this module instead of each other.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::print::output::OutputFormat;
use crate::problem::error::Problem;

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

    /// jq-expressie op het resultaat (na --fields): tekst los, de rest als compacte JSON, één per regel
    #[arg(long, global = true, value_name = "EXPRESSIE")]
    pub jq: Option<String>,

    /// Omhul het resultaat met herkomstgegevens: {"data": …, "provenance": …}; =compact: alleen bron, URL, tijdstip en digest
    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "VORM",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "full"
    )]
    pub provenance: Option<crate::call::provenance::ProvenanceForm>,

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

    /// Geen pager: lange uitvoer op een terminal gaat direct naar de terminal
    #[arg(long, global = true)]
    pub geen_pager: bool,

    /// Lees en schrijf de cache niet: haal alles opnieuw bij de bron, lees elk bestand opnieuw
    #[arg(long, global = true)]
    pub geen_cache: bool,
}

impl GlobalArgs {
    /// `--timeout` as a duration, else `default`. A value outside (0, 86400]
    /// gives `default` and the usage error, which the lifecycle raises only
    /// once the audit log is open, so the refusal is audited (AUDIT-1).
    pub fn time_limit(&self, default: Duration) -> (Duration, Option<Problem>) {
        match self.timeout {
            Some(t) if !(t > 0.0 && t.is_finite() && t <= 86_400.0) => (
                default,
                Some(Problem::usage(format!(
                    "--timeout moet tussen 0 en 86400 seconden liggen, niet {t}"
                ))),
            ),
            Some(t) => (Duration::from_secs_f64(t), None),
            None => (default, None),
        }
    }

    /// `--confirm` without a digest (`Some(None)`), with one, or absent.
    /// `--confirm=` (an empty digest, e.g. from an unset variable) is a digest
    /// that matches no plan, never a bare `--confirm`.
    pub fn confirmation(&self) -> Option<Option<&str>> {
        self.confirm.as_ref().map(Option::as_deref)
    }
}

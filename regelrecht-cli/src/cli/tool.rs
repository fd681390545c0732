//! What regelrecht-cli declares about itself: environment, defaults (the commands come from `cli::Command`).

use common::env::{CLI_DIR_VAR, KVK_SESSIE_NUMMER};
use common::{EnvKind, EnvVar, ToolInfo};

use crate::cli::commands;
use crate::cli::regeling::definition::DEFINITIONS_ENV;
use crate::cli::settings::{CORPUS_ENV, MAX_FILES_ENV};

/// The tool's own audit-destination variable.
pub(crate) const AUDIT_ENV: &str = "REGELRECHT_AUDIT_LOG";

pub(crate) const TOOL: ToolInfo = ToolInfo {
    name: "regelrecht-cli",
    version: env!("CARGO_PKG_VERSION"),
    description: "Machineleesbare wetgeving (RegelRecht v0.5) lokaal uitvoeren: wetten bekijken en valideren, uitkomsten met wettelijke grondslag, energiebesparingsplicht (Bal 5.15–5.15b)",
    help: "RegelRecht: machineleesbare Nederlandse wetgeving lokaal uitvoeren, met de wettelijke grondslag. Wetten komen uit de ingebouwde set (Besluit activiteiten leefomgeving, art. 5.15–5.15b) en uit elke *.yaml onder de mappen van --corpus en REGELRECHT_CORPUS. Alles werkt zonder netwerk. Machineleesbare beschrijving: regelrecht-cli --help --json.",
    env: &[
        EnvVar::new(
            CORPUS_ENV,
            EnvKind::Path,
            "mappen met wetten (*.yaml), gescheiden door ':'; aanvulling op de ingebouwde wetten en --corpus",
        ),
        EnvVar::new(
            MAX_FILES_ENV,
            EnvKind::Setting,
            "grens op het aantal wetbestanden dat gelezen wordt; een groter corpus is exit 65",
        )
        .with_default("100000"),
        EnvVar::new(
            KVK_SESSIE_NUMMER,
            EnvKind::Setting,
            "bindt de sessie aan één KvK-nummer: check energiebesparing, concept en regelingen weigeren een ander (exit 77)",
        ),
        EnvVar::new(
            DEFINITIONS_ENV,
            EnvKind::Path,
            "mappen met regelingdefinities en bronnenregisters (*.json), gescheiden door ':'; aanvulling op de ingebouwde",
        ),
        CLI_DIR_VAR,
    ],
    audit_env: AUDIT_ENV,
    default_timeout_secs: 10,
    resources: &[],
    // The commands that parse law files from a corpus keep each one's prepared (JSON) form in the
    // cache and read it back next time (CACHE-5); nothing they answer comes from an upstream.
    cached: &[
        commands::evalueer::SPECS[0].path,
        commands::scenario::SPECS[0].path,
        commands::concept::SPECS[0].path,
        commands::ontvangstbewijs::controleer::SPECS[0].path,
        commands::wet::lijst::SPECS[0].path,
        commands::wet::toon::SPECS[0].path,
        commands::wet::notities::SPECS[0].path,
    ],
    // `concept` and `regelingen` run the sources of the built-in register (`regelingen/
    // bronnen.json`); a test keeps this list equal to its programs.
    children: &["kvk-cli"],
};

//! What regelrecht-cli declares about itself: environment, commands, defaults.

use common::env::KVK_SESSIE_NUMMER;
use common::{CommandSpec, EnvKind, EnvVar, ToolInfo};

use crate::commands::{check_energiebesparing, evalueer, wet_lijst, wet_toon};
use crate::laws::CORPUS_ENV;

/// The tool's own audit-destination variable.
pub const AUDIT_ENV: &str = "REGELRECHT_AUDIT_LOG";

pub const TOOL: ToolInfo = ToolInfo {
    name: "regelrecht-cli",
    version: env!("CARGO_PKG_VERSION"),
    description: "Machineleesbare wetgeving (RegelRecht-formaat v0.5) lokaal uitvoeren: wetten bekijken, uitkomsten berekenen met hun wettelijke grondslag, en de energiebesparingsplicht (Bal 5.15–5.15b) toetsen",
    help: "RegelRecht: machineleesbare Nederlandse wetgeving lokaal uitvoeren, met de wettelijke grondslag. Wetten komen uit de ingebouwde set (Besluit activiteiten leefomgeving, art. 5.15–5.15b) en uit elke *.yaml onder de mappen van --corpus en REGELRECHT_CORPUS. Alles werkt zonder netwerk. Machineleesbare beschrijving: regelrecht-cli --help --json.",
    env: &[
        EnvVar::new(
            CORPUS_ENV,
            EnvKind::Path,
            "mappen met wetten (*.yaml), gescheiden door ':'; aanvulling op de ingebouwde wetten en --corpus",
        ),
        EnvVar::new(
            KVK_SESSIE_NUMMER,
            EnvKind::Setting,
            "bindt de sessie aan één KvK-nummer: check energiebesparing voor een ander nummer wordt geweigerd (exit 77)",
        ),
        EnvVar::new(
            AUDIT_ENV,
            EnvKind::Path,
            "auditlog van regelrecht-cli (JSON Lines)",
        ),
    ],
    audit_env: AUDIT_ENV,
    default_timeout_secs: 10,
    commands: &COMMANDS,
    resources: &[],
};

const COMMANDS: [CommandSpec; 4] = [
    wet_lijst::SPEC,
    wet_toon::SPEC,
    evalueer::SPEC,
    check_energiebesparing::SPEC,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clap_and_discovery_cover_the_same_commands() {
        let problems = common::discovery::tool_problems::<crate::cli::Command>(&TOOL);
        assert!(problems.is_empty(), "{problems:#?}");
    }

    #[test]
    fn output_schemas_are_json_objects() {
        for spec in &COMMANDS {
            assert_eq!(spec.output_schema()["type"], "object", "{:?}", spec.path);
        }
    }
}

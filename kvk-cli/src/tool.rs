//! What kvk-cli declares about itself: environment, commands, defaults.

use common::env::KVK_SESSIE_NUMMER;
use common::{CommandSpec, EnvKind, EnvVar, ToolInfo};

use crate::commands::{basisprofiel, naamgeving, vestigingsprofiel, zoeken};
use crate::source::{API_BASE, API_KEY, TEST_BASE};

pub(crate) const TOOL: ToolInfo = ToolInfo {
    name: "kvk-cli",
    version: env!("CARGO_PKG_VERSION"),
    description: "KvK Handelsregister (zoeken, basisprofiel, vestigingsprofiel, naamgeving) volgens het overheid-CLI-profiel",
    help: "KvK Handelsregister: zoeken, basisprofiel, vestigingsprofiel en naamgeving. Standaard tegen de openbare testomgeving van de KvK (fictieve gegevens). Zet KVK_API_BASE en KVK_API_KEY voor productie. Machineleesbare beschrijving: kvk-cli --help --json.",
    env: &[
        EnvVar::new(API_BASE, EnvKind::BaseUrl, "basis-URL van de KvK API").with_default(TEST_BASE),
        EnvVar::new(
            API_KEY,
            EnvKind::Secret,
            "KvK API-sleutel (header apikey); zonder sleutel alleen de openbare testomgeving",
        ),
        EnvVar::new(
            KVK_SESSIE_NUMMER,
            EnvKind::Setting,
            "bindt de sessie aan één KvK-nummer: andere nummers worden geweigerd (exit 77)",
        ),
        EnvVar::new(
            "KVK_AUDIT_LOG",
            EnvKind::Path,
            "auditlog van kvk-cli (JSON Lines)",
        ),
    ],
    audit_env: "KVK_AUDIT_LOG",
    default_timeout_secs: 10,
    commands: &COMMANDS,
    resources: &[],
};

const COMMANDS: [CommandSpec; 7] = [
    zoeken::SPEC,
    basisprofiel::GET,
    basisprofiel::EIGENAAR,
    basisprofiel::HOOFDVESTIGING,
    basisprofiel::VESTIGINGEN,
    vestigingsprofiel::GET,
    naamgeving::GET,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clap_and_discovery_cover_the_same_commands() {
        let problems = common::discovery::tool_problems::<crate::cli::Command>(&TOOL);
        assert!(problems.is_empty(), "{problems:#?}");
    }
}

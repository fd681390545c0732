//! What rvo-cli declares about itself: environment, commands, defaults.

use common::env::KVK_SESSIE_NUMMER;
use common::{CommandSpec, EnvKind, EnvVar, ToolInfo};
use rvo_cli::backend_types::{API_BASE_ENV, API_TOKEN_ENV};

use crate::cli::commands::{rapportage, regeling};

pub const TOOL: ToolInfo = ToolInfo {
    name: "rvo-cli",
    version: env!("CARGO_PKG_VERSION"),
    description: "RVO-regelingen (ingebedde catalogus) en rapportages die precies één keer worden ingediend, volgens het overheid-CLI-profiel",
    help: "RVO-regelingen opzoeken en rapportages indienen, precies één keer. De regelingen komen uit een ingebedde catalogus met een eigen peildatum (geen live koppeling met RVO). Rapportages gaan standaard naar een lokale proefopslag: er gaat niets naar RVO. Met RVO_API_BASE gaan ze naar een backend volgens spec/rvo-backend.md. Indienen is een muterende opdracht: eerst het plan, dan --confirm. Machineleesbare beschrijving: rvo-cli --help --json.",
    env: &[
        EnvVar::new(
            API_BASE_ENV,
            EnvKind::BaseUrl,
            "basis-URL van een rapportagebackend volgens spec/rvo-backend.md; niet gezet: lokale proefopslag (er gaat niets naar RVO)",
        ),
        EnvVar::new(
            API_TOKEN_ENV,
            EnvKind::Secret,
            "token voor de backend, verzonden als Authorization: Bearer; nooit getoond",
        ),
        EnvVar::new(
            "RVO_DATA_DIR",
            EnvKind::Path,
            "map van de lokale proefopslag; standaard $XDG_DATA_HOME/rvo-cli of ~/.local/share/rvo-cli",
        ),
        EnvVar::new(
            "XDG_DATA_HOME",
            EnvKind::Path,
            "basismap voor de lokale proefopslag ($XDG_DATA_HOME/rvo-cli) als RVO_DATA_DIR niet gezet is",
        )
        .with_default("~/.local/share"),
        EnvVar::new(
            KVK_SESSIE_NUMMER,
            EnvKind::Setting,
            "bindt rapportage-opdrachten aan één KvK-nummer: andere nummers worden geweigerd (exit 77)",
        ),
        EnvVar::new(
            "RVO_AUDIT_LOG",
            EnvKind::Path,
            "auditlog van rvo-cli (JSON Lines)",
        ),
    ],
    audit_env: "RVO_AUDIT_LOG",
    default_timeout_secs: 10,
    commands: &COMMANDS,
    resources: &[],
};

const COMMANDS: [CommandSpec; 6] = [
    regeling::zoek::SPEC,
    regeling::get::SPEC,
    regeling::lijst::SPEC,
    rapportage::indienen::SPEC,
    rapportage::status::SPEC,
    rapportage::lijst::SPEC,
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
    fn only_filing_mutates() {
        let mutating: Vec<_> = COMMANDS
            .iter()
            .filter(|c| c.is_mutating())
            .map(|c| c.tool_name())
            .collect();
        assert_eq!(mutating, ["rapportage_indienen"]);
        let indienen = rapportage::indienen::SPEC.annotations;
        assert!(!indienen.destructive && indienen.idempotent && indienen.open_world);
    }
}

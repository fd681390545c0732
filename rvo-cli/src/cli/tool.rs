//! What rvo-cli declares about itself: environment, defaults (the commands come from `cli::Command`).

use common::env::{CLI_DIR_VAR, KVK_SESSIE_NUMMER};
use common::{EnvKind, EnvVar, ToolInfo};
use rvo_cli::backend_types::{API_BASE_ENV, API_TOKEN_ENV};

pub(crate) const TOOL: ToolInfo = ToolInfo {
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
            "bindt rapportage-opdrachten aan één KvK-nummer: andere nummers worden geweigerd (exit 77); zonder KvK-nummer geldt dit nummer",
        ),
        EnvVar::new(
            overheid_records::STORE_URL_ENV,
            EnvKind::Secret,
            "gedeelde opslag van voorstellen en van de rapportages van de lokale proefopslag (postgres://…); niet gezet: SQLite in de map van RVO_DATA_DIR; het wachtwoord wordt nooit getoond",
        ),
        EnvVar::new(
            crate::cli::approval::APPROVAL_URL_ENV,
            EnvKind::Setting,
            "basis-URL van de goedkeuringspagina (overheid-mcp --http); een voorstel toont dan {basis}/voorstellen/{id}",
        ),
        CLI_DIR_VAR,
    ],
    audit_env: "RVO_AUDIT_LOG",
    default_timeout_secs: 10,
    resources: &[],
    // Under the operator's policy these commands keep the identity provider's keys in the
    // family cache as the provider's HTTP caching allows (profile §10.3).
    cached: &[&["voorstel", "goedkeuren"], &["rapportage", "indienen"]],
    // `rapportage indienen|voorstel --concept` checks a concept with regelrecht-cli.
    children: &["regelrecht-cli"],
};

#[cfg(test)]
mod tests {
    use crate::cli::SPECS;
    use crate::cli::commands::rapportage;

    #[test]
    fn only_filing_and_proposing_change_anything() {
        let mutating: Vec<_> = SPECS
            .iter()
            .filter(|c| c.is_mutating())
            .map(|c| (c.tool_name(), c.annotations.proposes))
            .collect();
        // Proposing records a proposal (MUT-18: not gated by --confirm). The two decisions are
        // a person's acts at a terminal: hidden, never tools.
        assert_eq!(
            mutating,
            [
                ("rapportage_indienen".to_string(), false),
                ("rapportage_voorstel".to_string(), true),
                ("voorstel_goedkeuren".to_string(), false),
                ("voorstel_afwijzen".to_string(), false)
            ]
        );
        let indienen = rapportage::indienen::SPECS[0].annotations;
        assert!(!indienen.destructive && indienen.idempotent && indienen.open_world);
        let voorstel = rapportage::voorstel::SPECS[0].annotations;
        assert!(!voorstel.read_only && voorstel.idempotent && !voorstel.destructive);
    }
}

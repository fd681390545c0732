//! What koop-cli declares about itself: environment, commands, resources, defaults.

use common::{CommandSpec, EnvKind, EnvVar, ResourceSpec, ToolInfo};

use crate::cli::commands::{artikel, get, versies, zoek};
use crate::cli::source::{
    AUDIT_LOG, DEFAULT_REPOSITORY_URL, DEFAULT_SRU_URL, REPOSITORY_URL, SRU_URL,
};

pub const TOOL: ToolInfo = ToolInfo {
    name: "koop-cli",
    version: env!("CARGO_PKG_VERSION"),
    description: "Nederlandse wet- en regelgeving uit het Basiswettenbestand van KOOP (zoeken, regeling, artikel, versies op een peildatum) volgens het overheid-CLI-profiel",
    help: "Nederlandse wet- en regelgeving uit het Basiswettenbestand (BWB) van KOOP. Zoekt regelingen via de SRU-zoekdienst en leest de officiële toestand-XML uit de repository, zoals de regeling gold op een peildatum (standaard vandaag). Geen sleutel nodig. Machineleesbare beschrijving: koop-cli --help --json.",
    env: &[
        EnvVar::new(
            SRU_URL,
            EnvKind::BaseUrl,
            "SRU-zoekdienst van KOOP (searchRetrieve, x-connection=BWB)",
        )
        .with_default(DEFAULT_SRU_URL),
        EnvVar::new(
            REPOSITORY_URL,
            EnvKind::BaseUrl,
            "repository met de toestand-XML; URL's uit zoekresultaten buiten deze basis worden geweigerd",
        )
        .with_default(DEFAULT_REPOSITORY_URL),
        EnvVar::new(AUDIT_LOG, EnvKind::Path, "auditlog van koop-cli (JSON Lines)"),
    ],
    audit_env: AUDIT_LOG,
    default_timeout_secs: 15,
    commands: &COMMANDS,
    resources: &RESOURCES,
};

const COMMANDS: [CommandSpec; 4] = [zoek::SPEC, get::SPEC, artikel::SPEC, versies::SPEC];

/// Addressable documents (rules RES-*): the template variables are the tools' input properties.
const RESOURCES: [ResourceSpec; 2] = [
    ResourceSpec {
        uri_template: "koop://regeling/{bwb_id}",
        name: "regeling",
        title: "Regeling",
        description: "Een hele regeling uit het Basiswettenbestand zoals die vandaag geldt: alle artikelen als platte tekst.",
        mime_type: "application/json",
        tool: "regeling_get",
    },
    ResourceSpec {
        uri_template: "koop://regeling/{bwb_id}/artikel/{artikel}",
        name: "regeling-artikel",
        title: "Artikel van een regeling",
        description: "Eén artikel van een regeling uit het Basiswettenbestand, zoals het vandaag geldt.",
        mime_type: "application/json",
        tool: "regeling_artikel",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clap_and_discovery_cover_the_same_commands() {
        let problems = common::discovery::tool_problems::<crate::cli::Command>(&TOOL);
        assert!(problems.is_empty(), "{problems:#?}");
    }

    /// RES-4: every template variable is an input property, every required property a variable.
    #[test]
    fn resource_templates_match_their_tools() {
        let cmd = common::app::command::<crate::cli::Command>(&TOOL);
        for resource in TOOL.resources {
            let spec = TOOL
                .commands
                .iter()
                .find(|c| c.tool_name() == resource.tool)
                .expect("resource maps to a tool");
            assert!(spec.annotations.read_only, "RES-3");
            let path: Vec<String> = spec.path.iter().map(|s| s.to_string()).collect();
            let sub = common::discovery::find(&cmd, &path).expect("command");
            let entry = common::discovery::tool_entry(sub, spec);
            let variables: Vec<&str> = resource
                .uri_template
                .split('{')
                .skip(1)
                .filter_map(|s| s.split('}').next())
                .collect();
            for v in &variables {
                assert!(
                    entry["inputSchema"]["properties"].get(*v).is_some(),
                    "{v} is not a property of {}",
                    resource.tool
                );
            }
            for required in entry["inputSchema"]["required"]
                .as_array()
                .expect("required")
            {
                assert!(
                    variables.contains(&required.as_str().expect("name")),
                    "{required} is required but not in {}",
                    resource.uri_template
                );
            }
        }
    }
}

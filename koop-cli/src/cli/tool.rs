//! What koop-cli declares about itself: environment, resources, defaults (the commands come from `cli::Command`).

use common::{EnvKind, EnvVar, ResourceSpec, ToolInfo};

use crate::cli::source::{
    AUDIT_LOG, DEFAULT_REPOSITORY_URL, DEFAULT_SRU_URL, REPOSITORY_URL, SRU_URL,
};

pub(crate) const TOOL: ToolInfo = ToolInfo {
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
    ],
    audit_env: AUDIT_LOG,
    default_timeout_secs: 15,
    resources: &RESOURCES,
    // A toestand XML never changes at its URL: the commands that read one may read it from the
    // response cache (CACHE-1). Searches and version lists are never cached.
    cached: &[
        crate::cli::commands::regeling::toon::SPECS[0].path,
        crate::cli::commands::regeling::artikel::SPECS[0].path,
    ],
    children: &[],
};

/// Addressable documents (rules RES-*): the template variables are the tools' input properties.
const RESOURCES: [ResourceSpec; 2] = [
    ResourceSpec {
        uri_template: "koop://regeling/{bwb_id}",
        name: "regeling",
        title: "Regeling",
        description: "Een hele regeling uit het Basiswettenbestand zoals die vandaag geldt: alle artikelen als platte tekst.",
        mime_type: "application/json",
        tool: "regeling_toon",
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

//! What kvk-cli declares about itself: environment, defaults (the commands come from `cli::Command`).

use common::env::KVK_SESSIE_NUMMER;
use common::{EnvKind, EnvVar, ToolInfo};

use crate::cli::source::{API_BASE, API_KEY, TEST_BASE};

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
    ],
    audit_env: "KVK_AUDIT_LOG",
    default_timeout_secs: 10,
    resources: &[],
    cached: &[],
    children: &[],
};

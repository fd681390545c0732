//! What the tool declares about itself beyond its commands: its name and version, its help, the
//! environment it reads (every variable declared here, read through `Context::env`), where its
//! audit log goes, and its default time limit.

use common::ToolInfo;

pub(crate) const TOOL: ToolInfo = ToolInfo {
    name: "sjabloon",
    version: env!("CARGO_PKG_VERSION"),
    description: "Een sjabloon voor een nieuwe tool van de overheid-CLI-familie: één lokale opdracht",
    help: "Een sjabloon voor een nieuwe tool van de familie: kopieer de map, geef de tool de naam van de bron en vervang de voorbeeldopdracht. Machineleesbare beschrijving: sjabloon --help --json.",
    env: &[],
    audit_env: "SJABLOON_AUDIT_LOG",
    default_timeout_secs: 10,
    resources: &[],
    cached: &[],
    children: &[],
};

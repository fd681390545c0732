//! The bridge's own environment, and what of it a child sees: only what its CLI declares in
//! discovery, plus the process basics (the allow-list is `common::child::EnvPolicy`).
//!
//! A client's own secrets (and every other variable of the bridge) never reach a tool;
//! `TRACEPARENT` is always the bridge's own. Values pass as the OS holds them: a declared
//! variable that is not valid UTF-8 reaches the CLI as it is, and the CLI refuses it (exit 78
//! naming it, CONF-7) instead of the bridge making it look unset.

use std::ffi::OsString;

pub(crate) use common::child::EnvPolicy;

/// The bridge's own environment, as the OS holds it.
#[allow(clippy::disallowed_methods, reason = "bridge env reader")]
pub(crate) fn own_vars() -> impl Iterator<Item = (OsString, OsString)> {
    std::env::vars_os()
}

/// `OVERHEID_MCP_STATE_KEY`: the key that seals approval state, shared by replicas.
#[allow(clippy::disallowed_methods, reason = "bridge env reader")]
pub(crate) fn state_key() -> Option<Vec<u8>> {
    use std::os::unix::ffi::OsStringExt;
    std::env::var_os("OVERHEID_MCP_STATE_KEY")
        .filter(|key| !key.is_empty())
        .map(OsStringExt::into_vec)
}

/// The directories of the bridge's own `PATH`, where a CLI named without `/` is looked up.
#[allow(clippy::disallowed_methods, reason = "bridge env reader")]
pub(crate) fn search_path() -> Vec<std::path::PathBuf> {
    std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect())
        .unwrap_or_default()
}

/// `OVERHEID_CLI_DIR`: where the family's programs look for the programs they run as children
/// (§12.2), so the bridge reads a child's discovery there too.
#[allow(clippy::disallowed_methods, reason = "bridge env reader")]
pub(crate) fn cli_dir() -> Option<std::path::PathBuf> {
    std::env::var_os("OVERHEID_CLI_DIR")
        .filter(|dir| !dir.is_empty())
        .map(std::path::PathBuf::from)
}

/// `OVERHEID_FOREIGN_PROCESSOR` as the host of a stdio bridge set it: the application the
/// bridge works for (AUDIT-20), passed on to every child.
#[allow(clippy::disallowed_methods, reason = "bridge env reader")]
pub(crate) fn foreign_processor() -> Option<String> {
    std::env::var(common::env::FOREIGN_PROCESSOR)
        .ok()
        .filter(|value| !value.trim().is_empty())
}

/// `OVERHEID_MCP_OIDC_CLIENT_SECRET`: the approval page's client secret at the identity provider,
/// when it is a confidential client (never on the command line).
#[allow(clippy::disallowed_methods, reason = "bridge env reader")]
pub(crate) fn oidc_client_secret() -> Option<String> {
    std::env::var("OVERHEID_MCP_OIDC_CLIENT_SECRET")
        .ok()
        .filter(|value| !value.is_empty())
}

/// Where the records are (`OVERHEID_STORE_URL`, else the data directory), for the approval page.
#[allow(clippy::disallowed_methods, reason = "bridge env reader")]
pub(crate) fn store_location() -> Result<overheid_records::Location, String> {
    overheid_records::Location::from_env(|name| std::env::var(name).ok()).map_err(|e| e.to_string())
}

/// The bridge's own directories: where its program lies, where it works and where temporary
/// files go (`TMPDIR`, else `/tmp`); what no client is told ([`crate::calls::server_paths`]).
pub(crate) fn own_dirs() -> Vec<std::path::PathBuf> {
    let exe_dir = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(std::path::Path::to_path_buf));
    exe_dir
        .into_iter()
        .chain(std::env::current_dir().ok())
        .chain([std::env::temp_dir()])
        .collect()
}

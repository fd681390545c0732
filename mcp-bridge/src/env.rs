//! The environment of a child: only what its CLI declares in discovery, plus the process basics.
//!
//! A client's own secrets (and every other variable of the bridge) never reach a tool;
//! `TRACEPARENT` is always the bridge's own. Values pass as the OS holds them: a declared
//! variable that is not valid UTF-8 reaches the CLI as it is, and the CLI refuses it (exit 78
//! naming it, CONF-7) instead of the bridge making it look unset.

use std::collections::BTreeSet;
use std::ffi::OsString;

/// Process basics every child gets when the bridge has them (profile CONF-2).
const BASICS: &[&str] = &[
    "PATH",
    "HOME",
    "LANG",
    "TZ",
    "TMPDIR",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
];

/// Which variables one CLI may see.
#[derive(Clone, Debug, Default)]
pub struct EnvPolicy {
    declared: BTreeSet<String>,
}

impl EnvPolicy {
    /// The policy of a CLI that declares these names.
    pub fn new(declared: impl IntoIterator<Item = String>) -> Self {
        Self {
            declared: declared.into_iter().collect(),
        }
    }

    /// Whether `name` may pass to the child.
    pub fn allows(&self, name: &str) -> bool {
        name != "TRACEPARENT"
            && (BASICS.contains(&name) || name.starts_with("LC_") || self.declared.contains(name))
    }

    /// The child's environment, taken from `vars` (the bridge's own), with `traceparent` set.
    /// Values are kept byte for byte; a name that is not UTF-8 is never one a CLI declares.
    pub fn child_env(
        &self,
        vars: impl Iterator<Item = (OsString, OsString)>,
        traceparent: Option<&str>,
    ) -> Vec<(OsString, OsString)> {
        let mut env: Vec<(OsString, OsString)> = vars
            .filter(|(name, _)| name.to_str().is_some_and(|name| self.allows(name)))
            .collect();
        if let Some(traceparent) = traceparent {
            env.push(("TRACEPARENT".into(), traceparent.into()));
        }
        env
    }
}

/// The bridge's own environment, as the OS holds it.
#[allow(clippy::disallowed_methods, reason = "bridge env reader")]
pub fn own_vars() -> impl Iterator<Item = (OsString, OsString)> {
    std::env::vars_os()
}

/// `OVERHEID_MCP_STATE_KEY`: the key that seals approval state, shared by replicas.
#[allow(clippy::disallowed_methods, reason = "bridge env reader")]
pub fn state_key() -> Option<Vec<u8>> {
    use std::os::unix::ffi::OsStringExt;
    std::env::var_os("OVERHEID_MCP_STATE_KEY")
        .filter(|key| !key.is_empty())
        .map(OsStringExt::into_vec)
}

/// The directories of the bridge's own `PATH`, where a CLI named without `/` is looked up.
#[allow(clippy::disallowed_methods, reason = "bridge env reader")]
pub fn search_path() -> Vec<std::path::PathBuf> {
    std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_declared_names_and_basics_only() {
        let policy = EnvPolicy::new(["KVK_API_KEY".to_string()]);
        let vars = [
            ("KVK_API_KEY", "k"),
            ("OPENAI_API_KEY", "geheim"),
            ("PATH", "/bin"),
            ("LC_ALL", "C"),
            ("TRACEPARENT", "van-de-client"),
        ]
        .map(|(k, v)| (k.into(), v.into()));
        let env = policy.child_env(vars.into_iter(), Some("00-x"));
        let names: Vec<&str> = env.iter().filter_map(|(k, _)| k.to_str()).collect();
        assert_eq!(names, ["KVK_API_KEY", "PATH", "LC_ALL", "TRACEPARENT"]);
        assert_eq!(env[3].1, "00-x");
    }

    #[test]
    fn passes_a_declared_value_that_is_not_utf8_unchanged() {
        use std::os::unix::ffi::OsStringExt;

        let policy = EnvPolicy::new(["KVK_SESSIE_NUMMER".to_string()]);
        let value = OsString::from_vec(b"6875\xff0110".to_vec());
        let vars = [
            (OsString::from("KVK_SESSIE_NUMMER"), value.clone()),
            (OsString::from_vec(b"X\xff".to_vec()), OsString::from("y")),
        ];
        let env = policy.child_env(vars.into_iter(), None);
        assert_eq!(env, [(OsString::from("KVK_SESSIE_NUMMER"), value)]);
    }
}

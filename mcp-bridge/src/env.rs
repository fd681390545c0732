//! The environment of a child: only what its CLI declares in discovery, plus the process basics.
//!
//! A client's own secrets (and every other variable of the bridge) never reach a tool;
//! `TRACEPARENT` is always the bridge's own.

use std::collections::BTreeSet;

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
    pub fn child_env(
        &self,
        vars: impl Iterator<Item = (String, String)>,
        traceparent: Option<&str>,
    ) -> Vec<(String, String)> {
        let mut env: Vec<(String, String)> = vars.filter(|(name, _)| self.allows(name)).collect();
        if let Some(traceparent) = traceparent {
            env.push(("TRACEPARENT".to_string(), traceparent.to_string()));
        }
        env
    }
}

/// The bridge's own environment, without variables that are not valid
/// UTF-8 (`std::env::vars` would panic on them; such a variable is never one
/// a CLI declares).
#[allow(clippy::disallowed_methods, reason = "bridge env reader")]
pub fn utf8_vars() -> impl Iterator<Item = (String, String)> {
    std::env::vars_os()
        .filter_map(|(name, value)| Some((name.into_string().ok()?, value.into_string().ok()?)))
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
        .map(|(k, v)| (k.to_string(), v.to_string()));
        let env = policy.child_env(vars.into_iter(), Some("00-x"));
        let names: Vec<&str> = env.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["KVK_API_KEY", "PATH", "LC_ALL", "TRACEPARENT"]);
        assert_eq!(env[3].1, "00-x");
    }
}

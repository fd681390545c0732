//! The one place that reads the environment (rules CONF-1, CONF-2).
//!
//! A tool declares every variable it reads; [`Env::read`] takes a snapshot of
//! exactly those (plus the profile's own) and nothing else. Discovery lists the
//! same declarations, so the published `env` table cannot drift from the code.

use serde::Serialize;

/// What kind of value a variable holds, so a harness knows what to do with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EnvKind {
    /// The base URL of an upstream service; a test harness may point it at a fake.
    BaseUrl,
    /// A credential: never printed, never on argv, `***` in plans.
    Secret,
    /// A file or directory path.
    Path,
    /// Any other setting.
    Setting,
}

/// The declaration of one environment variable.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct EnvVar {
    pub name: &'static str,
    pub kind: EnvKind,
    pub secret: bool,
    pub meaning: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<&'static str>,
}

impl EnvVar {
    /// A declaration; `secret` follows from the kind.
    pub const fn new(name: &'static str, kind: EnvKind, meaning: &'static str) -> Self {
        Self {
            name,
            kind,
            secret: matches!(kind, EnvKind::Secret),
            meaning,
            default: None,
        }
    }

    /// The same declaration with a documented default.
    pub const fn with_default(mut self, default: &'static str) -> Self {
        self.default = Some(default);
        self
    }
}

/// Name of the variable that overrides the audit destination for all tools.
pub const OVERHEID_AUDIT_LOG: &str = "OVERHEID_AUDIT_LOG";
/// Name of the processing-activity id variable (Logboek Dataverwerkingen).
pub const PROCESSING_ACTIVITY: &str = "OVERHEID_PROCESSING_ACTIVITY_ID";
/// Name of the response-size cap variable.
pub const MAX_RESPONSE_BYTES: &str = "OVERHEID_MAX_RESPONSE_BYTES";
/// The session variable of the KvK session rule.
pub const KVK_SESSIE_NUMMER: &str = "KVK_SESSIE_NUMMER";

/// The variables every profile tool reads.
pub const PROFILE_ENV: &[EnvVar] = &[
    EnvVar::new(
        OVERHEID_AUDIT_LOG,
        EnvKind::Path,
        "auditlog (JSON Lines) voor alle tools, als de tool-eigen variabele niet gezet is",
    ),
    EnvVar::new(
        "XDG_STATE_HOME",
        EnvKind::Path,
        "basismap voor het standaard-auditlog ($XDG_STATE_HOME/overheid-cli/audit.jsonl)",
    ),
    EnvVar::new(
        "HOME",
        EnvKind::Path,
        "thuismap; standaard-auditlog onder ~/.local/state",
    ),
    EnvVar::new(
        PROCESSING_ACTIVITY,
        EnvKind::Setting,
        "id van de verwerkingsactiviteit voor het auditlog (dpl.core.processing_activity_id)",
    ),
    EnvVar::new(
        MAX_RESPONSE_BYTES,
        EnvKind::Setting,
        "maximale grootte van een antwoord van de bron in bytes",
    )
    .with_default("20971520"),
    EnvVar::new(
        "TRACEPARENT",
        EnvKind::Setting,
        "W3C trace context om voort te zetten (audit, provenance, upstream traceparent)",
    ),
    EnvVar::new(
        "HTTPS_PROXY",
        EnvKind::Setting,
        "proxy voor https-verzoeken (andere proxyvariabelen worden genegeerd)",
    ),
    EnvVar::new(
        "NO_COLOR",
        EnvKind::Setting,
        "gezet: geen kleur in de uitvoer",
    ),
    EnvVar::new(
        "TERM",
        EnvKind::Setting,
        "\"dumb\": geen kleur in de uitvoer",
    ),
];

/// A snapshot of the declared variables.
#[derive(Clone, Debug, Default)]
pub struct Env {
    values: Vec<(&'static str, Option<String>)>,
}

impl Env {
    /// Read the tool's declared variables and the profile's own.
    #[allow(clippy::disallowed_methods, reason = "one env reader")]
    pub fn read(tool_env: &[EnvVar]) -> Self {
        let values = PROFILE_ENV
            .iter()
            .chain(tool_env)
            .map(|var| {
                let value = std::env::var(var.name).ok().filter(|v| !v.is_empty());
                (var.name, value)
            })
            .collect();
        Self { values }
    }

    /// An environment with exactly these values (for tests).
    pub fn from_pairs(pairs: &[(&'static str, &str)]) -> Self {
        Self {
            values: pairs
                .iter()
                .map(|(k, v)| (*k, (!v.is_empty()).then(|| (*v).to_string())))
                .collect(),
        }
    }

    /// The value of a declared variable, if set and non-empty.
    ///
    /// Reading an undeclared variable is a bug: it would be missing from
    /// discovery. Debug builds panic on it.
    pub fn get(&self, name: &str) -> Option<&str> {
        match self.values.iter().find(|(k, _)| *k == name) {
            Some((_, v)) => v.as_deref(),
            None => {
                debug_assert!(
                    self.values.is_empty() || cfg!(test),
                    "environment variable {name} read but not declared"
                );
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_follows_kind() {
        assert!(EnvVar::new("K", EnvKind::Secret, "").secret);
        assert!(!EnvVar::new("U", EnvKind::BaseUrl, "").secret);
    }

    #[test]
    fn empty_values_count_as_unset() {
        let env = Env::from_pairs(&[("A", ""), ("B", "x")]);
        assert_eq!(env.get("A"), None);
        assert_eq!(env.get("B"), Some("x"));
    }
}

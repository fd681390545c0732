//! A source's base URL, set up one way for every tool (rule PROV-2, NET-*): read through the one
//! env place ([`crate::call::context::Context::env`]), defaulted, checked before any request (https, or http to
//! a loopback host; exit 78), and placed in one [`Environment`] by one rule with its label.
//!
//! The rule: a loopback base is [`Environment::Local`] (a fake); the source's documented
//! production base is [`Environment::Production`]; anything else is [`Environment::Test`] (a
//! test environment or another copy, never presented as the real service). A source without a
//! documented production base (rvo-cli's contract backend) is never production.

use url::Url;

use crate::call::context::Context;
use crate::call::provenance::Environment;
use crate::net::http::{check_url, is_loopback};
use crate::problem::error::{Problem, Result};

/// Where a source's base URL comes from.
#[derive(Clone, Copy, Debug)]
pub struct SourceSpec {
    /// The variable that sets the base URL (`KVK_API_BASE`).
    pub var: &'static str,
    /// The base used when the variable is unset; without one the variable is required.
    pub default: Option<&'static str>,
    /// The documented production base, if the source has one.
    pub production: Option<&'static str>,
}

/// A configured source: its checked base URL (without a trailing `/`) and environment.
#[derive(Clone, Debug)]
pub struct Source {
    /// The base URL, without a trailing `/`.
    pub base: String,
    /// The parsed base URL.
    pub url: Url,
    /// Where the base places the source.
    pub environment: Environment,
}

impl Source {
    /// Reads `spec.var` (or its default) and checks it: exit 78 naming the variable when it is
    /// unset without a default or the URL is not usable.
    pub fn from_env(ctx: &Context<'_>, spec: SourceSpec) -> Result<Self> {
        let base = ctx
            .env(spec.var)
            .or(spec.default)
            .ok_or_else(|| Problem::config(format!("{} ontbreekt", spec.var)))?
            .trim_end_matches('/')
            .to_string();
        let url = check_url(&base).map_err(|err| {
            err.with_hint(format!(
                "{} moet een https-URL zijn (http alleen naar 127.0.0.1, ::1 of localhost)",
                spec.var
            ))
        })?;
        Ok(Self {
            environment: place(&url, &base, spec.production),
            base,
            url,
        })
    }
}

/// The one environment rule (see the module header).
fn place(url: &Url, base: &str, production: Option<&str>) -> Environment {
    if is_loopback(url) {
        Environment::Local
    } else if production.map(|p| p.trim_end_matches('/')) == Some(base) {
        Environment::Production
    } else {
        Environment::Test
    }
}

/// The environment of data combined from several sources: production only when all are, local
/// only when all are, else test.
pub fn joint(environments: &[Environment]) -> Environment {
    if environments.iter().all(|e| *e == Environment::Production) {
        Environment::Production
    } else if environments.iter().all(|e| *e == Environment::Local) {
        Environment::Local
    } else {
        Environment::Test
    }
}

/// The label provenance gives `name` in `environment` (PROV-2): the name itself in production,
/// else with the environment in words.
pub fn label(name: &str, environment: Environment) -> String {
    match environment {
        Environment::Production => name.to_string(),
        Environment::Test => format!("{name} (testomgeving)"),
        Environment::Local => format!("{name} (lokale nabootsing)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_is_local_the_production_base_production_and_the_rest_test() {
        let at = |base: &str, production| place(&Url::parse(base).unwrap(), base, production);
        let production = Some("https://api.example.nl/api/");
        assert_eq!(at("http://127.0.0.1:9/api", production), Environment::Local);
        assert_eq!(at("http://[::1]:9", None), Environment::Local);
        assert_eq!(
            at("https://api.example.nl/api", production),
            Environment::Production
        );
        assert_eq!(
            at("https://api.example.nl/test/api", production),
            Environment::Test
        );
        assert_eq!(
            at("https://proxy.example.nl/api", production),
            Environment::Test
        );
        assert_eq!(at("https://api.example.nl/api", None), Environment::Test);
    }

    #[test]
    fn joint_is_production_or_local_only_when_all_are() {
        use Environment::{Local, Production, Test};
        assert_eq!(joint(&[Production, Production]), Production);
        assert_eq!(joint(&[Local, Local]), Local);
        assert_eq!(joint(&[Production, Local]), Test);
        assert_eq!(joint(&[Test, Production]), Test);
    }

    #[test]
    fn the_label_names_a_non_production_environment() {
        assert_eq!(label("KvK", Environment::Production), "KvK");
        assert_eq!(label("KvK", Environment::Test), "KvK (testomgeving)");
        assert_eq!(label("KvK", Environment::Local), "KvK (lokale nabootsing)");
    }
}

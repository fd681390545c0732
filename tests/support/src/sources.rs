//! The fake sources that `fake-upstream` can serve, with the variable that points a tool at each.

use crate::reply::Reply;
use crate::request::RecordedRequest;

/// One fake upstream source.
pub struct Source {
    /// Name, also the mount prefix (`kvk` → `/kvk/...`).
    pub name: &'static str,
    /// The tool's base-URL variable to point at the mounted fake (`KVK_API_BASE`).
    pub env_var: &'static str,
    /// Further variables, each with its path below the mount (`KOOP_REPOSITORY_URL`, `/repository`).
    pub more_env: &'static [(&'static str, &'static str)],
    /// Variables with a fixed demo value the fake accepts (`KVK_API_KEY`, a key it takes).
    pub demo_env: &'static [(&'static str, &'static str)],
    /// Human description for `fake-upstream --help`.
    pub description: &'static str,
    /// The router.
    pub router: fn(&RecordedRequest) -> Reply,
}

/// Every fake source, in mount order.
pub const SOURCES: &[Source] = &[
    Source {
        name: "kvk",
        env_var: "KVK_API_BASE",
        more_env: &[],
        demo_env: &[("KVK_API_KEY", "demo-sleutel")],
        description: "KvK Handelsregister (Zoeken v2, Basisprofiel, Vestigingsprofiel, Naamgeving)",
        router: crate::kvk::kvk,
    },
    Source {
        name: "koop",
        env_var: "KOOP_SRU_URL",
        more_env: &[("KOOP_REPOSITORY_URL", "/repository")],
        demo_env: &[],
        description: "KOOP Basiswettenbestand (SRU-zoekdienst en repository met toestand-XML)",
        router: crate::koop::koop,
    },
];

/// The source called `name`, if any.
pub fn source(name: &str) -> Option<&'static Source> {
    SOURCES.iter().find(|source| source.name == name)
}

//! The fake sources that `fake-upstream` can serve, with the variable that points a tool at each.

use crate::reply::Reply;
use crate::request::RecordedRequest;

/// One fake upstream source.
pub struct Source {
    /// Name, also the mount prefix (`kvk` → `/kvk/...`).
    pub name: &'static str,
    /// The tool's base-URL variable to point at the mounted fake (`KVK_API_BASE`).
    pub env_var: &'static str,
    /// Human description for `fake-upstream --help`.
    pub description: &'static str,
    /// The router.
    pub router: fn(&RecordedRequest) -> Reply,
}

/// Every fake source, in mount order.
pub const SOURCES: &[Source] = &[Source {
    name: "kvk",
    env_var: "KVK_API_BASE",
    description: "KvK Handelsregister (Zoeken v2, Basisprofiel, Vestigingsprofiel, Naamgeving)",
    router: crate::kvk::kvk,
}];

/// The source called `name`, if any.
pub fn source(name: &str) -> Option<&'static Source> {
    SOURCES.iter().find(|source| source.name == name)
}

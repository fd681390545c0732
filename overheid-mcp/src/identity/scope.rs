//! OAuth scopes over HTTP: one for reading, one for filing (MCP authorization, scope challenges).
//!
//! Which scope a request needs follows from the tool's own discovery, never from a list kept
//! here: a tool whose annotations say `readOnlyHint: true` needs [`Scope::Read`], every other
//! tool (it applies a proposal) needs [`Scope::File`]. A resource read runs a read-only tool,
//! and a completion reads data to offer values, so both need [`Scope::Read`]. Every other method
//! (discovery, the lists, prompts, ping) needs a valid token and no scope.
//!
//! A token without a `scope` claim is taken to grant reading only: an identity provider that
//! issues no scopes says nothing about filing, and filing is what may not happen by default.

use serde_json::Value;

use crate::catalog::{Catalog, Tool};

/// A scope of the bridge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    /// `overheid:lezen`: read-only tools and resources.
    Read,
    /// `overheid:indienen`: tools that are not read-only (proposals, filings).
    File,
}

impl Scope {
    /// Every scope, in the order of `scopes_supported`.
    pub(crate) const ALL: [Scope; 2] = [Scope::Read, Scope::File];

    /// The scope's name in tokens, challenges and the RFC 9728 metadata.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Scope::Read => "overheid:lezen",
            Scope::File => "overheid:indienen",
        }
    }

    /// The scope a call of `tool` needs, from its annotations.
    pub(crate) fn for_tool(tool: &Tool) -> Self {
        if tool.mutating {
            Scope::File
        } else {
            Scope::Read
        }
    }

    /// The scope the JSON-RPC message `body` needs, if any: a call of a known tool, or a
    /// resource read. `None` for everything else (an unknown tool is refused by the handler,
    /// which names no scope).
    pub(crate) fn for_message(catalog: &Catalog, body: &Value) -> Option<Self> {
        match body.get("method")?.as_str()? {
            "tools/call" => {
                let name = body.get("params")?.get("name")?.as_str()?;
                let index = catalog.index(name)?;
                Some(Self::for_tool(&catalog.tools[index]))
            }
            "resources/read" | "completion/complete" => Some(Scope::Read),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_scope_follows_the_annotations() {
        let mut catalog = Catalog::new(false, true);
        let entry = |name: &str, read_only: bool| {
            json!({"name": name, "description": "x",
                   "inputSchema": {"type": "object", "properties": {}},
                   "outputSchema": {"type": "object"},
                   "annotations": {"readOnlyHint": read_only},
                   "_meta": {"argv": [name], "positional": [], "flags": {}}})
        };
        let discovery = json!({"name": "demo-cli", "version": "0.1.0", "env": [],
            "tools": [entry("lees", true), entry("dien_in", false)]});
        catalog.add("/x/demo-cli".into(), &discovery);
        let call = |name: &str| json!({"method": "tools/call", "params": {"name": name}});
        assert_eq!(
            Scope::for_message(&catalog, &call("demo__lees")),
            Some(Scope::Read)
        );
        assert_eq!(
            Scope::for_message(&catalog, &call("demo__dien_in")),
            Some(Scope::File)
        );
        assert_eq!(Scope::for_message(&catalog, &call("demo__onbekend")), None);
        let read = json!({"method": "resources/read", "params": {"uri": "demo://x"}});
        assert_eq!(Scope::for_message(&catalog, &read), Some(Scope::Read));
        let complete = json!({"method": "completion/complete", "params": {}});
        assert_eq!(Scope::for_message(&catalog, &complete), Some(Scope::Read));
        let list = json!({"method": "tools/list"});
        assert_eq!(Scope::for_message(&catalog, &list), None);
        let prompt = json!({"method": "prompts/get", "params": {"name": "x"}});
        assert_eq!(Scope::for_message(&catalog, &prompt), None);
    }
}

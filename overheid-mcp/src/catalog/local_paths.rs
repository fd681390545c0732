//! Arguments that name local files or directories (`"format": "path"` in discovery's
//! `inputSchema`): left out of what a model sees unless the operator allows them.
//!
//! A model that may pass paths can make a tool read any file the bridge's user can read
//! (and quote it back in an error). So by default such properties are removed from the
//! listed `inputSchema`, and a call that sends one anyway is refused (65) before anything
//! runs. `overheid-mcp --allow-local-paths` lists and passes them like any other argument.

use serde_json::{Map, Value};

/// The `format` value that marks a property as a local path.
pub(crate) const PATH_FORMAT: &str = "path";

/// A property removed from a tool's `inputSchema`.
#[derive(Debug, PartialEq)]
pub(crate) struct Hidden {
    pub name: String,
    /// Whether the schema's `required` listed it (the tool cannot run without it).
    pub required: bool,
}

/// Whether the property schema is a path, or an array of paths.
pub(crate) fn is_local_path(schema: &Value) -> bool {
    schema["format"] == PATH_FORMAT || schema["items"]["format"] == PATH_FORMAT
}

/// Remove every path property from `input` (properties and `required`); returns what went.
pub(crate) fn hide(input: &mut Map<String, Value>) -> Vec<Hidden> {
    let names: Vec<String> = input
        .get("properties")
        .and_then(Value::as_object)
        .map(|properties| {
            properties
                .iter()
                .filter(|(_, schema)| is_local_path(schema))
                .map(|(name, _)| name.clone())
                .collect()
        })
        .unwrap_or_default();
    if let Some(properties) = input.get_mut("properties").and_then(Value::as_object_mut) {
        properties.retain(|name, _| !names.contains(name));
    }
    let mut hidden: Vec<Hidden> = names
        .into_iter()
        .map(|name| Hidden {
            name,
            required: false,
        })
        .collect();
    if let Some(required) = input.get_mut("required").and_then(Value::as_array_mut) {
        required.retain(
            |name| match hidden.iter_mut().find(|h| name == h.name.as_str()) {
                Some(found) => {
                    found.required = true;
                    false
                }
                None => true,
            },
        );
    }
    hidden
}

/// The hidden path arguments that `arguments` carries anyway, as (pointer, Dutch explanation).
pub(crate) fn refused(hidden: &[String], arguments: &Map<String, Value>) -> Vec<(String, String)> {
    hidden
        .iter()
        .filter(|name| arguments.contains_key(name.as_str()))
        .map(|name| {
            (
                crate::problem::pointer(name),
                "dit argument noemt een lokaal bestand of een lokale map en is via MCP niet \
                 beschikbaar (de beheerder van overheid-mcp kan het toestaan met --allow-local-paths)"
                    .to_string(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn removes_path_properties_and_their_required_entries() {
        let mut input = json!({
            "type": "object",
            "properties": {
                "wet": {"type": "string"},
                "corpus": {"type": "array", "items": {"type": "string", "format": "path"}},
                "param_json": {"type": "string", "format": "path"},
                "datum": {"type": "string", "format": "date"}
            },
            "required": ["wet", "param_json"]
        });
        let hidden = hide(input.as_object_mut().unwrap());
        assert_eq!(
            hidden,
            [
                Hidden {
                    name: "corpus".into(),
                    required: false
                },
                Hidden {
                    name: "param_json".into(),
                    required: true
                }
            ]
        );
        assert_eq!(
            input["properties"]
                .as_object()
                .unwrap()
                .keys()
                .collect::<Vec<_>>(),
            ["wet", "datum"]
        );
        assert_eq!(input["required"], json!(["wet"]));
    }

    #[test]
    fn refuses_hidden_arguments_a_call_sends_anyway() {
        let hidden = ["corpus".to_string()];
        let arguments = json!({"corpus": ["/etc"], "wet": "x"});
        let refused = refused(&hidden, arguments.as_object().unwrap());
        assert_eq!(refused.len(), 1);
        assert_eq!(refused[0].0, "/corpus");
        assert!(refused[0].1.contains("--allow-local-paths"));
    }
}

//! Checks on JSON Schemas that more than one test makes.

use serde_json::Value;

/// Whether `schema` has `"type": [...]` anywhere (outside values such as `enum`): what hosts
/// that map schemas onto a single-`type` dialect cannot read (the MCP Inspector warns).
pub fn has_type_array(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(key, value)| match key.as_str() {
            "type" => value.is_array() || has_type_array(value),
            "const" | "enum" | "default" | "examples" => false,
            _ => has_type_array(value),
        }),
        Value::Array(items) => items.iter().any(has_type_array),
        _ => false,
    }
}

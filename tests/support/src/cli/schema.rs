//! The published schemas of `spec/schemas/` and validation against them.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The directory of the published schemas.
fn schema_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec/schemas")
}

/// A schema of `spec/schemas/` as JSON.
pub fn schema(name: &str) -> Value {
    let path = schema_dir().join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).expect("schema is JSON")
}

/// Asserts that `instance` validates against the published schema `name`.
pub fn assert_valid(name: &str, instance: &Value) {
    assert_valid_against(&schema(name), instance, name);
}

/// Asserts that `instance` validates against `schema` (`label` names it in the message).
pub fn assert_valid_against(schema: &Value, instance: &Value, label: &str) {
    let validator = jsonschema::validator_for(schema)
        .unwrap_or_else(|e| panic!("{label} is not a valid schema: {e}"));
    let problems: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(
        problems.is_empty(),
        "{label}: {problems:#?}\ninstance: {instance}"
    );
}

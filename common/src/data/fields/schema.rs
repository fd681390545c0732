//! The schema navigator of `--fields`: what an output schema allows below a node (a member, the
//! members, the elements, every descendant within a bound), with `$ref`, `allOf`, `anyOf` and
//! `oneOf` resolved, and a path checked against it (exit 2 naming the valid fields).

use serde_json::Value;

use super::path::Step;
use crate::problem::error::{Problem, Result};

/// Any value: what an open schema (or one without a type) allows below it.
const ANY: &Value = &Value::Bool(true);
/// A bound on the schema nodes a descendant segment (`..`) visits.
const MAX_SCHEMA_NODES: usize = 10_000;

/// The schema of member `name` of an object schema: a listed property, else
/// the `additionalProperties` schema, else any value for an open object.
pub(super) fn member<'a>(node: &'a Value, name: &str) -> Option<&'a Value> {
    if let Some(listed) = node.get("properties").and_then(|p| p.get(name)) {
        return Some(listed);
    }
    match node.get("additionalProperties") {
        Some(extra @ Value::Object(_)) => Some(extra),
        Some(Value::Bool(true)) => Some(ANY),
        _ if node.get("properties").is_none() && is_open_object(node) => Some(ANY),
        _ => None,
    }
}

/// The schemas of an object's member values (any value for an open object).
pub(super) fn members(node: &Value) -> Vec<&Value> {
    let mut out: Vec<&Value> = node
        .get("properties")
        .and_then(Value::as_object)
        .map(|props| props.values().collect())
        .unwrap_or_default();
    match node.get("additionalProperties") {
        Some(Value::Bool(false)) => {}
        Some(extra @ Value::Object(_)) => out.push(extra),
        _ if is_open_object(node) || unconstrained(node) => out.push(ANY),
        _ => {}
    }
    out
}

/// A schema that says nothing about its value (`true`, `{}`, only annotations).
fn unconstrained(node: &Value) -> bool {
    const CONSTRAINTS: [&str; 9] = [
        "type",
        "$ref",
        "allOf",
        "anyOf",
        "oneOf",
        "properties",
        "items",
        "enum",
        "const",
    ];
    node.as_bool() == Some(true)
        || node
            .as_object()
            .is_some_and(|map| CONSTRAINTS.iter().all(|k| !map.contains_key(*k)))
}

/// The schemas of an array's elements (any value where the type is not given).
pub(super) fn elements(node: &Value) -> Vec<&Value> {
    let mut out: Vec<&Value> = node.get("items").into_iter().collect();
    if let Some(prefix) = node.get("prefixItems").and_then(Value::as_array) {
        out.extend(prefix);
    }
    if out.is_empty() && unconstrained(node) {
        out.push(ANY);
    }
    out
}

/// `nodes` and every schema below them, each once (for `..`).
pub(super) fn descendants<'a>(root: &'a Value, nodes: &[&'a Value]) -> Vec<&'a Value> {
    let mut seen: Vec<&Value> = Vec::new();
    let mut stack = nodes.to_vec();
    while let Some(node) = stack.pop() {
        if seen.len() >= MAX_SCHEMA_NODES || seen.iter().any(|s| std::ptr::eq(*s, node)) {
            continue;
        }
        seen.push(node);
        for alt in alternatives(root, node) {
            stack.extend(members(alt));
            stack.extend(elements(alt));
        }
    }
    seen
}

/// Fail with exit 2 when `steps` leaves what `schema` describes.
pub(super) fn check_against_schema(
    raw: &str,
    steps: &[Step],
    schema: &Value,
) -> Result<(), Problem> {
    let mut nodes = vec![schema];
    for step in steps {
        let mut next = Vec::new();
        for node in nodes.iter().flat_map(|n| alternatives(schema, n)) {
            match step {
                Step::Key(k) => next.extend(member(node, k)),
                Step::Index(_) | Step::AllItems => {
                    if let Some(items) = node.get("items") {
                        next.push(items);
                    } else if node.get("type").is_none() {
                        next.push(&Value::Bool(true));
                    }
                }
            }
        }
        if next.is_empty() {
            return Err(unknown_field(raw, schema));
        }
        nodes = next;
    }
    Ok(())
}

/// A node with its `$ref`, `allOf`, `anyOf` and `oneOf` alternatives resolved.
pub(super) fn alternatives<'a>(root: &'a Value, node: &'a Value) -> Vec<&'a Value> {
    let mut out = Vec::new();
    let mut stack = vec![node];
    let mut guard = 0;
    while let Some(n) = stack.pop() {
        guard += 1;
        if guard > 64 {
            break;
        }
        if let Some(target) = n
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| resolve_ref(root, r))
        {
            stack.push(target);
        }
        for key in ["allOf", "anyOf", "oneOf"] {
            if let Some(list) = n.get(key).and_then(Value::as_array) {
                stack.extend(list);
            }
        }
        out.push(n);
    }
    out
}

fn resolve_ref<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    root.pointer(reference.strip_prefix('#')?)
}

/// `true` (any value) or an object schema without listed properties.
fn is_open_object(node: &Value) -> bool {
    node.as_bool() == Some(true)
        || (node.get("type").and_then(Value::as_str) == Some("object")
            && node.get("properties").is_none())
}

pub(super) fn unknown_field(raw: &str, schema: &Value) -> Problem {
    let fields = top_level_fields(schema).join(", ");
    let nearest = nearest_paths(raw, schema);
    let suggestion = if nearest.is_empty() {
        String::new()
    } else {
        format!("bedoelt u {}? ", nearest.join(" of "))
    };
    Problem::usage(format!("onbekend veld in --fields: {raw:?}"))
        .with_code(crate::problem::codes::ONBEKEND_VELD)
        .with_hint(format!(
            "{suggestion}geldige velden op het hoogste niveau: {fields}"
        ))
}

/// The most paths [`all_paths`] lists, and how deep it goes.
const MAX_PATHS: usize = 4_000;
const MAX_PATH_DEPTH: usize = 8;
/// The most suggestions a hint names.
const MAX_SUGGESTIONS: usize = 3;

/// The schema's member paths nearest to `raw`, by its last name (`rechtsvorm` →
/// `_embedded.eigenaar.rechtsvorm`): every path that ends in that name, else the few whose last
/// name is closest to it (a typo), nested ones included.
fn nearest_paths(raw: &str, schema: &Value) -> Vec<String> {
    let Some(last) = raw
        .rsplit(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '$' | '@')))
        .find(|word| !word.is_empty())
    else {
        return Vec::new();
    };
    let paths = all_paths(schema);
    let last_name = |path: &str| -> String {
        let name = path.rsplit('.').next().unwrap_or(path);
        name.trim_end_matches("[]").to_string()
    };
    let mut exact: Vec<String> = paths
        .iter()
        .filter(|p| last_name(p).eq_ignore_ascii_case(last) && p.as_str() != raw)
        .cloned()
        .collect();
    if exact.is_empty() {
        let mut scored: Vec<(f64, &String)> = paths
            .iter()
            .map(|p| {
                (
                    strsim::jaro_winkler(&last.to_lowercase(), &last_name(p).to_lowercase()),
                    p,
                )
            })
            .filter(|(score, _)| *score > 0.85)
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.len().cmp(&b.1.len())));
        exact = scored.into_iter().map(|(_, p)| p.clone()).collect();
    }
    exact.sort_by_key(String::len);
    exact.dedup();
    exact.truncate(MAX_SUGGESTIONS);
    exact
}

/// Every member path an output schema describes, as a `--fields` path list writes it (`a`,
/// `a.b`, `lijst[].x`), through `$ref` and `allOf`/`anyOf`/`oneOf`, to a bounded depth.
pub(crate) fn all_paths(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    walk_paths(schema, schema, "", 0, &mut out);
    out
}

fn walk_paths(root: &Value, node: &Value, prefix: &str, depth: usize, out: &mut Vec<String>) {
    if depth > MAX_PATH_DEPTH || out.len() >= MAX_PATHS {
        return;
    }
    for alternative in alternatives(root, node) {
        if let Some(properties) = alternative.get("properties").and_then(Value::as_object) {
            for (name, member) in properties {
                let path = if prefix.is_empty() {
                    name.clone()
                } else {
                    format!("{prefix}.{name}")
                };
                if out.len() >= MAX_PATHS {
                    return;
                }
                if !out.contains(&path) {
                    out.push(path.clone());
                }
                walk_paths(root, member, &path, depth + 1, out);
            }
        }
        if !prefix.is_empty()
            && let Some(items) = alternative.get("items")
        {
            walk_paths(root, items, &format!("{prefix}[]"), depth + 1, out);
        }
    }
}

/// The top-level property names of an output schema.
pub(crate) fn top_level_fields(schema: &Value) -> Vec<String> {
    let mut fields: Vec<String> = Vec::new();
    for name in alternatives(schema, schema)
        .into_iter()
        .filter_map(|n| n.get("properties").and_then(Value::as_object))
        .flat_map(|p| p.keys())
    {
        if !fields.contains(name) {
            fields.push(name.clone());
        }
    }
    fields
}

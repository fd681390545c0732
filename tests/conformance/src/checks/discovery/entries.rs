//! The tool entries of the discovery document (DISC-6, DISC-8..11, DISC-13, DISC-14, DISC-16, DISC-17):
//! names, annotations, input and output schemas, argument mapping, examples, per-command discovery.

use crate::checks::not_exit_0;
use std::collections::HashSet;

use serde_json::Value;

use crate::checks::{Evidence, Verdict, judge, judge_probes, needs_discovery};
use crate::model::Entry;
use crate::probe::Kind;
use crate::schemas::{compile_user_schema, schemas, violations};
use crate::session::Session;

fn per_entry(session: &Session, problem: impl Fn(&Entry) -> Vec<String>) -> Verdict {
    if let Some(skip) = needs_discovery(session) {
        return skip;
    }
    let failures = session
        .entries
        .iter()
        .flat_map(|entry| {
            problem(entry)
                .into_iter()
                .map(|p| Evidence::about(format!("tool {}", entry.name), p))
        })
        .collect();
    judge(failures, session.entries.len(), "geen tool-objecten")
}

pub(super) fn tool_names(session: &Session) -> Verdict {
    let mut seen = HashSet::new();
    let duplicates: Vec<String> = session
        .entries
        .iter()
        .filter(|e| !seen.insert(e.name.clone()))
        .map(|e| e.name.clone())
        .collect();
    per_entry(session, |entry| {
        let mut problems = Vec::new();
        let expected = entry.argv.join("_").replace('-', "_");
        if entry.argv.is_empty() {
            problems.push("_meta.argv ontbreekt of is leeg".into());
        } else if entry.name != expected {
            problems.push(format!(
                "name {:?} hoort {:?} te zijn (_meta.argv {:?})",
                entry.name, expected, entry.argv
            ));
        }
        let valid = entry
            .name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
            && entry.name.len() <= 64
            && entry
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            problems.push(format!(
                "name {:?} past niet bij ^[a-zA-Z][a-zA-Z0-9_]{{0,63}}$",
                entry.name
            ));
        }
        if duplicates.contains(&entry.name) {
            problems.push(format!("name {:?} komt meer dan eens voor", entry.name));
        }
        if let Some(word) = entry.argv.iter().find(|w| {
            w.is_empty()
                || !w
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        }) {
            problems.push(format!("_meta.argv bevat {word:?}"));
        }
        problems
    })
}

pub(super) fn annotations(session: &Session) -> Verdict {
    per_entry(session, |entry| {
        let annotations = entry.raw.get("annotations");
        let mut problems: Vec<String> = [
            "readOnlyHint",
            "destructiveHint",
            "idempotentHint",
            "openWorldHint",
        ]
        .iter()
        .filter(|hint| {
            !annotations
                .and_then(|a| a.get(**hint))
                .is_some_and(Value::is_boolean)
        })
        .map(|hint| format!("annotations.{hint} ontbreekt of is geen boolean"))
        .collect();
        let hint = |name: &str| {
            annotations
                .and_then(|a| a.get(name))
                .and_then(Value::as_bool)
        };
        if hint("readOnlyHint") == Some(true) && hint("destructiveHint") == Some(true) {
            problems.push("readOnlyHint true met destructiveHint true".into());
        }
        problems
    })
}

fn is_snake_case(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

fn schema_problems(label: &str, schema: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    if let Err(error) = compile_user_schema(schema) {
        problems.push(format!(
            "{label} is geen geldig JSON Schema 2020-12: {error}"
        ));
    }
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        problems.push(format!(
            "{label} heeft geen \"type\": \"object\" als wortel"
        ));
    }
    if let Some(dialect) = schema.get("$schema").and_then(Value::as_str)
        && dialect != "https://json-schema.org/draft/2020-12/schema"
    {
        problems.push(format!("{label} verklaart een ander dialect: {dialect}"));
    }
    problems
}

pub(super) fn input_schema(session: &Session) -> Verdict {
    per_entry(session, |entry| {
        let mut problems = schema_problems("inputSchema", &entry.input);
        let properties = entry
            .input
            .get("properties")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        for name in properties.keys() {
            if !is_snake_case(name) {
                problems.push(format!("eigenschap {name:?} is geen snake_case"));
            }
        }
        for (name, flag) in &entry.flags {
            let expected = format!("--{}", name.replace('_', "-"));
            if *flag != expected {
                problems.push(format!(
                    "eigenschap {name:?} heeft vlag {flag}, het profiel vraagt {expected}"
                ));
            }
        }
        for name in entry.required() {
            if !properties.contains_key(&name) {
                problems.push(format!("required noemt {name:?}, dat geen eigenschap is"));
            }
        }
        problems
    })
}

pub(super) fn input_closed(session: &Session) -> Verdict {
    per_entry(session, |entry| {
        (entry.input.get("additionalProperties") != Some(&Value::Bool(false)))
            .then(|| "inputSchema zonder \"additionalProperties\": false".to_string())
            .into_iter()
            .collect()
    })
}

pub(super) fn input_mapping(session: &Session) -> Verdict {
    per_entry(session, |entry| {
        let properties: Vec<String> = entry
            .input
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        let mut problems = Vec::new();
        let mapped: Vec<&String> = entry
            .positional
            .iter()
            .chain(entry.flags.iter().map(|(name, _)| name))
            .collect();
        for name in &properties {
            let count = mapped.iter().filter(|m| **m == name).count();
            if count != 1 {
                problems.push(format!(
                    "eigenschap {name:?} staat {count} keer in positional/flags"
                ));
            }
        }
        for name in mapped {
            if !properties.contains(name) {
                problems.push(format!(
                    "{name:?} in _meta is geen eigenschap van inputSchema"
                ));
            }
        }
        problems
    })
}

pub(super) fn output_schema(session: &Session) -> Verdict {
    per_entry(session, |entry| {
        schema_problems("outputSchema", &entry.output)
    })
}

pub(super) fn command_discovery(session: &Session) -> Verdict {
    if let Some(skip) = needs_discovery(session) {
        return skip;
    }
    judge_probes(
        session.probes_where(|k| *k == Kind::CommandDiscovery),
        "geen tool-objecten",
        |probe| {
            let entry = &session.entries[probe.entry?];
            if let Some(why) = not_exit_0(&probe.outcome) {
                return Some(why);
            }
            let Some(document) = probe.stdout_json() else {
                return Some("stdout is niet precies één JSON-document".into());
            };
            if let Some(why) = compact_mismatch(&entry.root, &document) {
                return Some(format!(
                    "het tool-object {:?} in het hoofddocument is niet de compacte vorm ervan: {why}",
                    entry.name
                ));
            }
            violations(&schemas().tool, &document)
                .map(|v| format!("voldoet niet aan tool.schema.json: {v}"))
        },
    )
}

/// DISC-17: the root entry is the compact form of the command's own (full) entry: the same
/// members (its `title` too) except the first paragraph of `description`, no `examples` on
/// input properties, no `_meta.examples`, only the hints that differ from MCP's defaults (none
/// that MCP ignores for a read-only tool), and as `outputSchema` the full schema's top-level
/// members, each with only the JSON types the full schema allows it (DISC-10).
fn compact_mismatch(root: &Value, full: &Value) -> Option<String> {
    let mut expected = full.clone();
    let map = expected.as_object_mut()?;
    let description = full["description"].as_str().unwrap_or_default();
    let first = description
        .split("\n\n")
        .next()
        .unwrap_or_default()
        .trim_end();
    map.insert("description".into(), first.into());
    if let Some(properties) = map
        .get_mut("inputSchema")
        .and_then(|s| s.get_mut("properties"))
        .and_then(Value::as_object_mut)
    {
        for property in properties.values_mut().filter_map(Value::as_object_mut) {
            property.remove("examples");
            if let Some(items) = property.get_mut("items").and_then(Value::as_object_mut) {
                items.remove("examples");
            }
        }
    }
    if let Some(meta) = map.get_mut("_meta").and_then(Value::as_object_mut) {
        meta.remove("examples");
    }
    if let Some(annotations) = map.get_mut("annotations").and_then(Value::as_object_mut) {
        let read_only = annotations.get("readOnlyHint") == Some(&Value::Bool(true));
        annotations.retain(|hint, value| {
            let default = match hint.as_str() {
                "readOnlyHint" | "idempotentHint" => false,
                "destructiveHint" | "openWorldHint" => true,
                _ => return true,
            };
            let ignored =
                read_only && matches!(hint.as_str(), "destructiveHint" | "idempotentHint");
            value.as_bool() != Some(default) && !ignored
        });
    }
    let output = &full["outputSchema"];
    let members: serde_json::Map<String, Value> = output["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, schema)| (name.clone(), listed_member(name, schema, output)))
        .collect();
    map.insert(
        "outputSchema".into(),
        serde_json::json!({"type": "object", "properties": members}),
    );
    let differing: Vec<&str> = [
        "name",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
        "_meta",
        "title",
    ]
    .into_iter()
    .filter(|key| root.get(*key) != expected.get(*key))
    .collect();
    (!differing.is_empty()).then(|| format!("verschilt in {}", differing.join(", ")))
}

/// DISC-10: how the member list lists member `name` of the full `output` schema: `{"type": …}`
/// with the JSON types its schema allows (read through local `$ref`s, `anyOf`/`oneOf`, `const`
/// and `enum`; "integer" left out beside "number"), or `{}` when its type is open. A member the
/// full schema lists as `{}` beside root-level `anyOf`/`oneOf` shapes takes its types from the
/// shapes that name it.
fn listed_member(name: &str, schema: &Value, output: &Value) -> Value {
    let mut types = Vec::new();
    let bounded = if schema.as_object().is_some_and(|m| m.is_empty()) {
        let shapes = output["anyOf"]
            .as_array()
            .or_else(|| output["oneOf"].as_array());
        let named: Vec<&Value> = shapes
            .into_iter()
            .flatten()
            .filter_map(|shape| deref(shape, output)?["properties"].get(name))
            .collect();
        !named.is_empty()
            && named
                .into_iter()
                .all(|member| json_types(member, output, 0, &mut types))
    } else {
        json_types(schema, output, 0, &mut types)
    };
    if types.iter().any(|t| t == "number") {
        types.retain(|t| t != "integer");
    }
    match types.as_slice() {
        _ if !bounded || types.is_empty() => serde_json::json!({}),
        [one] => serde_json::json!({"type": one}),
        many => serde_json::json!({"type": many}),
    }
}

/// `schema`, or what its local `$ref` points at.
fn deref<'a>(schema: &'a Value, root: &'a Value) -> Option<&'a Value> {
    match schema["$ref"].as_str() {
        Some(target) => root.pointer(target.strip_prefix('#')?),
        None => Some(schema),
    }
}

/// Adds the JSON types `schema` allows to `types`; false when it leaves the type open.
fn json_types(schema: &Value, root: &Value, depth: u8, types: &mut Vec<String>) -> bool {
    let Some(schema) = deref(schema, root).filter(|_| depth < 10) else {
        return false;
    };
    if schema.get("$ref").is_some() {
        return json_types(schema, root, depth + 1, types);
    }
    let mut add = |t: &str| {
        if !types.iter().any(|known| known == t) {
            types.push(t.to_string());
        }
    };
    let kind = |value: &Value| match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    match &schema["type"] {
        Value::String(t) => add(t),
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).for_each(add),
        _ if schema.get("const").is_some() => add(kind(&schema["const"])),
        _ if schema["enum"].is_array() => schema["enum"]
            .as_array()
            .into_iter()
            .flatten()
            .for_each(|v| add(kind(v))),
        _ => {
            let Some(branches) = schema["anyOf"]
                .as_array()
                .or_else(|| schema["oneOf"].as_array())
            else {
                return false;
            };
            return branches
                .iter()
                .all(|branch| json_types(branch, root, depth + 1, types));
        }
    }
    true
}

pub(super) fn examples_declared(session: &Session) -> Verdict {
    per_entry(session, |entry| {
        if entry.examples.is_empty() {
            return vec!["_meta.examples is leeg of ontbreekt".into()];
        }
        entry
            .examples
            .iter()
            .filter_map(|example| {
                entry
                    .arguments_of(example)
                    .err()
                    .map(|why| format!("voorbeeld {example:?}: {why}"))
            })
            .collect()
    })
}

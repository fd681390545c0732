//! `--help --json`: the discovery document, generated from the parser itself (rules DISC-*).
//!
//! [`requested`] finds `--help --json` on a command line the way clap would
//! read it. The clap command tree gives the commands, their arguments, help
//! texts and value sets; the tool's [`ToolInfo`] side table adds what clap
//! cannot say. Every tool entry is a valid MCP `Tool`.
//!
//! A command's own `--help --json` gives its full entry; the root document lists
//! each command in its compact form ([`compact_entry`]): the first paragraph of
//! the description and, as `outputSchema`, the members `--fields` can select.
//! That keeps the document, and every MCP `tools/list` built from it, small.

use std::ffi::OsString;

use clap::{Arg, ArgAction, Command};
use serde_json::{Map, Value, json};

use crate::PROFILE_VERSION;
use crate::call::tool::{CommandSpec, ToolInfo};
use crate::data::object::object;
use crate::problem::exit;
use crate::process::env::PROFILE_ENV;
use crate::run::cli::Commands;

const SCHEMA_DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";
/// Utility commands that are not tools (rule CONV-2).
pub(crate) const UTILITY_COMMANDS: [&str; 4] = ["completions", "man", "help", "cache"];

/// The command paths of all leaves of the (built) clap tree, utilities excluded.
pub(crate) fn leaf_paths(cmd: &Command) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    collect_leaves(cmd, &mut Vec::new(), &mut out);
    out
}

fn collect_leaves(cmd: &Command, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let subs: Vec<&Command> = cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && !UTILITY_COMMANDS.contains(&s.get_name()))
        .collect();
    if subs.is_empty() {
        if !path.is_empty() {
            out.push(path.clone());
        }
        return;
    }
    for sub in subs {
        path.push(sub.get_name().to_string());
        collect_leaves(sub, path, out);
        path.pop();
    }
}

/// The subcommand at `path`.
pub(crate) fn find<'c>(cmd: &'c Command, path: &[String]) -> Option<&'c Command> {
    path.iter().try_fold(cmd, |c, name| c.find_subcommand(name))
}

/// The document `--help --json` asks for, anywhere on the command line: the
/// tool entry of a leaf, else the document of the commands under the path.
pub(crate) fn requested<C: Commands>(info: &ToolInfo, args: &[OsString]) -> Option<Value> {
    let words: Vec<&str> = args.iter().skip(1).filter_map(|a| a.to_str()).collect();
    // A cheap look first: most calls are not discovery.
    if !(words.iter().any(|w| matches!(*w, "--help" | "-h")) && words.contains(&"--json")) {
        return None;
    }
    let cmd = crate::run::cli::command::<C>(info);
    let (path, node, help, json) = scan(&cmd, &words);
    if !(help && json) {
        return None;
    }
    Some(match C::spec(&path) {
        Some(spec) => tool_entry(node, spec),
        None => document(&cmd, info, C::SPECS, &path),
    })
}

/// Walk the words as clap would: subcommand names extend the path, the value
/// of an option is skipped (so `--naam --json` is a name, not a flag), and
/// after `--` everything is data (rule DISC-15). Returns the command path, its
/// node, and whether `--help`/`-h` and `--json` appeared as flags.
fn scan<'c>(
    cmd: &'c clap::Command,
    words: &[&str],
) -> (Vec<String>, &'c clap::Command, bool, bool) {
    let (mut path, mut node) = (Vec::new(), cmd);
    let (mut help, mut json) = (false, false);
    let takes_value = |node: &clap::Command, word: &str| {
        node.get_arguments().any(|a| {
            let named = match word.strip_prefix("--") {
                Some(long) => a.get_long() == Some(long),
                None => word.len() == 2 && a.get_short() == word.chars().nth(1),
            };
            named && a.get_action().takes_values()
        })
    };
    let mut iter = words.iter();
    while let Some(word) = iter.next() {
        match *word {
            "--" => break,
            "--help" | "-h" => help = true,
            "--json" => json = true,
            w if w.starts_with('-') => {
                if !w.contains('=') && takes_value(node, w) {
                    iter.next();
                }
            }
            w => {
                if let Some(sub) = node.find_subcommand(w) {
                    path.push(w.to_string());
                    node = sub;
                }
            }
        }
    }
    (path, node, help, json)
}

/// The command `words` (argv without the program) name and its path, found as [`scan`] finds it.
pub(crate) fn command_at<'c>(cmd: &'c Command, words: &[&str]) -> (Vec<String>, &'c Command) {
    let (path, node, _, _) = scan(cmd, words);
    (path, node)
}

/// The command's own arguments: not global, not help/version.
pub(crate) fn command_args(cmd: &Command) -> impl Iterator<Item = &Arg> {
    cmd.get_arguments().filter(|a| {
        !a.is_global_set() && !a.is_hide_set() && !matches!(a.get_id().as_str(), "help" | "version")
    })
}

/// The discovery document of the commands under `prefix` (all at the root).
pub(crate) fn document(
    cmd: &Command,
    info: &ToolInfo,
    specs: &[CommandSpec],
    prefix: &[String],
) -> Value {
    let tools: Vec<Value> = specs
        .iter()
        .filter(|spec| {
            spec.path
                .iter()
                .copied()
                .take(prefix.len())
                .eq(prefix.iter().map(String::as_str))
        })
        .filter_map(|spec| {
            let path: Vec<String> = spec.path.iter().map(|s| s.to_string()).collect();
            // A hidden leaf is a tool's own utility command (CONV-2), never a tool.
            find(cmd, &path)
                .filter(|sub| !sub.is_hide_set())
                .map(|sub| compact(tool_entry(sub, spec)))
        })
        .collect();
    let own = info.env_vars();
    let env: Vec<Value> = own
        .iter()
        .map(|v| serde_json::to_value(v).unwrap_or_default())
        .collect();
    let description = format!(
        "{}. {}",
        info.description.trim_end_matches('.'),
        crate::call::tool::FAMILY_ROUTES
    );
    let mut doc = object([
        ("name", info.name.into()),
        ("version", info.version.into()),
        ("profile_version", PROFILE_VERSION.into()),
        ("description", description.into()),
        ("exit_codes", exit_codes().into()),
        ("env", env.into()),
        ("profile_env", profile_env(&own)),
        ("global_options", global_options(cmd, info).into()),
        ("tools", tools.into()),
    ]);
    if !info.children.is_empty() {
        doc["children"] = info.children.into();
    }
    if !info.resources.is_empty() {
        let resources: Vec<Value> = info
            .resources
            .iter()
            .map(|r| {
                json!({
                    "uriTemplate": r.uri_template,
                    "name": r.name,
                    "title": r.title,
                    "description": r.description,
                    "mimeType": r.mime_type,
                    "_meta": {"tool": r.tool},
                })
            })
            .collect();
        doc["resources"] = resources.into();
    }
    doc
}

/// The exit-code table by code and name (DISC-5); the meanings are the profile's (§8.2), shown
/// by `--help`.
fn exit_codes() -> Vec<Value> {
    exit::table()
        .into_iter()
        .map(|row| json!({"code": row.code, "name": row.name}))
        .collect()
}

/// The profile's variables the program reads (CONF-8), by kind (DISC-19): their meanings and
/// defaults are the profile's (§13), the same in every program, so the document names them
/// only. A variable the program declares itself (in `env`) is not repeated here.
fn profile_env(own: &[crate::process::env::EnvVar]) -> Value {
    let mut kinds = Map::new();
    for var in PROFILE_ENV
        .iter()
        .filter(|v| own.iter().all(|o| o.name != v.name))
    {
        let kind = serde_json::to_value(var.kind).unwrap_or_default();
        let kind = kind.as_str().unwrap_or("setting").to_string();
        if let Value::Array(names) = kinds.entry(kind).or_insert_with(|| json!([])) {
            names.push(var.name.into());
        }
    }
    Value::Object(kinds)
}

/// The global options (DISC-18): the profile's options (§3.3), each by its long flag, with
/// `takes_value` when it takes one, its value set and this program's default; their meanings are
/// the profile's, shown by `--help`.
fn global_options(cmd: &Command, info: &ToolInfo) -> Vec<Value> {
    cmd.get_arguments()
        .filter(|a| a.is_global_set() && a.get_id() != "help")
        // `--geen-cache` only where a command caches (CACHE-3).
        .filter(|a| a.get_id() != "geen_cache" || !info.cached.is_empty())
        .filter_map(|a| {
            let long = a.get_long()?;
            let mut opt = json!({"name": format!("--{long}")});
            if a.get_action().takes_values() {
                opt["takes_value"] = true.into();
            }
            let values = possible_values(a);
            if !values.is_empty() {
                opt["values"] = values.into();
            }
            if long == "timeout" {
                opt["default"] = info.default_timeout_secs.to_string().into();
            }
            Some(opt)
        })
        .collect()
}

/// One MCP Tool object for a leaf command, in full: what `<command> --help --json`
/// prints (DISC-17), with the whole description and the whole output schema.
pub(crate) fn tool_entry(cmd: &Command, spec: &CommandSpec) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    let mut positional = Vec::new();
    let mut flags = Map::new();
    let mut session = Map::new();
    for arg in command_args(cmd) {
        let name = arg.get_id().as_str().to_string();
        let mut prop = property(arg);
        for extra in spec.args.iter().filter(|a| a.name == name) {
            let extra: Map<String, Value> = serde_json::from_str(extra.schema).unwrap_or_default();
            let target = if prop["type"] == "array" && !extra.contains_key("type") {
                &mut prop["items"]
            } else {
                &mut prop
            };
            for (k, v) in extra {
                merge(&mut target[k], v);
            }
        }
        retype_default(&mut prop);
        if arg.is_required_set() {
            required.push(Value::from(name.clone()));
        }
        if arg.is_positional() {
            // The company a command addresses positionally is the session's (SEC-6, SEC-10).
            if name == crate::call::args::KvkNummer::SCHEMA.name {
                session.insert(name.clone(), crate::process::env::KVK_SESSIE_NUMMER.into());
            }
            positional.push(Value::from(name.clone()));
        } else if let Some(long) = arg.get_long() {
            flags.insert(name.clone(), format!("--{long}").into());
        }
        properties.insert(name, prop);
    }
    let mut output_schema = spec.output_schema();
    if let Value::Object(map) = &mut output_schema {
        map.entry("$schema").or_insert(SCHEMA_DIALECT.into());
    }
    let description = cmd
        .get_long_about()
        .or(cmd.get_about())
        .map(ToString::to_string)
        .unwrap_or_else(|| spec.title.to_string());
    let a = spec.annotations;
    // No `$schema`: an MCP schema without one is 2020-12 (DISC-8); no empty `required`.
    let mut input = object([("type", "object".into()), ("properties", properties.into())]);
    if !required.is_empty() {
        input["required"] = required.into();
    }
    input["additionalProperties"] = false.into();
    let annotations = object([
        ("readOnlyHint", a.read_only.into()),
        ("destructiveHint", a.destructive.into()),
        ("idempotentHint", a.idempotent.into()),
        ("openWorldHint", a.open_world.into()),
    ]);
    let meta = object([
        ("argv", spec.path.into()),
        ("positional", positional.into()),
        ("flags", flags.into()),
        ("examples", spec.examples.into()),
    ]);
    let mut entry = object([
        ("name", spec.tool_name().into()),
        ("title", spec.title.into()),
        ("description", description.into()),
        ("inputSchema", input),
        ("outputSchema", output_schema),
        ("annotations", annotations),
        ("_meta", meta),
    ]);
    if !session.is_empty() {
        entry["_meta"]["session"] = session.into();
    }
    if a.proposes {
        entry["_meta"]["proposes"] = true.into();
    }
    entry
}

/// `value` laid over `target`: objects member by member, so that of two overrides of one
/// argument the later keeps what the earlier declared inside the same object (a repeatable path
/// argument's `"format": "path"` on `items` survives a later `items` with its `minLength`,
/// DISC-21); anything else is replaced.
fn merge(target: &mut Value, value: Value) {
    match (target, value) {
        (Value::Object(target), Value::Object(value)) => {
            for (k, v) in value {
                merge(target.entry(k).or_insert(Value::Null), v);
            }
        }
        (target, value) => *target = value,
    }
}

/// The compact form of a full tool entry, as the root document lists it (DISC-10,
/// DISC-17): the same entry (its Dutch `title` included, which a host shows) without the
/// `examples` of its input properties (`_meta.examples` has whole command lines), the
/// description cut to its first paragraph, no `_meta.examples` (the command's own entry and
/// `--help` have them), only the hints that differ from MCP's defaults ([`mcp_annotations`]),
/// and the output schema cut to the members `--fields` can select, each with only its JSON
/// type(s) ([`member_type`]), nothing required. Any projection of the output validates against it.
pub fn compact_entry(full: &Value) -> Value {
    compact(full.clone())
}

/// [`compact_entry`] of an entry that is not needed afterwards: made in place, without a copy.
fn compact(mut entry: Value) -> Value {
    if let Some(meta) = entry["_meta"].as_object_mut() {
        meta.remove("examples");
    }
    if let Some(annotations) = entry["annotations"].as_object() {
        entry["annotations"] = mcp_annotations(annotations);
    }
    if let Some(properties) = entry["inputSchema"]["properties"].as_object_mut() {
        for property in properties.values_mut().filter_map(Value::as_object_mut) {
            property.remove("examples");
            if let Some(items) = property.get_mut("items").and_then(Value::as_object_mut) {
                items.remove("examples");
            }
        }
    }
    if let Some(first) = entry["description"]
        .as_str()
        .and_then(|d| d.split("\n\n").next())
    {
        entry["description"] = first.trim_end().into();
    }
    let output = entry["outputSchema"].take();
    let members: Map<String, Value> = output["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, schema)| (name.clone(), member_type(name, schema, &output)))
        .collect();
    entry["outputSchema"] = object([("type", "object".into()), ("properties", members.into())]);
    entry
}

/// A member of the member list (DISC-10): `{"type": …}` with every JSON type the full schema's
/// member allows (through a local `$ref`, `anyOf`/`oneOf` branches, `const` and `enum`), or `{}`
/// when the full schema does not bound its type. Nothing else: no form, no nested members.
/// A member listed as `{}` beside root-level `anyOf`/`oneOf` shapes (regelrecht-cli's `concept`:
/// the members of both forms for `--fields`) gets the types it has in the shapes that name it.
pub(crate) fn member_type(name: &str, schema: &Value, root: &Value) -> Value {
    let own = if schema.as_object().is_some_and(Map::is_empty) {
        shape_types(name, root)
    } else {
        types_of(schema, root, 0)
    };
    match own {
        Some(types) if types.len() == 1 => json!({"type": types[0]}),
        Some(types) => json!({"type": types}),
        None => json!({}),
    }
}

/// The types member `name` has in the root's `anyOf`/`oneOf` shapes that list it; `None` when no
/// shape lists it or one leaves its type open.
fn shape_types(name: &str, root: &Value) -> Option<Vec<&'static str>> {
    let shapes = root["anyOf"]
        .as_array()
        .or_else(|| root["oneOf"].as_array())?;
    let mut types: Vec<&'static str> = Vec::new();
    for shape in shapes {
        let shape = match shape["$ref"].as_str() {
            Some(target) => root.pointer(target.strip_prefix('#')?)?,
            None => shape,
        };
        if let Some(member) = shape["properties"].get(name) {
            for t in types_of(member, root, 0)? {
                if !types.contains(&t) {
                    types.push(t);
                }
            }
        }
    }
    (!types.is_empty()).then_some(types)
}

/// The JSON types `schema` allows, in the order first named; `None` when it allows any.
fn types_of(schema: &Value, root: &Value, depth: usize) -> Option<Vec<&'static str>> {
    const TYPES: [&str; 7] = [
        "object", "array", "string", "integer", "number", "boolean", "null",
    ];
    if depth > 8 {
        return None;
    }
    if let Some(target) = schema["$ref"].as_str() {
        let resolved = target
            .strip_prefix('#')
            .and_then(|pointer| root.pointer(pointer))?;
        return types_of(resolved, root, depth + 1);
    }
    let named = |name: &str| TYPES.iter().copied().find(|t| *t == name);
    let mut types: Vec<&'static str> = Vec::new();
    let add = |t: &'static str, types: &mut Vec<&'static str>| {
        if !types.contains(&t) {
            types.push(t);
        }
    };
    match &schema["type"] {
        Value::String(name) => add(named(name)?, &mut types),
        Value::Array(names) => {
            for name in names {
                add(named(name.as_str()?)?, &mut types);
            }
        }
        _ => {
            let of_value = |value: &Value| match value {
                Value::Null => "null",
                Value::Bool(_) => "boolean",
                Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
                Value::Number(_) => "number",
                Value::String(_) => "string",
                Value::Array(_) => "array",
                Value::Object(_) => "object",
            };
            if let Some(value) = schema.get("const") {
                add(of_value(value), &mut types);
            } else if let Some(values) = schema["enum"].as_array() {
                for value in values {
                    add(of_value(value), &mut types);
                }
            } else {
                let branches = schema["anyOf"]
                    .as_array()
                    .or_else(|| schema["oneOf"].as_array())?;
                for branch in branches {
                    for t in types_of(branch, root, depth + 1)? {
                        add(t, &mut types);
                    }
                }
            }
        }
    }
    // An integer is a number too: a list naming both needs only "number".
    if types.contains(&"number") {
        types.retain(|t| *t != "integer");
    }
    (!types.is_empty()).then_some(types)
}

/// The hints MCP defines (`tools/list`), with their defaults there.
const HINT_DEFAULTS: [(&str, bool); 4] = [
    ("readOnlyHint", false),
    ("destructiveHint", true),
    ("idempotentHint", false),
    ("openWorldHint", true),
];

/// A tool's annotations in compact form (DISC-11, DISC-17): every hint of the full entry except
/// one that says what MCP assumes without it (its default) or that MCP ignores
/// (`destructiveHint` and `idempotentHint` of a read-only tool). A client reads the same hints
/// from less; other members (`title`) pass unchanged.
pub fn mcp_annotations(annotations: &Map<String, Value>) -> Value {
    let read_only = annotations.get("readOnlyHint") == Some(&Value::Bool(true));
    let listed: Map<String, Value> = annotations
        .iter()
        .filter(|(key, value)| {
            let Some((hint, default)) = HINT_DEFAULTS.iter().find(|(h, _)| h == key) else {
                return true;
            };
            let ignored = read_only && matches!(*hint, "destructiveHint" | "idempotentHint");
            value.as_bool() != Some(*default) && !ignored
        })
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    Value::Object(listed)
}

fn property(arg: &Arg) -> Value {
    let mut prop = Map::new();
    if !arg.get_action().takes_values() {
        // Absent is false; no `default` to say so (DISC-9).
        prop.insert("type".into(), "boolean".into());
    } else {
        let mut scalar = json!({"type": "string"});
        let values = possible_values(arg);
        if !values.is_empty() {
            scalar["enum"] = values.into();
        }
        if matches!(arg.get_action(), ArgAction::Append) {
            prop.insert("type".into(), "array".into());
            prop.insert("items".into(), scalar);
        } else if let Value::Object(map) = scalar {
            prop.extend(map);
        }
        if let Some(default) = arg.get_default_values().first() {
            prop.insert(
                "default".into(),
                default.to_string_lossy().into_owned().into(),
            );
        }
    }
    prop.insert("description".into(), help_text(arg).into());
    Value::Object(prop)
}

/// clap defaults are strings; a numeric property gets a numeric default.
fn retype_default(prop: &mut Value) {
    let parsed = match (
        prop["type"].as_str(),
        prop.get("default").and_then(Value::as_str),
    ) {
        (Some("integer"), Some(d)) => d.parse::<i64>().ok().map(Value::from),
        (Some("number"), Some(d)) => d.parse::<f64>().ok().map(Value::from),
        _ => None,
    };
    if let Some(value) = parsed {
        prop["default"] = value;
    }
}

fn possible_values(arg: &Arg) -> Vec<Value> {
    arg.get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| Value::from(v.get_name()))
        .collect()
}

fn help_text(arg: &Arg) -> String {
    arg.get_long_help()
        .or(arg.get_help())
        .map(ToString::to_string)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::cli::tests::built;

    fn discovery(words: &[&str]) -> Option<Vec<String>> {
        let cmd = built();
        let (path, _, help, json) = scan(&cmd, words);
        (help && json).then_some(path)
    }

    #[test]
    fn the_compact_entry_keeps_the_input_and_lists_the_output_members() {
        let full = json!({
            "name": "x_get",
            "title": "X ophalen",
            "description": "Haal X op\n\nMeer uitleg.",
            "inputSchema": {"type": "object", "properties": {
                "id": {"type": "string", "pattern": "^[0-9]{4}$", "examples": ["1234"]},
                "tags": {"type": "array", "items": {"type": "string", "examples": ["a"]}}
            }, "required": ["id"], "additionalProperties": false},
            "outputSchema": {"$schema": SCHEMA_DIALECT, "type": "object", "required": ["id"],
                "properties": {"id": {"type": "string", "description": "id"}, "n": {"$ref": "#/$defs/N"}},
                "$defs": {"N": {"type": "integer"}}},
            "annotations": {"readOnlyHint": true, "destructiveHint": false,
                "idempotentHint": true, "openWorldHint": false},
            "_meta": {"argv": ["x", "get"], "examples": [["x", "get", "1234"]]},
        });
        let compact = compact_entry(&full);
        assert_eq!(compact["title"], "X ophalen");
        assert_eq!(compact["description"], "Haal X op");
        assert_eq!(
            compact["inputSchema"],
            json!({"type": "object", "properties": {
                "id": {"type": "string", "pattern": "^[0-9]{4}$"},
                "tags": {"type": "array", "items": {"type": "string"}}
            }, "required": ["id"], "additionalProperties": false})
        );
        assert_eq!(
            compact["outputSchema"],
            json!({"type": "object", "properties": {"id": {"type": "string"}, "n": {"type": "integer"}}})
        );
        assert_eq!(compact["_meta"], json!({"argv": ["x", "get"]}));
        assert_eq!(
            compact["annotations"],
            json!({"readOnlyHint": true, "openWorldHint": false})
        );
    }

    #[test]
    fn a_member_keeps_every_type_its_full_schema_allows_and_nothing_else() {
        let root = json!({"$defs": {"A": {"type": ["object", "null"], "properties": {"x": {}}},
                                     "B": {"$ref": "#/$defs/A"}}});
        let member = |schema: Value| member_type("m", &schema, &root);
        assert_eq!(
            member(json!({"$ref": "#/$defs/B"})),
            json!({"type": ["object", "null"]})
        );
        assert_eq!(
            member(json!({"type": "array", "items": {"type": "string"}, "description": "d"})),
            json!({"type": "array"})
        );
        assert_eq!(
            member(json!({"anyOf": [{"type": "integer"}, {"type": "number"}, {"const": null}]})),
            json!({"type": ["number", "null"]})
        );
        assert_eq!(
            member(json!({"enum": ["a", 1]})),
            json!({"type": ["string", "integer"]})
        );
        // Unbounded: any value, so no type.
        assert_eq!(member(json!({})), json!({}));
        assert_eq!(
            member(json!({"anyOf": [{"type": "string"}, {}]})),
            json!({})
        );
        assert_eq!(member(json!({"$ref": "#/$defs/Missing"})), json!({}));
        // Listed as {} beside the shapes: the types it has where a shape names it.
        let shapes = json!({"properties": {"a": {}, "b": {}, "c": {}},
            "anyOf": [{"$ref": "#/$defs/S"}, {"properties": {"a": {"type": "integer"}, "c": {}}}],
            "$defs": {"S": {"properties": {"a": {"type": "string"}, "b": {"type": "boolean"}}}}});
        assert_eq!(
            member_type("a", &json!({}), &shapes),
            json!({"type": ["string", "integer"]})
        );
        assert_eq!(
            member_type("b", &json!({}), &shapes),
            json!({"type": "boolean"})
        );
        assert_eq!(member_type("c", &json!({}), &shapes), json!({}));
    }

    #[test]
    fn a_later_override_keeps_what_an_earlier_one_declared_in_the_same_object() {
        let mut property = json!({"type": "array", "items": {"type": "string"}});
        merge(&mut property["items"], json!({"format": "path"}));
        merge(
            &mut property,
            json!({"minItems": 1, "items": {"type": "string", "minLength": 1}}),
        );
        assert_eq!(
            property,
            json!({"type": "array", "minItems": 1,
                   "items": {"type": "string", "format": "path", "minLength": 1}})
        );
        merge(&mut property["minItems"], json!(2));
        assert_eq!(property["minItems"], 2);
    }

    #[test]
    fn compact_annotations_leave_out_what_mcp_assumes_or_ignores() {
        let hints = |v: Value| mcp_annotations(v.as_object().unwrap());
        let all = |r, d, i, o| json!({"readOnlyHint": r, "destructiveHint": d, "idempotentHint": i, "openWorldHint": o});
        assert_eq!(
            hints(all(true, false, true, true)),
            json!({"readOnlyHint": true})
        );
        // A mutating tool keeps every hint that is not MCP's default.
        assert_eq!(
            hints(all(false, false, true, true)),
            json!({"destructiveHint": false, "idempotentHint": true})
        );
        assert_eq!(
            hints(all(false, true, false, false)),
            json!({"openWorldHint": false})
        );
        assert_eq!(hints(all(false, true, false, true)), json!({}));
        assert_eq!(
            hints(json!({"title": "T", "readOnlyHint": true})),
            json!({"title": "T", "readOnlyHint": true})
        );
    }

    #[test]
    fn geen_cache_and_cache_leeg_belong_to_tools_that_cache() {
        use crate::call::tool::{Annotations, CommandSpec};
        let spec = |path: &'static [&'static str]| CommandSpec {
            path,
            title: "t",
            annotations: Annotations::READ_REMOTE,
            output_schema: r#"{"type": "object"}"#,
            examples: &[],
            args: &[],
        };
        let specs = [spec(&["zoeken"]), spec(&["get"])];
        let info = |cached: &'static [&'static [&'static str]]| ToolInfo {
            cached,
            ..crate::call::tool::PROBE_TOOL
        };
        let hidden = |cmd: &Command, path: &[&str]| {
            path.iter()
                .fold(cmd, |c, p| c.find_subcommand(p).unwrap())
                .get_arguments()
                .find(|a| a.get_id() == "geen_cache")
                .unwrap()
                .is_hide_set()
        };
        let listed = |cmd: &Command, info: &ToolInfo| {
            global_options(cmd, info)
                .iter()
                .any(|o| o["name"] == "--geen-cache")
        };
        let mut caching = built();
        crate::run::help::dress(&mut caching, &specs, &[&["get"]]);
        assert!(!hidden(&caching, &[]) && !hidden(&caching, &["get"]));
        assert!(hidden(&caching, &["zoeken"]), "zoeken caches nothing");
        assert!(listed(&caching, &info(&[&["get"]])));
        assert!(crate::run::help::cache_command(&info(&[&["get"]])).is_some());
        assert_eq!(
            info(&[&["get"]]).env_vars().len(),
            1 + crate::net::cache::ENV.len()
        );
        let mut plain = built();
        crate::run::help::dress(&mut plain, &specs, &[]);
        assert!(hidden(&plain, &[]) && hidden(&plain, &["get"]));
        assert!(!listed(&plain, &info(&[])));
        assert!(crate::run::help::cache_command(&info(&[])).is_none());
        assert_eq!(info(&[]).env_vars().len(), 1, "only the audit variable");
    }

    #[test]
    fn discovery_is_found_past_option_values_but_not_in_them() {
        assert_eq!(discovery(&["--help", "--json"]), Some(vec![]));
        assert_eq!(
            discovery(&["-o", "json", "zoeken", "--help", "--json"]),
            Some(vec!["zoeken".to_string()])
        );
        assert_eq!(discovery(&["zoeken", "--naam", "--json", "--help"]), None);
        assert_eq!(discovery(&["zoeken", "--naam=--json", "--help"]), None);
        assert_eq!(discovery(&["get", "--", "--help", "--json"]), None);
    }
}

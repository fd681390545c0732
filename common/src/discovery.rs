//! `--help --json`: the discovery document, generated from the parser itself (rules DISC-*).
//!
//! The clap command tree gives the commands, their arguments, help texts and
//! value sets; the tool's [`ToolInfo`] side table adds what clap cannot say.
//! Every tool entry is a valid MCP `Tool`. [`consistency_problems`] is what
//! each tool's tests call to prove that clap and the side table agree.

use clap::{Arg, ArgAction, Command};
use serde_json::{Map, Value, json};

use crate::env::PROFILE_ENV;
use crate::tool::{CommandSpec, ToolInfo};
use crate::{PROFILE_VERSION, exit};

const SCHEMA_DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";
/// Utility commands that are not tools (rule CONV-2).
pub const UTILITY_COMMANDS: [&str; 1] = ["completions"];

/// The command paths of all leaves of the (built) clap tree, utilities excluded.
pub fn leaf_paths(cmd: &Command) -> Vec<Vec<String>> {
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
pub fn find<'c>(cmd: &'c Command, path: &[String]) -> Option<&'c Command> {
    path.iter().try_fold(cmd, |c, name| c.find_subcommand(name))
}

/// Differences between a tool's parser and its side table (empty when
/// consistent); every tool's tests assert that this is empty (rule DISC-3).
pub fn tool_problems<C: crate::Commands>(info: &ToolInfo) -> Vec<String> {
    consistency_problems(&crate::app::command::<C>(info), info)
}

/// Differences between the clap tree and the side table (empty when consistent).
pub fn consistency_problems(cmd: &Command, info: &ToolInfo) -> Vec<String> {
    let mut problems = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for spec in info.commands {
        if !seen.insert(spec.path) {
            problems.push(format!("CommandSpec {:?} is declared twice", spec.path));
        }
    }
    let leaves = leaf_paths(cmd);
    for leaf in &leaves {
        if info.command(leaf).is_none() {
            problems.push(format!("clap command {leaf:?} has no CommandSpec"));
        }
    }
    for spec in info.commands {
        let path: Vec<String> = spec.path.iter().map(|s| s.to_string()).collect();
        let Some(sub) = find(cmd, &path).filter(|_| leaves.contains(&path)) else {
            problems.push(format!("CommandSpec {:?} is not a clap command", spec.path));
            continue;
        };
        for arg in spec.args {
            if !command_args(sub).any(|a| a.get_id() == arg.name) {
                problems.push(format!(
                    "{:?}: schema for unknown argument {}",
                    spec.path, arg.name
                ));
            }
            if serde_json::from_str::<Map<String, Value>>(arg.schema).is_err() {
                problems.push(format!(
                    "{:?}: schema of {} is not a JSON object",
                    spec.path, arg.name
                ));
            }
        }
        if spec.examples.is_empty() {
            problems.push(format!("{:?} declares no example", spec.path));
        }
        for example in spec.examples {
            if !example.starts_with(spec.path) {
                problems.push(format!(
                    "{:?}: example {example:?} does not start with the path",
                    spec.path
                ));
            }
        }
        match serde_json::from_str::<Value>(spec.output_schema) {
            Ok(schema) if schema["type"] == "object" => {}
            _ => problems.push(format!(
                "{:?}: outputSchema is not an object schema",
                spec.path
            )),
        }
    }
    for resource in info.resources {
        if !info.commands.iter().any(|c| c.tool_name() == resource.tool) {
            problems.push(format!(
                "resource {} maps to unknown tool {}",
                resource.uri_template, resource.tool
            ));
        }
    }
    problems
}

/// The command's own arguments: not global, not help/version.
fn command_args(cmd: &Command) -> impl Iterator<Item = &Arg> {
    cmd.get_arguments().filter(|a| {
        !a.is_global_set() && !a.is_hide_set() && !matches!(a.get_id().as_str(), "help" | "version")
    })
}

/// The root discovery document.
pub fn document(cmd: &Command, info: &ToolInfo, prefix: &[String]) -> Value {
    let tools: Vec<Value> = info
        .commands
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
            find(cmd, &path).map(|sub| tool_entry(sub, spec))
        })
        .collect();
    let env: Vec<Value> = PROFILE_ENV
        .iter()
        .chain(info.env)
        .map(|v| serde_json::to_value(v).unwrap_or_default())
        .collect();
    let mut doc = json!({
        "name": info.name,
        "version": info.version,
        "profile_version": PROFILE_VERSION,
        "description": info.description,
        "exit_codes": exit::table(),
        "env": env,
        "global_options": global_options(cmd, info),
        "tools": tools,
    });
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

fn global_options(cmd: &Command, info: &ToolInfo) -> Vec<Value> {
    cmd.get_arguments()
        .filter(|a| a.is_global_set() && a.get_id() != "help")
        .filter_map(|a| {
            let long = a.get_long()?;
            let mut opt = json!({
                "name": format!("--{long}"),
                "meaning": help_text(a),
                "takes_value": a.get_action().takes_values(),
            });
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

/// One MCP Tool object for a leaf command.
pub fn tool_entry(cmd: &Command, spec: &CommandSpec) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    let mut positional = Vec::new();
    let mut flags = Map::new();
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
                target[k] = v;
            }
        }
        retype_default(&mut prop);
        if arg.is_required_set() {
            required.push(Value::from(name.clone()));
        }
        if arg.is_positional() {
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
    json!({
        "name": spec.tool_name(),
        "title": spec.title,
        "description": description,
        "inputSchema": {
            "$schema": SCHEMA_DIALECT,
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": false,
        },
        "outputSchema": output_schema,
        "annotations": {
            "title": spec.title,
            "readOnlyHint": a.read_only,
            "destructiveHint": a.destructive,
            "idempotentHint": a.idempotent,
            "openWorldHint": a.open_world,
        },
        "_meta": {
            "argv": spec.path,
            "positional": positional,
            "flags": flags,
            "examples": spec.examples,
        },
    })
}

fn property(arg: &Arg) -> Value {
    let mut prop = Map::new();
    if !arg.get_action().takes_values() {
        prop.insert("type".into(), "boolean".into());
        prop.insert("default".into(), false.into());
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

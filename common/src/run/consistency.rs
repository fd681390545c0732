//! What every tool's tests prove about its declarations: the clap tree and the
//! side table cover the same commands (rule DISC-3), every resource
//! template fits the tool it maps to (rules RES-3, RES-4), and the parser of a
//! call makes each command as the whole tree does.

use std::collections::HashSet;

use clap::Command;
use serde_json::{Map, Value};

use crate::call::tool::{CommandSpec, ResourceSpec, ToolInfo, find_spec};
use crate::run::cli::Commands;
use crate::run::discovery::{command_args, find, leaf_paths, tool_entry};

/// Differences between a tool's parser and its side table (empty when
/// consistent); every tool's tests assert that this is empty (rule DISC-3).
pub fn tool_problems<C: Commands>(info: &ToolInfo) -> Vec<String> {
    consistency_problems(&crate::run::cli::command::<C>(info), info, C::SPECS)
}

/// Where [`Commands::augment_named`] does not make a top-level command named by its word
/// exactly as the whole tree does, or makes one that no word names (empty when it agrees).
pub fn named_parser_problems<C: Commands>() -> Vec<String> {
    let whole = C::augment_subcommands(Command::new("t"));
    let mut problems = Vec::new();
    let none = C::augment_named(Command::new("t"), &[]);
    if let Some(sub) = none.get_subcommands().next() {
        problems.push(format!(
            "augment_named makes {} without a word",
            sub.get_name()
        ));
    }
    for sub in whole.get_subcommands() {
        let alone = C::augment_named(Command::new("t"), &[sub.get_name(), "--naam"]);
        let made: Vec<&Command> = alone.get_subcommands().collect();
        match made[..] {
            // The same but for its place among the commands (which only help shows).
            [one] if shape(one) == shape(sub) => {}
            [one] if one.get_name() == sub.get_name() => problems.push(format!(
                "augment_named makes {} otherwise than the whole tree",
                sub.get_name()
            )),
            _ => problems.push(format!(
                "augment_named for {} makes {:?}",
                sub.get_name(),
                made.iter().map(|c| c.get_name()).collect::<Vec<_>>()
            )),
        }
    }
    problems
}

/// Everything clap knows of a command but its display order.
fn shape(cmd: &Command) -> String {
    format!("{:?}", cmd.clone().display_order(0))
}

/// Differences between the clap tree and the side table (empty when consistent).
pub(crate) fn consistency_problems(
    cmd: &Command,
    info: &ToolInfo,
    specs: &'static [CommandSpec],
) -> Vec<String> {
    let mut problems = Vec::new();
    let mut seen = HashSet::new();
    for spec in specs {
        if !seen.insert(spec.path) {
            problems.push(format!("CommandSpec {:?} is declared twice", spec.path));
        }
    }
    let leaves = leaf_paths(cmd);
    for leaf in &leaves {
        if find_spec(specs, leaf).is_none() {
            problems.push(format!("clap command {leaf:?} has no CommandSpec"));
        }
    }
    for spec in specs {
        let path: Vec<String> = spec.path.iter().map(|s| s.to_string()).collect();
        // A hidden leaf is a tool's own utility command (CONV-2): run, never a tool.
        let Some(sub) = find(cmd, &path).filter(|sub| leaves.contains(&path) || sub.is_hide_set())
        else {
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
        problems.extend(resource_problems(cmd, resource, specs));
    }
    for path in info.cached {
        if !specs.iter().any(|s| s.path == *path) {
            problems.push(format!("cached command {path:?} has no CommandSpec"));
        }
    }
    problems
}

/// A resource template against the tool it maps to: a read (RES-3) whose
/// template variables are its input properties, and every required property
/// a variable (RES-4).
fn resource_problems(cmd: &Command, resource: &ResourceSpec, specs: &[CommandSpec]) -> Vec<String> {
    let template = resource.uri_template;
    let Some(spec) = specs.iter().find(|c| c.tool_name() == resource.tool) else {
        return vec![format!(
            "resource {template} maps to unknown tool {}",
            resource.tool
        )];
    };
    let mut problems = Vec::new();
    if !spec.annotations.read_only {
        problems.push(format!("resource {template} maps to a mutation (RES-3)"));
    }
    let path: Vec<String> = spec.path.iter().map(|s| s.to_string()).collect();
    let Some(sub) = find(cmd, &path) else {
        return problems;
    };
    let entry = tool_entry(sub, spec);
    let input = &entry["inputSchema"];
    let variables: Vec<&str> = template
        .split('{')
        .skip(1)
        .filter_map(|s| s.split('}').next())
        .collect();
    for v in &variables {
        if input["properties"].get(*v).is_none() {
            problems.push(format!(
                "resource {template}: {v} is not a property of {} (RES-4)",
                resource.tool
            ));
        }
    }
    for required in input["required"].as_array().into_iter().flatten() {
        let name = required.as_str().unwrap_or_default();
        if !variables.contains(&name) {
            problems.push(format!(
                "resource {template}: required property {name} is not a variable (RES-4)"
            ));
        }
    }
    problems
}

/// The tests every tool runs: [`crate::entry!`] emits them in the binary's test module, so
/// no tool can forget them; they assert that [`tool_problems`] and [`named_parser_problems`]
/// find nothing.
#[macro_export]
macro_rules! consistency_test {
    ($commands:ty, $tool:expr) => {
        #[test]
        fn clap_and_discovery_cover_the_same_commands() {
            let problems = $crate::consistency::tool_problems::<$commands>(&$tool);
            assert!(problems.is_empty(), "{problems:#?}");
        }

        #[test]
        fn the_parser_of_a_call_makes_each_command_as_the_whole_tree() {
            let problems = $crate::consistency::named_parser_problems::<$commands>();
            assert!(problems.is_empty(), "{problems:#?}");
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::call::tool::Annotations;
    use crate::run::cli::tests::built;

    const fn spec(
        path: &'static [&'static str],
        examples: &'static [&'static [&'static str]],
    ) -> CommandSpec {
        CommandSpec {
            path,
            title: "Proef",
            annotations: Annotations::READ_LOCAL,
            output_schema: r#"{"type": "object"}"#,
            examples,
            args: &[],
        }
    }

    static SPECS: [CommandSpec; 2] = [
        spec(&["zoeken"], &[&["zoeken"]]),
        spec(&["get"], &[&["get", "1"]]),
    ];

    fn problems_with(uri_template: &'static str) -> Vec<String> {
        let resources: &'static [ResourceSpec] = Box::leak(Box::new([ResourceSpec {
            uri_template,
            name: "r",
            title: "R",
            description: "R",
            mime_type: "application/json",
            tool: "get",
        }]));
        let info = ToolInfo {
            resources,
            ..crate::call::tool::PROBE_TOOL
        };
        let mut problems = consistency_problems(&built(), &info, &SPECS);
        problems.retain(|p| p.starts_with("resource"));
        problems
    }

    #[test]
    fn resource_templates_must_fit_their_tool() {
        assert_eq!(problems_with("t://{id}"), Vec::<String>::new());
        let wrong = problems_with("t://{nummer}");
        assert!(
            wrong.iter().any(|p| p.contains("nummer is not a property")),
            "{wrong:?}"
        );
        assert!(
            wrong.iter().any(|p| p.contains("required property id")),
            "{wrong:?}"
        );
    }
}

//! What every tool's tests prove about its declarations: the clap tree and the
//! side table cover the same commands (rule DISC-3), and every resource
//! template fits the tool it maps to (rules RES-3, RES-4).

use std::collections::HashSet;

use clap::Command;
use serde_json::{Map, Value};

use crate::cli::Commands;
use crate::discovery::{command_args, find, leaf_paths, tool_entry};
use crate::tool::{CommandSpec, ResourceSpec, ToolInfo, find_spec};

/// Differences between a tool's parser and its side table (empty when
/// consistent); every tool's tests assert that this is empty (rule DISC-3).
pub fn tool_problems<C: Commands>(info: &ToolInfo) -> Vec<String> {
    consistency_problems(&crate::cli::command::<C>(info), info, C::SPECS)
}

/// Differences between the clap tree and the side table (empty when consistent).
pub fn consistency_problems(
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

/// The test every tool runs: `common::consistency_test!(cli::Command, cli::tool::TOOL);`
/// in its binary's test module asserts that [`tool_problems`] finds nothing.
#[macro_export]
macro_rules! consistency_test {
    ($commands:ty, $tool:expr) => {
        #[test]
        fn clap_and_discovery_cover_the_same_commands() {
            let problems = $crate::consistency::tool_problems::<$commands>(&$tool);
            assert!(problems.is_empty(), "{problems:#?}");
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::tests::built;
    use crate::tool::Annotations;

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
            ..crate::tool::PROBE_TOOL
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

//! The family's `tools/list`, as the built `overheid-mcp` serves it over stdio after the
//! 2025-11-25 `initialize` handshake, stays within its budget (issue 17, raised by issue 31 for
//! titles, typed output members and a `fields` description with an example): what every agent
//! pays before its first call. And it is written for a model (issue 31): every tool has a title,
//! no description names a CLI flag or a variable, every input property and every output member
//! has a type. The tool entries come from the CLIs' compact discovery (DISC-17); the
//! bridge adds its own `fields` and `_meta`, measured apart so a regression shows
//! where it came from.
#![allow(
    clippy::too_many_lines,
    reason = "a test is one scenario read top to bottom; the lint holds production code (issue 42.5)"
)]
#![allow(clippy::disallowed_methods, reason = "test switches")]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};
use test_support::lines::LineChild;
use test_support::schema::has_type_array;

/// The most bytes the whole `tools/list` response may have: issue 31's 32 KiB, for every tool of
/// the family, the proposal tools of issue 30 included (32,545 measured once repeated words were
/// cut: shorter shared argument texts, one "nothing was done" shape, no "herhaalbaar" beside an
/// array, and `wet valideer`, whose files are local paths, left out unless paths are allowed;
/// 32,643 once four descriptions say what their tool is for).
const TOOLS_LIST_BUDGET: usize = 32 * 1024;
/// The most bytes of it that come from the CLIs' discovery (the rest is the bridge's own
/// `fields`; 28,610 measured, 29,050 once rvo-cli's `regeling zoek` took `--lang`, issue 40
/// item 4).
const FROM_DISCOVERY_BUDGET: usize = 29_100;
/// The family's CLIs and how many tools each serves: every command, except regelrecht-cli's
/// `wet valideer`, which reads only the local files it is given (DISC-21).
const FAMILY: [(&str, usize); 4] = [
    ("kvk-cli", 7),
    ("koop-cli", 4),
    ("rvo-cli", 9),
    ("regelrecht-cli", 9),
];

/// `name` in the workspace's `target/debug`, next to the bridge; the test fails when it is missing.
fn workspace_binary(name: &str) -> PathBuf {
    let bridge = PathBuf::from(env!("CARGO_BIN_EXE_overheid-mcp"));
    let path = bridge.parent().expect("target dir").join(name);
    assert!(
        path.is_file(),
        "{} ontbreekt: bouw eerst de CLI's (cargo build -p {name})",
        path.display()
    );
    path
}

/// The raw `tools/list` response line, after `initialize` and `notifications/initialized`.
fn tools_list_line(tools: &[PathBuf]) -> String {
    session_lines(tools).1
}

/// The `initialize` result and the raw `tools/list` response line of one session.
fn session_lines(tools: &[PathBuf]) -> (Value, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_overheid-mcp"));
    for tool in tools {
        command.arg("--tool").arg(tool);
    }
    command
        .env_clear()
        .env("PATH", Path::new("/nonexistent"))
        .stderr(Stdio::null());
    let mut bridge = LineChild::start(command);
    let answer = Duration::from_secs(30);
    let init = bridge.request(
        "initialize",
        json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "tools-list-budget", "version": "1"}
        }),
        answer,
    );
    let init: Value = serde_json::from_str(&init).expect("JSON");
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
    bridge.write(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let line = bridge.request("tools/list", json!({}), answer);
    bridge.close();
    (init, line)
}

fn bytes(value: &Value) -> usize {
    serde_json::to_string(value).expect("JSON").len()
}

#[test]
fn the_family_s_tools_list_stays_within_its_budget() {
    // A fifth tool is no tool this table forgets: the table names the family, no more, no less.
    let mut named: Vec<&str> = FAMILY.iter().map(|(name, _)| *name).collect();
    let mut family: Vec<&str> = test_support::cli::programs()
        .iter()
        .map(String::as_str)
        .collect();
    named.sort_unstable();
    family.sort_unstable();
    assert_eq!(named, family, "FAMILY names every program of the family");
    let programs: Vec<PathBuf> = FAMILY.iter().map(|(n, _)| workspace_binary(n)).collect();
    let line = tools_list_line(&programs);
    let response: Value = serde_json::from_str(&line).expect("JSON");
    let tools = response["result"]["tools"].as_array().expect("tools");
    for (name, count) in FAMILY {
        let prefix = format!("{}__", name.trim_end_matches("-cli"));
        let served = tools
            .iter()
            .filter(|t| t["name"].as_str().is_some_and(|n| n.starts_with(&prefix)))
            .count();
        assert_eq!(
            served, count,
            "{name}: every command without a local path is a tool"
        );
    }
    // What the bridge adds itself: its `fields` argument and its `_meta`.
    let added: usize = tools
        .iter()
        .map(|tool| {
            let arguments: usize = ["fields"]
                .iter()
                .filter_map(|k| tool["inputSchema"]["properties"].get(*k).map(|v| (k, v)))
                .map(|(k, v)| k.len() + 4 + bytes(v))
                .sum();
            arguments + tool.get("_meta").map_or(0, |m| bytes(m) + 8)
        })
        .sum();
    let total = line.len();
    eprintln!(
        "tools/list: {total} bytes, {} tools; {added} added by the bridge",
        tools.len()
    );
    assert!(
        total - added <= FROM_DISCOVERY_BUDGET,
        "the CLIs' part of tools/list is {} bytes, more than {FROM_DISCOVERY_BUDGET}",
        total - added
    );
    assert!(
        total <= TOOLS_LIST_BUDGET,
        "tools/list is {total} bytes, more than {TOOLS_LIST_BUDGET}"
    );
    let variables: Vec<String> = programs
        .iter()
        .flat_map(|program| {
            let output = Command::new(program)
                .args(["--help", "--json"])
                .output()
                .unwrap();
            let discovery: Value = serde_json::from_slice(&output.stdout).unwrap();
            discovery["env"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|v| v["name"].as_str().map(str::to_string))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(variables.iter().any(|v| v == "KVK_SESSIE_NUMMER"));
    // A host shows titles: no two tools of the family share one (issue 40 item 6: koop's and
    // rvo's "Regelingen zoeken" and "Regeling ophalen"), so the bridge names the source where
    // two would.
    let mut titles: Vec<&str> = tools.iter().filter_map(|t| t["title"].as_str()).collect();
    titles.sort_unstable();
    let before = titles.len();
    titles.dedup();
    assert_eq!(titles.len(), before, "titles must be unique: {titles:?}");
    for tool in tools {
        let name = &tool["name"];
        assert!(
            tool["title"].as_str().is_some_and(|t| !t.is_empty()),
            "{name}: a title"
        );
        let mut descriptions = vec![tool["description"].as_str().unwrap_or_default()];
        for (property, schema) in tool["inputSchema"]["properties"].as_object().unwrap() {
            assert!(
                schema.get("type").is_some(),
                "{name}: {property} has no type"
            );
            descriptions.push(schema["description"].as_str().unwrap_or_default());
        }
        for text in descriptions {
            assert!(!text.contains("--"), "{name}: a flag in {text:?}");
            for variable in &variables {
                assert!(
                    !text.contains(variable.as_str()),
                    "{name}: {variable} in {text:?}"
                );
            }
        }
        let fields = tool["inputSchema"]["properties"]["fields"]["description"]
            .as_str()
            .unwrap();
        assert!(
            fields.contains("bijv. [\"") && fields.contains("JSONPath"),
            "{fields}"
        );
        let output = &tool["outputSchema"];
        let members = output["properties"].as_object();
        // A mutating tool's schema is its result or the bridge's proposal (anyOf).
        if let Some(members) = members {
            assert!(!members.is_empty(), "{}: members to select", tool["name"]);
            assert!(output.get("required").is_none(), "{}", tool["name"]);
            for (member, schema) in members {
                assert!(
                    schema.get("type").is_some(),
                    "{name}: output {member} untyped"
                );
            }
        }
        // Portable for hosts that map schemas onto a single-`type` dialect (the MCP Inspector
        // warns about every type array): none is listed, in input or output.
        for schema in [&tool["inputSchema"], output] {
            assert!(!has_type_array(schema), "{name}: a type array in {schema}");
        }
    }
}

/// The discovery document of `program`.
fn discovery(program: &Path) -> Value {
    let output = Command::new(program)
        .args(["--help", "--json"])
        .env_clear()
        .output()
        .unwrap();
    serde_json::from_slice(&output.stdout).expect("discovery is JSON")
}

/// Issue 40 item 2: every program's root description (and its root help) ends with one line that
/// says which program of the family answers which kind of question, and the bridge's
/// `instructions` say the same by tool. Every command a route names exists: a route to a
/// command that was renamed or removed fails here, in the CLIs' discovery and in the bridge's.
#[test]
fn every_route_names_a_command_the_family_has() {
    let programs: Vec<PathBuf> = FAMILY.iter().map(|(n, _)| workspace_binary(n)).collect();
    let documents: Vec<Value> = programs.iter().map(|p| discovery(p)).collect();
    let mut routes: Option<String> = None;
    for ((program, document), (name, _)) in programs.iter().zip(&documents).zip(FAMILY) {
        let description = document["description"].as_str().expect("description");
        let (_, line) = description
            .split_once("Familie: ")
            .unwrap_or_else(|| panic!("{name}: no family routes in {description:?}"));
        // One line for the whole family, the same in every program.
        assert_eq!(
            routes.get_or_insert_with(|| line.to_string()),
            line,
            "{name}"
        );
        let help = Command::new(program)
            .arg("--help")
            .env_clear()
            .env("COLUMNS", "1000")
            .output()
            .unwrap();
        // However the help is wrapped, the words are the line's.
        let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
        let help = words(&String::from_utf8(help.stdout).unwrap());
        assert!(
            help.contains(&words(&format!("Familie: {line}"))),
            "{name}: {help}"
        );
    }
    let routes = routes.expect("four programs");
    let targets: Vec<&str> = routes
        .trim_end_matches('.')
        .split("; ")
        .map(|route| route.split_once(" → ").expect("question → command").1)
        .collect();
    assert!(targets.len() >= 5, "{targets:?}");
    // The questions issue 40 names go where they are answered: the energy duty and its article to
    // regelrecht-cli check, an article's text to koop-cli regeling artikel, filing to rvo-cli.
    let route_of = |question: &str| {
        routes
            .trim_end_matches('.')
            .split("; ")
            .find(|route| route.split(" → ").next().unwrap().contains(question))
            .and_then(|route| {
                route
                    .split_once(" → ")
                    .map(|(_, target)| target.to_string())
            })
            .unwrap_or_else(|| panic!("no route for {question:?} in {routes:?}"))
    };
    assert_eq!(
        route_of("energiebesparingsplicht"),
        "regelrecht-cli check energiebesparing"
    );
    assert_eq!(
        route_of("tekst van een artikel"),
        "koop-cli regeling artikel"
    );
    assert!(route_of("indienen").starts_with("rvo-cli "), "{routes}");
    // Every program of the family answers some question: a fifth tool needs its route.
    for program in test_support::cli::programs() {
        assert!(
            targets
                .iter()
                .any(|t| t.split(' ').next() == Some(program.as_str())),
            "{program} has no route in {routes:?}"
        );
    }
    for target in &targets {
        let mut words = target.split(' ');
        let program = words.next().unwrap();
        let command: Vec<&str> = words.collect();
        let at = FAMILY
            .iter()
            .position(|(n, _)| *n == program)
            .unwrap_or_else(|| panic!("{target}: {program} is no program of the family"));
        if command.is_empty() {
            continue;
        }
        let known = documents[at]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|tool| tool["_meta"]["argv"] == json!(command));
        assert!(known, "{target}: {program} has no such command");
    }
    // The bridge says it by tool name: every name its instructions give is a tool it lists.
    let (init, line) = session_lines(&programs);
    let instructions = init["result"]["instructions"]
        .as_str()
        .expect("instructions");
    let response: Value = serde_json::from_str(&line).expect("JSON");
    let listed: Vec<&str> = response["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    let named: Vec<&str> = instructions
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|word| word.contains("__") && !word.starts_with('_'))
        .collect();
    for wanted in [
        "kvk__basisprofiel_toon",
        "koop__regeling_artikel",
        "regelrecht__check_energiebesparing",
        "regelrecht__regelingen",
        "regelrecht__concept",
        "rvo__rapportage_voorstel",
    ] {
        assert!(named.contains(&wanted), "{wanted} not in {instructions:?}");
    }
    for name in named {
        assert!(
            listed.contains(&name),
            "{name} in the instructions is not listed"
        );
    }
}

/// Issue 40 item 6: the README's scope table says what each tool needs. Every tool the family
/// serves is named in the row of the scope its annotations give it (read-only: `overheid:lezen`,
/// else `overheid:indienen`; MCP-AUTH-8), by name or by its source's "every `kvk__…`", and in no
/// other row; a tool the table names is one the bridge lists.
#[test]
fn the_readme_s_scope_table_names_each_tool_under_the_scope_it_needs() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let table = readme
        .split_once("| scope | tools |")
        .expect("the scope table")
        .1;
    let rows: Vec<(&str, &str)> = table
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            (cells[1].trim_matches('`'), cells[2])
        })
        .collect();
    let scopes: Vec<&str> = rows.iter().map(|(scope, _)| *scope).collect();
    assert_eq!(scopes, ["overheid:lezen", "overheid:indienen"]);
    let programs: Vec<PathBuf> = FAMILY.iter().map(|(n, _)| workspace_binary(n)).collect();
    let response: Value = serde_json::from_str(&tools_list_line(&programs)).expect("JSON");
    let tools = response["result"]["tools"].as_array().expect("tools");
    let in_row = |row: &str, name: &str| {
        let source = name.split_once("__").map_or(name, |(source, _)| source);
        row.contains(&format!("`{name}`")) || row.contains(&format!("`{source}__…`"))
    };
    for tool in tools {
        let name = tool["name"].as_str().unwrap();
        let reads = tool["annotations"]["readOnlyHint"] == true;
        let needed = if reads {
            "overheid:lezen"
        } else {
            "overheid:indienen"
        };
        for (scope, row) in &rows {
            assert_eq!(
                in_row(row, name),
                *scope == needed,
                "{name} (read-only: {reads}) in the row of {scope}: {row}"
            );
        }
    }
    // No row names a tool the bridge does not list.
    let listed: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    for (scope, row) in &rows {
        for quoted in row.split('`').skip(1).step_by(2) {
            if quoted.contains("__") && !quoted.ends_with('…') {
                assert!(listed.contains(&quoted), "{scope}: {quoted} is no tool");
            }
        }
    }
}

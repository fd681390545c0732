//! Discovery checks (DISC-*, RES-*, CONF-3/4/8, CONV-1/2): the document, its tool entries, their schemas.

use std::collections::HashSet;

use serde_json::Value;

use super::{Check, Evidence, Level, Verdict, judge, judge_probes, needs_discovery};
use crate::model::Entry;
use crate::probe::Kind;
use crate::schemas::{compile_user_schema, schemas, violations};
use crate::session::Session;

pub fn checks() -> Vec<Check> {
    vec![
        Check {
            id: "discovery-document",
            rules: &["DISC-1"],
            level: Level::Must,
            title: "--help --json: één JSON-document, exit 0, geldig volgens discovery.schema.json",
            run: document,
        },
        Check {
            id: "discovery-offline",
            rules: &["DISC-2", "CONF-9"],
            level: Level::Must,
            title: "discovery werkt met een lege omgeving, zonder verkeer en zonder auditregel",
            run: offline,
        },
        Check {
            id: "discovery-stable",
            rules: &["DISC-7"],
            level: Level::Must,
            title: "discovery is bij elke aanroep gelijk",
            run: stable,
        },
        Check {
            id: "discovery-identity",
            rules: &["DISC-4", "CONV-1"],
            level: Level::Must,
            title: "name en version gelijk aan --version (\"<name> <version>\")",
            run: identity,
        },
        Check {
            id: "exit-code-table",
            rules: &["DISC-5"],
            level: Level::Must,
            title: "exit_codes is precies de tabel van het profiel",
            run: exit_code_table,
        },
        Check {
            id: "tool-names",
            rules: &["DISC-6", "DISC-13"],
            level: Level::Must,
            title: "toolnamen uniek, geldig en gelijk aan _meta.argv met _",
            run: tool_names,
        },
        Check {
            id: "tool-annotations",
            rules: &["DISC-11"],
            level: Level::Must,
            title: "alle vier annotaties expliciet; readOnlyHint sluit destructiveHint uit",
            run: annotations,
        },
        Check {
            id: "input-schema",
            rules: &["DISC-8", "DISC-9"],
            level: Level::Must,
            title: "inputSchema is JSON Schema 2020-12, object, snake_case, vlag = --<eigenschap>",
            run: input_schema,
        },
        Check {
            id: "input-closed",
            rules: &["DISC-9"],
            level: Level::Should,
            title: "inputSchema zet additionalProperties: false",
            run: input_closed,
        },
        Check {
            id: "input-mapping",
            rules: &["DISC-14"],
            level: Level::Must,
            title: "elke eigenschap precies één keer in _meta.positional of _meta.flags",
            run: input_mapping,
        },
        Check {
            id: "output-schema",
            rules: &["DISC-10"],
            level: Level::Must,
            title: "outputSchema is JSON Schema 2020-12 met object als wortel",
            run: output_schema,
        },
        Check {
            id: "command-discovery",
            rules: &["DISC-17"],
            level: Level::Must,
            title: "<opdracht> --help --json geeft hetzelfde tool-object, geldig volgens tool.schema.json",
            run: command_discovery,
        },
        Check {
            id: "global-options",
            rules: &["DISC-18"],
            level: Level::Must,
            title: "global_options noemt de negen profielopties",
            run: global_options,
        },
        Check {
            id: "env-declaration",
            rules: &["DISC-19", "CONF-3", "CONF-4", "CONF-8"],
            level: Level::Must,
            title: "env: soorten, geheimen zonder standaardwaarde, de profielvariabelen",
            run: env_declaration,
        },
        Check {
            id: "plain-help",
            rules: &["DISC-20"],
            level: Level::Must,
            title: "--help zonder --json geeft tekst voor mensen, exit 0",
            run: plain_help,
        },
        Check {
            id: "examples-declared",
            rules: &["DISC-16"],
            level: Level::Must,
            title: "elk tool-object heeft voorbeelden die met _meta.argv beginnen en te lezen zijn",
            run: examples_declared,
        },
        Check {
            id: "resources",
            rules: &["RES-1", "RES-2", "RES-3", "RES-4"],
            level: Level::Must,
            title: "resources verwijzen naar een alleen-lezen tool met passende variabelen",
            run: resources,
        },
        Check {
            id: "completions",
            rules: &["CONV-2"],
            level: Level::Must,
            title: "completions bash geeft een script, exit 0, geen auditregel",
            run: completions,
        },
    ]
}

fn document(session: &Session) -> Verdict {
    let outcome = &session.discovery_outcome;
    let problem = if outcome.status != Some(0) {
        Some(format!("verwacht exit 0, kreeg {}", outcome.status_text()))
    } else {
        match &session.discovery {
            None => Some("stdout is niet precies één JSON-document".into()),
            Some(document) => violations(&schemas().discovery, document)
                .map(|v| format!("voldoet niet aan discovery.schema.json: {v}")),
        }
    };
    match problem {
        Some(problem) => Verdict::Fail(vec![Evidence::of(outcome, problem)]),
        None => Verdict::Pass,
    }
}

fn offline(session: &Session) -> Verdict {
    if let Some(skip) = needs_discovery(session) {
        return skip;
    }
    let reference = session.discovery.as_ref();
    judge_probes(
        session.probes_where(|k| matches!(k, Kind::DiscoveryEmptyEnv | Kind::DiscoveryWatched)),
        "geen discovery-aanroepen",
        |probe| {
            if probe.outcome.status != Some(0) {
                return Some(format!(
                    "verwacht exit 0, kreeg {}",
                    probe.outcome.status_text()
                ));
            }
            if probe.stdout_json().as_ref() != reference {
                return Some("ander document dan bij de eerste aanroep".into());
            }
            if !probe.requests.is_empty() {
                return Some(format!(
                    "{} verzoek(en) naar de bron, bijv. {}",
                    probe.requests.len(),
                    probe.requests[0].url
                ));
            }
            if probe.audit.is_some() {
                return Some("discovery schreef een auditregel".into());
            }
            None
        },
    )
}

fn stable(session: &Session) -> Verdict {
    if let Some(skip) = needs_discovery(session) {
        return skip;
    }
    judge_probes(
        session.probes_where(|k| *k == Kind::DiscoveryAgain),
        "niet herhaald",
        |probe| {
            (probe.outcome.stdout != session.discovery_outcome.stdout)
                .then(|| "tweede aanroep gaf een ander document".into())
        },
    )
}

fn identity(session: &Session) -> Verdict {
    let expected = format!("{} {}\n", session.program_name(), session.program_version());
    judge_probes(
        session.probes_where(|k| *k == Kind::Version),
        "--version niet aangeroepen",
        |probe| {
            if probe.outcome.status != Some(0) {
                return Some(format!(
                    "--version: verwacht exit 0, kreeg {}",
                    probe.outcome.status_text()
                ));
            }
            session.discovery.as_ref()?;
            (probe.outcome.stdout != expected)
                .then(|| format!("verwacht {:?} (name en version uit discovery)", expected))
        },
    )
}

const EXIT_CODES: [(i64, &str); 15] = [
    (0, "OK"),
    (1, "ERROR"),
    (2, "USAGE"),
    (65, "DATAERR"),
    (66, "NOT_FOUND"),
    (69, "UNAVAILABLE"),
    (70, "SOFTWARE"),
    (74, "IOERR"),
    (75, "TEMPFAIL"),
    (76, "PROTOCOL"),
    (77, "NOPERM"),
    (78, "CONFIG"),
    (80, "CONFIRMATION_REQUIRED"),
    (81, "PLAN_STALE"),
    (124, "TIMEOUT"),
];

fn exit_code_table(session: &Session) -> Verdict {
    let Some(document) = &session.discovery else {
        return Verdict::Skip(super::NO_DISCOVERY.into());
    };
    let table: Vec<(i64, String, bool)> = document
        .get("exit_codes")
        .and_then(Value::as_array)
        .map(|rows| {
            rows.iter()
                .map(|row| {
                    (
                        row.get("code").and_then(Value::as_i64).unwrap_or(-1),
                        row.get("name")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string(),
                        row.get("meaning")
                            .and_then(Value::as_str)
                            .is_some_and(|m| !m.is_empty()),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let got: Vec<(i64, &str)> = table
        .iter()
        .map(|(code, name, _)| (*code, name.as_str()))
        .collect();
    let mut failures = Vec::new();
    if got != EXIT_CODES {
        failures.push(Evidence::about(
            "exit_codes",
            format!("verwacht {EXIT_CODES:?}, kreeg {got:?}"),
        ));
    }
    if let Some((code, _, _)) = table.iter().find(|(_, _, meaning)| !meaning) {
        failures.push(Evidence::about(
            "exit_codes",
            format!("code {code} zonder meaning"),
        ));
    }
    judge(failures, 1, "")
}

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

fn tool_names(session: &Session) -> Verdict {
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

fn annotations(session: &Session) -> Verdict {
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

fn input_schema(session: &Session) -> Verdict {
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

fn input_closed(session: &Session) -> Verdict {
    per_entry(session, |entry| {
        (entry.input.get("additionalProperties") != Some(&Value::Bool(false)))
            .then(|| "inputSchema zonder \"additionalProperties\": false".to_string())
            .into_iter()
            .collect()
    })
}

fn input_mapping(session: &Session) -> Verdict {
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

fn output_schema(session: &Session) -> Verdict {
    per_entry(session, |entry| {
        schema_problems("outputSchema", &entry.output)
    })
}

fn command_discovery(session: &Session) -> Verdict {
    if let Some(skip) = needs_discovery(session) {
        return skip;
    }
    judge_probes(
        session.probes_where(|k| *k == Kind::CommandDiscovery),
        "geen tool-objecten",
        |probe| {
            let entry = &session.entries[probe.entry?];
            if probe.outcome.status != Some(0) {
                return Some(format!(
                    "verwacht exit 0, kreeg {}",
                    probe.outcome.status_text()
                ));
            }
            let Some(document) = probe.stdout_json() else {
                return Some("stdout is niet precies één JSON-document".into());
            };
            if document != entry.raw {
                return Some(format!(
                    "wijkt af van het tool-object {:?} in het hoofddocument",
                    entry.name
                ));
            }
            violations(&schemas().tool, &document)
                .map(|v| format!("voldoet niet aan tool.schema.json: {v}"))
        },
    )
}

/// The options every command must accept (§3.3).
pub const PROFILE_OPTIONS: [&str; 9] = [
    "--output",
    "--fields",
    "--provenance",
    "--dry-run",
    "--confirm",
    "--timeout",
    "--audit-log",
    "--no-color",
    "--quiet",
];

fn global_options(session: &Session) -> Verdict {
    let Some(document) = &session.discovery else {
        return Verdict::Skip(super::NO_DISCOVERY.into());
    };
    let missing: Vec<&str> = PROFILE_OPTIONS
        .into_iter()
        .filter(|o| !crate::model::has_global_option(document, o))
        .collect();
    let failures = if missing.is_empty() {
        Vec::new()
    } else {
        vec![Evidence::about(
            "global_options",
            format!("ontbreekt: {}", missing.join(", ")),
        )]
    };
    judge(failures, 1, "")
}

fn env_declaration(session: &Session) -> Verdict {
    let Some(document) = &session.discovery else {
        return Verdict::Skip(super::NO_DISCOVERY.into());
    };
    let Some(env) = document.get("env").and_then(Value::as_array) else {
        return Verdict::Fail(vec![Evidence::about("env", "env ontbreekt")]);
    };
    let mut failures = Vec::new();
    let names: Vec<&str> = env
        .iter()
        .filter_map(|e| e.get("name").and_then(Value::as_str))
        .collect();
    for entry in env {
        let name = entry.get("name").and_then(Value::as_str).unwrap_or("?");
        let kind = entry.get("kind").and_then(Value::as_str);
        let secret = entry.get("secret").and_then(Value::as_bool);
        if !matches!(kind, Some("base_url" | "secret" | "path" | "setting")) {
            failures.push(Evidence::about(
                format!("env {name}"),
                format!("kind {kind:?} is niet base_url|secret|path|setting"),
            ));
        }
        if secret != Some(kind == Some("secret")) {
            failures.push(Evidence::about(
                format!("env {name}"),
                "secret moet true zijn precies bij kind secret",
            ));
        }
        if kind == Some("secret") && entry.get("default").is_some() {
            failures.push(Evidence::about(
                format!("env {name}"),
                "een geheim heeft geen default",
            ));
        }
    }
    let program = session.program_name();
    let tool_var = format!(
        "{}_AUDIT_LOG",
        program
            .strip_suffix("-cli")
            .unwrap_or(&program)
            .to_uppercase()
            .replace('-', "_")
    );
    for required in [
        tool_var.as_str(),
        "OVERHEID_AUDIT_LOG",
        "XDG_STATE_HOME",
        "OVERHEID_PROCESSING_ACTIVITY_ID",
        "OVERHEID_MAX_RESPONSE_BYTES",
        "TRACEPARENT",
        "NO_COLOR",
    ] {
        if !names.contains(&required) {
            failures.push(Evidence::about(
                "env",
                format!("profielvariabele {required} is niet gedeclareerd"),
            ));
        }
    }
    judge(failures, 1, "")
}

fn plain_help(session: &Session) -> Verdict {
    judge_probes(
        session.probes_where(|k| *k == Kind::Help),
        "--help niet aangeroepen",
        |probe| {
            if probe.outcome.status != Some(0) {
                return Some(format!(
                    "verwacht exit 0, kreeg {}",
                    probe.outcome.status_text()
                ));
            }
            if probe.outcome.stdout.trim().is_empty() {
                return Some("geen helptekst op stdout".into());
            }
            probe
                .stdout_json()
                .is_some()
                .then(|| "--help zonder --json gaf JSON".into())
        },
    )
}

fn examples_declared(session: &Session) -> Verdict {
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

fn template_variables(template: &str) -> Vec<String> {
    template
        .split('{')
        .skip(1)
        .filter_map(|part| part.split_once('}').map(|(name, _)| name.to_string()))
        .collect()
}

fn resources(session: &Session) -> Verdict {
    let Some(document) = &session.discovery else {
        return Verdict::Skip(super::NO_DISCOVERY.into());
    };
    let Some(list) = document.get("resources").and_then(Value::as_array) else {
        return Verdict::Skip("het document heeft geen resources".into());
    };
    let mut failures = Vec::new();
    for resource in list {
        let template = resource
            .get("uriTemplate")
            .and_then(Value::as_str)
            .unwrap_or("");
        let subject = format!("resource {template}");
        if template.starts_with("http://") || template.starts_with("https://") {
            failures.push(Evidence::about(
                &subject,
                "uriTemplate gebruikt http(s); een eigen schema is vereist",
            ));
        }
        if resource.get("mimeType").and_then(Value::as_str) != Some("application/json") {
            failures.push(Evidence::about(
                &subject,
                "mimeType is niet application/json",
            ));
        }
        let tool = resource
            .get("_meta")
            .and_then(|m| m.get("tool"))
            .and_then(Value::as_str)
            .unwrap_or("");
        let Some(entry) = session.entries.iter().find(|e| e.name == tool) else {
            failures.push(Evidence::about(
                &subject,
                format!("_meta.tool {tool:?} is geen tool in dit document"),
            ));
            continue;
        };
        if !entry.read_only {
            failures.push(Evidence::about(
                &subject,
                format!("tool {tool} is niet alleen-lezen"),
            ));
        }
        let variables = template_variables(template);
        for variable in &variables {
            if entry.property(variable).is_none() {
                failures.push(Evidence::about(
                    &subject,
                    format!("variabele {variable} is geen eigenschap van {tool}"),
                ));
            }
        }
        for required in entry.required() {
            if !variables.contains(&required) {
                failures.push(Evidence::about(
                    &subject,
                    format!("verplichte eigenschap {required} is geen variabele"),
                ));
            }
        }
    }
    judge(failures, list.len(), "lege resources")
}

fn completions(session: &Session) -> Verdict {
    judge_probes(
        session.probes_where(|k| *k == Kind::Completions),
        "niet aangeroepen",
        |probe| {
            if probe.outcome.status != Some(0) {
                return Some(format!(
                    "verwacht exit 0, kreeg {}",
                    probe.outcome.status_text()
                ));
            }
            if probe.outcome.stdout.trim().is_empty() {
                return Some("geen script op stdout".into());
            }
            probe
                .audit
                .is_some()
                .then(|| "completions schreef een auditregel".into())
        },
    )
}

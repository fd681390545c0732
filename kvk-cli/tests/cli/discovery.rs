//! Discovery (`--help --json`): schema validity, the exit-code and env tables, tool entries
//! that match the parser, and plain `--help` staying human text (DISC-*, CONF-3/4/8).

use std::collections::BTreeSet;

use serde_json::Value;

use crate::support::{Sandbox, assert_valid, discovery, run};
use test_support::cli::{argv_of, full_entry_words};

/// The commands kvk-cli has, as tool names in parser order (DISC-3, DISC-6, DISC-7).
const TOOLS: [&str; 7] = [
    "zoek",
    "basisprofiel_toon",
    "basisprofiel_eigenaar",
    "basisprofiel_hoofdvestiging",
    "basisprofiel_vestigingen",
    "vestigingsprofiel_toon",
    "naamgeving_toon",
];

/// DISC-1, DISC-2, DISC-4: one valid document, empty environment, no audit record.
#[test]
fn disc_1_discovery_validates_and_writes_nothing() {
    let sandbox = Sandbox::new();
    let document = run(sandbox.bare(), ["--help", "--json"]).json();
    assert_valid("discovery.schema.json", &document);
    assert_eq!(document["name"], "kvk-cli");
    assert_eq!(document["profile_version"], "2.0");
    let written: Vec<_> = std::fs::read_dir(sandbox.path())
        .expect("sandbox")
        .collect();
    assert!(written.is_empty(), "discovery wrote files: {written:?}");
}

/// DISC-3, DISC-6, DISC-7: exactly the commands, in order, the same on every run.
#[test]
fn disc_3_tools_are_the_commands_in_parser_order() {
    let document = discovery();
    let names: Vec<&str> = document["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| t["name"].as_str().expect("name"))
        .collect();
    assert_eq!(names, TOOLS);
    assert_eq!(document, discovery(), "DISC-7: deterministic");
}

/// DISC-3, CONV-2: the `completions` utility command is not a tool.
#[test]
fn disc_3_completions_is_not_in_discovery() {
    let text = discovery()["tools"].to_string();
    assert!(!text.contains("completions"), "{text}");
}

/// DISC-5: the exit-code table of §8.2, exactly, in ascending order, each with a meaning.
#[test]
fn disc_5_exit_code_table() {
    let expected: [(u64, &str); 16] = [
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
        (130, "INTERRUPTED"),
    ];
    let document = discovery();
    let table: Vec<(u64, &str)> = document["exit_codes"]
        .as_array()
        .expect("exit_codes")
        .iter()
        .map(|e| {
            assert!(
                e.get("meaning").is_none(),
                "DISC-5: the profile's meaning: {e}"
            );
            (
                e["code"].as_u64().expect("code"),
                e["name"].as_str().expect("name"),
            )
        })
        .collect();
    assert_eq!(table, expected);
}

/// CONF-3, CONF-4, CONF-8, SEC-10, CONF-5: every variable kvk-cli reads, with its kind.
#[test]
fn conf_8_every_env_var_is_declared_with_its_kind() {
    let document = discovery();
    let env = document["env"].as_array().expect("env");
    let kind_of = |name: &str| -> &Value {
        env.iter()
            .find(|e| e["name"] == name)
            .unwrap_or_else(|| panic!("{name} is not declared in env"))
    };
    for (name, kind) in [
        ("KVK_API_BASE", "base_url"),
        ("KVK_API_KEY", "secret"),
        ("KVK_SESSIE_NUMMER", "setting"),
        ("KVK_AUDIT_LOG", "path"),
    ] {
        assert_eq!(kind_of(name)["kind"], kind, "{name}");
    }
    // DISC-19: the profile's variables by kind, named only.
    let profile = &document["profile_env"];
    let named = |name: &str, kind: &str| {
        profile[kind]
            .as_array()
            .is_some_and(|names| names.iter().any(|n| n == name))
    };
    let expected = [
        ("OVERHEID_AUDIT_LOG", "path"),
        ("XDG_STATE_HOME", "path"),
        ("OVERHEID_PROCESSING_ACTIVITY_ID", "setting"),
        ("OVERHEID_MAX_RESPONSE_BYTES", "setting"),
        ("TRACEPARENT", "setting"),
        ("NO_COLOR", "setting"),
    ];
    for (name, kind) in expected {
        assert!(named(name, kind), "{name} under {kind} in {profile}");
    }
    assert!(named("OTEL_EXPORTER_OTLP_HEADERS", "secret"), "{profile}");
    assert_eq!(
        kind_of("KVK_API_BASE")["default"],
        "https://api.kvk.nl/test/api"
    );
    for entry in env {
        let secret = entry["kind"] == "secret";
        assert_eq!(entry["secret"], secret, "CONF-4: {entry}");
        if secret {
            assert!(entry.get("default").is_none(), "CONF-4: {entry}");
        }
    }
}

/// DISC-17: `<command> --help --json` is that entry alone, valid, equal to the root's.
#[test]
fn disc_17_command_help_json_equals_root_entry() {
    let document = discovery();
    let sandbox = Sandbox::new();
    for entry in document["tools"].as_array().expect("tools") {
        let argv = argv_of(entry);
        let alone = run(sandbox.bare(), full_entry_words(entry)).json();
        assert_valid("tool.schema.json", &alone);
        assert_eq!(&common::discovery::compact_entry(&alone), entry, "{argv:?}");
    }
    assert!(!sandbox.audit_log().exists());
}

/// DISC-6, DISC-11, DISC-12, DISC-13, DISC-14: names, hints and the argv mapping.
#[test]
fn disc_14_meta_maps_every_property_once() {
    for entry in discovery()["tools"].as_array().expect("tools") {
        let argv = argv_of(entry);
        assert_eq!(entry["name"], argv.join("_").replace('-', "_"), "DISC-6");
        // DISC-11, DISC-17: read-only and remote, so MCP's defaults say the rest.
        assert_eq!(
            entry["annotations"],
            serde_json::json!({"readOnlyHint": true}),
            "{entry}"
        );
        let properties: BTreeSet<&str> = entry["inputSchema"]["properties"]
            .as_object()
            .expect("properties")
            .keys()
            .map(String::as_str)
            .collect();
        let mut mapped: Vec<&str> = entry["_meta"]["positional"]
            .as_array()
            .expect("positional")
            .iter()
            .map(|p| p.as_str().expect("name"))
            .collect();
        let flags = entry["_meta"]["flags"].as_object().expect("flags");
        for (property, flag) in flags {
            assert!(flag.as_str().expect("flag").starts_with("--"), "{entry}");
            mapped.push(property);
        }
        let unique: BTreeSet<&str> = mapped.iter().copied().collect();
        assert_eq!(unique.len(), mapped.len(), "DISC-14: mapped twice");
        assert_eq!(unique, properties, "DISC-14: {}", entry["name"]);
    }
}

/// DISC-9, SEC-1: zoeken's repeatable `--type` is an array of the allowed values; a flag
/// without value is a boolean; no property accepts the API key.
#[test]
fn disc_9_input_schema_states_constraints() {
    let document = discovery();
    let zoeken = &document["tools"][0];
    let property = property_of_flag(zoeken, "--type");
    let soort = &zoeken["inputSchema"]["properties"][property.as_str()];
    assert_eq!(soort["type"], "array", "{soort}");
    let allowed = soort["items"]["enum"].as_array().expect("enum of items");
    assert_eq!(allowed.len(), 3, "{soort}");
    let pagina = &zoeken["inputSchema"]["properties"]["pagina"];
    assert_eq!(
        (pagina["minimum"].as_u64(), pagina["maximum"].as_u64()),
        (Some(1), Some(1000))
    );
    let get = &document["tools"][1];
    assert_eq!(
        get["inputSchema"]["properties"]["geo"]["type"], "boolean",
        "DISC-9: a flag is a boolean"
    );
    assert_eq!(
        get["inputSchema"]["properties"]["kvk_nummer"]["pattern"], "^[0-9]{8}$",
        "DISC-9: the validation pattern"
    );
    let text = document.to_string().to_lowercase();
    assert!(!text.contains("\"api_key\""), "SEC-1");
}

/// DISC-8, MUT-4: every property is named after its long flag (`--type` → `type`), so the
/// plan's `arguments` (which say `type`) use the inputSchema's names.
#[test]
fn disc_8_property_names_are_the_long_flags() {
    for entry in discovery()["tools"].as_array().expect("tools") {
        let flags = entry["_meta"]["flags"].as_object().expect("flags");
        for (property, flag) in flags {
            assert_eq!(
                flag.as_str().expect("flag"),
                format!("--{}", property.replace('_', "-")),
                "{}",
                entry["name"]
            );
        }
    }
}

/// The inputSchema property that `_meta.flags` maps to `flag`.
fn property_of_flag(entry: &Value, flag: &str) -> String {
    entry["_meta"]["flags"]
        .as_object()
        .expect("flags")
        .iter()
        .find(|(_, f)| *f == flag)
        .map(|(p, _)| p.clone())
        .unwrap_or_else(|| panic!("no property for {flag}"))
}

/// DISC-18: every global option of §3.3 is listed.
#[test]
fn disc_18_global_options_are_listed() {
    let document = discovery();
    let names: BTreeSet<&str> = document["global_options"]
        .as_array()
        .expect("global_options")
        .iter()
        .map(|o| o["name"].as_str().expect("name"))
        .collect();
    for option in [
        "--output",
        "--fields",
        "--provenance",
        "--dry-run",
        "--confirm",
        "--timeout",
        "--audit-log",
        "--no-color",
        "--quiet",
    ] {
        assert!(names.contains(option), "{option} missing from {names:?}");
    }
}

/// NET-1: the default deadline of the source is documented as the `default` of `--timeout`.
#[test]
fn net_1_timeout_default_is_documented() {
    let document = discovery();
    let timeout = document["global_options"]
        .as_array()
        .expect("global_options")
        .iter()
        .find(|o| o["name"] == "--timeout")
        .expect("--timeout listed")
        .clone();
    assert_eq!(timeout["default"], "10", "{timeout}");
}

/// DISC-20: plain `--help` is human help, not JSON; it names the commands.
#[test]
fn disc_20_plain_help_is_text() {
    let sandbox = Sandbox::new();
    let help = run(sandbox.bare(), ["--help"]);
    assert_eq!(help.code, 0);
    assert!(serde_json::from_str::<Value>(&help.stdout).is_err());
    assert!(help.stdout.contains("Gebruik:"), "{}", help.stdout);
    assert!(help.stdout.contains("basisprofiel"), "{}", help.stdout);
    let sub = run(sandbox.bare(), ["basisprofiel", "toon", "--help"]);
    assert_eq!(sub.code, 0);
    assert!(serde_json::from_str::<Value>(&sub.stdout).is_err());
    assert!(sub.stdout.contains("--geo"), "{}", sub.stdout);
    assert!(!sandbox.audit_log().exists());
}

/// DISC-4, CONV-1: `--version` prints `<program> <version>` and matches discovery.
#[test]
fn conv_1_version_matches_discovery() {
    let sandbox = Sandbox::new();
    let version = run(sandbox.bare(), ["--version"]);
    assert_eq!(version.code, 0);
    let expected = format!("kvk-cli {}\n", discovery()["version"].as_str().expect("v"));
    assert_eq!(version.stdout, expected);
    assert_eq!(
        version.stdout.trim_end(),
        format!("kvk-cli {}", env!("CARGO_PKG_VERSION"))
    );
}

/// DISC-20: kvk-cli only reads, so no help of it names `--confirm`, not even in the exit-code
/// table (80 and 81 are codes only a mutation gives); discovery keeps the whole table (DISC-5).
#[test]
fn disc_20_a_read_only_tool_never_shows_confirm() {
    let sandbox = Sandbox::new();
    for args in [&["--help"][..], &["zoek", "--help"]] {
        let text = run(sandbox.bare(), args).stdout;
        assert!(text.contains("Gebruik"), "{args:?}: {text}");
        assert!(!text.contains("confirm"), "{args:?}: {text}");
    }
}

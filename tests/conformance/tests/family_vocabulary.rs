//! One vocabulary across the family (rule CONV-5, spec §15.1): the four tools' discovery
//! documents use the settled verbs and paging options and no retired spelling, the retired
//! spellings still work as hidden aliases with the same JSON as the new ones, and they show up
//! in no discovery, help or completion script.
//!
//! Runs the real binaries of this build (`cargo build -p kvk-cli -p koop-cli -p rvo-cli -p
//! regelrecht-cli` before `cargo test -p profile-check`; `cargo test --workspace` builds them):
//! a missing binary fails the test, naming the build command.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

/// The family's programs (`cargo metadata`: every `*-cli` package with a program).
fn tools() -> impl Iterator<Item = &'static str> {
    test_support::cli::programs().iter().map(String::as_str)
}

/// Words no command path and no option may use: English verbs and the Dutch infinitives the
/// imperative stems replaced.
const RETIRED_WORDS: [&str; 10] = [
    "get", "list", "show", "search", "find", "fetch", "zoeken", "tonen", "ophalen", "lijsten",
];

/// Option names for paging other than `--pagina`/`--per-pagina`.
const RETIRED_PAGING: [&str; 6] = ["start", "max", "page", "limit", "offset", "per_page"];

/// The verbs of §15.1. A leaf that is not one of them must be a noun (a part of the thing) or
/// the separable verb `indienen`; this list is the review point for a new one.
const NOUN_LEAVES: [&str; 14] = [
    "eigenaar",
    "hoofdvestiging",
    "vestigingen",
    "artikel",
    "versies",
    "indienen",
    "status",
    "notities",
    "scenario",
    "energiebesparing",
    "concept",
    "regelingen",
    "evalueer",
    "voorstel",
];
const VERBS: [&str; 5] = ["zoek", "toon", "lijst", "controleer", "valideer"];

/// The directory of this build's binaries (this test runs as `target/<profile>/deps/…`).
fn binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its own path");
    let path = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("the test runs from target/<profile>/deps")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "{name} is missing at {}: build it first with `cargo build -p {name}` \
         (or run `cargo test --workspace`)",
        path.display()
    );
    path
}

/// Run `tool` with `args` in an empty environment (audit log in a temporary directory).
fn run(tool: &str, args: &[&str]) -> Output {
    let dir = tempfile::tempdir().expect("temporary directory");
    Command::new(binary(tool))
        .args(args)
        .env_clear()
        .env("HOME", dir.path())
        .env("XDG_STATE_HOME", dir.path())
        .env("XDG_DATA_HOME", dir.path())
        .env("XDG_CACHE_HOME", dir.path())
        .output()
        .expect("the tool runs")
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON on stdout ({e}); exit {:?}, stderr {}",
            output.status.code(),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

fn discovery(tool: &str) -> Value {
    let output = run(tool, &["--help", "--json"]);
    assert!(output.status.success(), "{tool} --help --json");
    json(&output)
}

#[test]
fn every_command_uses_the_settled_words() {
    for tool in tools() {
        for entry in discovery(tool)["tools"].as_array().expect("tools") {
            let argv = test_support::cli::argv_of(entry);
            for word in &argv {
                assert!(
                    !RETIRED_WORDS.contains(word),
                    "{tool} {argv:?}: `{word}` is a retired spelling (spec §15.1)"
                );
            }
            let leaf = argv.last().expect("a command path");
            assert!(
                VERBS.contains(leaf) || NOUN_LEAVES.contains(leaf),
                "{tool} {argv:?}: `{leaf}` is neither a verb of §15.1 nor a known noun; \
                 choose a settled word or add it to this test after review"
            );
            let properties = entry["inputSchema"]["properties"]
                .as_object()
                .expect("properties");
            for name in properties.keys() {
                assert!(
                    !RETIRED_PAGING.contains(&name.as_str())
                        && !RETIRED_WORDS.contains(&name.as_str()),
                    "{tool} {argv:?}: option `{name}` is a retired spelling"
                );
            }
            let pages = properties.contains_key("pagina") || properties.contains_key("per_pagina");
            if pages {
                for name in ["pagina", "per_pagina", "alles"] {
                    assert!(
                        properties.contains_key(name),
                        "{tool} {argv:?} pages but has no --{}",
                        name.replace('_', "-")
                    );
                }
                assert_eq!(properties["per_pagina"]["maximum"], 100, "{tool} {argv:?}");
                assert_eq!(properties["pagina"]["minimum"], 1, "{tool} {argv:?}");
            }
            // Examples are in the command's full entry (`<command> --help --json`, DISC-1).
            let full = json(&run(tool, &test_support::cli::full_entry_words(entry)));
            for example in full["_meta"]["examples"].as_array().expect("examples") {
                for word in example.as_array().expect("example argv") {
                    let word = word.as_str().expect("word");
                    let flag = word.trim_start_matches("--");
                    assert!(
                        !(RETIRED_WORDS.contains(&word)
                            || word.starts_with("--") && RETIRED_PAGING.contains(&flag)),
                        "{tool} example {example}: `{word}` is a retired spelling"
                    );
                }
            }
        }
    }
}

/// `(tool, old spelling, new spelling)`: the hidden aliases of §15.1, as dry runs.
const ALIASES: &[(&str, &[&str], &[&str])] = &[
    (
        "kvk-cli",
        &["zoeken", "--naam", "Donald"],
        &["zoek", "--naam", "Donald"],
    ),
    (
        "kvk-cli",
        &["basisprofiel", "get", "68750110"],
        &["basisprofiel", "toon", "68750110"],
    ),
    (
        "kvk-cli",
        &["vestigingsprofiel", "get", "000037178598"],
        &["vestigingsprofiel", "toon", "000037178598"],
    ),
    (
        "kvk-cli",
        &["naamgeving", "get", "68750110"],
        &["naamgeving", "toon", "68750110"],
    ),
    (
        "koop-cli",
        &[
            "regeling",
            "get",
            "BWBR0018451",
            "--peildatum",
            "2025-01-01",
        ],
        &[
            "regeling",
            "toon",
            "BWBR0018451",
            "--peildatum",
            "2025-01-01",
        ],
    ),
    (
        "koop-cli",
        &[
            "regeling",
            "zoek",
            "wet",
            "--peildatum",
            "2025-01-01",
            "--start",
            "21",
            "--max",
            "10",
        ],
        &[
            "regeling",
            "zoek",
            "wet",
            "--peildatum",
            "2025-01-01",
            "--pagina",
            "3",
            "--per-pagina",
            "10",
        ],
    ),
    (
        "rvo-cli",
        &["regeling", "get", "EBR-2027", "--peildatum", "2026-06-01"],
        &["regeling", "toon", "EBR-2027", "--peildatum", "2026-06-01"],
    ),
];

/// A plan without what differs per run (the trace id in `traceparent`).
fn comparable(mut plan: Value) -> Value {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(object) => {
                object.remove("traceparent");
                object.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut plan);
    plan
}

fn same_json_for_old_and_new(tool: &str) {
    let mut tried = 0;
    for (_, old, new) in ALIASES.iter().filter(|(t, _, _)| *t == tool) {
        let with = |words: &[&str]| {
            let mut args = words.to_vec();
            args.push("--dry-run");
            let output = run(tool, &args);
            assert_eq!(output.status.code(), Some(0), "{tool} {args:?}: {output:?}");
            comparable(json(&output))
        };
        let (was, is) = (with(old), with(new));
        assert_eq!(was, is, "{tool}: {old:?} and {new:?} differ");
        let command = was["command"].as_str().expect("command");
        assert!(
            command.starts_with(&format!("{tool} {}", new[0]))
                && !command.split(' ').any(|w| RETIRED_WORDS.contains(&w)),
            "{tool}: the plan names `{command}`, not the new spelling"
        );
        tried += 1;
    }
    assert!(tried > 0, "{tool} has aliases to try");
}

#[test]
fn kvk_old_spellings_give_the_same_json() {
    same_json_for_old_and_new("kvk-cli");
}

#[test]
fn koop_old_spellings_give_the_same_json() {
    same_json_for_old_and_new("koop-cli");
}

#[test]
fn rvo_old_spellings_give_the_same_json() {
    same_json_for_old_and_new("rvo-cli");
}

#[test]
fn old_and_new_paging_options_do_not_mix() {
    for extra in [["--pagina", "2"], ["--per-pagina", "5"]] {
        let mut args = vec!["regeling", "zoek", "wet", "--start", "11", "--dry-run"];
        args.extend(extra);
        let output = run("koop-cli", &args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
    let output = run(
        "koop-cli",
        &[
            "regeling",
            "zoek",
            "wet",
            "--max",
            "5",
            "--alles",
            "--dry-run",
        ],
    );
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn retired_spellings_are_hidden_from_help_and_completions() {
    let hidden = [
        ("kvk-cli", vec![], vec!["zoeken"]),
        ("kvk-cli", vec!["basisprofiel"], vec!["get"]),
        ("koop-cli", vec!["regeling"], vec!["get"]),
        (
            "koop-cli",
            vec!["regeling", "zoek"],
            vec!["--start", "--max"],
        ),
        ("rvo-cli", vec!["regeling"], vec!["get"]),
    ];
    for (tool, path, words) in hidden {
        let mut args = path.clone();
        args.push("--help");
        let help = String::from_utf8(run(tool, &args).stdout).expect("UTF-8");
        for word in &words {
            let listed = help
                .lines()
                .any(|line| line.split_whitespace().next() == Some(*word));
            assert!(!listed, "{tool} {path:?} --help lists {word}:\n{help}");
        }
        for shell in ["bash", "zsh", "fish"] {
            let script =
                String::from_utf8(run(tool, &["completions", shell]).stdout).expect("UTF-8");
            for word in &words {
                let bare = word.trim_start_matches('-');
                let found = script
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
                    .any(|token| token == *word)
                    || (word.starts_with("--") && script.contains(&format!("-l {bare} ")));
                assert!(!found, "{tool} completions {shell} offer {word}");
            }
        }
    }
}

/// The family says "u", never "je" (issue 29): in every tool's discovery, help and man page.
#[test]
fn the_family_says_u_never_je() {
    let informal = |text: &str| {
        text.split(|c: char| !c.is_alphanumeric())
            .any(|w| matches!(w, "je" | "jij" | "jou" | "jouw" | "Je" | "Jij" | "Jouw"))
    };
    for tool in tools() {
        for args in [&["--help", "--json"][..], &["--help"], &["man"]] {
            let output = run(tool, args);
            let text = String::from_utf8_lossy(&output.stdout);
            assert!(!informal(&text), "{tool} {args:?} says 'je'");
        }
    }
}

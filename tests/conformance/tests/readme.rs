//! The README's "first five minutes" stays true: every command it shows for the family's tools
//! runs, offline, against `fake-upstream` as the README starts it, and exits 0 with output.
//!
//! Runs the real binaries of this build, like `family_vocabulary.rs` (`cargo test --workspace`
//! builds them).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

const PROGRAMS: [&str; 5] = [
    "kvk-cli",
    "koop-cli",
    "rvo-cli",
    "regelrecht-cli",
    "overheid-mcp",
];

/// This build's binary `name` (the test runs as `target/<profile>/deps/…`).
fn binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its own path");
    let path = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("the test runs from target/<profile>/deps")
        .join(name);
    assert!(
        path.is_file(),
        "{name} is missing at {}: run `cargo test --workspace`",
        path.display()
    );
    path
}

/// The shell lines of the code blocks of the README section `heading`.
fn code_lines(readme: &str, heading: &str) -> Vec<String> {
    let start = readme
        .find(&format!("\n## {heading}\n"))
        .unwrap_or_else(|| panic!("README has no section {heading:?}"));
    let rest = &readme[start + heading.len() + 5..];
    let section = &rest[..rest.find("\n## ").unwrap_or(rest.len())];
    let mut lines = Vec::new();
    let mut in_code = false;
    for line in section.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if in_code {
            lines.push(line.to_string());
        }
    }
    lines
}

/// `line` as words, as a POSIX shell splits it: blanks separate, single quotes keep, a `#` after
/// a blank starts a comment.
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                word.get_or_insert_with(String::new);
            }
            c if c.is_whitespace() && !quoted => words.extend(word.take()),
            '#' if !quoted && word.is_none() => break,
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// `fake-upstream` on a free port, and the variables it prints for a shell to read in.
fn fakes() -> (Child, Vec<(String, String)>) {
    let mut child = Command::new(binary("fake-upstream"))
        .args(["--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("fake-upstream starts");
    let mut vars = Vec::new();
    for line in BufReader::new(child.stdout.take().expect("stdout")).lines() {
        let line = line.expect("a line");
        if let Some((name, value)) = line.strip_prefix("export ").and_then(|l| l.split_once('=')) {
            vars.push((name.to_string(), value.to_string()));
            if name == "KOOP_REPOSITORY_URL" {
                break;
            }
        }
    }
    (child, vars)
}

#[test]
fn every_command_of_the_first_five_minutes_runs_offline() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .expect("README.md");
    let commands: Vec<Vec<String>> = code_lines(&readme, "The first five minutes")
        .iter()
        .map(|line| words(line))
        .filter(|w| w.first().is_some_and(|p| PROGRAMS.contains(&p.as_str())))
        .collect();
    assert!(
        commands.len() >= 6,
        "the section shows every tool: {commands:?}"
    );
    for program in PROGRAMS {
        assert!(
            commands.iter().any(|c| c[0] == program),
            "no example of {program}"
        );
    }
    let (mut fake, vars) = fakes();
    assert!(vars.iter().any(|(k, _)| k == "KVK_API_KEY"), "{vars:?}");
    for command in &commands {
        let home = tempfile::tempdir().expect("temporary HOME");
        let output = Command::new(binary(&command[0]))
            .args(&command[1..])
            .env_clear()
            .env("HOME", home.path())
            .env("COLUMNS", "100")
            .envs(vars.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .output()
            .expect("the command runs");
        assert!(
            output.status.success() && !output.stdout.is_empty(),
            "{command:?}: exit {:?}\n{}",
            output.status.code(),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let _ = fake.kill();
    let _ = fake.wait();
}

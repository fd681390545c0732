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

/// How far a figure the README quotes may be from the measured one, in per cent (stated in the
/// README beside the figures).
const TOLERANCE_PERCENT: f64 = 5.0;

/// The rows of the README table that starts after `marker`: first cell, then the numbers of the
/// other cells (`11,234` → 11234).
fn table_after(readme: &str, marker: &str) -> Vec<(String, Vec<f64>)> {
    let start = readme
        .find(marker)
        .unwrap_or_else(|| panic!("README has no {marker:?}"));
    readme[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            let numbers = cells[1..]
                .iter()
                .map(|c| {
                    c.replace(',', "")
                        .parse()
                        .unwrap_or_else(|_| panic!("not a number: {c:?} in {line}"))
                })
                .collect();
            (cells[0].to_string(), numbers)
        })
        .collect()
}

/// The `tools/list` response line of `overheid-mcp` over the four CLIs, after the 2025-11-25
/// handshake (as the bridge's own budget test measures it).
fn tools_list_line() -> String {
    use std::time::Duration;
    let mut command = Command::new(binary("overheid-mcp"));
    for program in &PROGRAMS[..4] {
        command.arg("--tool").arg(binary(program));
    }
    command
        .env_clear()
        .env("PATH", "/nonexistent")
        .stderr(Stdio::null());
    let mut bridge = test_support::lines::LineChild::start(command);
    let answer = Duration::from_secs(30);
    bridge.request(
        "initialize",
        serde_json::json!({"protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "readme", "version": "1"}}),
        answer,
    );
    bridge.write(&serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let line = bridge.request("tools/list", serde_json::json!({}), answer);
    bridge.close();
    line
}

/// The sizes the README quotes for what an agent reads before its first call (each tool's
/// discovery, the bridge's tool list) are the sizes of this build, in bytes and in o200k
/// tokens, within the stated tolerance.
#[test]
fn the_discovery_sizes_the_readme_quotes_are_measured() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .expect("README.md");
    assert!(
        readme.contains(&format!("within {TOLERANCE_PERCENT} %")),
        "the README states the tolerance"
    );
    let rows = table_after(&readme, "What an agent reads before its first call");
    let tokenizer = tiktoken_rs::o200k_base_singleton();
    let mut measured = Vec::new();
    let mut wrong = Vec::new();
    for (what, quoted) in &rows {
        let text = if what.contains("tools/list") {
            tools_list_line()
        } else {
            let program = what
                .trim_matches('`')
                .split_whitespace()
                .next()
                .expect("a program");
            assert!(
                what.ends_with("--help --json`"),
                "a row names a discovery: {what}"
            );
            let out = Command::new(binary(program))
                .args(["--help", "--json"])
                .env_clear()
                .output()
                .expect("discovery runs");
            assert!(out.status.success(), "{what}");
            String::from_utf8(out.stdout).expect("UTF-8")
        };
        let bytes = text.len() as f64;
        let tokens = tokenizer.encode_with_special_tokens(&text).len() as f64;
        measured.push(format!("| {what} | {bytes} | {tokens} |"));
        for (figure, actual) in quoted.iter().zip([bytes, tokens]) {
            let off = (figure - actual).abs() / actual * 100.0;
            if off > TOLERANCE_PERCENT {
                wrong.push(format!(
                    "{what}: quoted {figure}, measured {actual} ({off:.1} % off)"
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "README figures off by more than {TOLERANCE_PERCENT} %:\n{}\nmeasured now:\n{}",
        wrong.join("\n"),
        measured.join("\n")
    );
    assert!(
        rows.len() == 5 && rows.iter().any(|(w, _)| w.contains("tools/list")),
        "the four discoveries and tools/list: {rows:?}"
    );
}

/// The outputs the README quotes as "Captured on a terminal" are what the commands print on a
/// terminal of this build (`script` from util-linux; `…` stands for lines left out).
#[test]
fn the_outputs_the_readme_quotes_are_what_a_terminal_shows() {
    if Command::new("script").arg("--version").output().is_err() {
        #[allow(clippy::print_stderr, reason = "the reason for a skip")]
        {
            eprintln!("overgeslagen: script (util-linux) is niet geïnstalleerd");
        }
        return;
    }
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .expect("README.md");
    let start = readme
        .find("Captured on a terminal")
        .expect("README quotes a terminal");
    let block = readme[start..]
        .split("```text\n")
        .nth(1)
        .and_then(|b| b.split("\n```").next())
        .expect("a text block");
    let mut sessions: Vec<(String, Vec<String>)> = Vec::new();
    for line in block.lines() {
        match line.strip_prefix("$ ") {
            Some(command) => sessions.push((command.to_string(), Vec::new())),
            None => sessions
                .last_mut()
                .expect("output follows a command")
                .1
                .push(line.to_string()),
        }
    }
    assert!(sessions.len() >= 3, "{sessions:?}");
    let (mut fake, vars) = fakes();
    let bin = binary("kvk-cli");
    let path = format!("{}:/usr/bin:/bin", bin.parent().unwrap().display());
    for (command, expected) in &sessions {
        let home = tempfile::tempdir().expect("temporary HOME");
        let out = Command::new("script")
            .args(["-qec", command, "/dev/null"])
            .env_clear()
            .env("HOME", home.path())
            .env("PATH", &path)
            .env("SHELL", "/bin/sh")
            .env("TERM", "xterm-256color")
            .env("NO_COLOR", "1")
            .env("COLUMNS", "100")
            .envs(vars.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .output()
            .expect("script runs");
        let shown = String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n");
        let shown: Vec<&str> = shown.lines().map(str::trim_end).collect();
        let elided = expected.iter().any(|l| l == "…");
        let wanted: Vec<&str> = expected
            .iter()
            .map(|l| l.trim_end())
            .filter(|l| *l != "…")
            .collect();
        if elided {
            // The quoted lines appear in order, each run of them contiguous.
            let mut from = 0;
            for run in expected.split(|l| l == "…").filter(|r| !r.is_empty()) {
                let run: Vec<&str> = run.iter().map(|l| l.trim_end()).collect();
                let at = shown[from..]
                    .windows(run.len())
                    .position(|w| w == run.as_slice())
                    .unwrap_or_else(|| {
                        panic!(
                            "$ {command}\nquoted:\n{}\nshown:\n{}",
                            run.join("\n"),
                            shown.join("\n")
                        )
                    });
                from += at + run.len();
            }
        } else {
            assert_eq!(shown, wanted, "$ {command}");
        }
    }
    let _ = fake.kill();
    let _ = fake.wait();
}

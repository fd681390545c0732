//! The documents stay true. Every command the README, `GUIDE.md`, `CONTRIBUTING.md` and each
//! tool's README quote in a `sh` block runs, offline, against `fake-upstream`, and exits as its
//! comment says (0 unless `# … exit N`); the outputs `GUIDE.md` quotes as captured on a terminal
//! are what a terminal shows; the discovery sizes `bench/RESULTS.md` quotes are measured.
//!
//! Runs the real binaries of this build, like `family_vocabulary.rs` (`cargo test --workspace`
//! builds them).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// The programs the documents name: the family's (`cargo metadata`), the bridge, and
/// `profile-check` (this crate's).
fn programs() -> impl Iterator<Item = &'static str> {
    test_support::cli::programs()
        .iter()
        .map(String::as_str)
        .chain(["overheid-mcp", "profile-check"])
}

/// The documents whose `sh` blocks are run, relative to the workspace root.
const DOCUMENTS: [&str; 9] = [
    "README.md",
    "GUIDE.md",
    "CONTRIBUTING.md",
    "kvk-cli/README.md",
    "koop-cli/README.md",
    "rvo-cli/README.md",
    "regelrecht-cli/README.md",
    "overheid-mcp/README.md",
    "tests/conformance/README.md",
];

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The document at `path` below the workspace root.
fn document(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

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

/// The logical lines (a trailing `\\` joins the next) of every `sh` block of `text`, block by
/// block. Blocks of another kind (`text`, `console`, `json`) are synopses and transcripts.
fn sh_blocks(text: &str) -> Vec<Vec<String>> {
    let mut blocks = Vec::new();
    // Inside a fence: `Some(true)` for a `sh` block, `Some(false)` for another kind.
    let mut fence: Option<bool> = None;
    let mut block: Vec<String> = Vec::new();
    let mut joined = String::new();
    for line in text.lines() {
        if let Some(info) = line.strip_prefix("```") {
            match fence {
                None => fence = Some(info.trim() == "sh"),
                Some(is_sh) => {
                    if is_sh {
                        blocks.push(std::mem::take(&mut block));
                    }
                    fence = None;
                }
            }
            continue;
        }
        if fence != Some(true) {
            continue;
        }
        match line.strip_suffix('\\') {
            Some(head) => {
                joined.push_str(head);
                joined.push(' ');
            }
            None => {
                joined.push_str(line);
                block.push(std::mem::take(&mut joined));
            }
        }
    }
    blocks
}

/// The program a command line runs, if it is one of the family's: its first word after any
/// `NAME=value` assignments, or the package of `cargo run … -p PACKAGE -- …` (the README's
/// set-up command), with the line to run in its place.
fn family_command(line: &str) -> Option<(&'static str, String)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let first = words
        .iter()
        .position(|w| !(w.contains('=') && !w.starts_with('-') && !w.starts_with('\'')))?;
    if words[first] == "cargo" && words.get(first + 1) == Some(&"run") {
        let package = words.iter().position(|w| *w == "-p")? + 1;
        let program = programs().find(|p| Some(p) == words.get(package))?;
        let rest = &line[line.find(" -- ")? + 4..];
        return Some((program, format!("{program} {rest}")));
    }
    let program = programs().find(|p| *p == words[first])?;
    Some((program, line.to_string()))
}

/// The exit code a command line's comment names (`# … exit 65`), else 0.
fn expected_exit(line: &str) -> i32 {
    line.split_once(" # ")
        .and_then(|(_, comment)| {
            let words: Vec<&str> = comment.split_whitespace().collect();
            words
                .windows(2)
                .find(|w| w[0] == "exit")
                .and_then(|w| w[1].trim_end_matches([',', ';', ')', '.']).parse().ok())
        })
        .unwrap_or(0)
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

/// Every command the documents quote in a `sh` block runs here, offline, as a user's bash runs
/// it: one document at a time in a directory and `HOME` of its own, with the fakes' variables
/// read in (the README's first step), the block's earlier `export` and `mkdir` lines before it,
/// and this build's programs first on `PATH`. `fake-upstream` itself is the one started here.
#[test]
fn every_command_the_documents_quote_runs_offline() {
    let (mut fake, vars) = fakes();
    assert!(vars.iter().any(|(k, _)| k == "KVK_API_KEY"), "{vars:?}");
    let bin = binary("kvk-cli");
    let path = format!(
        "{}:/usr/bin:/bin",
        bin.parent().expect("a directory").display()
    );
    let mut ran: Vec<(&str, &str)> = Vec::new();
    let mut failed = Vec::new();
    for name in DOCUMENTS {
        let text = document(name);
        let home = tempfile::tempdir().expect("temporary HOME");
        for block in sh_blocks(&text) {
            let mut prelude = String::new();
            for line in &block {
                let trimmed = line.trim_start();
                if line.starts_with("export ") || line.starts_with("mkdir ") {
                    prelude.push_str(line);
                    prelude.push('\n');
                    continue;
                }
                if trimmed.starts_with("fake-upstream") {
                    continue;
                }
                let Some((program, command)) = family_command(line) else {
                    continue;
                };
                let wanted = expected_exit(line);
                let output = Command::new("bash")
                    .args(["-c", &format!("{prelude}{command}")])
                    .current_dir(home.path())
                    .env_clear()
                    .env("HOME", home.path())
                    .env("PATH", &path)
                    .env("COLUMNS", "100")
                    .env("PAGER", "cat")
                    .env("MANPAGER", "cat")
                    .envs(vars.iter().map(|(k, v)| (k, v)))
                    .stdin(Stdio::null())
                    .output()
                    .expect("bash runs");
                ran.push((name, program));
                if output.status.code() != Some(wanted) {
                    failed.push(format!(
                        "{name}: {line}\n  exit {:?}, expected {wanted}\n  {}",
                        output.status.code(),
                        String::from_utf8_lossy(&output.stderr).trim()
                    ));
                }
            }
        }
    }
    let _ = fake.kill();
    let _ = fake.wait();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    for program in programs() {
        assert!(
            ran.iter()
                .any(|(doc, p)| *doc == "README.md" && *p == program),
            "the README shows {program} in a sh block: {ran:?}"
        );
    }
    for name in ["kvk-cli/README.md", "koop-cli/README.md", "GUIDE.md"] {
        assert!(
            ran.iter().filter(|(doc, _)| *doc == name).count() >= 3,
            "{name}: its commands are run"
        );
    }
}

#[test]
fn the_quoted_lines_are_read_as_a_user_types_them() {
    let blocks = sh_blocks(
        "x\n```sh\nkvk-cli zoek \\\n  --naam A   # exit 65\n```\n```text\nkvk-cli X\n```\n",
    );
    assert_eq!(
        blocks,
        vec![vec!["kvk-cli zoek    --naam A   # exit 65".to_string()]]
    );
    assert_eq!(expected_exit(&blocks[0][0]), 65);
    assert_eq!(
        family_command("cargo run --release -p regelrecht-cli -- check x --provenance"),
        Some((
            "regelrecht-cli",
            "regelrecht-cli check x --provenance".to_string()
        ))
    );
    assert_eq!(
        family_command("NO_COLOR=1 koop-cli regeling zoek x").map(|c| c.0),
        Some("koop-cli")
    );
    assert_eq!(family_command("cargo test --workspace"), None);
    assert_eq!(family_command("export PATH=x"), None);
}

/// How far a figure the results quote may be from the measured one, in per cent (stated beside
/// the figures).
const TOLERANCE_PERCENT: f64 = 5.0;

/// The rows of the table that starts after `marker`: first cell, then the numbers of the
/// other cells (`11,234` → 11234).
fn table_after(readme: &str, marker: &str) -> Vec<(String, Vec<f64>)> {
    let start = readme
        .find(marker)
        .unwrap_or_else(|| panic!("no {marker:?}"));
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
    for program in test_support::cli::programs() {
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

/// The sizes `bench/RESULTS.md` quotes for what an agent reads before its first call (each tool's
/// discovery, the bridge's tool list) are the sizes of this build, in bytes and in o200k
/// tokens, within the stated tolerance.
#[test]
fn the_discovery_sizes_the_results_quote_are_measured() {
    let readme = document("bench/RESULTS.md");
    assert!(
        readme.contains(&format!("within {TOLERANCE_PERCENT} %")),
        "RESULTS states the tolerance"
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
        "figures off by more than {TOLERANCE_PERCENT} %:\n{}\nmeasured now:\n{}",
        wrong.join("\n"),
        measured.join("\n")
    );
    assert!(
        rows.len() == 5 && rows.iter().any(|(w, _)| w.contains("tools/list")),
        "the four discoveries and tools/list: {rows:?}"
    );
}

/// The outputs `GUIDE.md` quotes as "Captured on a terminal" are what the commands print on a
/// terminal of this build (`script` from util-linux; `…` stands for lines left out).
#[test]
fn the_outputs_the_guide_quotes_are_what_a_terminal_shows() {
    if !test_support::skip::program("script") {
        return;
    }
    let readme = document("GUIDE.md");
    let start = readme
        .find("Captured on a terminal")
        .expect("GUIDE.md quotes a terminal");
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

//! `bench-transports`: CLI vs MCP on scripted agent tasks, offline against `fake-upstream`.
//!
//! ```text
//! bench-transports [--bin-dir DIR] [--runs N] [--out FILE] [--tasks standaard|walkthrough] [--variants A,B]
//! bench-transports --tables results.json
//! ```
//!
//! Every task of a task list ([`tasks::TASKS`], or issue 40's [`tasks::WALKTHROUGH`] with
//! `--tasks walkthrough`) runs through every transport variant, each run in a session
//! process of its own ([`session`]). Per task × variant it reports the tokens the model would
//! read (tool definitions once per session plus every result; `o200k_base` and `cl100k_base`
//! of tiktoken-rs), their bytes, the number of calls, the median wall time of N runs, the peak
//! RSS of what ran (the largest process), and whether every answer was right. It writes a
//! JSON file and the Markdown tables next to it (`results.md`), and prints the tables. These are scripted plans, not a model's behaviour.
#![allow(clippy::print_stdout, clippy::print_stderr, reason = "a report tool")]
#![allow(
    clippy::disallowed_methods,
    reason = "a benchmark harness, not a tool of the profile"
)]

mod report;
mod session;
mod tasks;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};

use serde_json::{Value, json};

/// The variants every task runs through, in table order.
const VARIANTS: [&str; 9] = [
    "cli",
    "cli-fields",
    "cli-jq",
    "cli-state",
    "mcp-stdio",
    "mcp-stdio-fields",
    "mcp-stdio-lean",
    "mcp-stdio-once",
    "mcp-http",
];

/// The variables `fake-upstream` announces that the tools need.
const FAKE_VARIABLES: [&str; 3] = ["KVK_API_BASE", "KOOP_SRU_URL", "KOOP_REPOSITORY_URL"];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("session") {
        return run_session(&args[1..]);
    }
    if let (Some("--tables"), Some(file)) = (args.first().map(String::as_str), args.get(1)) {
        // The tables of an earlier results file, without running anything.
        let document: Value = std::fs::read_to_string(file)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default();
        print!("{}", report::tables(&document));
        return ExitCode::SUCCESS;
    }
    let mut bin_dir = PathBuf::from("target/debug");
    let mut runs = 3usize;
    let mut out = PathBuf::from("bench/transports/results.json");
    let mut list = "standaard".to_string();
    let mut chosen: Option<Vec<String>> = None;
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let value = words.next();
        match (word.as_str(), value) {
            ("--bin-dir", Some(v)) => bin_dir = PathBuf::from(v),
            ("--runs", Some(v)) => runs = v.parse().unwrap_or(runs).max(1),
            ("--out", Some(v)) => out = PathBuf::from(v),
            ("--tasks", Some(v)) if tasks::set(v).is_some() => list = v.clone(),
            ("--variants", Some(v)) => chosen = Some(v.split(',').map(str::to_string).collect()),
            _ => {
                eprintln!(
                    "gebruik: bench-transports [--bin-dir DIR] [--runs N] [--out FILE] \
                     [--tasks standaard|walkthrough] [--variants A,B]"
                );
                return ExitCode::from(2);
            }
        }
    }
    let task_list = tasks::set(&list).unwrap_or(tasks::TASKS);
    let (mut fake, env) = start_fake(&bin_dir);
    let (mut variants, notes) = available_variants(&bin_dir);
    if let Some(chosen) = &chosen {
        variants.retain(|v| chosen.iter().any(|c| c == v));
    }
    let mut rows = Vec::new();
    for (index, task) in task_list.iter().enumerate() {
        for variant in &variants {
            eprintln!("{} × {variant} ({runs}×)", task.id);
            let sessions: Vec<Value> = (0..runs)
                .map(|_| spawn_session(&bin_dir, &env, (&list, index), variant))
                .collect();
            rows.push(report::row(task, variant, &sessions));
        }
    }
    let _ = fake.kill();
    let _ = fake.wait();
    let document = json!({
        "method": "scripted call sequences (not a model): every task through every variant, \
                   against fake-upstream on 127.0.0.1; tokens = tool definitions once per session \
                   + every result the model reads; wall time = median of the runs; peak RSS = the \
                   largest process of a session (RUSAGE_CHILDREN)",
        "runs": runs,
        "tasks": list,
        "binaries": bin_dir,
        "notes": notes,
        "rows": rows,
    });
    let text = serde_json::to_string_pretty(&document).unwrap_or_default();
    if let Err(error) = std::fs::write(&out, format!("{text}\n")) {
        eprintln!("kan {} niet schrijven: {error}", out.display());
        return ExitCode::from(74);
    }
    let tables = report::tables(&document);
    let markdown = out.with_extension("md");
    if let Err(error) = std::fs::write(&markdown, &tables) {
        eprintln!("kan {} niet schrijven: {error}", markdown.display());
        return ExitCode::from(74);
    }
    print!("{tables}");
    println!(
        "\nJSON: {}; tabellen: {}",
        out.display(),
        markdown.display()
    );
    let wrong = rows.iter().filter(|r| r["correct"] != true).count();
    if wrong > 0 {
        eprintln!("{wrong} taak × variant met een fout antwoord");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// Starts `fake-upstream` and reads the variables it announces (`export NAME=value` or `NAME=value`).
fn start_fake(bin_dir: &std::path::Path) -> (std::process::Child, Vec<(String, String)>) {
    let mut fake = Command::new(bin_dir.join("fake-upstream"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("fake-upstream starts (cargo build -p test-support)");
    let stdout = fake.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines().map_while(Result::ok);
    let mut env: Vec<(String, String)> = Vec::new();
    while !FAKE_VARIABLES
        .iter()
        .all(|v| env.iter().any(|(name, _)| name == v))
    {
        let line = lines.next().expect("fake-upstream announces its variables");
        let line = line.trim().trim_start_matches("export ");
        if let Some((name, value)) = line.split_once('=') {
            env.push((name.to_string(), value.trim_matches('\'').to_string()));
        }
    }
    std::thread::spawn(move || lines.for_each(drop));
    if !env.iter().any(|(name, _)| name == "KVK_API_KEY") {
        env.push(("KVK_API_KEY".into(), "demo".into()));
    }
    (fake, env)
}

/// The variants the built binaries support, and a note for each one left out.
fn available_variants(bin_dir: &std::path::Path) -> (Vec<&'static str>, Vec<String>) {
    let discovery = Command::new(bin_dir.join("kvk-cli"))
        .args(["--help", "--json"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    let has_jq = serde_json::from_str::<Value>(&discovery).is_ok_and(|d| {
        d["global_options"]
            .as_array()
            .is_some_and(|o| o.iter().any(|o| o["name"] == "--jq"))
    });
    let bridge_help = Command::new(bin_dir.join("overheid-mcp"))
        .arg("--help")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    let mut notes = Vec::new();
    let variants = VARIANTS
        .into_iter()
        .filter(|v| *v != "cli-jq" || has_jq)
        .filter(|v| *v != "mcp-http" || bridge_help.contains("--http"))
        .collect();
    if !has_jq {
        notes.push("cli-jq overgeslagen: de CLI's hebben (nog) geen --jq in discovery".to_string());
    }
    if !bridge_help.contains("--http") {
        notes.push("mcp-http overgeslagen: overheid-mcp heeft (nog) geen --http".to_string());
    }
    (variants, notes)
}

fn spawn_session(
    bin_dir: &std::path::Path,
    env: &[(String, String)],
    (list, task): (&str, usize),
    variant: &str,
) -> Value {
    let work = tempfile::tempdir().expect("a temporary directory");
    let output = Command::new(std::env::current_exe().expect("own path"))
        .args(["session", list, &task.to_string(), variant])
        .env("BENCH_BIN_DIR", bin_dir)
        .env("BENCH_WORK", work.path())
        .env("BENCH_ENV", serde_json::to_string(env).unwrap_or_default())
        .stderr(Stdio::inherit())
        .output()
        .expect("a session runs");
    serde_json::from_slice(&output.stdout).unwrap_or_else(|_| {
        panic!(
            "session {task} {variant} gaf geen JSON: {}",
            String::from_utf8_lossy(&output.stdout)
        )
    })
}

fn run_session(args: &[String]) -> ExitCode {
    let (Some(list), Some(task), Some(variant)) = (
        args.first().and_then(|name| tasks::set(name)),
        args.get(1),
        args.get(2),
    ) else {
        return ExitCode::from(2);
    };
    let env: Vec<(String, String)> = std::env::var("BENCH_ENV")
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default();
    let setup = session::Setup {
        bin_dir: std::env::var_os("BENCH_BIN_DIR")
            .map(PathBuf::from)
            .unwrap_or_default(),
        work: std::env::var_os("BENCH_WORK")
            .map(PathBuf::from)
            .unwrap_or_default(),
        env,
    };
    let Some(task) = task.parse().ok().and_then(|index: usize| list.get(index)) else {
        return ExitCode::from(2);
    };
    println!("{}", session::run(&setup, task, variant));
    ExitCode::SUCCESS
}

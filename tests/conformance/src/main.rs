//! `profile-check`: runs the conformance checks of the CLI profile 2.0 against any program.

mod canonical;
mod checks;
mod cli;
mod invoke;
mod jcs;
mod model;
mod probe;
mod recorder;
mod report;
mod schemas;
mod session;

/// The profile version the checker tests against: `profile_version` in what it checks and says.
const PROFILE_VERSION: &str = "2.0";

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use clap::error::ErrorKind;
use serde_json::{Value, json};

use cli::{Arguments, Format};

/// Print a profile error object on stderr (or plain text on a terminal) and return `exit`.
#[allow(
    clippy::disallowed_methods,
    reason = "profile-check stands apart from common"
)]
fn fail(exit: u8, code: &str, title: &str, detail: &str) -> ExitCode {
    let mut stderr = std::io::stderr().lock();
    if stderr.is_terminal() {
        let _ = writeln!(stderr, "profile-check: {detail}");
    } else {
        let mut trace = [0u8; 16];
        let _ = getrandom::fill(&mut trace);
        let trace: String = trace.iter().map(|b| format!("{b:02x}")).collect();
        let object = json!({
            "type": format!("urn:overheid-cli:problem:{code}"), "title": title, "detail": detail,
            "code": code, "exit_code": exit, "instance": format!("urn:trace:{trace}"),
            "hint": "zie profile-check --help"
        });
        let _ = writeln!(stderr, "{object}");
    }
    ExitCode::from(exit)
}

/// The one printer of results: `text` on stdout, as is.
#[allow(clippy::print_stdout, reason = "the one printer")]
fn emit(text: &str) {
    print!("{text}");
}

fn print(value: &Value, format: Format) {
    let text = match format {
        Format::Pretty | Format::Table => serde_json::to_string_pretty(value),
        Format::Json => serde_json::to_string(value),
    }
    .unwrap_or_default();
    emit(&format!("{text}\n"));
}

/// What the session runs: the program, its environment, the examples given (and whether they
/// mutate), and the time limit (wider with `--emulated`).
fn session_config(arguments: &Arguments) -> session::Config {
    let mut examples: Vec<(Vec<String>, bool)> = arguments
        .examples
        .iter()
        .map(|e| (words(e), false))
        .collect();
    examples.extend(arguments.mutating_examples.iter().map(|e| (words(e), true)));
    session::Config {
        program: arguments.program.clone(),
        env: arguments.env.clone(),
        live: arguments.live,
        timeout: if arguments.emulated {
            arguments.timeout * session::EMULATED_SLOWDOWN
        } else {
            arguments.timeout
        },
        jobs: arguments.jobs.max(1),
        examples,
        emulated: arguments.emulated,
    }
}

/// The checks `--rule` selects, by check id or profile rule (any case); all without one.
fn selected<'a>(catalogue: &'a [checks::Check], rules: &[String]) -> Vec<&'a checks::Check> {
    catalogue
        .iter()
        .filter(|check| {
            rules.is_empty()
                || rules.iter().any(|wanted| {
                    check.id.eq_ignore_ascii_case(wanted)
                        || check
                            .rules
                            .iter()
                            .any(|rule| rule.eq_ignore_ascii_case(wanted))
                })
        })
        .collect()
}

/// The first line of clap's usage error, without its `error: `.
fn usage_detail(error: &clap::Error) -> String {
    error
        .to_string()
        .lines()
        .next()
        .unwrap_or("ongeldig gebruik")
        .trim_start_matches("error: ")
        .to_string()
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}

#[allow(
    clippy::disallowed_methods,
    reason = "profile-check stands apart from common"
)]
fn main() -> ExitCode {
    let raw: Vec<String> = std::env::args().collect();
    if raw.iter().any(|a| a == "--json")
        && raw.iter().any(|a| a == "--help")
        && !raw.iter().any(|a| a == "--")
    {
        print(&cli::discovery(), Format::Json);
        return ExitCode::SUCCESS;
    }
    let arguments = match Arguments::try_parse() {
        Ok(arguments) => arguments,
        Err(error)
            if matches!(
                error.kind(),
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
            ) =>
        {
            let _ = error.print();
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            return fail(
                2,
                "ONGELDIG_GEBRUIK",
                "Ongeldig gebruik",
                &usage_detail(&error),
            );
        }
    };
    let format = arguments
        .output
        .unwrap_or(if std::io::stdout().is_terminal() {
            Format::Table
        } else {
            Format::Json
        });
    let catalogue = checks::catalogue();
    let selected = selected(&catalogue, &arguments.rules);
    if selected.is_empty() {
        return fail(
            2,
            "ONGELDIG_GEBRUIK",
            "Onbekende regel",
            &format!(
                "geen controle voor {}; zie --list-rules",
                arguments.rules.join(", ")
            ),
        );
    }
    if arguments.list_rules {
        match format {
            Format::Table => emit(&report::catalogue_table(&catalogue)),
            other => print(&report::catalogue_json(&catalogue), other),
        }
        return ExitCode::SUCCESS;
    }
    if arguments.program.is_empty() {
        return fail(
            2,
            "ONGELDIG_GEBRUIK",
            "Geen programma",
            "geef het te testen programma na --, bijv. profile-check -- kvk-cli",
        );
    }
    let config = session_config(&arguments);
    let started = Instant::now();
    let session = match session::run(&config) {
        Ok(session) => session,
        Err(detail) => return fail(70, "INTERNE_FOUT", "De checker kan niet werken", &detail),
    };
    let results: report::Results = selected
        .into_iter()
        .map(|check| (check, (check.run)(&session)))
        .collect();
    let elapsed = started.elapsed();
    match format {
        Format::Table => emit(&report::table(&session, &results, elapsed)),
        other => print(&report::json(&session, &results, elapsed), other),
    }
    if report::must_failures(&results) > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

//! Prints the JSON of a toestand XML file (whole law, or one article): a manual check of the parser
//! (exit 1 with the core error on an unusable file; the profile's exit codes are the binary's).
//!
//! `cargo run -p koop-cli --example toestand_json -- FILE [ARTIKEL]`
#![allow(clippy::print_stdout, reason = "an example")]
#![allow(clippy::print_stderr, reason = "an example")]

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("gebruik: toestand_json BESTAND [ARTIKEL]");
        return ExitCode::from(2);
    };
    let body = match std::fs::read(path) {
        Ok(body) => body,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(74);
        }
    };
    let json = match args.get(1) {
        Some(nummer) => koop_cli::toestand::extract_artikel(&body, nummer)
            .map(|a| serde_json::to_string_pretty(&a)),
        None => koop_cli::toestand::parse_toestand(&body).map(|r| serde_json::to_string_pretty(&r)),
    };
    match json {
        Ok(Ok(text)) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Ok(Err(e)) => {
            eprintln!("{e}");
            ExitCode::from(70)
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

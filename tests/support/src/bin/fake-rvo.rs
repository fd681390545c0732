//! `fake-rvo`: the fake RVO backend of contract 2.0 (`test_support::rvo`) as a standalone server,
//! for the end-to-end approval tests and the benchmarks: it files only with a person's approval
//! token issued by the identity provider it is told to trust.
//!
//! ```text
//! fake-rvo --issuer http://127.0.0.1:PORT [--dienstsleutel-bestand FILE] [--port N]
//! ```
//!
//! Prints `export RVO_API_BASE=http://127.0.0.1:PORT/api` on stdout once it listens, then one line
//! per request on stderr (and one per filing or refusal) until it is stopped. The service
//! credential is read from a file, never from the command line.
#![allow(clippy::print_stderr, reason = "request log")]
#![allow(
    clippy::disallowed_methods,
    reason = "a test server, not a tool of the profile"
)]

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use test_support::rvo::RvoBackend;

/// Nep-RVO-backend (contract 2.0): dient alleen in met een goedkeuringstoken van een persoon.
#[derive(Parser)]
#[command(name = "fake-rvo", version)]
struct Arguments {
    /// De identiteitsprovider (issuer) waarvan de goedkeuringstokens komen.
    #[arg(long, value_name = "URL")]
    issuer: String,
    /// Bestand met de dienstsleutel die de backend ook eist (in de header Overheid-Dienstsleutel).
    #[arg(long, value_name = "BESTAND")]
    dienstsleutel_bestand: Option<std::path::PathBuf>,
}

fn main() -> ExitCode {
    let arguments = Arguments::parse();
    let service = match &arguments.dienstsleutel_bestand {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => Some(text.trim().to_string()),
            Err(error) => {
                eprintln!("fake-rvo: {}: {error}", path.display());
                return ExitCode::from(66);
            }
        },
        None => None,
    };
    let backend = RvoBackend::start(&arguments.issuer, service.as_deref());
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "export RVO_API_BASE={}", backend.base_url());
    let _ = stdout.flush();
    drop(stdout);
    let (mut filed, mut refused) = (0, 0);
    loop {
        std::thread::sleep(Duration::from_millis(100));
        let now_filed = backend.filed();
        for report in &now_filed[filed..] {
            eprintln!(
                "ingediend: {} door {} (sleutel {})",
                report.record["referentienummer"], report.approved_by, report.key
            );
        }
        filed = now_filed.len();
        let now_refused = backend.refusals();
        for why in &now_refused[refused..] {
            eprintln!("geweigerd: {why}");
        }
        refused = now_refused.len();
    }
}

//! `fake-upstream`: the test fakes as a standalone server, for benchmarks and offline use.
//!
//! Mounts every selected source under `/<name>` on a loopback port, prints the root URL
//! as a shell comment on the first line of stdout and then `export VAR=value` lines (each
//! source's URLs, and a demo key the fake accepts), so the output can be `source`d; then
//! serves until it is stopped, quietly: started in the background of a person's shell, it must
//! not write into that shell. `--log` writes each request on stderr.
#![allow(clippy::print_stderr, reason = "request log")]
#![allow(
    clippy::disallowed_methods,
    reason = "a test server, not a tool of the profile"
)]

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::ExitCode;

use clap::Parser;
use test_support::sources::{self, SOURCES};
use test_support::{FakeServer, Mounts};

/// Nep-bronnen (fictieve testgegevens) op een loopback-poort, voor benchmarks en werken zonder internet.
#[derive(Parser)]
#[command(
    name = "fake-upstream",
    version,
    after_long_help = after_help(),
    // Dutch throughout, also where clap writes its own words.
    help_template = "{before-help}{about-with-newline}\nGebruik: {usage}\n\n{all-args}{after-help}",
    override_usage = "fake-upstream [OPTIES]",
    next_help_heading = "Opties",
    disable_help_flag = true,
    disable_version_flag = true
)]
struct Arguments {
    /// Poort om op te luisteren; standaard 0: een vrije poort.
    #[arg(
        long,
        value_name = "POORT",
        default_value_t = 0,
        hide_default_value = true
    )]
    port: u16,

    /// Adres om op te luisteren, standaard 127.0.0.1; alleen loopback-adressen (127.0.0.1, ::1) zijn toegestaan.
    #[arg(long, value_name = "ADRES", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST), hide_default_value = true)]
    bind: IpAddr,

    /// Bron om te serveren (zie Bronnen hieronder), herhaalbaar; standaard alle. Elke bron staat onder /<naam>.
    #[arg(long = "source", value_name = "NAAM", value_parser = source_names(), hide_possible_values = true)]
    sources: Vec<String>,

    /// Schrijf elk verzoek op stderr (methode, pad, status, bytes); standaard stil.
    #[arg(long)]
    log: bool,

    /// Toon deze hulp.
    #[arg(short, long, action = clap::ArgAction::Help)]
    help: Option<bool>,

    /// Toon de versie.
    #[arg(short = 'V', long, action = clap::ArgAction::Version)]
    version: Option<bool>,
}

fn source_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(SOURCES.iter().map(|source| source.name))
}

fn after_help() -> String {
    let mut text = String::from("Bronnen:\n");
    for source in SOURCES {
        text.push_str(&format!(
            "  /{:<6} {} (zet {})\n",
            source.name, source.description, source.env_var
        ));
    }
    text.push_str("\nBWB-ids die expres misgaan (koop):\n");
    for (id, behaviour) in test_support::koop::SPECIAL_IDS {
        text.push_str(&format!("  {id}  {behaviour}\n"));
    }
    text.push_str("\nKvK-nummers die expres misgaan:\n");
    for (number, behaviour) in test_support::kvk::special::SPECIAL_NUMBERS {
        text.push_str(&format!("  {number}  {behaviour}\n"));
    }
    text.push_str(
        "\nVoorbeeld (de uitvoer is shell: export-regels met de URL's en een demosleutel):\n  \
         fake-upstream > /tmp/nep.env &\n  \
         sleep 0.2; . /tmp/nep.env\n  \
         kvk-cli basisprofiel toon 68750110\n",
    );
    text
}

fn main() -> ExitCode {
    let arguments = Arguments::parse();
    let selected: Vec<&sources::Source> = if arguments.sources.is_empty() {
        SOURCES.iter().collect()
    } else {
        arguments
            .sources
            .iter()
            .filter_map(|name| sources::source(name))
            .collect()
    };
    let mounts = selected.iter().fold(Mounts::new(), |mounts, source| {
        mounts.mount(source.name, source.router)
    });
    let log = arguments.log;
    let handler = move |request: &test_support::RecordedRequest| {
        let reply = mounts.route(request);
        if !log {
            return reply;
        }
        eprintln!(
            "{} {} -> {} ({} B)",
            request.method,
            request.raw_url,
            reply.status_code(),
            reply.body_bytes().len()
        );
        reply
    };
    let address = SocketAddr::new(arguments.bind, arguments.port);
    let server = match FakeServer::bind(address, handler) {
        Ok(server) => server,
        Err(error) => {
            eprintln!("fake-upstream: kan niet luisteren op {address}: {error}");
            return ExitCode::from(if arguments.bind.is_loopback() { 69 } else { 2 });
        }
    };
    let root = server.base_url();
    // One write of the whole announcement: a reader that stops after the line it
    // needs (and closes the pipe) can never make a later line fail.
    // Shell: a comment with the root URL, then `export` lines to `source` or `eval`.
    let mut announcement = format!("# {root}\n");
    for source in &selected {
        let name = source.name;
        announcement.push_str(&format!("export {}={root}/{name}\n", source.env_var));
        for (variable, path) in source.more_env {
            announcement.push_str(&format!("export {variable}={root}/{name}{path}\n"));
        }
        for (variable, value) in source.demo_env {
            announcement.push_str(&format!("export {variable}={value}\n"));
        }
    }
    let mut stdout = std::io::stdout().lock();
    if let Err(error) = stdout
        .write_all(announcement.as_bytes())
        .and_then(|()| stdout.flush())
    {
        // Nobody reads the announcement any more; keep serving those who use it.
        eprintln!("fake-upstream: kan niet naar stdout schrijven: {error}");
    }
    drop(stdout);
    loop {
        std::thread::park();
    }
}

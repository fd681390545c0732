//! `overheid-mcp`: one MCP server (stdio, JSON-RPC 2.0) for every CLI of the overheid-CLI profile.
//!
//! Everything it serves comes from the CLIs' own discovery (`<cli> --help --json`), read
//! once at start; each tool call runs the CLI as a child with `--output json --provenance`.
//! Nothing about a particular tool is written here.

mod argv;
mod bridge;
mod call;
mod catalog;
mod child;
mod discover;
mod env;
mod frame;
mod local_paths;
mod options;
mod problem;
mod resource;
mod rpc;
mod server;
mod stdin_value;
mod template;

use std::ffi::OsString;
use std::io::{self, BufReader};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use common::exit::ExitStatus;

use crate::bridge::Bridge;
use crate::catalog::Catalog;
use crate::options::Request;

const HELP: &str = "\
overheid-mcp: één MCP-server (stdio) voor de overheid-CLI's

Gebruik: overheid-mcp [--tool PAD_OF_NAAM]... [--timeout SECONDEN] [--allow-local-paths]

Elke tool van elke CLI wordt een MCP-tool <bron>__<opdracht> (kvk__basisprofiel_get),
opgebouwd uit de eigen discovery van de CLI (<cli> --help --json). Een aanroep draait de
CLI met --output json --provenance; de herkomst staat in _meta.\"nl.overheid/provenance\".

Opties:
  --tool PAD_OF_NAAM   CLI om te serveren, herhaalbaar. Een naam zonder / wordt gezocht
                       naast overheid-mcp en daarna op PATH. Standaard: kvk-cli, koop-cli,
                       rvo-cli en regelrecht-cli (ontbrekende worden met een waarschuwing
                       overgeslagen).
  --timeout SECONDEN   tijdslimiet per aanroep; daarna wordt de procesgroep gestopt
                       (standaard 60)
  --allow-local-paths  argumenten die een lokaal bestand of een lokale map noemen
                       (\"format\": \"path\" in discovery) ook aanbieden; standaard laat de
                       brug ze weg, zodat een model geen lokale bestanden kan laten lezen
  -h, --help           deze hulp
  -V, --version        versie

Omgeving: een CLI krijgt alleen de variabelen die hij zelf in discovery noemt (env), plus
PATH, HOME, LANG, LC_*, TZ, TMPDIR, SSL_CERT_FILE en SSL_CERT_DIR. TRACEPARENT zet de brug
per aanroep zelf, zodat de MCP-aanroep en het auditrecord van de CLI één trace delen.

Configuratie in een MCP-host:
  {\"mcpServers\": {\"overheid\": {\"command\": \"overheid-mcp\",
                                \"env\": {\"KVK_API_KEY\": \"...\"}}}}
";

#[allow(clippy::print_stdout, reason = "help and version")]
#[allow(clippy::print_stderr, reason = "start-up errors")]
fn main() -> ExitCode {
    let options = match options::parse(std::env::args_os().skip(1)) {
        Ok(Request::Serve(options)) => options,
        Ok(Request::Help) => {
            print!("{HELP}");
            return exit(ExitStatus::Ok);
        }
        Ok(Request::Version) => {
            println!("overheid-mcp {}", env!("CARGO_PKG_VERSION"));
            return exit(ExitStatus::Ok);
        }
        Err(message) => {
            eprintln!("overheid-mcp: {message}\nZie overheid-mcp --help.");
            return exit(ExitStatus::Usage);
        }
    };
    let catalog = match load(&options.tools, options.allow_local_paths) {
        Ok(catalog) => catalog,
        Err(message) => {
            eprintln!("overheid-mcp: {message}");
            return exit(ExitStatus::Config);
        }
    };
    let bridge = Arc::new(Bridge::new(catalog, options.timeout));
    let outbox = rpc::Outbox::new(Box::new(io::stdout()));
    server::serve(bridge, BufReader::new(io::stdin()), outbox);
    exit(ExitStatus::Ok)
}

/// The process exit code of a profile status (EXIT-1).
fn exit(status: ExitStatus) -> ExitCode {
    ExitCode::from(status.code())
}

/// Find the CLIs and read their discovery. A `--tool` that fails is fatal; a missing default is a warning.
#[allow(clippy::print_stderr, reason = "start-up warnings")]
fn load(requested: &[OsString], allow_local_paths: bool) -> Result<Catalog, String> {
    let explicit = !requested.is_empty();
    let names: Vec<OsString> = if explicit {
        requested.to_vec()
    } else {
        discover::DEFAULT_TOOLS.iter().map(OsString::from).collect()
    };
    let mut programs = Vec::new();
    for name in &names {
        let shown = Path::new(name).display();
        match discover::locate(name) {
            Some(path) => programs.push(path),
            None if explicit => {
                return Err(format!(
                    "{shown} niet gevonden (naast overheid-mcp of op PATH)"
                ));
            }
            None => eprintln!(
                "overheid-mcp: waarschuwing: {shown} niet gevonden naast overheid-mcp of op PATH; overgeslagen"
            ),
        }
    }
    let mut catalog = Catalog::new(allow_local_paths);
    for (program, discovery) in programs.iter().zip(discover::read_all(&programs)) {
        match discovery {
            Ok(document) => {
                for warning in catalog.add(program.clone(), &document) {
                    eprintln!("overheid-mcp: waarschuwing: {warning}");
                }
            }
            Err(message) if explicit => return Err(message),
            Err(message) => eprintln!("overheid-mcp: waarschuwing: {message}; overgeslagen"),
        }
    }
    if catalog.sources.is_empty() {
        return Err("geen enkele CLI gevonden; geef er een met --tool".to_string());
    }
    Ok(catalog)
}

//! `overheid-mcp`: one MCP server (stdio, JSON-RPC 2.0) for every CLI of the overheid-CLI profile.
//!
//! Everything it serves comes from the CLIs' own discovery (`<cli> --help --json`), read
//! once at start; each tool call runs the CLI as a child with `--output json --provenance`.
//! Nothing about a particular tool is written here.

mod approval;
mod calls;
mod catalog;
mod env;
mod http;
mod identity;
mod mcp;
mod options;
mod problem;
mod proposals;
mod shape;
mod transport;

use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use common::exit::ExitStatus;

use crate::approval::request_state::Approval;
use crate::calls::bridge::Bridge;
use crate::catalog::Catalog;
use crate::identity::session::Session;
use crate::options::{Options, Request};
use crate::proposals::ApprovalAt;
use crate::transport::Transport;

const HELP: &str = "\
overheid-mcp: één MCP-server voor de overheid-CLI's (stdio of HTTP)

Gebruik: overheid-mcp [--tool PAD_OF_NAAM]... [--toolsets BRONNEN] [--read-only]
                      [--timeout SECONDEN] [--allow-local-paths]
                      [--session-from-meta] [--max-result-bytes BYTES]
                      [--goedkeuring-url URL]
         overheid-mcp --http ADRES:POORT (--auth-jwks BESTAND --auth-issuer ISS
                      --auth-audience AUD [--auth-kvk-claim CLAIM]
                      [--auth-companies-claim CLAIM] | --insecure-no-auth)
                      [--max-calls N] [--max-calls-per-principal N]
                      [--allowed-origin ORIGIN]... [--allowed-host HOST]...
                      [--public-url URL] [--tool ...]

Elke tool van elke CLI wordt een MCP-tool <bron>__<opdracht> (kvk__basisprofiel_toon),
opgebouwd uit de eigen discovery van de CLI (<cli> --help --json). Een aanroep draait de
CLI met --output json --provenance; de herkomst staat in _meta.\"nl.overheid/provenance\".
MCP 2026-07-28 (zonder handshake) en 2025-11-25 (met initialize) worden allebei bediend.

Opties:
  --tool PAD_OF_NAAM   CLI om te serveren, herhaalbaar. Een naam zonder / wordt gezocht
                       naast overheid-mcp en daarna op PATH. Standaard de CLI's van de
                       familie: {standaard} (ontbrekende worden met een
                       waarschuwing overgeslagen).
  --toolsets BRONNEN   alleen deze bronnen serveren, bijv. kvk,koop (de voorvoegsels van de
                       toolnamen); een CLI die een geserveerde tool als kind draait, krijgt
                       zijn variabelen nog steeds. Een onbekende bron: de server start niet
  --read-only          geen tool die iets verandert (voorstellen, indienen) tonen of
                       uitvoeren
  --timeout SECONDEN   tijdslimiet per aanroep; daarna wordt de procesgroep gestopt
                       (standaard 50)
  --max-result-bytes N hoogstens zoveel bytes data per resultaat (standaard 65536); een
                       groter resultaat wordt een fout ANTWOORD_TE_GROOT die zegt hoe het
                       kleiner kan (fields, een smallere tool, pagina's)
  --allow-local-paths  argumenten die een lokaal bestand of een lokale map noemen
                       (\"format\": \"path\" in discovery) ook aanbieden; standaard laat de
                       brug ze weg, zodat een model geen lokale bestanden kan laten lezen
  --session-from-meta  (stdio) de host geeft per aanroep het bedrijf in
                       _meta.\"nl.overheid/sessie\"; sessiegebonden argumenten worden dan
                       nooit aan het model getoond
  --goedkeuring-url URL
                       goedkeuringspagina (…/voorstellen van een overheid-mcp --http met
                       dezelfde opslag) waarnaar de link van een wachtend voorstel wijst;
                       zonder noemt het antwoord de opdracht die de persoon in een terminal
                       uitvoert (<cli> voorstel goedkeuren ID)
  --http ADRES:POORT   Streamable HTTP op /mcp in plaats van stdio, zonder sessies
  --auth-jwks BESTAND  JWKS waarmee bearer-tokens worden gecontroleerd (verplicht bij --http)
  --auth-issuer ISS    verwachte iss van het token
  --auth-audience AUD  verwachte aud van het token
  --auth-kvk-claim C   claim met het KvK-nummer (standaard kvk_nummer)
  --auth-companies-claim C
                       claim met de lijst van KvK-nummers waarvoor een intermediair
                       optreedt; een aanroep noemt er een in _meta.\"nl.overheid/sessie\"
  --insecure-no-auth   geen tokens (alleen ontwikkeling, alleen op loopback)
  --max-calls N        gelijktijdige aanroepen over HTTP (standaard 16); daarboven 503
  --max-calls-per-principal N
                       gelijktijdige aanroepen van één gebruiker (token) over HTTP
                       (standaard een kwart van --max-calls, minstens 1); daarboven 429
  --allowed-origin O   toegestane Origin naast de eigen, herhaalbaar
  --allowed-host H     toegestane Host naast loopback, herhaalbaar
  --public-url URL     publieke URL van /mcp (RFC 9728 resource)
  --oidc-issuer ISS    goedkeuringspagina op /voorstellen: inloggen met OpenID Connect
                       (authorization code + PKCE) bij deze identiteitsprovider; een
                       vertrouwelijke client zet OVERHEID_MCP_OIDC_CLIENT_SECRET
  --oidc-client-id ID  client-id van de goedkeuringspagina bij die provider
  -h, --help           deze hulp
  -V, --version        versie

Omgeving: een CLI krijgt alleen de variabelen die hij zelf in discovery noemt (env), plus
PATH, HOME, LANG, LC_*, TZ, TMPDIR, SSL_CERT_FILE en SSL_CERT_DIR. TRACEPARENT zet de brug
per aanroep zelf, zodat de MCP-aanroep en het auditrecord van de CLI één trace delen, en
OVERHEID_FOREIGN_PROCESSOR: over HTTP de publieke URL (--public-url, anders http://ADRES/mcp),
over stdio de eigen waarde van de host, anders urn:overheid-mcp:stdio.
KVK_SESSIE_NUMMER komt per aanroep uit de identiteit (token, _meta) als die er is.
OVERHEID_MCP_STATE_KEY (minstens 32 bytes, gedeeld door replica's) verzegelt de
requestState van een goedkeuringsronde; zonder wordt per proces een sleutel gekozen.

Muteren: over MCP voert de brug nooit een opdracht met --confirm uit; confirm wordt geweigerd.
Een mutatie gebeurt alleen via een voorstel dat een persoon goedkeurt (na inloggen op de
goedkeuringspagina, of in een terminal); een tool met voorstel_id voert het daarna uit.

Configuratie in een MCP-host:
  {\"mcpServers\": {\"overheid\": {\"command\": \"overheid-mcp\",
                                \"env\": {\"KVK_API_KEY\": \"...\"}}}}
";

common::allocator!(jemalloc);

#[allow(clippy::print_stdout, reason = "help and version")]
#[allow(clippy::print_stderr, reason = "start-up errors")]
fn main() -> ExitCode {
    let options = match options::parse(std::env::args_os().skip(1)) {
        Ok(Request::Serve(options)) => options,
        Ok(Request::Help) => {
            // The default list has one home (`DEFAULT_TOOLS`); the help names it from there.
            print!(
                "{}",
                HELP.replace("{standaard}", &catalog::discover::DEFAULT_TOOLS.join(", "))
            );
            return exit(ExitStatus::Ok);
        }
        Ok(Request::Version) => {
            println!(
                "overheid-mcp {}",
                common::tool::shown_version(env!("CARGO_PKG_VERSION"))
            );
            return exit(ExitStatus::Ok);
        }
        Err(message) => {
            eprintln!("overheid-mcp: {message}\nZie overheid-mcp --help.");
            return exit(ExitStatus::Usage);
        }
    };
    match serve(*options) {
        Ok(()) => exit(ExitStatus::Ok),
        Err((status, message)) => {
            eprintln!("overheid-mcp: {message}");
            exit(status)
        }
    }
}

/// Load the catalogue and serve over the chosen transport until the client (stdio) or a
/// SIGTERM/SIGINT (HTTP) ends it.
#[allow(clippy::print_stderr, reason = "start-up warnings")]
fn serve(options: Options) -> Result<(), (ExitStatus, String)> {
    let config = |message: String| (ExitStatus::Config, message);
    let transport = if options.http.is_some() {
        Transport::Http
    } else {
        Transport::Stdio
    };
    let http = match &options.http {
        Some(address) => Some(http::Settings::new(address, &options).map_err(config)?),
        None => None,
    };
    let page = http.as_ref().and_then(|settings| settings.page.as_ref());
    // The operator's policy may name the organisation's page (profile §10.3).
    let policy_page = common::approval::policy::current()
        .ok()
        .and_then(|policy| policy.identity())
        .and_then(|identity| identity.page.clone());
    let approval_at = match (&options.approval_url, page, policy_page) {
        (Some(url), _, _) => ApprovalAt::Page(url.clone()),
        (None, Some(page), _) => ApprovalAt::Page(page.links()),
        (None, None, Some(page)) => ApprovalAt::Page(page),
        (None, None, None) if transport == Transport::Stdio => ApprovalAt::Terminal,
        (None, None, None) => {
            eprintln!(
                "overheid-mcp: waarschuwing: geen goedkeuringspagina (--oidc-issuer of \
                 --goedkeuring-url): een voorstel dat op een persoon wacht, noemt dan geen plek \
                 om goed te keuren, en een client op afstand krijgt nooit een terminalopdracht"
            );
            ApprovalAt::Unnamed
        }
    };
    let state_key = env::state_key();
    let (mut approval, random) = Approval::new(state_key.as_deref()).map_err(config)?;
    approval.at = approval_at;
    if random && transport == Transport::Http {
        eprintln!(
            "overheid-mcp: waarschuwing: OVERHEID_MCP_STATE_KEY is niet gezet; een willekeurige \
             sleutel per proces wordt gebruikt, dus replica's herkennen elkaars goedkeuringsvragen niet"
        );
    }
    // Over stdio without a session the model still names the company; with one (or over
    // HTTP) the bound argument is left out and filled from the identity.
    let loaded = load(&options.tools).map_err(config)?;
    let documents = served(&loaded, options.toolsets.as_deref()).map_err(config)?;
    let settings = Building {
        allow_local_paths: options.allow_local_paths,
        read_only: options.read_only,
        hide_session_args: true,
        warn: true,
    };
    let mut catalog = build(&documents, &loaded, &settings).map_err(config)?;
    let process_session = match transport {
        Transport::Http => None,
        Transport::Stdio => Session::from_process(&catalog.sources, env::own_vars()),
    };
    if transport == Transport::Stdio && process_session.is_none() && !options.session_from_meta {
        let settings = Building {
            hide_session_args: false,
            warn: false,
            ..settings
        };
        catalog = build(&documents, &loaded, &settings).map_err(config)?;
    }
    let bridge = Arc::new(Bridge::new(
        catalog,
        options.timeout,
        options.max_result_bytes,
        transport,
        approval,
        process_session,
        env::own_vars(),
    ));
    match http {
        Some(settings) => http::serve(bridge, settings).map_err(config),
        None => {
            if let Some(processor) = env::foreign_processor() {
                bridge.name_processor(processor);
            }
            mcp::stdio::serve(bridge).map_err(|e| (ExitStatus::IoErr, e))
        }
    }
}

/// The process exit code of a profile status (EXIT-1).
fn exit(status: ExitStatus) -> ExitCode {
    ExitCode::from(status.code())
}

/// Find the CLIs and read their discovery. A `--tool` that fails is fatal; a missing default is a warning.
#[allow(clippy::print_stderr, reason = "start-up warnings")]
fn load(requested: &[OsString]) -> Result<Vec<(std::path::PathBuf, serde_json::Value)>, String> {
    let explicit = !requested.is_empty();
    let names: Vec<OsString> = if explicit {
        requested.to_vec()
    } else {
        catalog::discover::DEFAULT_TOOLS
            .iter()
            .map(OsString::from)
            .collect()
    };
    let mut programs = Vec::new();
    for name in &names {
        let shown = Path::new(name).display();
        match catalog::discover::locate(name) {
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
    let mut documents = Vec::new();
    for (program, discovery) in programs.iter().zip(catalog::discover::read_all(&programs)) {
        match discovery {
            Ok(document) => documents.push((program.clone(), document)),
            Err(message) if explicit => return Err(message),
            Err(message) => eprintln!("overheid-mcp: waarschuwing: {message}; overgeslagen"),
        }
    }
    Ok(documents)
}

/// The documents of the sources `--toolsets` names (every one without it); a name that is no
/// source of the loaded CLIs stops the server, naming the sources there are.
fn served(
    loaded: &[(std::path::PathBuf, serde_json::Value)],
    toolsets: Option<&[String]>,
) -> Result<Vec<(std::path::PathBuf, serde_json::Value)>, String> {
    let prefix = |document: &serde_json::Value| {
        catalog::source_prefix(document["name"].as_str().unwrap_or_default())
    };
    let Some(sets) = toolsets else {
        return Ok(loaded.to_vec());
    };
    let known: Vec<String> = loaded.iter().map(|(_, d)| prefix(d)).collect();
    let unknown: Vec<&str> = sets
        .iter()
        .filter(|set| !known.contains(set))
        .map(String::as_str)
        .collect();
    if !unknown.is_empty() {
        return Err(format!(
            "--toolsets: onbekende bron {}; bronnen: {}",
            unknown.join(", "),
            known.join(", ")
        ));
    }
    Ok(loaded
        .iter()
        .filter(|(_, document)| sets.contains(&prefix(document)))
        .cloned()
        .collect())
}

/// How the catalogue is built from the documents.
#[derive(Clone, Copy)]
struct Building {
    allow_local_paths: bool,
    read_only: bool,
    hide_session_args: bool,
    warn: bool,
}

/// The catalogue of the discovery documents served; `family` are all documents read (the
/// served ones and the CLIs they run as children).
#[allow(clippy::print_stderr, reason = "start-up warnings")]
fn build(
    documents: &[(std::path::PathBuf, serde_json::Value)],
    family: &[(std::path::PathBuf, serde_json::Value)],
    settings: &Building,
) -> Result<Catalog, String> {
    let Building {
        allow_local_paths,
        read_only,
        hide_session_args,
        warn,
    } = *settings;
    let mut catalog = Catalog::new(allow_local_paths, hide_session_args);
    catalog.read_only = read_only;
    for (program, document) in documents {
        for warning in catalog.add(program.clone(), document) {
            if warn {
                eprintln!("overheid-mcp: waarschuwing: {warning}");
            }
        }
    }
    if catalog.sources.is_empty() {
        return Err("geen enkele CLI gevonden; geef er een met --tool".to_string());
    }
    for warning in catalog::views::add(&mut catalog) {
        if warn {
            eprintln!("overheid-mcp: waarschuwing: {warning}");
        }
    }
    catalog.disambiguate();
    for warning in catalog.pass_children_variables(family) {
        if warn {
            eprintln!("overheid-mcp: waarschuwing: {warning}");
        }
    }
    Ok(catalog)
}

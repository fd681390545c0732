//! The checker's own command line, and its discovery document (`profile-check --help --json`).

use std::time::Duration;

use clap::{ArgAction, Parser, ValueEnum};
use serde_json::{Value, json};

/// Test een opdrachtregelprogramma tegen het overheid-CLI-profiel 2.0.
///
/// Alles wat profile-check weet, komt uit `<programma> --help --json` en het profiel zelf. Elke
/// controle noemt de regel(s) uit spec/CLI-PROFILE.md en is PASS, FAIL (met bewijs) of SKIP (met reden).
/// Exit 0 als elke MUST-controle slaagt, 1 als er een faalt, 2 bij verkeerd gebruik.
#[derive(Parser, Debug)]
#[command(
    name = "profile-check",
    version = env!("PROFILE_CHECK_VERSION"),
    // Dutch throughout, also where clap writes its own words (DISC-20).
    help_template = "{before-help}{about-with-newline}\nGebruik: {usage}\n\n{all-args}{after-help}",
    override_usage = "profile-check [OPTIES] [-- <PROGRAMMA>...]",
    next_help_heading = "Opties",
    disable_help_flag = true,
    disable_version_flag = true,
    after_long_help = "Voorbeelden:\n  profile-check -- kvk-cli\n  profile-check --env KVK_API_BASE=http://127.0.0.1:8089/kvk -- kvk-cli\n  profile-check --rule MUT-2 --output json -- python3 mijn_cli.py\n  profile-check --emulated -- qemu-aarch64-static ./kvk-cli"
)]
pub(crate) struct Arguments {
    /// Zet deze variabele bij elke aanroep (herhaalbaar); een base_url-variabele van het programma zelf
    /// (bijv. naar een nepbron) zet de live-controles aan.
    #[arg(long = "env", value_name = "NAAM=WAARDE", value_parser = parse_env)]
    pub env: Vec<(String, String)>,

    /// Voer de voorbeelden uit tegen de echte bronnen (standaard-URL's of --env).
    #[arg(long)]
    pub live: bool,

    /// Alleen de controle(s) voor deze regel of controle-id (bijv. MUT-2 of mutation-refused); herhaalbaar.
    #[arg(long = "rule", value_name = "ID")]
    pub rules: Vec<String>,

    /// Uitvoerformaat: json, pretty of table; standaard table op een terminal en json daarbuiten.
    #[arg(long, value_enum, value_name = "FORMAAT", hide_possible_values = true)]
    pub output: Option<Format>,

    /// Toon de controles met hun regels en stop.
    #[arg(long)]
    pub list_rules: bool,

    /// Tijdslimiet per aanroep in seconden (standaard 10); daarna wordt de procesgroep beëindigd.
    #[arg(long, value_name = "SECONDEN", default_value = "10", value_parser = parse_seconds, hide_default_value = true)]
    pub timeout: Duration,

    /// Aantal aanroepen tegelijk (standaard 8).
    #[arg(long, value_name = "N", default_value_t = 8, hide_default_value = true)]
    pub jobs: usize,

    /// Het programma draait onder een emulator (bijv. `-- qemu-aarch64-static mijn-cli`): elke
    /// tijdslimiet is 10× ruimer (--timeout van de checker, de --timeout die de proeven het
    /// programma geven, en anders 10× zijn standaard-deadline), en de controles die wandkloktijd
    /// meten (upstream-timeout-on-time) zijn niet van toepassing: SKIP met die reden, in de
    /// samenvatting apart geteld.
    #[arg(long)]
    pub emulated: bool,

    /// Extra voorbeeldaanroep (woorden na de programmanaam) voor programma's zonder bruikbare discovery; herhaalbaar.
    #[arg(long = "example", value_name = "WOORDEN")]
    pub examples: Vec<String>,

    /// Als --example, maar voor een muterende opdracht.
    #[arg(long = "mutating-example", value_name = "WOORDEN")]
    pub mutating_examples: Vec<String>,

    /// Discovery als JSON (profiel DISC-1).
    #[arg(long)]
    pub json: bool,

    /// Het programma en zijn vaste voorvoegsel-argumenten, na `--`.
    #[arg(last = true, value_name = "PROGRAMMA", help_heading = "Argumenten")]
    pub program: Vec<String>,

    /// Toon deze hulp (met --json: de machineleesbare beschrijving).
    #[arg(short, long, action = ArgAction::Help)]
    help: Option<bool>,

    /// Toon de versie.
    #[arg(short = 'V', long, action = ArgAction::Version)]
    version: Option<bool>,
}

/// Report formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    Json,
    Pretty,
    Table,
}

fn parse_env(text: &str) -> Result<(String, String), String> {
    let (name, value) = text.split_once('=').ok_or("verwacht NAAM=WAARDE")?;
    if name.is_empty() {
        return Err("lege naam".into());
    }
    Ok((name.to_string(), value.to_string()))
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| "verwacht een aantal seconden".to_string())?;
    if !(seconds > 0.0 && seconds.is_finite()) {
        return Err("verwacht een positief aantal seconden".into());
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// `profile-check --help --json`: the checker described the way the profile describes programs.
pub(crate) fn discovery() -> Value {
    json!({
        "name": "profile-check",
        "version": env!("CARGO_PKG_VERSION"),
        "profile_version": crate::PROFILE_VERSION,
        "description": format!("Test een opdrachtregelprogramma tegen het overheid-CLI-profiel {}", crate::PROFILE_VERSION),
        "exit_codes": [
            {"code": 0, "name": "OK", "meaning": "elke MUST-controle geslaagd"},
            {"code": 1, "name": "ERROR", "meaning": "minstens één MUST-controle gefaald"},
            {"code": 2, "name": "USAGE", "meaning": "onbekende optie, geen programma of onbekende --rule"},
            {"code": 70, "name": "SOFTWARE", "meaning": "de checker zelf kon niet werken (geen poort, geen tijdelijke map)"}
        ],
        "env": [
            {"name": "PATH", "kind": "setting", "secret": false, "meaning": "doorgegeven aan het geteste programma"},
            {"name": "NO_COLOR", "kind": "setting", "secret": false, "meaning": "profile-check gebruikt nooit kleur"}
        ],
        "global_options": [
            {"name": "--output", "meaning": "json, pretty of table", "values": ["json", "pretty", "table"]}
        ],
        "tools": [{
            "name": "profile_check",
            "title": "Profielcontrole",
            "description": "Controleer een programma tegen het profiel",
            "inputSchema": {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "properties": {
                    "env": {"type": "array", "items": {"type": "string", "pattern": "^[^=]+="}},
                    "live": {"type": "boolean", "default": false},
                    "rule": {"type": "array", "items": {"type": "string"}},
                    "timeout": {"type": "number", "default": 10, "exclusiveMinimum": 0},
                    "jobs": {"type": "integer", "default": 8, "minimum": 1},
                    "emulated": {"type": "boolean", "default": false},
                    "example": {"type": "array", "items": {"type": "string"}},
                    "mutating_example": {"type": "array", "items": {"type": "string"}},
                    "program": {"type": "array", "items": {"type": "string"}, "minItems": 1}
                },
                "required": ["program"],
                "additionalProperties": false
            },
            "outputSchema": {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "properties": {
                    "program": {"type": "array"}, "name": {"type": "string"}, "version": {"type": "string"},
                    "live": {"type": "boolean"}, "emulated": {"type": "boolean"}, "duration_ms": {"type": "integer"},
                    "summary": {"type": "object"}, "checks": {"type": "array"}
                }
            },
            "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
            "_meta": {
                "argv": [],
                "positional": ["program"],
                "flags": {"env": "--env", "live": "--live", "rule": "--rule", "timeout": "--timeout", "jobs": "--jobs", "emulated": "--emulated", "example": "--example", "mutating_example": "--mutating-example"},
                "examples": [["--", "kvk-cli"]]
            }
        }]
    })
}

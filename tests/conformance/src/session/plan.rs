//! Which invocations a discovery document calls for: per program, per tool entry, per input
//! property (generated invalid values), per source behaviour, and the live round.

use std::time::Duration;

use serde_json::{Map, Value};

use crate::model::{self, Entry};
use crate::probe::Kind;
use crate::recorder::Mode;

pub(super) struct Planned {
    pub(super) kind: Kind,
    pub(super) entry: Option<usize>,
    pub(super) argv: Vec<String>,
    pub(super) mode: Mode,
    pub(super) live: bool,
    pub(super) extra_env: Vec<(String, String)>,
    pub(super) timeout: Option<Duration>,
}

impl Planned {
    pub(super) fn new(kind: Kind, entry: Option<usize>, argv: Vec<String>) -> Planned {
        Planned {
            kind,
            entry,
            argv,
            mode: Mode::Silent,
            live: false,
            extra_env: Vec::new(),
            timeout: None,
        }
    }
}

pub(super) fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|word| word.to_string()).collect()
}

/// Probes that need nothing but the discovery document; `slowdown` widens the time limits the
/// probes set (`--emulated`).
pub(super) fn plan_probes(
    discovery: &Value,
    entries: &[Entry],
    live: bool,
    slowdown: u32,
) -> Vec<Planned> {
    let mut planned: Vec<Planned> = Vec::new();
    let mut push = |p: Planned| planned.push(p);
    program_probes(&mut push);
    let has_base_url = !model::env_of_kind(discovery, "base_url").is_empty();
    let has_timeout = model::has_global_option(discovery, "--timeout");
    for (index, entry) in entries.iter().enumerate() {
        let at = Some(index);
        let mut help = entry.argv.clone();
        help.extend(strings(&["--help", "--json"]));
        let mut command_discovery = Planned::new(Kind::CommandDiscovery, at, help);
        command_discovery.entry = at;
        push(command_discovery);
        let Some(first) = entry
            .examples
            .first()
            .filter(|e| e.starts_with(&entry.argv))
        else {
            continue;
        };
        let example = |globals: &[&str]| entry.example_with(first, &strings(globals));
        for (number, other) in entry.examples.iter().enumerate() {
            push(Planned::new(
                Kind::DryRun(number),
                at,
                entry.example_with(other, &strings(&["--dry-run"])),
            ));
        }
        push(Planned::new(
            Kind::UnknownFlag,
            at,
            example(&["--profile-check-onbekend"]),
        ));
        push(Planned::new(
            Kind::DryRunProvenance,
            at,
            example(&["--dry-run", "--provenance"]),
        ));
        push(Planned::new(
            Kind::DryRunConfirm,
            at,
            example(&["--dry-run", "--confirm"]),
        ));
        push(Planned::new(
            Kind::DryRunFields("plan_digest".into()),
            at,
            example(&["--dry-run", "--fields", "plan_digest"]),
        ));
        push(Planned::new(
            Kind::FieldsUnknown,
            at,
            example(&["--fields", "profile_check_onbekend_veld"]),
        ));
        if index == 0 {
            for mode in ["json", "raw", "pretty", "profile-check-onbekend"] {
                push(Planned::new(
                    Kind::DryRunOutput(mode.into()),
                    at,
                    example(&["--dry-run", "--output", mode]),
                ));
            }
        }
        if entry.open_world && has_base_url {
            push(Planned::new(Kind::PlainHttp, at, example(&["--dry-run"])));
        }
        // A command that records a proposal is confirmed by a person's approval later, not
        // by `--confirm` (MUT-18).
        if !entry.read_only && !entry.proposes {
            push(Planned::new(Kind::MutationRefused, at, example(&[])));
            let wrong = "0".repeat(64);
            push(Planned::new(
                Kind::MutationStale(wrong.clone()),
                at,
                example(&[&format!("--confirm={wrong}")]),
            ));
        }
        if let Ok(arguments) = entry.arguments_of(first) {
            generated_probes(entry, index, &arguments, &mut push);
        }
        if entry.read_only && entry.open_world && has_base_url {
            upstream_probes(at, &example, has_timeout, slowdown, &mut push);
        }
        if live && entry.read_only {
            live_probes(entry, at, &example, &mut push);
        }
    }
    planned
}

/// The probes of the program as a whole: discovery three times (again, with an empty
/// environment, watched), help, version, completions and an unknown command.
fn program_probes(push: &mut impl FnMut(Planned)) {
    for (kind, argv) in [
        (Kind::DiscoveryAgain, &["--help", "--json"][..]),
        (Kind::DiscoveryEmptyEnv, &["--help", "--json"]),
        (Kind::DiscoveryWatched, &["--help", "--json"]),
        (Kind::Help, &["--help"]),
        (Kind::Version, &["--version"]),
        (Kind::Completions, &["completions", "bash"]),
        (Kind::UnknownCommand, &["profile-check-onbekend-commando"]),
    ] {
        push(Planned::new(kind, None, strings(argv)));
    }
}

/// The live round of a read-only entry: every example, then the first one as JSON, pretty,
/// a table with `NO_COLOR`, and with provenance.
fn live_probes(
    entry: &Entry,
    at: Option<usize>,
    example: &dyn Fn(&[&str]) -> Vec<String>,
    push: &mut impl FnMut(Planned),
) {
    for (number, other) in entry.examples.iter().enumerate() {
        let mut probe = Planned::new(Kind::Live(number), at, entry.example_with(other, &[]));
        probe.live = true;
        push(probe);
    }
    let mut live_probe = |kind: Kind, globals: &[&str], extra_env: Vec<(String, String)>| {
        let mut probe = Planned::new(kind, at, example(globals));
        probe.live = true;
        probe.extra_env = extra_env;
        push(probe);
    };
    live_probe(Kind::LiveJson, &["--output", "json"], Vec::new());
    live_probe(Kind::LivePretty, &["--output", "pretty"], Vec::new());
    live_probe(
        Kind::LiveNoColor,
        &["--output", "table"],
        vec![("NO_COLOR".into(), "1".into())],
    );
    live_probe(Kind::LiveProvenance, &["--provenance"], Vec::new());
}

/// How the recorder misbehaves for a read of each open-world tool (EXIT-4..9, NET-*).
const SOURCE_MISBEHAVIOUR: [Mode; 10] = [
    Mode::ServerError,
    Mode::Unavailable,
    Mode::RateLimited,
    Mode::Unauthorized,
    Mode::BadRequest,
    Mode::Unprocessable,
    Mode::Gone,
    Mode::Garbage,
    Mode::Stall,
    Mode::Redirect,
];

/// The entry's first example once per source misbehaviour, with `--timeout` 5 (1 against silence:
/// the deadline under test, which `slowdown` leaves as it is), times `slowdown`.
fn upstream_probes(
    at: Option<usize>,
    example: &dyn Fn(&[&str]) -> Vec<String>,
    has_timeout: bool,
    slowdown: u32,
    push: &mut impl FnMut(Planned),
) {
    for mode in SOURCE_MISBEHAVIOUR {
        let seconds = if mode == Mode::Stall {
            "1".to_string()
        } else {
            (5 * slowdown).to_string()
        };
        let argv = if has_timeout {
            example(&["--timeout", &seconds])
        } else {
            example(&[])
        };
        let mut probe = Planned::new(Kind::Upstream(mode), at, argv);
        probe.mode = mode;
        if mode == Mode::Stall {
            probe.timeout = Some(Duration::from_secs(4) * slowdown);
        }
        push(probe);
    }
}

fn generated_probes(
    entry: &Entry,
    index: usize,
    arguments: &Map<String, Value>,
    push: &mut impl FnMut(Planned),
) {
    let at = Some(index);
    for name in entry.required() {
        let mut without = arguments.clone();
        without.remove(&name);
        push(Planned::new(
            Kind::MissingRequired(name.clone()),
            at,
            entry.command_line(&without, &[]),
        ));
    }
    let properties = entry
        .input
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for (name, schema) in &properties {
        let is_array = schema.get("type").and_then(Value::as_str) == Some("array");
        let scalar = if is_array {
            schema.get("items").cloned().unwrap_or(Value::Null)
        } else {
            schema.clone()
        };
        let wrap = |value: String| {
            if is_array {
                Value::Array(vec![Value::String(value)])
            } else {
                Value::String(value)
            }
        };
        if let Some(bad) = scalar
            .get("pattern")
            .and_then(Value::as_str)
            .and_then(model::breaking_value)
        {
            let mut with = arguments.clone();
            with.insert(name.clone(), wrap(bad));
            push(Planned::new(
                Kind::BadPattern(name.clone()),
                at,
                entry.command_line(&with, &[]),
            ));
        }
        if let Some(values) = scalar.get("enum").and_then(Value::as_array) {
            let mut bad = "profile-check-ongeldig".to_string();
            while values.iter().any(|value| value.as_str() == Some(&bad)) {
                bad.push('x');
            }
            let mut with = arguments.clone();
            with.insert(name.clone(), wrap(bad));
            push(Planned::new(
                Kind::BadEnum(name.clone()),
                at,
                entry.command_line(&with, &[]),
            ));
        }
    }
}

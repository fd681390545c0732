//! One conformance run: discovery, then every probe in parallel against the recorder, then the live round.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Map, Value};

use crate::invoke::{self, Call, Outcome};
use crate::model::{self, Entry};
use crate::probe::{Kind, Probe};
use crate::recorder::{Mode, Recorded, Recorder};

/// What the user asked for.
#[derive(Clone, Debug)]
pub struct Config {
    /// The program and its prefix arguments.
    pub program: Vec<String>,
    /// `--env NAME=VALUE`, applied to every live call (and to the others, except base URLs).
    pub env: Vec<(String, String)>,
    /// `--live`: the sources answer (at their defaults or as `--env` says).
    pub live: bool,
    /// Deadline per invocation.
    pub timeout: Duration,
    /// Parallel invocations.
    pub jobs: usize,
    /// Example command lines (and whether they mutate) for programs without usable discovery.
    pub examples: Vec<(Vec<String>, bool)>,
}

/// The activity id set in every call (AUDIT-13).
pub const ACTIVITY_ID: &str = "urn:profile-check:verwerkingsactiviteit";

/// Everything the checks look at.
pub struct Session {
    pub program: Vec<String>,
    pub discovery_outcome: Outcome,
    pub discovery: Option<Value>,
    pub entries: Vec<Entry>,
    pub probes: Vec<Probe>,
    /// Requests that carried no probe prefix.
    pub stray_requests: Vec<Recorded>,
    /// The canary set in every secret variable, when there are any.
    pub canary: Option<String>,
    pub trace_id: String,
    pub parent_span_id: String,
    pub live: bool,
    pub audit_by_option: bool,
}

fn random_hex(bytes: usize) -> String {
    let mut buffer = vec![0u8; bytes];
    getrandom::fill(&mut buffer).expect("randomness");
    buffer.iter().map(|byte| format!("{byte:02x}")).collect()
}

struct Planned {
    kind: Kind,
    entry: Option<usize>,
    argv: Vec<String>,
    mode: Mode,
    live: bool,
    extra_env: Vec<(String, String)>,
    timeout: Option<Duration>,
}

impl Planned {
    fn new(kind: Kind, entry: Option<usize>, argv: Vec<String>) -> Planned {
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

struct Builder<'a> {
    config: &'a Config,
    discovery: Value,
    recorder: &'a Recorder,
    audit_dir: PathBuf,
    home: PathBuf,
    canary: Option<String>,
    traceparent: String,
    audit_by_option: bool,
}

impl Builder<'_> {
    fn audit_path(&self, index: usize) -> PathBuf {
        self.audit_dir.join(format!("{index}.jsonl"))
    }

    fn call(&self, index: usize, planned: &Planned) -> Call {
        let mut env: Vec<(String, String)> = vec![
            ("PATH".into(), std::env::var("PATH").unwrap_or_default()),
            ("HOME".into(), self.home.display().to_string()),
            (
                "XDG_STATE_HOME".into(),
                self.home.join("state").display().to_string(),
            ),
            ("OVERHEID_PROCESSING_ACTIVITY_ID".into(), ACTIVITY_ID.into()),
            ("TRACEPARENT".into(), self.traceparent.clone()),
        ];
        if matches!(planned.kind, Kind::DiscoveryEmptyEnv) {
            env.truncate(1);
        }
        let set = |env: &mut Vec<(String, String)>, name: &str, value: String| {
            env.retain(|(existing, _)| existing != name);
            env.push((name.to_string(), value));
        };
        if !matches!(planned.kind, Kind::DiscoveryEmptyEnv) {
            for (name, value) in &self.config.env {
                set(&mut env, name, value.clone());
            }
            if !planned.live {
                for name in model::env_of_kind(&self.discovery, "base_url") {
                    let url = if planned.kind == Kind::PlainHttp {
                        "http://profile-check.example.invalid/bron".to_string()
                    } else {
                        self.recorder.base_url(index, planned.mode)
                    };
                    set(&mut env, &name, url);
                }
            }
            if let Some(canary) = &self.canary {
                for name in model::env_of_kind(&self.discovery, "secret") {
                    set(&mut env, &name, canary.clone());
                }
            }
            if !self.audit_by_option
                || planned.entry.is_none()
                || planned.kind == Kind::CommandDiscovery
            {
                set(
                    &mut env,
                    "OVERHEID_AUDIT_LOG",
                    self.audit_path(index).display().to_string(),
                );
            }
            for (name, value) in &planned.extra_env {
                set(&mut env, name, value.clone());
            }
        }
        let mut argv = self.config.program.clone();
        argv.extend(planned.argv.iter().cloned());
        Call {
            argv,
            env,
            timeout: planned.timeout.unwrap_or(self.config.timeout),
        }
    }

    /// Globals every per-command probe carries: the audit destination when it is an option.
    fn globals(&self, index: usize) -> Vec<String> {
        if self.audit_by_option {
            vec![
                "--audit-log".into(),
                self.audit_path(index).display().to_string(),
            ]
        } else {
            Vec::new()
        }
    }
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|word| word.to_string()).collect()
}

/// Probes that need nothing but the discovery document.
fn plan_probes(discovery: &Value, entries: &[Entry], live: bool) -> Vec<Planned> {
    let mut planned: Vec<Planned> = Vec::new();
    let mut push = |p: Planned| planned.push(p);
    push(Planned::new(
        Kind::DiscoveryAgain,
        None,
        strings(&["--help", "--json"]),
    ));
    push(Planned::new(
        Kind::DiscoveryEmptyEnv,
        None,
        strings(&["--help", "--json"]),
    ));
    push(Planned::new(
        Kind::DiscoveryWatched,
        None,
        strings(&["--help", "--json"]),
    ));
    push(Planned::new(Kind::Help, None, strings(&["--help"])));
    push(Planned::new(Kind::Version, None, strings(&["--version"])));
    push(Planned::new(
        Kind::Completions,
        None,
        strings(&["completions", "bash"]),
    ));
    push(Planned::new(
        Kind::UnknownCommand,
        None,
        strings(&["profile-check-onbekend-commando"]),
    ));
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
        if let Some(field) = entry.output_fields().first() {
            push(Planned::new(
                Kind::DryRunFields(field.clone()),
                at,
                example(&["--dry-run", "--fields", field]),
            ));
        }
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
        if !entry.read_only {
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
            for mode in [
                Mode::ServerError,
                Mode::RateLimited,
                Mode::Unauthorized,
                Mode::BadRequest,
                Mode::Garbage,
                Mode::Stall,
                Mode::Redirect,
            ] {
                let mut globals = vec!["--timeout", "5"];
                if mode == Mode::Stall {
                    globals[1] = "1";
                }
                let argv = if has_timeout {
                    example(&globals)
                } else {
                    example(&[])
                };
                let mut probe = Planned::new(Kind::Upstream(mode), at, argv);
                probe.mode = mode;
                if mode == Mode::Stall {
                    probe.timeout = Some(Duration::from_secs(4));
                }
                push(probe);
            }
        }
        if live && entry.read_only {
            for (number, other) in entry.examples.iter().enumerate() {
                let mut probe =
                    Planned::new(Kind::Live(number), at, entry.example_with(other, &[]));
                probe.live = true;
                push(probe);
            }
            let mut live_probe =
                |kind: Kind, globals: &[&str], extra_env: Vec<(String, String)>| {
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
    }
    planned
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

/// Insert the per-probe globals right after the command path of `argv`.
fn with_globals(entry: Option<&Entry>, argv: &[String], globals: &[String]) -> Vec<String> {
    match entry {
        Some(entry) if !globals.is_empty() => entry.example_with(argv, globals),
        _ => argv.to_vec(),
    }
}

fn read_audit(path: &Path) -> Option<Vec<String>> {
    std::fs::read_to_string(path).ok().map(|text| {
        text.lines()
            .filter(|line| !line.is_empty())
            .map(String::from)
            .collect()
    })
}

/// Run everything for `config`. `Err` only when the checker itself cannot work (no temp dir, no port).
pub fn run(config: &Config) -> Result<Session, String> {
    let recorder =
        Recorder::start().map_err(|error| format!("kan geen opnameserver starten: {error}"))?;
    let temp =
        tempfile::tempdir().map_err(|error| format!("kan geen tijdelijke map maken: {error}"))?;
    let home = temp.path().join("home");
    let audit_dir = temp.path().join("audit");
    for dir in [&home, &audit_dir] {
        std::fs::create_dir_all(dir)
            .map_err(|error| format!("kan {} niet maken: {error}", dir.display()))?;
    }
    let mut argv = config.program.clone();
    argv.extend(strings(&["--help", "--json"]));
    let discovery_outcome = invoke::run(&Call {
        argv,
        env: vec![
            ("PATH".into(), std::env::var("PATH").unwrap_or_default()),
            ("HOME".into(), home.display().to_string()),
        ],
        timeout: config.timeout,
    });
    let discovery: Option<Value> =
        serde_json::from_str(discovery_outcome.stdout.trim_end_matches('\n')).ok();
    let trace_id = random_hex(16);
    let parent_span_id = random_hex(8);
    let mut session = Session {
        program: config.program.clone(),
        discovery_outcome,
        discovery: discovery.clone(),
        entries: Vec::new(),
        probes: Vec::new(),
        stray_requests: Vec::new(),
        canary: None,
        trace_id: trace_id.clone(),
        parent_span_id: parent_span_id.clone(),
        live: false,
        audit_by_option: false,
    };
    let (discovery, entries) = match discovery.filter(Value::is_object) {
        Some(discovery) => {
            let entries = model::entries(&discovery);
            (discovery, entries)
        }
        None if !config.examples.is_empty() => {
            session.discovery = None;
            (
                Value::Object(Map::new()),
                config
                    .examples
                    .iter()
                    .map(|(words, mutating)| model::Entry::synthetic(words, *mutating))
                    .collect(),
            )
        }
        None => return Ok(session),
    };
    let base_urls = model::env_of_kind(&discovery, "base_url");
    let live = config.live
        || !config.env.is_empty()
        || (base_urls.is_empty() && entries.iter().all(|e| !e.open_world));
    let canary = (!model::env_of_kind(&discovery, "secret").is_empty())
        .then(|| format!("pcKANARIE{}", random_hex(12)));
    let builder = Builder {
        config,
        discovery: discovery.clone(),
        recorder: &recorder,
        audit_dir,
        home,
        canary: canary.clone(),
        traceparent: format!("00-{trace_id}-{parent_span_id}-01"),
        audit_by_option: model::has_global_option(&discovery, "--audit-log"),
    };
    let mut planned: Vec<Planned> = plan_probes(&discovery, &entries, live);
    let mut probes = execute(&builder, &entries, &mut planned, 0, config.jobs);
    // Live round two: two fields that the first live answer actually holds.
    let mut second: Vec<Planned> = Vec::new();
    for probe in probes
        .iter()
        .filter(|p| p.kind == Kind::Live(0) && p.outcome.status == Some(0))
    {
        let Some(index) = probe.entry else { continue };
        let entry = &entries[index];
        let Some(Value::Object(data)) = probe.stdout_json() else {
            continue;
        };
        let present: Vec<String> = entry
            .output_fields()
            .into_iter()
            .filter(|f| data.contains_key(f))
            .collect();
        if let [a, b, ..] = present.as_slice() {
            let fields = format!("{a},{b}");
            let mut p = Planned::new(
                Kind::LiveFields(a.clone(), b.clone()),
                Some(index),
                entry.example_with(&entry.examples[0], &strings(&["--fields", &fields])),
            );
            p.live = true;
            second.push(p);
        }
    }
    let offset = planned.len();
    probes.extend(execute(
        &builder,
        &entries,
        &mut second,
        offset,
        config.jobs,
    ));
    let requests = recorder.requests();
    session.stray_requests = requests
        .iter()
        .filter(|r| r.call.is_none())
        .cloned()
        .collect();
    for (index, probe) in probes.iter_mut().enumerate() {
        probe.requests = requests
            .iter()
            .filter(|r| r.call == Some(index))
            .cloned()
            .collect();
    }
    session.entries = entries;
    session.probes = probes;
    session.canary = canary;
    session.live = live;
    session.audit_by_option = builder.audit_by_option;
    Ok(session)
}

fn execute(
    builder: &Builder,
    entries: &[Entry],
    planned: &mut [Planned],
    offset: usize,
    jobs: usize,
) -> Vec<Probe> {
    let calls: Vec<Call> = planned
        .iter_mut()
        .enumerate()
        .map(|(i, p)| {
            let index = offset + i;
            if p.entry.is_some() && p.kind.reaches_command() != Some(false) {
                p.argv = with_globals(
                    p.entry.map(|e| &entries[e]),
                    &p.argv,
                    &builder.globals(index),
                );
            }
            builder.call(index, p)
        })
        .collect();
    let outcomes = invoke::run_all(&calls, jobs);
    planned
        .iter()
        .zip(outcomes)
        .enumerate()
        .map(|(i, (p, outcome))| Probe {
            kind: p.kind.clone(),
            entry: p.entry,
            outcome,
            audit: read_audit(&builder.audit_path(offset + i)),
            requests: Vec::new(),
        })
        .collect()
}

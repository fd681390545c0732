//! One conformance run: discovery, then every probe in parallel against the recorder, then the live round.
//!
//! `plan` decides which invocations the discovery document calls for; `call` turns each into a
//! command line and environment; this module runs them and gathers what they left behind.

mod call;
mod plan;

use std::path::Path;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::invoke::Outcome;
use crate::invoke::{self, Call};
use crate::model::{self, Entry};
use crate::probe::{Kind, Probe};
use crate::recorder::{Recorded, Recorder};
use call::Builder;
use plan::{Planned, plan_probes, strings};

/// What the user asked for.
#[derive(Clone, Debug)]
pub(crate) struct Config {
    /// The program and its prefix arguments.
    pub program: Vec<String>,
    /// `--env NAME=VALUE`, applied to every live call (and to the others, except base URLs); one
    /// of the program's own base URLs makes the run live.
    pub env: Vec<(String, String)>,
    /// `--live`: the sources answer (at their defaults or as `--env` says).
    pub live: bool,
    /// Deadline per invocation.
    pub timeout: Duration,
    /// Parallel invocations.
    pub jobs: usize,
    /// Example command lines (and whether they mutate) for programs without usable discovery.
    pub examples: Vec<(Vec<String>, bool)>,
    /// `--emulated`: the program runs under an emulator; `timeout` is already widened.
    pub emulated: bool,
}

/// How much wider every time limit is with `--emulated`: the checker's limit per call, the
/// program's deadlines the probes set (except the one under test, `--timeout 1` against
/// silence), and the program's default deadline (`--timeout` given to every other probe that
/// reaches a command). qemu-user runs a dev build's calls some 30-70 times slower than
/// the same build natively; a 2-core machine running 8 of them at once divides that further.
pub(crate) const EMULATED_SLOWDOWN: u32 = 10;

/// The activity id set in every call (AUDIT-13).
pub(crate) const ACTIVITY_ID: &str = "urn:profile-check:verwerkingsactiviteit";

/// Everything the checks look at.
pub(crate) struct Session {
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
    /// `--emulated`: checks that measure wall-clock time do not apply.
    pub emulated: bool,
}

fn random_hex(bytes: usize) -> String {
    let mut buffer = vec![0u8; bytes];
    getrandom::fill(&mut buffer).expect("randomness");
    buffer.iter().map(|byte| format!("{byte:02x}")).collect()
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
pub(crate) fn run(config: &Config) -> Result<Session, String> {
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
            ("PATH".into(), inherited_path()),
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
        emulated: config.emulated,
    };
    let (discovery, entries) = match discovery.filter(Value::is_object) {
        Some(discovery) => {
            let entries: Vec<Entry> = model::entries(&discovery)
                .into_iter()
                .map(|entry| with_full_entry(config, &home, entry))
                .collect();
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
    let live = goes_live(config, &discovery, &entries);
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
    let slowdown = if config.emulated {
        EMULATED_SLOWDOWN
    } else {
        1
    };
    let mut planned: Vec<Planned> = plan_probes(&discovery, &entries, live, slowdown);
    let mut probes = execute(&builder, &entries, &mut planned, 0, config.jobs);
    // Live round two: two fields that the first live answer actually holds.
    let mut second: Vec<Planned> = live_round_two(&probes, &entries);
    let offset = planned.len();
    probes.extend(execute(
        &builder,
        &entries,
        &mut second,
        offset,
        config.jobs,
    ));
    session.stray_requests = attribute_requests(&recorder.requests(), &mut probes);
    session.entries = entries;
    session.probes = probes;
    session.canary = canary;
    session.live = live;
    session.audit_by_option = builder.audit_by_option;
    Ok(session)
}

/// Live round two: per entry whose first live answer succeeded, `--fields` with two fields
/// that answer actually holds.
fn live_round_two(probes: &[Probe], entries: &[Entry]) -> Vec<Planned> {
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
    second
}

/// Gives each probe the requests the recorder saw from its call; returns those of no call.
fn attribute_requests(requests: &[Recorded], probes: &mut [Probe]) -> Vec<Recorded> {
    for (index, probe) in probes.iter_mut().enumerate() {
        probe.requests = requests
            .iter()
            .filter(|r| r.call == Some(index))
            .cloned()
            .collect();
    }
    requests
        .iter()
        .filter(|r| r.call.is_none())
        .cloned()
        .collect()
}

/// `entry` read from the command's own `--help --json` (its full entry: examples, all hints, the
/// whole output schema; DISC-17), keeping the root's compact form; the root's alone when the
/// command gives no object.
fn with_full_entry(config: &Config, home: &Path, entry: Entry) -> Entry {
    let mut argv = config.program.clone();
    argv.extend(entry.argv.iter().cloned());
    argv.extend(strings(&["--help", "--json"]));
    let outcome = invoke::run(&Call {
        argv,
        env: vec![
            ("PATH".into(), inherited_path()),
            ("HOME".into(), home.display().to_string()),
        ],
        timeout: config.timeout,
    });
    match serde_json::from_str::<Value>(outcome.stdout.trim_end_matches('\n')) {
        Ok(full) if full.is_object() && !entry.argv.is_empty() => {
            Entry::with_full(&entry.root, &full)
        }
        _ => entry,
    }
}

/// Whether the examples run against answering sources: with `--live`; when an `--env` points one of
/// the program's own `base_url` variables somewhere; and, for a program that declares no base URL, when
/// it uses only local data or when any `--env` is given (its sources are unknown). An `--env` of
/// another variable (another tool's base URL, a setting) leaves the program's sources unreachable.
fn goes_live(config: &Config, discovery: &Value, entries: &[Entry]) -> bool {
    let base_urls = model::env_of_kind(discovery, "base_url");
    if base_urls.is_empty() {
        return config.live || !config.env.is_empty() || entries.iter().all(|e| !e.open_world);
    }
    config.live || config.env.iter().any(|(name, _)| base_urls.contains(name))
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
                    &builder.globals(index, p),
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

/// The checker's own `PATH`, handed on to the program under test: the one place profile-check
/// reads its environment.
#[allow(clippy::disallowed_methods, reason = "the one env read")]
pub(crate) fn inherited_path() -> String {
    std::env::var("PATH").unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn config(env: &[&str], live: bool) -> Config {
        Config {
            program: vec!["tool".into()],
            env: env
                .iter()
                .map(|name| (name.to_string(), "http://127.0.0.1:1/api".to_string()))
                .collect(),
            live,
            timeout: Duration::from_secs(1),
            jobs: 1,
            examples: Vec::new(),
            emulated: false,
        }
    }

    fn discovery(base_url: Option<&str>, open_world: bool) -> (Value, Vec<Entry>) {
        let mut env = vec![json!({"name": "TOOL_TOKEN", "kind": "secret", "secret": true})];
        if let Some(name) = base_url {
            env.push(json!({"name": name, "kind": "base_url", "secret": false}));
        }
        let discovery = json!({
            "env": env,
            "tools": [{"name": "x_get", "annotations": {"openWorldHint": open_world}, "_meta": {"argv": ["x", "get"]}}]
        });
        let entries = model::entries(&discovery);
        (discovery, entries)
    }

    #[test]
    fn only_the_programs_own_base_url_makes_a_run_live() {
        let (discovery, entries) = discovery(Some("RVO_API_BASE"), true);
        let live = |env: &[&str], flag: bool| goes_live(&config(env, flag), &discovery, &entries);
        assert!(!live(&[], false));
        assert!(!live(&["KVK_API_BASE"], false), "another tool's base URL");
        assert!(!live(&["TOOL_TOKEN"], false), "a secret is not a source");
        assert!(live(&["KVK_API_BASE", "RVO_API_BASE"], false));
        assert!(live(&["KVK_API_BASE"], true), "--live always");
    }

    #[test]
    fn a_program_without_base_url_is_live_when_local_or_given_any_env() {
        let (local, local_entries) = discovery(None, false);
        assert!(goes_live(&config(&[], false), &local, &local_entries));
        let (remote, remote_entries) = discovery(None, true);
        assert!(!goes_live(&config(&[], false), &remote, &remote_entries));
        assert!(goes_live(
            &config(&["BRON_URL"], false),
            &remote,
            &remote_entries
        ));
    }
}

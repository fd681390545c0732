//! Running another CLI of the family as a child (rule CHILD-1): the one place that does it.
//!
//! Two kinds of caller run a family CLI: a tool that needs data another CLI already provides
//! (regelrecht-cli's concept asks kvk-cli; rvo-cli re-evaluates a concept with regelrecht-cli)
//! and the MCP bridge, which runs a CLI for every tool call. Both describe the child as a
//! [`Spawn`]: an argv list (never a shell), an environment ([`Environment`]: an allow-list
//! from [`EnvPolicy`], or the caller's own without its secrets), per-call variables
//! (`TRACEPARENT`, `KVK_SESSIE_NUMMER`, `OVERHEID_FOREIGN_PROCESSOR`), an optional stdin and a cap
//! on what is read from stdout and stderr. The child leads a process group of its own; when
//! the deadline passes, when the caller cancels, and after a normal exit, the whole group is
//! killed, so a helper the CLI started can neither outlive the call nor hold its pipes open.
//!
//! There is one wait, [`run_async`]: pipes and the exit are polled on tokio's reactor, with no
//! thread per child (the bridge, many calls at once, cancels a call by a future). [`run`] is the
//! same wait for a caller without a runtime (a CLI): it blocks on a runtime of its own thread.
//! [`run_json`] is the family CLIs' entry: it finds the program, passes the deadline on as
//! `--timeout` and reads the profile's JSON or error object.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::io;
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, kill_process_group};
use serde_json::Value;

use crate::call::context::Context;
use crate::problem::error::{Problem, Result};
use crate::process::env::OVERHEID_CLI_DIR;

mod tokio_wait;
pub use tokio_wait::run_async;

/// The most bytes read from a child's stdout or stderr, unless the caller says otherwise.
pub(crate) const MAX_OUTPUT_BYTES: usize = 8 * 1024 * 1024;

/// Process basics every child gets from an allow-list when the caller has them (CONF-2).
const BASICS: &[&str] = &[
    "PATH",
    "HOME",
    "LANG",
    "TZ",
    "TMPDIR",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
];

/// An allow-list: which of the caller's variables one CLI may see (what it declares in its
/// discovery `env`, plus the process basics and `LC_*`). `TRACEPARENT` never passes: a caller
/// sets its own per call.
#[derive(Clone, Debug, Default)]
pub struct EnvPolicy {
    declared: BTreeSet<String>,
}

impl EnvPolicy {
    /// The policy of a CLI that declares these names.
    pub fn new(declared: impl IntoIterator<Item = String>) -> Self {
        Self {
            declared: declared.into_iter().collect(),
        }
    }

    /// Whether `name` may pass to the child.
    pub fn allows(&self, name: &str) -> bool {
        name != "TRACEPARENT"
            && (BASICS.contains(&name) || name.starts_with("LC_") || self.declared.contains(name))
    }

    /// The variables of `vars` (the caller's own) that pass. Values are kept byte for byte, so
    /// a declared value that is not UTF-8 reaches the CLI, which refuses it naming it (CONF-7);
    /// a name that is not UTF-8 is never one a CLI declares.
    pub fn pick(
        &self,
        vars: impl Iterator<Item = (OsString, OsString)>,
    ) -> Vec<(OsString, OsString)> {
        vars.filter(|(name, _)| name.to_str().is_some_and(|name| self.allows(name)))
            .collect()
    }
}

/// What a child's environment starts from, before its per-call variables.
#[derive(Clone, Debug)]
pub enum Environment {
    /// Exactly these variables (an allow-list already applied: the bridge).
    Only(Vec<(OsString, OsString)>),
    /// The caller's environment without these names (a family CLI: its own secrets stay with
    /// it, SEC-3, and the child reads its own).
    InheritWithout(Vec<String>),
}

/// One child invocation, ready to start.
#[derive(Clone, Debug)]
pub struct Spawn {
    pub program: PathBuf,
    pub args: Vec<String>,
    pub env: Environment,
    /// Per-call variables, set over what `env` gives.
    pub vars: Vec<(OsString, OsString)>,
    /// Bytes for the child's stdin; `None` is an empty stdin (`/dev/null`).
    pub stdin: Option<Vec<u8>>,
    /// The most bytes kept of stdout and of stderr each; the pipe is closed after that.
    pub max_output: usize,
}

impl Spawn {
    /// `program args…` with `env`, no stdin and the default output cap.
    pub fn new(program: impl Into<PathBuf>, args: Vec<String>, env: Environment) -> Self {
        Self {
            program: program.into(),
            args,
            env,
            vars: Vec::new(),
            stdin: None,
            max_output: MAX_OUTPUT_BYTES,
        }
    }

    /// Set one per-call variable.
    pub fn var(mut self, name: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        self.vars.push((name.into(), value.into()));
        self
    }

    /// Give the child these bytes on stdin.
    pub fn stdin(mut self, bytes: Option<Vec<u8>>) -> Self {
        self.stdin = bytes;
        self
    }

    /// The command: argv, environment, piped output, stdin piped only when there are bytes,
    /// and a process group of its own.
    pub fn command(&self) -> Command {
        use std::os::unix::process::CommandExt;

        let mut command = Command::new(&self.program);
        command.args(&self.args);
        match &self.env {
            Environment::Only(vars) => {
                command.env_clear().envs(vars.iter().map(|(k, v)| (k, v)));
            }
            Environment::InheritWithout(names) => {
                for name in names {
                    command.env_remove(name);
                }
            }
        }
        command
            .envs(self.vars.iter().map(|(k, v)| (k, v)))
            .stdin(if self.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        command
    }
}

/// How an invocation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Exited with this status.
    Exited(i32),
    /// Ended by a signal the caller did not send.
    Signalled,
    /// Killed at the deadline.
    TimedOut,
    /// Killed because the caller cancelled.
    Cancelled,
}

impl Ending {
    /// The ending of a child that was reaped with `status`, unless the caller stopped it.
    fn of(status: ExitStatus) -> Self {
        status.code().map_or(Self::Signalled, Self::Exited)
    }
}

/// What an invocation produced (each stream at most [`Spawn::max_output`] bytes).
#[derive(Debug)]
pub struct Finished {
    pub ending: Ending,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// The process group a child leads (its pid), if the id fits.
fn group_of(pid: Option<u32>) -> Option<Pid> {
    pid.and_then(|id| i32::try_from(id).ok())
        .and_then(Pid::from_raw)
}

/// Kill a child's whole process group (nothing when it is gone already).
fn kill_group(group: Option<Pid>) {
    if let Some(group) = group {
        let _ = kill_process_group(group, Signal::KILL);
    }
}

/// Run `spawn`, blocking until it ends or `timeout` passes: [`run_async`] on a runtime of the
/// calling thread, for a caller that has none (a CLI). `Err` only when it could not be started.
pub fn run(spawn: Spawn, timeout: Duration) -> io::Result<Finished> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?
        .block_on(run_async(spawn, timeout, std::future::pending()))
}

/// How a child invocation failed, as its error object (or the runner) says.
#[derive(Clone, Debug, PartialEq)]
pub struct ChildFailure {
    /// The child's exit code (124 when the deadline passed, 69 when it could not be started).
    pub exit_code: i32,
    /// The error object's `code`, or a runner code.
    pub code: String,
    /// The error object's `detail`, or what went wrong running it.
    pub detail: String,
}

/// `tool` (a family program name such as `kvk-cli`) as a path: in `OVERHEID_CLI_DIR` when set,
/// else in the directory of the running executable. A name that is not a plain program name
/// is refused, so data can never choose a path.
pub(crate) fn locate(ctx: &Context<'_>, tool: &str) -> Result<PathBuf> {
    if !is_program_name(tool) {
        return Err(
            Problem::config(format!("{tool:?} is geen programmanaam van de familie")).into(),
        );
    }
    let dir = match ctx.env(OVERHEID_CLI_DIR) {
        Some(dir) => PathBuf::from(dir),
        None => std::env::current_exe()
            .ok()
            .and_then(|exe| exe.parent().map(PathBuf::from))
            .ok_or_else(|| Problem::config("de map van dit programma is onbekend"))?,
    };
    Ok(dir.join(tool))
}

/// Whether `name` is a plain program name (`[a-z0-9-]+`, not starting with `-`): no path, no
/// option, nothing a shell or the file system would interpret.
pub(crate) fn is_program_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('-')
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// How long a child that ignores its own `--timeout` gets past the caller's deadline.
const GRACE: Duration = Duration::from_millis(500);

/// Run the family CLI `tool args…` from a CLI and return its stdout as JSON, or its failure.
///
/// The child gets the caller's environment without the caller's own secrets, `TRACEPARENT`
/// (so its audit record continues this trace), an optional stdin, and `--timeout` set to what
/// is left of the caller's deadline; its process group is killed [`GRACE`] after that. Exit 0
/// with stdout that is not one JSON document is a protocol failure (76); any other exit is
/// its error object (the last JSON line on stderr).
pub fn run_json(
    ctx: &Context<'_>,
    tool: &str,
    args: &[String],
    stdin: Option<Vec<u8>>,
) -> Result<std::result::Result<Value, ChildFailure>> {
    let program = locate(ctx, tool)?;
    let failure = |exit_code: i32, code: &str, detail: String| ChildFailure {
        exit_code,
        code: code.to_string(),
        detail,
    };
    let remaining = ctx.deadline().saturating_duration_since(Instant::now());
    if remaining.is_zero() {
        return Err(Problem::timeout(format!("geen tijd meer om {tool} te starten")).into());
    }
    let mut argv: Vec<String> = args.to_vec();
    argv.push(format!(
        "--timeout={:.3}",
        remaining.as_secs_f64().max(0.001)
    ));
    let secrets = ctx.tool.env.iter().filter(|v| v.secret);
    let env = Environment::InheritWithout(secrets.map(|v| v.name.to_string()).collect());
    let spawn = Spawn::new(&program, argv, env)
        .var("TRACEPARENT", ctx.trace.traceparent())
        .stdin(stdin);
    let finished = match run(spawn, remaining + GRACE) {
        Ok(finished) => finished,
        Err(e) => {
            return Ok(Err(failure(
                69,
                "BRON_NIET_GESTART",
                format!("{} kon niet gestart worden: {e}", program.display()),
            )));
        }
    };
    let code = match finished.ending {
        Ending::Exited(code) => code,
        Ending::Signalled => 1,
        Ending::TimedOut | Ending::Cancelled => {
            return Err(Problem::timeout(format!("{tool} was niet op tijd klaar")).into());
        }
    };
    if code == 0 {
        return Ok(
            serde_json::from_slice::<Value>(&finished.stdout).map_err(|e| {
                failure(
                    76,
                    "PARSE_FOUT",
                    format!("{tool} gaf geen JSON op stdout: {e}"),
                )
            }),
        );
    }
    let object: Option<Value> = String::from_utf8_lossy(&finished.stderr)
        .lines()
        .rev()
        .find_map(|line| serde_json::from_str(line).ok());
    let text = |key: &str| {
        object
            .as_ref()
            .and_then(|o| o.get(key))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    Ok(Err(failure(
        code,
        &text("code").unwrap_or_else(|| "FOUT".into()),
        text("detail").unwrap_or_else(|| format!("{tool} eindigde met exit {code}")),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_program_names_are_run() {
        assert!(is_program_name("kvk-cli"));
        assert!(is_program_name("regelrecht-cli"));
        for bad in [
            "",
            "../kvk-cli",
            "/bin/sh",
            "kvk cli",
            "KVK-CLI",
            "-x",
            "a;b",
            "kvk-cli\n",
        ] {
            assert!(!is_program_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn an_allow_list_passes_declared_names_and_basics_only() {
        let policy = EnvPolicy::new(["KVK_API_KEY".to_string()]);
        let vars = [
            ("KVK_API_KEY", "k"),
            ("OPENAI_API_KEY", "geheim"),
            ("PATH", "/bin"),
            ("LC_ALL", "C"),
            ("TRACEPARENT", "van-de-client"),
        ]
        .map(|(k, v)| (k.into(), v.into()));
        let env = policy.pick(vars.into_iter());
        let names: Vec<&str> = env.iter().filter_map(|(k, _)| k.to_str()).collect();
        assert_eq!(names, ["KVK_API_KEY", "PATH", "LC_ALL"]);
    }

    #[test]
    fn an_allow_list_passes_a_declared_value_that_is_not_utf8_unchanged() {
        use std::os::unix::ffi::OsStringExt;

        let policy = EnvPolicy::new(["KVK_SESSIE_NUMMER".to_string()]);
        let value = OsString::from_vec(b"6875\xff0110".to_vec());
        let vars = [
            (OsString::from("KVK_SESSIE_NUMMER"), value.clone()),
            (OsString::from_vec(b"X\xff".to_vec()), OsString::from("y")),
        ];
        let env = policy.pick(vars.into_iter());
        assert_eq!(env, [(OsString::from("KVK_SESSIE_NUMMER"), value)]);
    }

    fn sh(script: &str) -> Spawn {
        let env = Environment::Only(vec![("PATH".into(), "/usr/bin:/bin".into())]);
        Spawn::new("/bin/sh", vec!["-c".into(), script.into()], env)
    }

    #[test]
    fn gives_the_child_exactly_its_environment_and_stdin_and_caps_its_output() {
        let spawn = sh(
            "printf '%s|%s|' \"$A\" \"${HOME-unset}\"; cat; head -c 100000 /dev/zero >&2; exit 0",
        )
        .var("A", "per-aanroep")
        .stdin(Some(b"invoer".to_vec()));
        let spawn = Spawn {
            max_output: 1000,
            ..spawn
        };
        let finished = run(spawn, Duration::from_secs(10)).unwrap();
        assert_eq!(finished.ending, Ending::Exited(0));
        assert_eq!(finished.stdout, b"per-aanroep|unset|invoer");
        assert_eq!(finished.stderr.len(), 1000);
    }

    #[test]
    fn kills_the_whole_group_at_the_deadline() {
        let started = Instant::now();
        // The helper keeps stdout open: without the group kill the read would never end.
        let finished = run(sh("sleep 30 & sleep 30"), Duration::from_millis(200)).unwrap();
        assert_eq!(finished.ending, Ending::TimedOut);
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}

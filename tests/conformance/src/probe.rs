//! The invocations the checks judge: what each one is for, and the evidence it left.

use serde_json::Value;

use crate::invoke::Outcome;
use crate::recorder::{Mode, Recorded};

/// What a probe tests.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Kind {
    /// `--help --json` once more (DISC-7).
    DiscoveryAgain,
    /// `--help --json` with only `PATH` set (DISC-2).
    DiscoveryEmptyEnv,
    /// `--help --json` with base URLs at the recorder and an audit file (DISC-2).
    DiscoveryWatched,
    /// `<command> --help --json` (DISC-17).
    CommandDiscovery,
    /// Plain `--help`.
    Help,
    /// `--version`.
    Version,
    /// `completions bash`.
    Completions,
    /// An unknown command word.
    UnknownCommand,
    /// A required argument left out.
    MissingRequired(String),
    /// A value breaking the property's `pattern`.
    BadPattern(String),
    /// A value outside the property's `enum`.
    BadEnum(String),
    /// An unknown option.
    UnknownFlag,
    /// `--dry-run` of example `n`.
    DryRun(usize),
    /// `--dry-run --provenance`.
    DryRunProvenance,
    /// `--dry-run --confirm`.
    DryRunConfirm,
    /// `--dry-run --fields <field>`.
    DryRunFields(String),
    /// `--dry-run --output <mode>`.
    DryRunOutput(String),
    /// `--dry-run` with every base URL set to plain http on a non-loopback host.
    PlainHttp,
    /// A mutation without `--confirm`.
    MutationRefused,
    /// A mutation with a wrong `--confirm=<digest>`.
    MutationStale(String),
    /// `--fields` with a name the output schema does not know.
    FieldsUnknown,
    /// The first example against a recorder that answers in this mode.
    Upstream(Mode),
    /// Example `n` against a source that answers (the `--env`/`--live` source).
    Live(usize),
    /// `--output json`, live.
    LiveJson,
    /// `--output pretty`, live.
    LivePretty,
    /// `--output table` with `NO_COLOR=1`, live.
    LiveNoColor,
    /// `--provenance`, live.
    LiveProvenance,
    /// `--fields a,b`, live.
    LiveFields(String, String),
}

impl Kind {
    /// Whether the invocation reaches a command (so it must leave exactly one audit record).
    /// `None`: the argument parser may reject it before any command runs (a record is optional).
    pub(crate) fn reaches_command(&self) -> Option<bool> {
        match self {
            Kind::DiscoveryAgain
            | Kind::DiscoveryEmptyEnv
            | Kind::DiscoveryWatched
            | Kind::CommandDiscovery
            | Kind::Help
            | Kind::Version
            | Kind::Completions => Some(false),
            Kind::UnknownCommand
            | Kind::MissingRequired(_)
            | Kind::BadEnum(_)
            | Kind::UnknownFlag => None,
            Kind::DryRunOutput(mode) if mode != "json" && mode != "raw" && mode != "pretty" => None,
            _ => Some(true),
        }
    }
}

/// One invocation and all it left behind.
#[derive(Clone, Debug)]
pub(crate) struct Probe {
    pub kind: Kind,
    /// Index into the tool entries, for per-command probes.
    pub entry: Option<usize>,
    pub outcome: Outcome,
    /// Lines in this probe's audit file; `None` when no file was written.
    pub audit: Option<Vec<String>>,
    /// Requests the recorder saw under this probe's prefix.
    pub requests: Vec<Recorded>,
}

impl Probe {
    /// Parsed stdout when it is exactly one JSON document.
    pub(crate) fn stdout_json(&self) -> Option<Value> {
        serde_json::from_str(self.outcome.stdout.trim_end_matches('\n')).ok()
    }

    /// The last stderr line parsed as JSON.
    pub(crate) fn error_object(&self) -> Option<Value> {
        let last = self
            .outcome
            .stderr
            .lines()
            .rev()
            .find(|line| !line.trim().is_empty())?;
        serde_json::from_str(last).ok()
    }

    /// The error object's `code`.
    pub(crate) fn error_code(&self) -> Option<String> {
        self.error_object()?.get("code")?.as_str().map(String::from)
    }
}

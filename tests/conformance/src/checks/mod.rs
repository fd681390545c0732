//! The catalogue of checks: each cites the profile rules it tests and judges the session's evidence.

mod audit;
mod discovery;
mod errors;
mod output;
mod plans;
mod upstream;

use crate::invoke::Outcome;
use crate::probe::{Kind, Probe};
use crate::session::Session;
use serde_json::Value;

/// How much a rule weighs for conformance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Level {
    Must,
    Should,
}

impl Level {
    pub(crate) fn label(self) -> &'static str {
        match self {
            Level::Must => "MUST",
            Level::Should => "SHOULD",
        }
    }
}

/// One check of the catalogue.
pub(crate) struct Check {
    pub id: &'static str,
    pub rules: &'static [&'static str],
    pub level: Level,
    /// What it verifies (Dutch, shown in the report).
    pub title: &'static str,
    pub run: fn(&Session) -> Verdict,
}

/// Evidence of one failure.
#[derive(Clone, Debug)]
pub(crate) struct Evidence {
    pub command: String,
    pub status: String,
    pub problem: String,
    pub output: String,
}

/// The result of a check.
#[derive(Clone, Debug)]
pub(crate) enum Verdict {
    Pass,
    Fail(Vec<Evidence>),
    /// Nothing to test: the program declares nothing the check is about.
    Skip(String),
    /// Not judged because of how the checker was run (`--emulated`), although the program has
    /// what the check is about; reported as a SKIP, and counted apart so that it cannot pass
    /// unnoticed among the skips of things a program does not have.
    NotApplicable(String),
}

const EXCERPT: usize = 400;

/// At most `EXCERPT` characters of `text`, marked when cut.
pub(crate) fn truncate(text: &str) -> String {
    let text = text.trim_end();
    if text.chars().count() <= EXCERPT {
        return text.to_string();
    }
    let cut: String = text.chars().take(EXCERPT).collect();
    format!("{cut}… ({} tekens)", text.chars().count())
}

impl Evidence {
    pub(crate) fn of(outcome: &Outcome, problem: impl Into<String>) -> Evidence {
        let mut output = String::new();
        if !outcome.stdout.trim().is_empty() {
            output.push_str(&format!("stdout: {}", truncate(&outcome.stdout)));
        }
        if !outcome.stderr.trim().is_empty() {
            if !output.is_empty() {
                output.push('\n');
            }
            output.push_str(&format!("stderr: {}", truncate(&outcome.stderr)));
        }
        Evidence {
            command: outcome.command_line.clone(),
            status: outcome.status_text(),
            problem: problem.into(),
            output,
        }
    }

    /// Evidence without an invocation (a property of the discovery document).
    pub(crate) fn about(subject: impl Into<String>, problem: impl Into<String>) -> Evidence {
        Evidence {
            command: subject.into(),
            status: String::new(),
            problem: problem.into(),
            output: String::new(),
        }
    }
}

/// `None` when the process exited 0, else why not (for evidence).
pub(crate) fn not_exit_0(outcome: &Outcome) -> Option<String> {
    (outcome.status != Some(0)).then(|| format!("verwacht exit 0, kreeg {}", outcome.status_text()))
}

/// Verdict from collected failures over `considered` cases; skip with `reason` when there were none.
pub(crate) fn judge(failures: Vec<Evidence>, considered: usize, reason: &str) -> Verdict {
    if !failures.is_empty() {
        Verdict::Fail(failures)
    } else if considered == 0 {
        Verdict::Skip(reason.to_string())
    } else {
        Verdict::Pass
    }
}

/// Judge `probes` one by one: `problem` returns why a probe fails.
pub(crate) fn judge_probes<'a>(
    probes: impl IntoIterator<Item = &'a Probe>,
    reason: &str,
    problem: impl Fn(&Probe) -> Option<String>,
) -> Verdict {
    let mut considered = 0;
    let mut failures = Vec::new();
    for probe in probes {
        considered += 1;
        if let Some(why) = problem(probe) {
            failures.push(Evidence::of(&probe.outcome, why));
        }
    }
    judge(failures, considered, reason)
}

impl Session {
    /// Probes of a kind.
    pub(crate) fn probes_where(
        &self,
        wanted: impl Fn(&Kind) -> bool,
    ) -> impl Iterator<Item = &Probe> {
        self.probes.iter().filter(move |probe| wanted(&probe.kind))
    }

    /// The discovery document's `name`.
    pub(crate) fn program_name(&self) -> String {
        self.discovery
            .as_ref()
            .and_then(|d| d.get("name"))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    }

    /// The discovery document's `version`.
    pub(crate) fn program_version(&self) -> String {
        self.discovery
            .as_ref()
            .and_then(|d| d.get("version"))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    }

    /// `<name> <command path>` of a probe's entry.
    pub(crate) fn command_of(&self, probe: &Probe) -> String {
        let mut words = vec![self.program_name()];
        if let Some(entry) = probe.entry.map(|index| &self.entries[index]) {
            words.extend(entry.argv.iter().cloned());
        }
        words.join(" ")
    }
}

/// The whole catalogue, in report order.
pub(crate) fn catalogue() -> Vec<Check> {
    let mut checks = Vec::new();
    checks.extend(discovery::checks());
    checks.extend(errors::checks());
    checks.extend(plans::checks());
    checks.extend(audit::checks());
    checks.extend(upstream::checks());
    checks.extend(output::checks());
    checks
}

/// Why a skip: the discovery document is unusable.
pub(crate) const NO_DISCOVERY: &str = "geen bruikbaar discovery-document (zie discovery-document)";

/// Skip unless discovery was read.
pub(crate) fn needs_discovery(session: &Session) -> Option<Verdict> {
    session
        .discovery
        .is_none()
        .then(|| Verdict::Skip(NO_DISCOVERY.into()))
}

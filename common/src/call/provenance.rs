//! What a command returns, and the `--provenance` envelope (rules PROV-*), in full or in
//! its compact form (`--provenance=compact`, PROV-1).

use clap::ValueEnum;
use serde_json::{Map, Value, json};

use crate::data::object::object;

/// Which provenance `--provenance` asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ProvenanceForm {
    /// Alle herkomstgegevens
    #[default]
    Full,
    /// Alleen bron, URL, tijdstip en digest (en of het uit de cache kwam)
    Compact,
}

/// The members of the compact provenance (PROV-1), in the order printed: what a caller
/// needs to cite and check a result. A member named here that a result's provenance lacks is
/// left out.
pub const COMPACT_MEMBERS: &[&str] = &[
    "source",
    "source_url",
    "retrieved_at",
    "response_sha256",
    "cache",
];

/// Which environment the data comes from, so nobody mistakes test data for the register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Environment {
    Test,
    Production,
    /// Local or embedded data; nothing was asked of a source.
    Local,
}

impl Environment {
    fn as_str(self) -> &'static str {
        match self {
            Self::Test => "test",
            Self::Production => "production",
            Self::Local => "local",
        }
    }
}

/// One upstream exchange, as provenance lists it.
#[derive(Clone, Debug)]
pub(crate) struct Exchange {
    pub method: &'static str,
    pub url: String,
    pub status: u16,
    /// Only computed under `--provenance`.
    pub sha256: Option<String>,
    /// For a request the response cache may answer: whether it did (CACHE-2).
    pub cache: Option<crate::net::cache::Use>,
}

/// A step that makes a mutation durable, run after the audit record is written.
pub(crate) type Commit = Box<dyn FnOnce() -> Result<(), crate::problem::error::Problem>>;

/// A command's result: its data and where it came from.
pub struct Outcome {
    pub data: Value,
    pub source: String,
    pub environment: Environment,
    /// The primary source; defaults to the last upstream exchange.
    pub source_url: Option<String>,
    pub method: Option<String>,
    pub response_sha256: Option<String>,
    /// Extra provenance members (e.g. `law_id`, `backend`).
    pub extra: Map<String, Value>,
    /// Runs after the audit record is appended and before the result is
    /// printed, so no mutation becomes durable without its record (rule MUT-13).
    pub commit: Option<Commit>,
    /// A complete result that still ends unsuccessfully (a batch with failed cases, a
    /// scenario run with failed scenarios): the data is printed on stdout, then this problem
    /// on stderr, and its exit status ends the process (rule OUT-5).
    pub failure: Option<crate::problem::error::Problem>,
    /// A closing line for people (a summary), printed on stderr after the data (OUT-5).
    pub closing: Option<String>,
    /// The data is a list printed as JSON Lines: one compact document per element (OUT-3;
    /// not with `--provenance` or `--output table`, which print one document). Set only by
    /// [`Outcome::lines`], whose lines were selected (`--fields`) one by one already.
    pub(crate) json_lines: bool,
    /// The lines already rendered and spooled ([`Outcome::lines`]); `data` is then null.
    pub(crate) spooled: Option<crate::print::lines::Spooled>,
    /// What a mutation made, in the words a user looks it up by (rvo-cli: the filing's
    /// reference): an error after the mutation names it (OUT-10).
    pub reference: Option<String>,
}

impl Outcome {
    /// Data from `source` (a label for people) in `environment`. Commands make it from the
    /// gate's token ([`crate::call::plan::Passed::answer`]).
    pub(crate) fn new(data: Value, source: impl Into<String>, environment: Environment) -> Self {
        Self {
            data,
            source: source.into(),
            environment,
            source_url: None,
            method: None,
            response_sha256: None,
            extra: Map::new(),
            commit: None,
            failure: None,
            closing: None,
            json_lines: false,
            spooled: None,
            reference: None,
        }
    }

    /// A JSON Lines result (OUT-3) from `source` in `environment`: the lines a command
    /// collected in [`crate::call::context::Context::json_lines`]. A spool that cannot be read back
    /// is exit 74. Commands make it from the gate's token ([`crate::call::plan::Passed::answer_lines`]).
    pub(crate) fn lines(
        lines: crate::print::lines::JsonLines,
        source: impl Into<String>,
        environment: Environment,
    ) -> Result<Self, crate::problem::error::Problem> {
        let mut outcome = match lines.finish()? {
            crate::print::lines::Collected::Values(data) => Self::new(data, source, environment),
            crate::print::lines::Collected::Spooled(spooled) => {
                let mut outcome = Self::new(Value::Null, source, environment);
                outcome.spooled = Some(spooled);
                outcome
            }
        };
        outcome.json_lines = true;
        Ok(outcome)
    }

    /// Make the mutation durable only after its audit record is written.
    #[must_use]
    pub fn commit_after_audit(
        mut self,
        commit: impl FnOnce() -> Result<(), crate::problem::error::Problem> + 'static,
    ) -> Self {
        self.commit = Some(Box::new(commit));
        self
    }

    /// Name what the mutation made (OUT-10).
    #[must_use]
    pub fn reference(mut self, reference: impl Into<String>) -> Self {
        self.reference = Some(reference.into());
        self
    }

    /// Name the primary source explicitly (for local sources: a `file:` or `urn:` URL).
    #[must_use]
    pub fn source_url(
        mut self,
        url: impl Into<String>,
        method: &str,
        sha256: impl Into<String>,
    ) -> Self {
        self.source_url = Some(url.into());
        self.method = Some(method.to_string());
        self.response_sha256 = Some(sha256.into());
        self
    }

    /// Print the data, then end with `problem` (see [`Outcome::failure`]).
    #[must_use]
    pub fn failed(mut self, problem: crate::problem::error::Problem) -> Self {
        self.failure = Some(problem);
        self
    }

    /// End the output with `line` on stderr, after the data (see [`Outcome::closing`]).
    #[must_use]
    pub fn closing(mut self, line: impl Into<String>) -> Self {
        self.closing = Some(line.into());
        self
    }

    /// Add an extra provenance member.
    #[must_use]
    pub fn extra(mut self, key: &str, value: Value) -> Self {
        self.extra.insert(key.to_string(), value);
        self
    }
}

/// Everything the envelope needs besides the outcome.
pub(crate) struct EnvelopeContext<'a> {
    pub tool: &'a str,
    pub tool_version: &'a str,
    pub trace_id: &'a str,
    pub retrieved_at: String,
    pub fields: Value,
    pub exchanges: &'a [Exchange],
    /// Whether the primary source came from the response cache (CACHE-2); `None`: not cacheable.
    pub cache: Option<crate::net::cache::Use>,
}

/// `{"data": …, "provenance": {…}}`, with the provenance in `form`.
pub(crate) fn envelope(
    data: Value,
    outcome: &Outcome,
    ctx: &EnvelopeContext<'_>,
    form: ProvenanceForm,
) -> Value {
    let full = provenance(outcome, ctx);
    let provenance = match form {
        ProvenanceForm::Full => full,
        ProvenanceForm::Compact => compact(&full),
    };
    object([("data", data), ("provenance", provenance.into())])
}

/// The compact provenance: the [`COMPACT_MEMBERS`] of the full one.
pub(crate) fn compact(full: &Map<String, Value>) -> Map<String, Value> {
    COMPACT_MEMBERS
        .iter()
        .filter_map(|name| Some((name.to_string(), full.get(*name)?.clone())))
        .collect()
}

/// The full provenance of a result (PROV-1..PROV-10).
fn provenance(outcome: &Outcome, ctx: &EnvelopeContext<'_>) -> Map<String, Value> {
    let last = ctx.exchanges.last();
    let source_url = outcome
        .source_url
        .clone()
        .or_else(|| last.map(|e| e.url.clone()));
    let method = outcome
        .method
        .clone()
        .or_else(|| last.map(|e| e.method.to_string()));
    let sha = outcome
        .response_sha256
        .clone()
        .or_else(|| last.and_then(|e| e.sha256.clone()));
    let mut prov = Map::new();
    prov.insert("source".into(), outcome.source.clone().into());
    prov.insert("source_url".into(), source_url.into());
    prov.insert("method".into(), method.into());
    prov.insert("retrieved_at".into(), ctx.retrieved_at.clone().into());
    prov.insert("tool".into(), ctx.tool.into());
    prov.insert("tool_version".into(), ctx.tool_version.into());
    prov.insert("profile_version".into(), crate::PROFILE_VERSION.into());
    prov.insert("trace_id".into(), ctx.trace_id.into());
    prov.insert("response_sha256".into(), sha.into());
    prov.insert("fields".into(), ctx.fields.clone());
    prov.insert("environment".into(), outcome.environment.as_str().into());
    if let Some(cache) = ctx.cache {
        prov.insert("cache".into(), cache.as_str().into());
    }
    if !ctx.exchanges.is_empty() {
        let requests: Vec<Value> = ctx
            .exchanges
            .iter()
            .map(|e| {
                let mut request = json!({"method": e.method, "url": e.url, "status": e.status, "response_sha256": e.sha256});
                if let Some(cache) = e.cache {
                    request["cache"] = cache.as_str().into();
                }
                request
            })
            .collect();
        prov.insert("requests".into(), requests.into());
    }
    for (k, v) in &outcome.extra {
        prov.entry(k.clone()).or_insert_with(|| v.clone());
    }
    prov
}

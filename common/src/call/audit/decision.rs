//! The audit record of a person's decision taken outside a command: on the approval page of
//! `overheid-mcp --http` (profile §10.3). A decision at a terminal is a call of
//! `rvo-cli voorstel goedkeuren` and recorded as every call is (AUDIT-1); a decision on the page
//! is a processing of its own, so it gets a record of its own span, to the destinations
//! `OVERHEID_AUDIT_EXPORT` chooses (AUDIT-20), confirmed before the decision is committed
//! (AUDIT-6). When the commit then fails, a second record of the same span says so (as MUT-13).

use std::time::{Duration, Instant};

use chrono::{SecondsFormat, Utc};
use serde_json::Value;

use super::record::{Call, records};
use super::{Audit, AuditAttributes};
use crate::call::tool::ToolInfo;
use crate::problem::error::Problem;
use crate::problem::exit::ExitStatus;
use crate::process::env::{Env, OVERHEID_AUDIT_LOG, PROCESSING_ACTIVITY};
use crate::process::trace::TraceContext;

/// How long writing a decision's record may take (the lock on the file, the Logboek's answer).
const DEADLINE: Duration = Duration::from_secs(10);

/// A person's decision about one proposal, as its record names it.
pub struct Decided<'a> {
    /// `goedkeuren` or `afwijzen`.
    pub decision: &'a str,
    pub proposal_id: &'a str,
    /// The digest of the plan the person saw and decided on.
    pub plan_digest: &'a str,
    /// The company the proposal files for: the record's data subject (AUDIT-14).
    pub company: &'a str,
    /// The person, as the identity provider names them (`sub`): `user.id` (AUDIT-22).
    pub person: &'a str,
    /// How the person was identified (`oidc`).
    pub method: &'a str,
}

/// The record of one decision: its span is made when the decision starts being recorded.
pub struct DecisionAudit {
    info: ToolInfo,
    env: Env,
    trace: TraceContext,
    started: String,
}

impl DecisionAudit {
    /// A decision taken by `program` (e.g. `overheid-mcp`) of `version`, with the destinations
    /// and the processing activity of this process's environment.
    pub fn start(program: &'static str, version: &'static str) -> Self {
        let env = Env::read(&[]);
        let trace = TraceContext::start(env.get("TRACEPARENT"));
        Self {
            info: ToolInfo {
                name: program,
                version,
                description: "",
                help: "",
                env: &[],
                audit_env: OVERHEID_AUDIT_LOG,
                default_timeout_secs: DEADLINE.as_secs(),
                resources: &[],
                cached: &[],
                children: &[],
            },
            env,
            trace,
            started: Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true),
        }
    }

    /// Write the decision's record: `failed` none before the commit (status `OK`), or the
    /// problem that kept it from being made (a second record of the same span). Exit 74 or 78
    /// when no destination confirms it: then the decision must not be made.
    pub fn write(&self, decided: &Decided<'_>, failed: Option<&Problem>) -> Result<(), Problem> {
        let mut attributes = AuditAttributes::default();
        attributes.add_subject(decided.company, "KVK_NUMMER");
        for (key, value) in [
            ("overheid.voorstel_id", decided.proposal_id),
            ("overheid.beslissing", decided.decision),
            ("overheid.beslissing_methode", decided.method),
        ] {
            attributes.extra.insert(key.into(), Value::from(value));
        }
        let name = format!("{} voorstel {}", self.info.name, decided.decision);
        let call = Call {
            trace: &self.trace,
            name: &name,
            tool: &self.info,
            attributes: &attributes,
            foreign_processor: None,
            foreign_user: Some(decided.person).filter(|p| !p.is_empty()),
            dry_run: false,
            plan_digest: Some(decided.plan_digest),
            cache: None,
        };
        let activity = self.env.get(PROCESSING_ACTIVITY).unwrap_or_default();
        let exit = failed.map_or(ExitStatus::Ok, |p| p.exit);
        let written = records(&call, &self.started, activity, exit, failed);
        let mut audit = Audit::open(None, &self.env, &self.info, Instant::now() + DEADLINE)?;
        audit.write(&written, true, |_| None, |_| Vec::new())
    }
}

//! The records of one call (rules AUDIT-*), assembled from what the call left behind
//! ([`Call`], which the context hands over): the span, its outcome and its attributes.

use chrono::{SecondsFormat, Utc};
use serde_json::{Map, Value, json};

use super::AuditAttributes;
use crate::call::tool::ToolInfo;
use crate::net::cache::Use;
use crate::problem::error::Problem;
use crate::problem::exit::ExitStatus;
use crate::process::trace::TraceContext;

/// What a call left behind for its audit records.
pub(crate) struct Call<'a> {
    pub trace: &'a TraceContext,
    /// The full command name, e.g. `kvk-cli basisprofiel toon`.
    pub name: &'a str,
    pub tool: &'a ToolInfo,
    /// What the command contributed: subjects, the exchange, extra attributes.
    pub attributes: &'a AuditAttributes,
    /// `OVERHEID_FOREIGN_PROCESSOR`: the party the call is processed for.
    pub foreign_processor: Option<&'a str>,
    /// `OVERHEID_FOREIGN_USER`: the person the calling party made the call for (AUDIT-22).
    pub foreign_user: Option<&'a str>,
    pub dry_run: bool,
    /// The digest of the plan the gate passed, if it did.
    pub plan_digest: Option<&'a str>,
    /// How the call's cacheable answer was obtained, if it had one.
    pub cache: Option<Use>,
}

/// The call's audit records (AUDIT-*): the call's record first, then, when the call concerns
/// several data subjects, one child record per subject (AUDIT-14); every held secret masked
/// (SEC-2).
pub(crate) fn records(
    call: &Call<'_>,
    started: &str,
    processing_activity: &str,
    exit: ExitStatus,
    problem: Option<&Problem>,
) -> Vec<Value> {
    let own = record(call, started, processing_activity, exit, problem);
    let mut records = Vec::with_capacity(1 + call.attributes.child_subjects().len());
    for subject in call.attributes.child_subjects() {
        let mut attributes = Map::new();
        attributes.insert(
            "dpl.core.processing_activity_id".into(),
            processing_activity.into(),
        );
        subject.insert_into(&mut attributes);
        for key in [
            "dpl.core.foreign_operation.processor",
            "user.id",
            "error.code",
            "exception.type",
            "exception.message",
            "overheid.dry_run",
        ] {
            if let Some(value) = own["attributes"].get(key) {
                attributes.insert(key.into(), value.clone());
            }
        }
        let mut child = own.clone();
        child["span_id"] = subject.span_id.clone().into();
        child["parent_span_id"] = call.trace.span_id.clone().into();
        child["attributes"] = Value::Object(attributes);
        crate::process::secrets::scrub_value(&mut child);
        records.push(child);
    }
    records.insert(0, own);
    records
}

/// The call's own record: the span, its outcome and its attributes.
fn record(
    call: &Call<'_>,
    started: &str,
    processing_activity: &str,
    exit: ExitStatus,
    problem: Option<&Problem>,
) -> Value {
    let mut attributes = call.attributes.to_json(processing_activity);
    let status = super::status(exit);
    if let Some(processor) = call.foreign_processor {
        attributes.insert(
            "dpl.core.foreign_operation.processor".into(),
            processor.into(),
        );
    }
    if let Some(user) = call.foreign_user {
        attributes.insert("user.id".into(), user.into());
    }
    if let Some(p) = problem {
        attributes.insert("error.code".into(), p.code.name.into());
        if status == "ERROR" && !attributes.contains_key("exception.type") {
            // A technical failure (LDV `Error`): its class, never the detail,
            // which may quote the source's answer (AUDIT-7). A panic has set
            // its own (AUDIT-19).
            attributes.insert("exception.type".into(), p.code.name.into());
            attributes.insert("exception.message".into(), p.title.as_ref().into());
        }
    }
    if call.dry_run {
        attributes.insert("overheid.dry_run".into(), true.into());
    }
    if let Some(digest) = call.plan_digest {
        attributes.insert("overheid.plan_digest".into(), digest.into());
    }
    if let Some(cache) = call.cache {
        attributes.insert("overheid.cache".into(), cache.as_str().into());
    }
    let mut record = json!({
        "trace_id": call.trace.trace_id,
        "span_id": call.trace.span_id,
        "name": call.name,
        "start_time": started,
        "end_time": Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true),
        "status": status,
        "exit_code": exit.code(),
        "tool": call.tool.name,
        "tool_version": call.tool.version,
        "attributes": attributes,
    });
    if let Some(parent) = &call.trace.parent_span_id {
        record["parent_span_id"] = parent.clone().into();
    }
    crate::process::secrets::scrub_value(&mut record);
    record
}

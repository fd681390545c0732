//! Request plans, their digest, and the gate every command passes (rules DRY-*, MUT-*).
//!
//! A command validates its input, builds the requests it would make and hands
//! them to [`crate::call::context::Context::gate`]. Under `--dry-run` the plan is the result;
//! a mutating command without `--confirm` stops with exit 80 and the plan on
//! stdout; `--confirm=<digest>` must match the plan's digest (else exit 81).
//!
//! The gate is a type, not a convention: it hands back a [`Passed`] that owns the checked
//! requests, and [`crate::call::context::Context::send`] takes only a [`Checked`] request taken from it (or
//! derived from it with [`Passed::follow`]):
//!
//! ```no_run
//! fn run(ctx: &mut common::Context<'_>, plan: common::PlanSpec) -> common::Result<()> {
//!     let mut passed = ctx.gate(plan)?;
//!     ctx.send(&passed.take()?)?;
//!     Ok(())
//! }
//! ```
//!
//! A command that skips the gate cannot send:
//!
//! ```compile_fail,E0308
//! fn run(ctx: &mut common::Context<'_>) -> common::Result<()> {
//!     let request = common::Request::get("https://example.invalid/");
//!     ctx.send(&request)?; // expected `&Checked`, found `&Request`
//!     Ok(())
//! }
//! ```
//!
//! nor make a checked request itself:
//!
//! ```compile_fail,E0423
//! let checked = common::Checked(common::Request::get("https://example.invalid/"));
//! ```
//!
//! A plan's arguments are the command's clap `Args`, serialised ([`PlanSpec::of`]); JSON written
//! by hand is no `Args`:
//!
//! ```compile_fail,E0277
//! let plan = common::PlanSpec::of(&serde_json::json!({"kvk_nummer": "68750110"}));
//! ```
//!
//! A command's answer is made from the same token ([`Passed::answer`]), so a command that did
//! not pass the gate (one without requests, too) cannot answer: under `--dry-run` it would have
//! ignored the plan, and a mutation `--confirm`. `Outcome` has no public constructor:
//!
//! ```compile_fail,E0624
//! fn run(ctx: &mut common::Context<'_>) -> common::Result<common::Outcome> {
//!     Ok(common::Outcome::new(serde_json::json!({}), "bron", common::Environment::Local))
//! }
//! ```
//!
//! nor a public struct literal (it has private members):
//!
//! ```compile_fail
//! let outcome = common::Outcome {
//!     data: serde_json::json!({}),
//!     source: "bron".into(),
//!     environment: common::Environment::Local,
//!     source_url: None,
//!     method: None,
//!     response_sha256: None,
//!     extra: Default::default(),
//!     commit: None,
//!     failure: None,
//!     closing: None,
//!     reference: None,
//! };
//! ```
//!
//! and a [`Passed`] comes only from the gate:
//!
//! ```compile_fail,E0624
//! let passed = common::Passed::new(String::new(), Vec::new());
//! ```
//!
//! ```compile_fail,E0451
//! let passed = common::Passed { digest: String::new(), requests: Default::default() };
//! ```

use std::collections::VecDeque;

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::call::provenance::{Environment, Outcome};
use crate::data::digest::canonical_sha256;
use crate::net::http::Request;
use crate::print::lines::JsonLines;
use crate::problem::error::{Problem, Result};

/// The profile's plan schema (`spec/schemas/plan.schema.json`): what `--fields` is checked
/// against under `--dry-run`, where the plan is the result (FIELDS-*, DRY-1).
pub(crate) const PLAN_SCHEMA: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../spec/schemas/plan.schema.json"
));

/// What `--dry-run --fields` is checked against before the plan exists: the plan schema with
/// its top level open, since a command's plan carries members of its own (`backend`,
/// `peildatum`, …; DRY, "a plan MAY carry further members"). The members below the profile's
/// own stay checked; [`plan_fields_schema`] checks the rest once the plan is made.
pub(crate) fn open_plan_schema() -> Value {
    let mut schema: Value = serde_json::from_str(PLAN_SCHEMA).unwrap_or_default();
    schema["additionalProperties"] = Value::Bool(true);
    schema
}

/// What `--dry-run --fields` selects from (FIELDS-8): every member of the profile's plan schema
/// and every member this plan has, at any depth, so a selection names exactly what the plan can
/// hold. A dry run sends nothing, so checking once the plan is made still comes before any
/// request.
pub(crate) fn plan_fields_schema(plan: &Value) -> Value {
    let profile: Value = serde_json::from_str(PLAN_SCHEMA).unwrap_or_default();
    // No `type` beside the alternatives: an object schema without members of its own would
    // admit any name.
    json!({
        "anyOf": [profile.clone(), shape_of(plan)],
        "$defs": profile["$defs"].clone(),
    })
}

/// A schema with exactly the members `value` has: its objects' properties, its arrays' elements
/// (each element's shape an alternative), its scalars by type.
fn shape_of(value: &Value) -> Value {
    match value {
        Value::Object(map) => json!({
            "type": "object",
            "properties": map.iter().map(|(k, v)| (k.clone(), shape_of(v))).collect::<Map<String, Value>>(),
        }),
        Value::Array(items) => json!({
            "type": "array",
            "items": {"anyOf": items.iter().map(shape_of).collect::<Vec<_>>()},
        }),
        Value::String(_) => json!({"type": "string"}),
        Value::Number(_) => json!({"type": "number"}),
        Value::Bool(_) => json!({"type": "boolean"}),
        Value::Null => json!({"type": "null"}),
    }
}

/// What a command intends to do, as it hands it to the gate.
///
/// Its arguments are the command's `Args`, serialised ([`PlanSpec::of`]): every field of the
/// clap struct is a member of the plan under its own name, so an argument added to a command
/// is in its plan (and its digest) without a second edit. A field that is not an argument of
/// the request (a path the plan shows by its content, an output option) is left out where it
/// is declared, with `#[serde(skip)]`; a value is normalised with [`PlanSpec::set`], which
/// may only replace a member the `Args` have (MUT-4).
#[derive(Debug)]
pub struct PlanSpec {
    /// The normalised arguments; together with the command path they define the digest.
    arguments: Map<String, Value>,
    /// Whether members without a value (`null`: an option not given) are left out of the
    /// plan, as MUT-4 has it (one member per property that has a value): true for a plan of
    /// `Args`, so a new optional argument changes no digest of a call that does not give it.
    omit_null: bool,
    /// Why these arguments cannot make a plan (a member [`PlanSpec::set`] did not find, `Args`
    /// that do not serialise to an object): the gate stops with exit 70.
    flaw: Option<String>,
    /// The upstream requests the command would make, in order.
    pub requests: Vec<Request>,
    /// For mutations: what confirming would change, in words.
    pub effect: Option<String>,
    /// Extra members for the plan (e.g. `backend`).
    pub extra: Map<String, Value>,
}

impl PlanSpec {
    /// A plan of the command's arguments: `args` (its clap `Args`, `Serialize`) as a JSON
    /// object, each field under its name, flattened groups (`#[serde(flatten)]`) merged in.
    /// Only a clap `Args` struct makes such a plan: JSON built by hand does not compile here.
    /// A member whose value is `null` (an option not given, not set to a value) is left out.
    pub fn of<A: clap::Args + Serialize>(args: &A) -> Self {
        Self {
            omit_null: true,
            ..Self::serialised(args)
        }
    }

    /// A plan whose arguments are a request the command assembled from its `Args` and other
    /// input (rvo-cli's filing, which reads its concept file; a proposal's decision): that
    /// normalised request, serialised as [`PlanSpec::of`] does, is what the digest covers.
    pub fn of_request<R: Serialize>(request: &R) -> Self {
        Self::serialised(request)
    }

    fn serialised<T: Serialize + ?Sized>(value: &T) -> Self {
        match serde_json::to_value(value) {
            Ok(Value::Object(arguments)) => Self {
                arguments,
                ..Self::blank()
            },
            Ok(other) => Self::flawed(format!("de argumenten zijn geen object maar {other}")),
            Err(e) => Self::flawed(format!(
                "de argumenten zijn niet als JSON te schrijven: {e}"
            )),
        }
    }

    /// No arguments yet: the start of [`PlanSpec::of`] and [`PlanSpec::of_request`], the only
    /// ways to make a plan.
    fn blank() -> Self {
        Self {
            arguments: Map::new(),
            requests: Vec::new(),
            effect: None,
            extra: Map::new(),
            omit_null: false,
            flaw: None,
        }
    }

    fn flawed(flaw: String) -> Self {
        Self {
            flaw: Some(flaw),
            ..Self::blank()
        }
    }

    /// Replace the argument `key` by its normalised value (a trimmed id, the resolved
    /// `--peildatum`, the session's KvK number): what the command will act on, so two calls
    /// that mean the same have the same digest. Only a member the `Args` have can be set; any
    /// other key makes the plan flawed (exit 70 at the gate), so the plan's members stay the
    /// `Args`' fields.
    #[must_use]
    pub fn set(mut self, key: &str, value: impl Into<Value>) -> Self {
        match self.arguments.get_mut(key) {
            Some(slot) => *slot = value.into(),
            None => {
                self.flaw.get_or_insert_with(|| {
                    format!("het plan heeft geen argument {key:?} om te normaliseren")
                });
            }
        }
        self
    }

    /// The plan's flaw, if any, as the problem the gate stops with (exit 70).
    pub(crate) fn check(&self) -> Result<()> {
        match &self.flaw {
            Some(flaw) => Err(Problem::software(format!("ongeldig plan: {flaw}")).into()),
            None => Ok(()),
        }
    }

    /// The arguments as they stand (the plan leaves out members without a value).
    pub fn arguments(&self) -> &Map<String, Value> {
        &self.arguments
    }

    /// Add a request the command would make.
    #[must_use]
    pub fn request(mut self, request: Request) -> Self {
        self.requests.push(request);
        self
    }

    /// Describe the effect of a mutation.
    #[must_use]
    pub fn effect(mut self, effect: impl Into<String>) -> Self {
        self.effect = Some(effect.into());
        self
    }

    /// Add an extra member.
    #[must_use]
    pub fn extra(mut self, key: &str, value: Value) -> Self {
        self.extra.insert(key.to_string(), value);
        self
    }

    /// Mark the member at `pointer` (a JSON pointer into the plan, e.g.
    /// `/arguments/toelichting`) as text the caller wrote and the tool did not check: a view
    /// for the person who approves quotes it as the caller's words, never as its own
    /// ([`CALLER_TEXT`]).
    #[must_use]
    pub fn caller_text(mut self, pointer: &str) -> Self {
        let list = self
            .extra
            .entry(CALLER_TEXT.to_string())
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(pointers) = list {
            pointers.push(pointer.into());
        }
        self
    }

    /// Say something the person who approves must know before deciding, in one Dutch
    /// sentence (the plan's [`NOTICE`] member; a view shows it above the facts).
    #[must_use]
    pub fn notice(mut self, sentence: impl Into<String>) -> Self {
        let list = self
            .extra
            .entry(NOTICE.to_string())
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(sentences) = list {
            sentences.push(sentence.into().into());
        }
        self
    }
}

/// The plan member that lists, as JSON pointers into the plan, the members the caller wrote as
/// free text (MUT-21): shown to a person only quoted and labelled as the caller's words.
pub const CALLER_TEXT: &str = "vrije_tekst";

/// The plan member with sentences the person who approves must read before deciding (MUT-21).
pub const NOTICE: &str = "let_op";

/// `#[serde(serialize_with = "common::plan::paths")]` on a field of paths: each as the plan
/// shows it, as text (bytes that are not UTF-8 replaced, as `display` does), so a path serde
/// cannot write as a string still makes a plan.
pub fn paths<S: serde::Serializer>(
    paths: &[std::path::PathBuf],
    serializer: S,
) -> std::result::Result<S::Ok, S::Error> {
    serializer.collect_seq(paths.iter().map(|path| path.display().to_string()))
}

/// [`paths`] for one optional path.
pub fn optional_path<S: serde::Serializer>(
    path: &Option<std::path::PathBuf>,
    serializer: S,
) -> std::result::Result<S::Ok, S::Error> {
    match path {
        Some(path) => serializer.serialize_some(&path.display().to_string()),
        None => serializer.serialize_none(),
    }
}

/// A finished plan: the JSON object that is printed, and its digest.
#[derive(Clone, Debug)]
pub struct Plan {
    pub digest: String,
    pub json: Value,
}

impl Plan {
    /// Build the plan of `command` (the full name, e.g. `rvo-cli rapportage indienen`).
    pub fn build(tool: &str, command: &str, mutating: bool, dry_run: bool, spec: PlanSpec) -> Self {
        let mut arguments = spec.arguments;
        if spec.omit_null {
            arguments.retain(|_, value| !value.is_null());
        }
        let arguments = Value::Object(arguments);
        let digest = digest(command, &arguments);
        let requests: Vec<Value> = spec.requests.iter().map(Request::to_plan_json).collect();
        // The primary request is the one that produces the data: the last one.
        let primary = requests
            .last()
            .cloned()
            .unwrap_or_else(|| json!({"method": null, "url": null, "headers": {}, "body": null}));
        let mut obj = Map::new();
        obj.insert("dry_run".into(), dry_run.into());
        obj.insert("tool".into(), tool.into());
        obj.insert("command".into(), command.into());
        obj.insert("arguments".into(), arguments);
        obj.insert("mutating".into(), mutating.into());
        obj.insert("plan_digest".into(), digest.clone().into());
        for key in ["method", "url", "headers", "body"] {
            obj.insert(key.into(), primary[key].clone());
        }
        obj.insert("requests".into(), requests.into());
        if let Some(effect) = spec.effect {
            obj.insert("effect".into(), effect.into());
        }
        for (k, v) in spec.extra {
            obj.entry(k).or_insert(v);
        }
        Self {
            digest,
            json: Value::Object(obj),
        }
    }
}

/// What passing the gate yields: the plan's digest and its requests, checked, in plan order.
#[derive(Debug)]
pub struct Passed {
    digest: String,
    requests: VecDeque<Checked>,
}

impl Passed {
    pub(crate) fn new(digest: String, requests: Vec<Request>) -> Self {
        Self {
            digest,
            requests: requests.into_iter().map(Checked).collect(),
        }
    }

    /// The plan's digest (what `--confirm` names).
    pub fn digest(&self) -> &str {
        &self.digest
    }

    /// The next planned request, in the order the plan lists them (exit 70 when none is left:
    /// the command sends more than it planned).
    pub fn take(&mut self) -> Result<Checked> {
        self.requests.pop_front().ok_or_else(|| {
            Problem::software("verzoek buiten het plan (het plan heeft er geen meer)").into()
        })
    }

    /// A request the plan announced but could not spell out (a further page, a URL the answer
    /// names), checked as the gate checks the planned ones (exit 78). Whether it may be sent at
    /// all (the same host, under the configured base) is the command's to check first.
    pub fn follow(&self, request: Request) -> Result<Checked> {
        request.check()?;
        Ok(Checked(request))
    }

    /// The command's answer: `data` from `source` (a label for people) in `environment`. Only
    /// a command that passed the gate holds a `Passed`, so only it can answer.
    pub fn answer(
        &self,
        data: Value,
        source: impl Into<String>,
        environment: Environment,
    ) -> Outcome {
        Outcome::new(data, source, environment)
    }

    /// The command's answer as JSON Lines (OUT-3): the lines it collected in
    /// [`crate::call::context::Context::json_lines`]. A spool that cannot be read back is exit 74.
    pub fn answer_lines(
        &self,
        lines: JsonLines,
        source: impl Into<String>,
        environment: Environment,
    ) -> Result<Outcome> {
        Ok(Outcome::lines(lines, source, environment)?)
    }
}

/// A request that passed the gate's checks: the only kind [`crate::call::context::Context::send`] sends.
#[derive(Debug)]
pub struct Checked(Request);

impl std::ops::Deref for Checked {
    type Target = Request;

    fn deref(&self) -> &Request {
        &self.0
    }
}

/// SHA-256 (hex) of the canonical JSON of `{command, arguments}`.
pub fn digest(command: &str, arguments: &Value) -> String {
    let doc = json!({"command": command, "arguments": arguments});
    canonical_sha256(&doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_ignores_key_order_but_not_values() {
        let a = digest("t x", &json!({"a": 1, "b": "2"}));
        let b = digest("t x", &json!({"b": "2", "a": 1}));
        let c = digest("t x", &json!({"a": 1, "b": "3"}));
        let d = digest("t y", &json!({"a": 1, "b": "2"}));
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, d);
        assert_eq!(a.len(), 64);
    }

    /// `--dry-run --fields` knows every member of the plan (FIELDS-8, issue 40): the profile's
    /// and this plan's own (`backend`, nested `arguments`), and nothing else.
    #[test]
    fn a_dry_runs_fields_know_the_plans_own_members() {
        use crate::data::fields::Selection;
        let plan = json!({"dry_run": true, "tool": "t", "command": "t x", "arguments": {"kvk_nummer": "1"},
            "mutating": true, "plan_digest": "0", "method": null, "url": null, "headers": {}, "body": null,
            "requests": [], "backend": "lokaal", "bronnen": [{"programma": "kvk-cli"}]});
        let schema = plan_fields_schema(&plan);
        for known in [
            "backend",
            "plan_digest",
            "requests[].url",
            "bronnen[].programma",
            "arguments.kvk_nummer",
        ] {
            assert!(Selection::parse(known, &schema).is_ok(), "{known}");
        }
        for unknown in ["bogus", "backend.x", "bronnen[].bogus"] {
            let err = Selection::parse(unknown, &schema).unwrap_err();
            assert_eq!(err.code.name, "ONBEKEND_VELD", "{unknown}");
        }
        let hint = Selection::parse("backnd", &schema)
            .unwrap_err()
            .hint
            .unwrap();
        assert!(
            hint.contains("backend") && hint.contains("plan_digest"),
            "{hint}"
        );
        // Before the plan exists only the profile's own members below the top are checked.
        assert!(Selection::parse("backend", &open_plan_schema()).is_ok());
        assert!(Selection::parse("requests[].bogus", &open_plan_schema()).is_err());
    }

    /// A command's `Args`, as clap and serde see them.
    #[derive(clap::Args, Serialize)]
    struct Args {
        id: String,
        #[arg(long)]
        geo: bool,
        #[command(flatten)]
        #[serde(flatten)]
        peildatum: crate::call::args::Peildatum,
        #[arg(long)]
        #[serde(skip)]
        uitvoerbestand: Option<String>,
    }

    fn args() -> Args {
        Args {
            id: " ab-1 ".into(),
            geo: true,
            peildatum: crate::call::args::Peildatum::default(),
            uitvoerbestand: Some("x".into()),
        }
    }

    #[test]
    fn a_plan_of_args_has_every_field_flattened_groups_merged_and_skips_left_out() {
        let spec = PlanSpec::of(&args());
        assert!(spec.check().is_ok());
        assert_eq!(
            Value::Object(spec.arguments),
            json!({"id": " ab-1 ", "geo": true, "peildatum": null})
        );
    }

    #[test]
    fn set_normalises_a_member_the_args_have() {
        let spec = PlanSpec::of(&args())
            .set("id", "AB-1")
            .set("peildatum", "2026-12-04");
        assert!(spec.check().is_ok());
        assert_eq!(
            Value::Object(spec.arguments),
            json!({"id": "AB-1", "geo": true, "peildatum": "2026-12-04"})
        );
    }

    #[test]
    fn paths_that_are_no_utf_8_still_make_a_plan() {
        use std::os::unix::ffi::OsStrExt;
        #[derive(clap::Args, Serialize)]
        struct Args {
            #[serde(serialize_with = "paths")]
            paden: Vec<std::path::PathBuf>,
            #[arg(long)]
            #[serde(serialize_with = "optional_path")]
            notities: Option<std::path::PathBuf>,
        }
        let odd = std::path::PathBuf::from(std::ffi::OsStr::from_bytes(b"a\xffb"));
        let spec = PlanSpec::of(&Args {
            paden: vec!["x/y".into(), odd.clone()],
            notities: Some(odd),
        });
        assert!(spec.check().is_ok());
        assert_eq!(
            Value::Object(spec.arguments),
            json!({"paden": ["x/y", "a\u{fffd}b"], "notities": "a\u{fffd}b"})
        );
    }

    #[test]
    fn an_argument_without_value_is_left_out_of_the_plan_and_its_digest() {
        let plan = Plan::build("t", "t x", false, true, PlanSpec::of(&args()));
        assert_eq!(plan.json["arguments"], json!({"id": " ab-1 ", "geo": true}));
        assert_eq!(plan.digest, digest("t x", &plan.json["arguments"]));
        // A request keeps its nulls: its digest is what was filed.
        let request = PlanSpec::of_request(&json!({"a": null}));
        let plan = Plan::build("t", "t x", true, true, request);
        assert_eq!(plan.json["arguments"], json!({"a": null}));
    }

    #[test]
    fn setting_a_member_the_args_lack_stops_the_gate_with_exit_70() {
        for key in ["bestaat_niet", "uitvoerbestand"] {
            let spec = PlanSpec::of(&args()).set(key, 1);
            assert!(!spec.arguments.contains_key(key), "{key}");
            let err = spec.check().expect_err(key);
            assert_eq!(
                err.exit_status(),
                crate::problem::exit::ExitStatus::Software,
                "{key}"
            );
        }
    }

    #[test]
    fn a_request_that_is_no_object_stops_the_gate_with_exit_70() {
        let err = PlanSpec::of_request(&["a"]).check().expect_err("array");
        assert_eq!(
            err.exit_status(),
            crate::problem::exit::ExitStatus::Software
        );
    }

    #[test]
    fn plan_without_requests_has_null_method_and_url() {
        let plan = Plan::build(
            "t",
            "t x",
            true,
            true,
            PlanSpec::of_request(&json!({"k": 1})),
        );
        assert_eq!(plan.json["method"], Value::Null);
        assert_eq!(plan.json["requests"], json!([]));
        assert_eq!(plan.json["plan_digest"], plan.digest);
    }
}

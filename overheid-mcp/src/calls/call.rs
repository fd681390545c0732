//! One tool call: validate, build the command line, run the CLI, and read what it said.
//!
//! The CLI does the work and keeps its own rules (provenance, audit, minimisation,
//! plans); the bridge only translates. It never runs a program with `--confirm`: a mutating
//! tool called with its own arguments is refused by the CLI with exit 80 and its plan, which
//! comes back as "nothing was done"; a tool that applies a proposal gets only its id, and the
//! program applies it only when a person approved it ([`crate::proposals`]).
//!
//! Each call is its own span: the child gets `TRACEPARENT=00-<trace>-<bridge span>-<flags>`
//! (the client's trace from `_meta.traceparent`, else a new one), so the CLI's audit record,
//! provenance and error `instance` carry the same trace id as the MCP call; and
//! `OVERHEID_FOREIGN_PROCESSOR` naming the bridge ([`Bridge::processor`]), so every record says
//! on whose behalf the CLI ran (AUDIT-20).
//!
//! The child runs on the bridge's reactor (`common::child::run_async`): no thread per call, and
//! the request's cancellation kills its process group.

use std::future::Future;

use rmcp::ErrorData;
use serde_json::{Map, Value, json};

use common::child::{self, Ending, Environment, Finished, Spawn};
use common::codes;
use common::env::{FOREIGN_CLIENT, FOREIGN_PROCESSOR};
use common::exit::ExitStatus;
use common::trace::TraceContext;
use overheid_records::ProposingClient;

use crate::calls::bridge::Bridge;
use crate::calls::notify::Notifier;
use crate::calls::server_info::{SERVER_INFO_KEY, server_info};
use crate::catalog::argv::{self, Gap, TooLarge};
use crate::catalog::local_paths;
use crate::catalog::stdin_value;
use crate::catalog::{META_PREFIX, Tool};
use crate::identity::session::Session;
use crate::problem::{check_input, invalid_input, nul_characters, pointer, problem};
use crate::proposals;
use crate::shape::Shape;
use common::provenance::ProvenanceForm;

/// What came of a call.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// Exit 0: the envelope's data, the same as compact JSON text, and the provenance.
    Data {
        data: Value,
        text: String,
        provenance: Value,
    },
    /// A mutating tool printed its plan instead of acting (exit 80: the bridge never confirms).
    Planned { plan: Value },
    /// Anything else: the error object, and the plan when the CLI printed one (exit 81).
    Failed { error: Value, plan: Option<Value> },
    /// The client cancelled; nothing is to be answered.
    Cancelled,
}

/// One call as the client sent it, with its identity.
pub(crate) struct Invocation<'a> {
    pub tool: &'a Tool,
    /// The call's `arguments` object, `fields` included.
    pub arguments: &'a Map<String, Value>,
    pub session: Option<&'a Session>,
    /// The program the client declared itself to be, passed to the CLI in
    /// `OVERHEID_FOREIGN_CLIENT` (a proposal shows it to the person who decides).
    pub client: Option<&'a ProposingClient>,
    /// The provenance the result carries in `_meta` (PROV-1: the client may ask for compact).
    pub provenance: ProvenanceForm,
    /// Where progress and the CLI's warnings go while it runs ([`crate::calls::notify`]).
    pub notifier: Option<&'a Notifier>,
}

/// Run one invocation of a tool until it ends or `cancelled` completes, in the steps the module
/// names: [`validated`], [`command_line`], [`started`] and [`read`]. `Err` is a refusal before
/// anything ran that the client gets as a JSON-RPC error (-32602).
pub(crate) async fn run(
    bridge: &Bridge,
    call: &Invocation<'_>,
    trace: &TraceContext,
    cancelled: impl Future<Output = ()>,
) -> Result<Outcome, ErrorData> {
    let line =
        validated(bridge, call, trace).and_then(|arguments| command_line(call, arguments, trace));
    let (args, stdin) = match line {
        Ok(line) => line,
        Err(refused) => return refused.outcome(),
    };
    match started(bridge, call, args, stdin, trace, cancelled).await {
        Ok(finished) => Ok(read(bridge, call, finished, trace).await),
        Err(error) => Ok(Outcome::Failed { error, plan: None }),
    }
}

/// Why a call ends before its program runs.
enum Refused {
    /// A JSON-RPC error (-32602): the call itself cannot be made.
    Rpc(ErrorData),
    /// The tool's error result: the error object, as the CLI would have said it.
    Answer(Value),
}

impl Refused {
    /// The call's answer.
    fn outcome(self) -> Result<Outcome, ErrorData> {
        match self {
            Refused::Rpc(error) => Err(error),
            Refused::Answer(error) => Ok(Outcome::Failed { error, plan: None }),
        }
    }
}

/// Step: the call's arguments checked before anything runs (the tool's definition, local paths
/// it may not take, the session's company, the input schema, NUL characters, a bound argument
/// that nobody fills); the arguments as they go on, with the session's company checked.
fn validated(
    bridge: &Bridge,
    call: &Invocation<'_>,
    trace: &TraceContext,
) -> Result<Map<String, Value>, Refused> {
    let (tool, arguments) = (call.tool, call.arguments);
    let validator = bridge.validator(tool).map_err(|why| {
        Refused::Answer(problem(
            codes::INTERNE_FOUT,
            "Ongeldige tooldefinitie",
            &why,
            ExitStatus::Software,
            trace,
        ))
    })?;
    let refused = local_paths::refused(&tool.hidden_paths, arguments);
    if !refused.is_empty() {
        return Err(Refused::Answer(invalid_input(&tool.name, &refused, trace)));
    }
    // A company the model names must be the identity's own: never silently replaced by it.
    // The same number is accepted (and, where the argument is not listed, left for the
    // identity to fill); another one is refused before anything runs.
    let arguments =
        session_argument_checked(tool, arguments, call.session, bridge).map_err(Refused::Rpc)?;
    let as_value = Value::Object(arguments.clone());
    if let Some(error) = check_input(&validator, &as_value, &tool.name, trace) {
        return Err(Refused::Answer(error));
    }
    let nul = nul_characters(&arguments, tool.stdin_argument.as_deref());
    if !nul.is_empty() {
        return Err(Refused::Answer(invalid_input(&tool.name, &nul, trace)));
    }
    // A bound argument the model cannot give (it is not listed) and the identity does not
    // fill: the bridge says who can fix that, rather than the program's hint to set its
    // variable, which only whoever starts the server can do.
    if bridge.catalog.hide_session_args
        && tool.proposal_argument.is_none()
        && let Some((argument, variable)) = tool
            .session_args
            .iter()
            .find(|(argument, _)| call.session.and_then(|s| s.values.get(argument)).is_none())
    {
        let bound = (argument.as_str(), variable.as_str());
        return Err(Refused::Answer(Session::no_company(
            call.session,
            bridge.transport,
            bound,
            trace,
        )));
    }
    Ok(arguments)
}

/// Step: the program's command line and standard input from the checked arguments: `fields`
/// as `--fields`, a proposal by its id only, the session's arguments, the argument that goes
/// on stdin, then `--output json` and the provenance; refused when it would be too large.
fn command_line(
    call: &Invocation<'_>,
    mut own: Map<String, Value>,
    trace: &TraceContext,
) -> Result<(Vec<String>, Option<Vec<u8>>), Refused> {
    let tool = call.tool;
    let fields = if tool.takes_fields {
        own.remove("fields")
    } else {
        None
    };
    // A tool that applies a proposal gets its id only, by the program's name for it: the
    // proposal names the company, and the session variable in the child's environment binds it
    // (SEC-7).
    if let Some(name) = &tool.proposal_argument
        && let Some(id) = own.remove(proposals::PROPOSAL_ARGUMENT)
    {
        own.insert(name.clone(), id);
    }
    if let Some(session) = call.session.filter(|_| tool.proposal_argument.is_none()) {
        for (argument, _) in &tool.session_args {
            if let Some(value) = session.values.get(argument) {
                own.insert(argument.clone(), Value::String(value.clone()));
            }
        }
    }
    let stdin = match &tool.stdin_argument {
        Some(name) => stdin_value::take(name, &mut own)
            .map_err(|too_large| Refused::Answer(oversized(&tool.name, &too_large, trace)))?,
        None => None,
    };
    let line = argv::build(&tool.entry["_meta"], &own)
        .map_err(|gap| Refused::Rpc(gap_refused(&tool.name, &gap)))?;
    let provenance = match call.provenance {
        ProvenanceForm::Full => "--provenance",
        ProvenanceForm::Compact => "--provenance=compact",
    };
    let mut global = vec![
        "--output".to_string(),
        "json".to_string(),
        provenance.to_string(),
    ];
    if let Some(Value::Array(paths)) = &fields {
        let paths: Vec<&str> = paths.iter().filter_map(Value::as_str).collect();
        // Joined to its flag, like every option value (§3.2): a path starting with `-` stays data.
        global.push(format!("--fields={}", paths.join(",")));
    }
    let args = line.into_args(global);
    if let Err(too_large) = argv::check_size(&tool.entry["_meta"], &args) {
        return Err(Refused::Answer(oversized(&tool.name, &too_large, trace)));
    }
    Ok((args, stdin))
}

/// Step: the CLI run as a child with only its declared environment, the session's, the trace
/// and the processor, until it ends, times out or `cancelled` completes (progress notified
/// meanwhile). `Err`: the error object when it could not start.
async fn started(
    bridge: &Bridge,
    call: &Invocation<'_>,
    args: Vec<String>,
    stdin: Option<Vec<u8>>,
    trace: &TraceContext,
    cancelled: impl Future<Output = ()>,
) -> Result<Finished, Value> {
    let tool = call.tool;
    let source = &bridge.catalog.sources[tool.source];
    let mut env = bridge.child_env(tool.source).to_vec();
    Session::apply_env(call.session, source, &mut env);
    let spawn = Spawn::new(&source.program, args, Environment::Only(env))
        .var("TRACEPARENT", trace.traceparent())
        .var(FOREIGN_PROCESSOR, bridge.processor())
        .stdin(stdin);
    let spawn = match call.client {
        Some(client) => spawn.var(FOREIGN_CLIENT, client.to_env()),
        None => spawn,
    };
    let running = child::run_async(spawn, bridge.timeout, cancelled);
    let finished = match call.notifier {
        Some(notifier) => notifier.while_running(&tool.name, running).await,
        None => running.await,
    };
    finished.map_err(|e| {
        // The tool's command, never the server's path to the program.
        let detail = bridge
            .server_paths
            .scrub_text(&format!("{} kon niet starten: {e}", tool.command));
        problem(
            codes::BRON_ONBEREIKBAAR,
            "Tool niet te starten",
            &detail,
            ExitStatus::Unavailable,
            trace,
        )
    })
}

/// Step: what the CLI said, read by how it ended: the envelope's data (within the size bound),
/// a plan instead of an action (exit 80), its error object (with a plan where it printed one),
/// a time-out, a signal or a cancellation. Its warnings go to the notifier.
async fn read(
    bridge: &Bridge,
    call: &Invocation<'_>,
    finished: Finished,
    trace: &TraceContext,
) -> Outcome {
    let tool = call.tool;
    let failed = |error| Outcome::Failed { error, plan: None };
    // Everything the CLI says passes here, and no server path passes on (WIRE-9).
    let scrub = |said: &[u8]| bridge.server_paths.scrub(said);
    let (stdout, stderr) = (scrub(&finished.stdout), scrub(&finished.stderr));
    if let (Some(notifier), Ending::Exited(_)) = (call.notifier, &finished.ending) {
        notifier.warnings(&tool.name, &stderr).await;
    }
    let command = &tool.command;
    let stdout: Option<Value> = serde_json::from_slice(&stdout).ok();
    let exited = |code: i32| u8::try_from(code).ok().and_then(ExitStatus::from_code);
    match finished.ending {
        Ending::Cancelled => Outcome::Cancelled,
        Ending::TimedOut => {
            let seconds = bridge.timeout.as_secs_f64();
            let detail = format!(
                "{command} duurde langer dan {seconds} s; het proces en zijn kinderen zijn gestopt."
            );
            failed(problem(
                codes::TIJDLIMIET_VERSTREKEN,
                "Tijdslimiet verstreken",
                &detail,
                ExitStatus::Timeout,
                trace,
            ))
        }
        Ending::Exited(0) => match stdout {
            Some(Value::Object(mut envelope)) if envelope.contains_key("data") => {
                let mut data = envelope.remove("data").unwrap_or_default();
                tool.null_is_absent.apply(&mut data);
                let text = data.to_string();
                if text.len() > bridge.max_result_bytes {
                    failed(too_large(bridge, tool, text.len(), trace))
                } else {
                    Outcome::Data {
                        data,
                        text,
                        provenance: envelope.remove("provenance").unwrap_or_default(),
                    }
                }
            }
            _ => {
                let detail = format!(
                    "{command} gaf geen herkomst-envelop ({{data, provenance}}) op stdout."
                );
                failed(problem(
                    codes::INTERNE_FOUT,
                    "Onverwachte uitvoer van de tool",
                    &detail,
                    ExitStatus::Software,
                    trace,
                ))
            }
        },
        Ending::Exited(code)
            if exited(code) == Some(ExitStatus::ConfirmationRequired)
                && tool.mutating
                && !waits_for_a_person(&stderr) =>
        {
            match stdout.filter(|plan| plan["plan_digest"].is_string()) {
                Some(plan) => Outcome::Planned { plan },
                None => failed(stderr_error(&stderr, code, command, trace)),
            }
        }
        Ending::Exited(code) => Outcome::Failed {
            error: stderr_error(&stderr, code, command, trace),
            plan: stdout.filter(|_| {
                matches!(
                    exited(code),
                    Some(ExitStatus::ConfirmationRequired | ExitStatus::PlanStale)
                )
            }),
        },
        Ending::Signalled => {
            let detail = format!("{command} werd onverwacht door een signaal beëindigd.");
            Outcome::Failed {
                error: problem(
                    codes::INTERNE_FOUT,
                    "Tool afgebroken",
                    &detail,
                    ExitStatus::Software,
                    trace,
                ),
                plan: None,
            }
        }
    }
}

/// Whether the CLI's error says a proposal waits for a person (whatever its exit code).
fn waits_for_a_person(stderr: &[u8]) -> bool {
    let text = String::from_utf8_lossy(stderr);
    text.lines()
        .rev()
        .find(|line| !line.trim().is_empty())
        .and_then(|last| serde_json::from_str::<Value>(last).ok())
        .is_some_and(|error| error["code"] == proposals::WAITING_CODE)
}

/// The refusal (-32602) of a call that leaves out a positional argument but gives a later one:
/// the program fills positionals in order, so it would take the later value for the absent one.
fn gap_refused(tool: &str, gap: &Gap) -> ErrorData {
    let (missing, given) = (&gap.missing, &gap.given);
    ErrorData::invalid_params(
        format!(
            "{tool}: argument {missing} ontbreekt; {given} kan alleen samen met {missing} worden \
             meegegeven (positionele argumenten staan op volgorde)"
        ),
        Some(json!({"name": tool, "missing": missing, "given": given})),
    )
}

/// The call's arguments with each session-bound argument the model gave checked against the
/// identity (issue 40): another company than the identity's is -32602 naming the conflict (not
/// the numbers: the refusal reads the same for every company); the same one is fine and, where
/// the catalogue hides the argument, dropped so the identity fills it.
fn session_argument_checked(
    tool: &Tool,
    arguments: &Map<String, Value>,
    session: Option<&Session>,
    bridge: &Bridge,
) -> Result<Map<String, Value>, ErrorData> {
    let mut checked = arguments.clone();
    let Some(session) = session.filter(|_| tool.proposal_argument.is_none()) else {
        return Ok(checked);
    };
    for (argument, _) in &tool.session_args {
        let (Some(given), Some(own)) = (arguments.get(argument), session.values.get(argument))
        else {
            continue;
        };
        if given.as_str() != Some(own.as_str()) {
            return Err(ErrorData::invalid_params(
                format!(
                    "{}: {argument} in de argumenten is niet het bedrijf van de sessie; het \
                     bedrijf komt uit de sessie en wordt niet vervangen. Laat {argument} weg.",
                    tool.name
                ),
                Some(json!({"name": tool.name, "argument": argument, "conflict": "sessie"})),
            ));
        }
        if bridge.catalog.hide_session_args {
            checked.remove(argument);
        }
    }
    Ok(checked)
}

/// The error object (65) for a command line over the bridge's limits (§3.2).
fn oversized(tool: &str, too_large: &TooLarge, trace: &TraceContext) -> Value {
    let (word_limit, line_limit) = (argv::MAX_WORD_BYTES, argv::MAX_ARGV_BYTES);
    match too_large {
        TooLarge::Word { property, bytes } => {
            let detail = format!(
                "argument is {bytes} bytes; de brug geeft een tool hoogstens {word_limit} bytes per \
                 waarde (optie met waarde, één positioneel argument, of inhoud op stdin)"
            );
            invalid_input(tool, &[(pointer(property), detail)], trace)
        }
        TooLarge::Total { bytes } => {
            let detail = format!(
                "De opdrachtregel voor {tool} zou {bytes} bytes worden; de brug geeft een tool \
                 hoogstens {line_limit} bytes samen. Geef minder of kortere waarden."
            );
            let mut error = problem(
                codes::ONGELDIGE_INVOER,
                "Invoer te groot",
                &detail,
                ExitStatus::DataErr,
                trace,
            );
            error["hint"] = json!("Splits het verzoek in kleinere aanroepen.");
            error
        }
    }
}

/// The CLI's error object: the last stderr line (ERR-1), or one made from what there is.
/// Without one, an exit code outside the profile's table is reported as a software error (70).
fn stderr_error(stderr: &[u8], code: i32, command: &str, trace: &TraceContext) -> Value {
    let text = String::from_utf8_lossy(stderr);
    let last = text
        .lines()
        .rev()
        .find(|line| !line.trim().is_empty())
        .unwrap_or_default();
    match serde_json::from_str::<Value>(last) {
        Ok(object @ Value::Object(_)) if object.get("code").is_some() => object,
        _ => {
            let detail = format!(
                "{command} eindigde met exit {code} zonder foutobject: {}",
                last.trim()
            );
            let status = u8::try_from(code)
                .ok()
                .and_then(ExitStatus::from_code)
                .unwrap_or(ExitStatus::Software);
            problem(
                codes::INTERNE_FOUT,
                "Tool faalde zonder foutobject",
                &detail,
                status,
                trace,
            )
        }
    }
}

/// The MCP `CallToolResult` of a finished outcome, as JSON (`None` for a cancelled call), in
/// the `shape` the call asked for ([`Shape`]).
///
/// By default a success carries its data twice: as `structuredContent` (for a client that
/// validates it against the `outputSchema`) and as one text block of compact JSON (for the many
/// hosts that give a model only `content`; MCP's tools page: a tool that returns structured
/// content SHOULD also return it as text), with its provenance in `_meta`. A client that reads
/// `structuredContent` may ask for the data once (a short text block) and for no provenance.
/// Error results carry the error object in text and in `_meta["nl.overheid/problem"]`, never as
/// `structuredContent`: it does not match the tool's `outputSchema`.
pub(crate) fn tool_result(outcome: Outcome, shape: Shape) -> Option<Value> {
    let text = |text: String| json!([{"type": "text", "text": text}]);
    let mut result = match outcome {
        Outcome::Cancelled => return None,
        Outcome::Data {
            data,
            text: copy,
            provenance,
        } => {
            let structured = data.is_object();
            let mut result = json!({
                "content": text(shape.text(structured, copy)),
                "isError": false,
                "_meta": {},
            });
            if shape.provenance.is_some() {
                result["_meta"][format!("{META_PREFIX}/provenance")] = provenance;
            }
            if structured {
                result["structuredContent"] = data;
            }
            result
        }
        Outcome::Planned { plan } => {
            let mut result = proposals::not_performed(proposals::DRY_RUN_ONLY, false);
            result["_meta"] = json!({ format!("{META_PREFIX}/plan"): plan });
            result
        }
        Outcome::Failed { error, plan } => {
            let content = text(error.to_string());
            let mut meta = json!({ format!("{META_PREFIX}/problem"): error });
            if let Some(plan) = plan {
                meta[format!("{META_PREFIX}/plan")] = plan;
            }
            json!({
                "content": content,
                "isError": true,
                "_meta": meta,
            })
        }
    };
    result["resultType"] = json!("complete");
    result["_meta"][SERVER_INFO_KEY] = server_info();
    Some(result)
}

/// The error object (76, `ANTWOORD_TE_GROOT`) of a result over `--max-result-bytes`: nothing of
/// it is sent; the hint names what gives a smaller one. The bridge does not cut or page a
/// result itself (a cut JSON value is not one, and a page the CLI did not make cannot be asked
/// for again statelessly): it points to the tool's own means, in this order: `fields`, the
/// source's tools that take the same argument (koop's `regeling_artikel` next to
/// `regeling_toon`), and the tool's paging arguments.
fn too_large(bridge: &Bridge, tool: &Tool, bytes: usize, trace: &TraceContext) -> Value {
    let limit = bridge.max_result_bytes;
    let detail = format!(
        "Het resultaat van {} is {bytes} bytes; de brug geeft hoogstens {limit} bytes per resultaat \
         terug. Er is niets van verstuurd.",
        tool.name
    );
    let mut ways = Vec::new();
    if tool.takes_fields {
        let members: Vec<&str> = tool.listed["outputSchema"]["properties"]
            .as_object()
            .into_iter()
            .flat_map(|m| m.keys())
            .take(2)
            .map(String::as_str)
            .collect();
        ways.push(format!(
            "vraag alleen de velden op die u nodig hebt met fields (bijv. {})",
            serde_json::to_string(&members).unwrap_or_default()
        ));
    }
    let narrower = bridge.catalog.narrower(tool);
    if !narrower.is_empty() {
        ways.push(format!("gebruik {}", narrower.join(" of ")));
    }
    let paging: Vec<&str> = PAGING
        .iter()
        .copied()
        .filter(|name| {
            tool.listed["inputSchema"]["properties"]
                .get(*name)
                .is_some()
        })
        .collect();
    if !paging.is_empty() {
        ways.push(format!("vraag per pagina op ({})", paging.join(", ")));
    }
    let mut error = problem(
        codes::ANTWOORD_TE_GROOT,
        "Resultaat te groot",
        &detail,
        ExitStatus::Protocol,
        trace,
    );
    error["limit_bytes"] = json!(limit);
    error["size_bytes"] = json!(bytes);
    if !ways.is_empty() {
        let mut hint = ways.join("; ");
        hint[..1].make_ascii_uppercase();
        error["hint"] = json!(format!("{hint}."));
    }
    error
}

/// The paging arguments of the family (CONV-5), as a too-large result names them.
const PAGING: &[&str] = &["pagina", "per_pagina", "resultatenPerPagina", "aantal"];

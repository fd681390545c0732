//! The lifecycle of one invocation, the same for every tool, as phase functions that [`run`]
//! calls in order:
//!
//! 1. [`Start::parse`]: `--help --json` → discovery; `completions` → a completion script;
//!    `cache leeg` → the response cache emptied; otherwise parse with clap (a usage error is
//!    one JSON object on stderr, exit 2) into the command and its entry.
//! 2. [`Start::environment`]: the printer, the time limit, and the audit destinations opened
//!    before any work: the file (exit 74 if it cannot be opened) and/or the OTLP exporter
//!    (exit 78 if misconfigured); every declared secret held.
//! 3. [`output_options`]: `--fields` checked against the schema of what will be printed, and
//!    `--jq` parsed.
//! 4. [`execute`]: refuse a bad `--timeout`, an unreadable environment variable, a short secret
//!    or bad output options (audited); otherwise run the command; a panic becomes exit 70 with
//!    its location (never its data) in the error and the record; the result [`settled`].
//! 5. [`Finish::answer`]: apply `--fields`, then `--provenance`, then write the audit record and
//!    have every destination confirm it; only then commit and print. If the record cannot be
//!    written or is not confirmed, nothing is printed and the exit is 74 (124 when the
//!    deadline passed).

use std::ffi::OsString;
use std::mem::ManuallyDrop;
use std::time::{Duration, Instant};

use chrono::{SecondsFormat, Utc};
use clap::FromArgMatches;
use clap::error::ErrorKind;
use serde_json::Value;

use crate::call::audit::Audit;
use crate::call::context::Context;
use crate::call::globals::GlobalArgs;
use crate::call::provenance::{EnvelopeContext, Outcome, envelope};
use crate::call::tool::{CommandSpec, ToolInfo};
use crate::data::fields::Selection;
use crate::print::output::Printer;
use crate::problem::error::{Error, Halt, Problem};
use crate::problem::exit::ExitStatus;
use crate::process::crash;
use crate::process::env::{Env, PROCESSING_ACTIVITY, PROFILE_ENV};
use crate::process::trace::TraceContext;
use crate::run::cli::{Cli, Commands, command, subcommand_path};
use crate::run::discovery;
use crate::run::help;
use crate::run::jq::JqFilter;
use crate::run::usage::usage_problem;

/// Run a tool to completion; only this function decides the exit code.
///
/// No panic reaches the user: the runtime's panic text is suppressed and any
/// panic outside the command (which `run` catches and audits itself) still
/// ends in one error object and exit 70 (rule ERR-12).
pub fn main<C: Commands>(info: &'static ToolInfo) -> ExitStatus {
    crash::install();
    crash::catch(|| run::<C>(info)).unwrap_or_else(|report| {
        let printer = Printer::new(None, true, false);
        report_early(&report.problem(), &printer, &TraceContext::start(None))
    })
}

fn run<C: Commands>(info: &'static ToolInfo) -> ExitStatus {
    let started = Utc::now();
    let clock = Instant::now();
    let args: Vec<OsString> = std::env::args_os().collect();
    if args
        .get(1)
        .is_some_and(|arg| arg == crate::run::jq::WORKER_ARG)
    {
        return crate::run::jq::worker();
    }
    let env = Env::read(&info.env_vars());
    let trace = TraceContext::start(env.get("TRACEPARENT"));
    let early = Printer::early(&args, &env);
    let start = Start {
        info,
        args: &args,
        env: &env,
        trace: &trace,
        early: &early,
    };
    let (Cli { global, command }, spec) = match start.parse::<C>() {
        Ok(parsed) => parsed,
        Err(answered) => return answered,
    };
    let Setup {
        printer,
        timeout,
        deadline,
        mut log,
        refused,
    } = match start.environment(&global, clock) {
        Ok(setup) => setup,
        Err(answered) => return answered,
    };
    let mut ctx = Context::new(info, spec, &global, &env, trace, printer, deadline);
    // `--fields` is checked against the output schema before any work, but
    // after the audit log is open, so a refused selection is audited too.
    // Under `--dry-run` the plan is the output, so the plan schema decides.
    let schema = || {
        if global.dry_run {
            crate::call::plan::open_plan_schema()
        } else {
            spec.output_schema()
        }
    };
    let (selection, jq, bad_options) = output_options(&global, &schema);
    ctx.selection = selection;
    let result = execute(command, &mut ctx, refused.or(bad_options), timeout);
    let finish = Finish {
        ctx: &ctx,
        jq: jq.as_ref(),
        started: started.to_rfc3339_opts(SecondsFormat::Millis, true),
        processing_activity: env.get(PROCESSING_ACTIVITY).unwrap_or(""),
    };
    finish.answer(&mut log, result, ctx.selection.as_ref())
}

/// What the phases before the command share: the tool, argv, the environment (read once), the
/// call's trace and the printer for answers given before the options are known.
struct Start<'s> {
    info: &'static ToolInfo,
    args: &'s [OsString],
    env: &'s Env,
    trace: &'s TraceContext,
    early: &'s Printer,
}

/// What the environment phase sets up for the command: the printer the options ask for, the
/// time limit and its deadline, the open audit destinations, and the first configuration
/// problem that refuses the call (audited, so found only once the audit is open).
struct Setup {
    printer: Printer,
    timeout: Duration,
    deadline: Instant,
    log: Audit,
    refused: Option<Problem>,
}

impl Start<'_> {
    /// Phase: argv parsed into the command to run and its entry. Discovery, help, `--version`,
    /// `cache leeg` and usage errors are answered here: `Err` is that answer's exit status.
    fn parse<C: Commands>(&self) -> Result<(Cli<C>, &'static CommandSpec), ExitStatus> {
        let Self {
            info,
            args,
            env,
            trace,
            early,
        } = *self;
        if let Some(document) = discovery::requested::<C>(info, args) {
            let printer = Printer::new(None, true, true);
            let _ = printer.stdout(&printer.render(&document));
            return Err(ExitStatus::Ok);
        }
        // Parsed with the bare tree; it lives until the process ends, since freeing
        // it would only cost time. Help and usage errors are shown from the dressed
        // tree (examples, exit codes, hidden options), which only they need.
        let mut parser = ManuallyDrop::new(crate::run::cli::parser::<C>(info, Some(args)));
        let mut matches = match parser.try_get_matches_from_mut(args) {
            Ok(m) => m,
            Err(err) if err.kind() == ErrorKind::DisplayVersion => {
                return Err(clap_error(err, &parser, args, early, env, trace));
            }
            // The bare tree holds only the commands argv names by name (`cli::parser`): the
            // whole tree says what is wrong, or parses what the bare one could not (a command
            // named by an alias).
            Err(_) => {
                let mut cmd = command::<C>(info);
                match cmd.try_get_matches_from_mut(args) {
                    Ok(m) => m,
                    Err(err) => return Err(clap_error(err, &cmd, args, early, env, trace)),
                }
            }
        };
        if let Some(("cache", sub)) = matches.subcommand() {
            let dry_run = sub
                .subcommand()
                .is_some_and(|(_, leeg)| leeg.get_flag("dry_run"));
            return Err(
                match crate::net::cache::utility(env, early, dry_run)
                    .and_then(|text| early.stdout(&text))
                {
                    Ok(()) => ExitStatus::Ok,
                    Err(err) => report_early(&err, early, trace),
                },
            );
        }
        if let Some(text) = help::utility(
            || command::<C>(info),
            &matches,
            help_look(early, env, false),
        ) {
            return Err(match text.and_then(|text| early.stdout(&text)) {
                Ok(()) => ExitStatus::Ok,
                Err(err) => report_early(&err, early, trace),
            });
        }
        let path = subcommand_path(&matches);
        let Some(spec) = C::spec(&path) else {
            return Err(report_early(
                &Problem::software(format!("geen specificatie voor {path:?}")),
                early,
                trace,
            ));
        };
        // Taken out of the matches, not out of a copy of them (`from_arg_matches` clones every
        // matched argument first: a tenth of a call's allocations).
        match Cli::<C>::from_arg_matches_mut(&mut matches) {
            Ok(tool) => Ok((tool, spec)),
            Err(err) => Err(clap_error(
                err,
                &command::<C>(info),
                args,
                early,
                env,
                trace,
            )),
        }
    }

    /// Phase: the printer, the time limit and the audit destinations from the global options
    /// and the environment, and every declared secret held. A destination that cannot be
    /// opened is answered here (`Err`, no record); a bad `--timeout`, an unreadable variable
    /// or a secret too short to mask refuses the call once it can be audited.
    fn environment(&self, global: &GlobalArgs, clock: Instant) -> Result<Setup, ExitStatus> {
        let Self { info, env, .. } = *self;
        let printer = Printer::new(
            global.output,
            global.no_color || env.get("NO_COLOR").is_some() || env.get("TERM") == Some("dumb"),
            global.quiet,
        )
        .with_width(env.get("COLUMNS"))
        .with_pager(global.geen_pager, env);
        // A bad `--timeout` is a usage error like any other after parsing, so it
        // is audited (AUDIT-1); until then the default bounds the audit waits.
        let (timeout, bad_timeout) =
            global.time_limit(Duration::from_secs(info.default_timeout_secs));
        let deadline = clock + timeout;
        // An unreadable variable that decides the destination leaves no
        // trustworthy place for a record: 78 without one (AUDIT-2, CONF-7).
        let log = match Audit::open(global.audit_log.as_deref(), env, info, deadline) {
            Ok(log) => log,
            Err(err) => return Err(report_early(&err, self.early, self.trace)),
        };
        // Every secret is held before anything is printed or recorded; one too short to mask
        // is refused (SEC-11), audited like any configuration error.
        let short_secret = crate::process::secrets::hold_declared(PROFILE_ENV, env)
            .and(crate::process::secrets::hold_declared(info.env, env))
            .err();
        let refused = bad_timeout.or_else(|| env.check().err()).or(short_secret);
        Ok(Setup {
            printer,
            timeout,
            deadline,
            log,
            refused,
        })
    }
}

/// Phase: the command run, unless a problem found before refuses the call; a panic becomes
/// exit 70 with its location in the record. The result is settled (a timeout explained, a
/// skipped gate refused, a Ctrl-C observed) and, when it stands, the cache entries the
/// command used are committed.
fn execute<C: Commands>(
    command: C,
    ctx: &mut Context<'_>,
    refused: Option<Problem>,
    timeout: Duration,
) -> Result<Outcome, Error> {
    let result = match crash::catch(|| match refused {
        Some(problem) => Err(problem.into()),
        None => command.run(ctx),
    }) {
        Ok(result) => result,
        Err(report) => {
            for (key, value) in report.attributes() {
                ctx.audit_attribute(key, value);
            }
            Err(report.problem().into())
        }
    };
    let result = settled(result, ctx, timeout);
    // Ctrl-C while the command worked rather than waited (EXIT-11).
    let result = crate::call::interrupt::observed(result, ctx.spec.is_mutating());
    if result.is_ok() {
        // The answers the command used are sound: their cache entries go in place (CACHE-1).
        ctx.commit_cache();
    }
    result
}

/// Phase: `--fields` (against the schema of what will be printed) and `--jq` parsed, and
/// refused together as they cannot be used: the first problem, if any, is the call's answer.
fn output_options(
    globals: &GlobalArgs,
    schema: &dyn Fn() -> Value,
) -> (Option<Selection>, Option<JqFilter>, Option<Problem>) {
    let (selection, bad_fields) = match globals.fields.as_deref() {
        Some(text) => match Selection::parse(text, &schema()) {
            Ok(sel) => (Some(sel), None),
            Err(err) => (None, Some(err)),
        },
        None => (None, None),
    };
    let (jq, bad_jq) = match globals.jq.as_deref().map(JqFilter::parse) {
        Some(Ok(filter)) => (Some(filter), None),
        Some(Err(err)) => (None, Some(err)),
        None => (None, None),
    };
    // `--jq` prints its own lines: a table asked for beside it would be silently ignored (OUT-9).
    let bad_jq = bad_jq.or_else(|| {
        (globals.jq.is_some() && globals.output == Some(crate::print::output::OutputFormat::Table))
            .then(|| {
                Problem::usage(
                    "--jq en --output table gaan niet samen: --jq drukt zijn eigen regels af",
                )
                .with_hint(
                    "laat --output weg, of kies de velden met --fields en gebruik --output table",
                )
            })
    });
    (selection, jq, bad_fields.or(bad_jq))
}

/// Phase: a command's result as the call reports it: a timeout names its limit and where it
/// came from.
fn settled(
    result: Result<Outcome, Error>,
    ctx: &Context<'_>,
    timeout: Duration,
) -> Result<Outcome, Error> {
    let globals = ctx.globals;
    let result = result.map_err(|err| match err {
        Error::Problem(problem) if problem.exit == ExitStatus::Timeout => {
            let origin = match globals.timeout {
                Some(_) => "gezet met --timeout".to_string(),
                None => format!("standaard voor {}; --timeout om te wijzigen", ctx.tool.name),
            };
            let limit = format!("{} s", timeout.as_secs_f64());
            let detail = format!("{} (tijdslimiet {limit}, {origin})", problem.detail);
            Problem { detail, ..*problem }.into()
        }
        other => other,
    });
    // A command cannot send without passing the gate (`Context::send` takes only the requests
    // it checked), nor answer (an `Outcome` is made from the gate's `Passed`).
    result
}

/// The end of an invocation that reached its command.
struct Finish<'c, 'a> {
    ctx: &'c Context<'a>,
    /// `--jq`: the printed document is the filter's output (OUT-9).
    jq: Option<&'c JqFilter>,
    started: String,
    processing_activity: &'c str,
}

impl Finish<'_, '_> {
    /// Phase: the result selected, printed and recorded (the record first: nothing is printed
    /// that is not recorded); the exit status of the call.
    fn answer(
        &self,
        log: &mut Audit,
        result: Result<Outcome, Error>,
        selection: Option<&Selection>,
    ) -> ExitStatus {
        match result {
            Ok(outcome) => self.success(log, outcome, selection),
            Err(Error::Halt(halt)) => self.halt(log, *halt, selection),
            Err(Error::Problem(problem)) => self.failure(log, &problem),
        }
    }

    /// Phase 5 for a result: its steps in the order the module's header lists them.
    ///
    /// A selection or filter that fails after a mutation does not hide it (OUT-10): the mutation
    /// is recorded and kept, its result printed unselected and unfiltered, and the error (recorded
    /// too) names what it made.
    fn success(
        &self,
        log: &mut Audit,
        mut outcome: Outcome,
        selection: Option<&Selection>,
    ) -> ExitStatus {
        let (data, mut filtered) = match self.selected(&mut outcome, selection) {
            Ok(selected) => selected,
            Err(err) => return self.failure(log, &err),
        };
        // Like the parser, the answer lives until the process ends: it is printed and the
        // program exits, and freeing it would only cost time (a warm `wet lijst` over 25,000
        // files freed 47,000 maps: 8 % of its CPU, 16 % with `--fields`; bench/RESULTS.md).
        let document = ManuallyDrop::new(self.with_provenance(data, &outcome, selection));
        let spooled = outcome.spooled.take();
        let text = match self.rendered(&document, &outcome, spooled.is_some(), &mut filtered) {
            Ok(text) => text,
            Err(err) => return self.failure(log, &err),
        };
        let failure = outcome.failure.take();
        if let Err(status) = self.recorded(log, &mut outcome, failure.as_ref(), filtered.as_ref()) {
            return status;
        }
        let status = self.delivered(
            log,
            spooled,
            &text,
            outcome.closing.as_deref(),
            filtered.as_ref().or(failure.as_ref()),
        );
        // What `--fields` cut away stays too, for the same reason as `document`.
        let _whole = ManuallyDrop::new(std::mem::take(&mut outcome.data));
        status
    }

    /// Step: `--fields` applied to the data (JSON Lines were selected line by line as they were
    /// made, `Context::json_lines`). After a mutation a failed selection keeps the data whole
    /// and is returned beside it, to be reported after the result (OUT-10).
    fn selected(
        &self,
        outcome: &mut Outcome,
        selection: Option<&Selection>,
    ) -> Result<(Value, Option<Problem>), Problem> {
        let ctx = self.ctx;
        let selecting = selection.filter(|_| !outcome.json_lines);
        match selecting.map(|sel| sel.apply(&outcome.data, ctx.deadline())) {
            Some(Ok(data)) => Ok((data, None)),
            Some(Err(err)) if ctx.spec.is_mutating() => {
                let filtered = after_mutation(err, outcome.reference.as_deref());
                Ok((std::mem::take(&mut outcome.data), Some(filtered)))
            }
            Some(Err(err)) => Err(err),
            None => Ok((std::mem::take(&mut outcome.data), None)),
        }
    }

    /// Step: `--provenance` wraps the (selected) data in its envelope; without it the data is
    /// the document.
    fn with_provenance(
        &self,
        data: Value,
        outcome: &Outcome,
        selection: Option<&Selection>,
    ) -> Value {
        let ctx = self.ctx;
        let Some(form) = ctx.globals.provenance else {
            return data;
        };
        let fields = match (selection, ctx.globals.fields.as_deref()) {
            (Some(sel), Some(text)) => sel.describe(text),
            _ => Value::Null,
        };
        let env_ctx = EnvelopeContext {
            tool: ctx.tool.name,
            tool_version: ctx.tool.version,
            trace_id: &ctx.trace.trace_id,
            retrieved_at: Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true),
            fields,
            exchanges: &ctx.exchanges,
            cache: ctx.cache_use(),
        };
        envelope(data, outcome, &env_ctx, form)
    }

    /// Step: the text for stdout. A JSON Lines result (a batch) is one compact document per item
    /// (OUT-3), a spooled one was rendered already (`crate::print::lines`), and `--jq` filters
    /// the document; a filter that fails after a mutation leaves it unfiltered and is set in
    /// `filtered` (OUT-10).
    fn rendered(
        &self,
        document: &Value,
        outcome: &Outcome,
        spooled: bool,
        filtered: &mut Option<Problem>,
    ) -> Result<String, Problem> {
        let ctx = self.ctx;
        let lines = outcome.json_lines && ctx.prints_lines();
        match (document, lines) {
            _ if spooled => Ok(String::new()),
            (Value::Array(items), true) => {
                let compact = crate::print::output::Printer {
                    format: crate::print::output::OutputFormat::Json,
                    ..ctx.printer
                };
                Ok(items.iter().map(|item| compact.render(item)).collect())
            }
            _ if filtered.is_some() => Ok(ctx.printer.render(document)),
            _ => match self.printed(document) {
                Err(err) if ctx.spec.is_mutating() && self.jq.is_some() => {
                    *filtered = Some(after_mutation(err, outcome.reference.as_deref()));
                    Ok(ctx.printer.render(document))
                }
                printed => printed,
            },
        }
    }

    /// Step: the call recorded (every destination confirms it), then the command's commit run
    /// (MUT-13: nothing durable without its record; a commit that fails is recorded a second
    /// time), then a selection or filter that failed after the mutation recorded. `Err`: the
    /// call ends here with the problem printed.
    fn recorded(
        &self,
        log: &mut Audit,
        outcome: &mut Outcome,
        failure: Option<&Problem>,
        filtered: Option<&Problem>,
    ) -> Result<(), ExitStatus> {
        let status = failure.map_or(ExitStatus::Ok, |p| p.exit);
        if let Err(err) = self.record(log, status, failure) {
            return Err(self.print_problem(&err));
        }
        if let Some(Err(err)) = outcome.commit.take().map(|commit| commit()) {
            // The record above announced a success that did not become
            // durable: a second record of the same span says so.
            let _ = self.record(log, err.exit, Some(&err));
            return Err(self.print_problem(&err));
        }
        if let Some(err) = filtered {
            let _ = self.record(log, err.exit, Some(err));
        }
        Ok(())
    }

    /// Step: the result delivered on stdout, then the closing line and the problem the call
    /// still ends with (OUT-5, OUT-10). A result that could not be written is recorded a second
    /// time.
    fn delivered(
        &self,
        log: &mut Audit,
        spooled: Option<crate::print::lines::Spooled>,
        text: &str,
        closing: Option<&str>,
        problem: Option<&Problem>,
    ) -> ExitStatus {
        let ctx = self.ctx;
        let written = match spooled {
            Some(spooled) => ctx.printer.stdout_copy(spooled.0),
            None => ctx.printer.stdout(text),
        };
        match written {
            Ok(()) => {
                if let Some(line) = closing {
                    ctx.printer.note(line);
                }
                match problem {
                    Some(problem) => self.print_problem(problem),
                    None => ExitStatus::Ok,
                }
            }
            Err(err) => {
                // The result was processed (and recorded as OK) but not
                // delivered: a second record of the same span says so.
                let _ = self.record(log, err.exit, Some(&err));
                self.print_problem(&err)
            }
        }
    }

    fn halt(&self, log: &mut Audit, halt: Halt, selection: Option<&Selection>) -> ExitStatus {
        let ctx = self.ctx;
        match halt {
            Halt::DryRun(plan) => {
                // A dry run's `--fields` selects from the plan: checked against every member the
                // plan schema and this plan have (FIELDS-8), now that the plan is made.
                if let Some(text) = ctx.globals.fields.as_deref()
                    && let Err(err) =
                        Selection::parse(text, &crate::call::plan::plan_fields_schema(&plan))
                {
                    return self.failure(log, &err);
                }
                let shown = match selection.map(|sel| sel.apply(&plan, ctx.deadline())) {
                    Some(Ok(shown)) => shown,
                    Some(Err(err)) => return self.failure(log, &err),
                    None => plan,
                };
                let text = match self.printed(&shown) {
                    Ok(text) => text,
                    Err(err) => return self.failure(log, &err),
                };
                if let Err(err) = self.record(log, ExitStatus::Ok, None) {
                    return self.print_problem(&err);
                }
                match ctx.printer.stdout(&text) {
                    Ok(()) => ExitStatus::Ok,
                    Err(err) => self.print_problem(&err),
                }
            }
            Halt::Refused(plan, problem) => {
                if let Err(err) = self.record(log, problem.exit, Some(&problem)) {
                    return self.print_problem(&err);
                }
                let _ = ctx.printer.stdout(&ctx.printer.render(&plan));
                self.print_problem(&problem)
            }
        }
    }

    fn failure(&self, log: &mut Audit, problem: &Problem) -> ExitStatus {
        if let Err(err) = self.record(log, problem.exit, Some(problem)) {
            return self.print_problem(&err);
        }
        self.print_problem(problem)
    }

    fn print_problem(&self, problem: &Problem) -> ExitStatus {
        self.ctx.printer.problem(problem, &self.ctx.trace.trace_id);
        problem.exit
    }

    /// The text for stdout: the document rendered, or `--jq`'s lines
    /// (without held secrets; on a terminal without control characters).
    fn printed(&self, document: &Value) -> Result<String, Problem> {
        let ctx = self.ctx;
        match self.jq {
            Some(filter) => ctx
                .printer
                .filtered(document, |document| filter.apply(document, ctx.deadline())),
            None => Ok(ctx.printer.render(document)),
        }
    }

    fn record(
        &self,
        log: &mut Audit,
        exit: ExitStatus,
        problem: Option<&Problem>,
    ) -> Result<(), Problem> {
        let ctx = self.ctx;
        let records = |exit, problem: Option<&Problem>| {
            crate::call::audit::record::records(
                &ctx.audit_call(),
                &self.started,
                self.processing_activity,
                exit,
                problem,
            )
        };
        log.write(
            &records(exit, problem),
            ctx.spec.is_mutating(),
            |needs_tls| ctx.used_client(needs_tls),
            |err| records(err.exit, Some(err)),
        )
    }
}

/// A selection or filter that failed after a mutation, as the call reports it (OUT-10): it names
/// what the mutation made (`reference`) and says the result is on stdout unfiltered.
fn after_mutation(err: Problem, reference: Option<&str>) -> Problem {
    let made = reference.map_or(String::new(), |r| format!(" (referentie {r})"));
    Problem {
        detail: format!("na de uitgevoerde wijziging{made}: {}", err.detail),
        hint: Some(format!(
            "de wijziging{made} is uitgevoerd; het resultaat staat ongefilterd op stdout"
        )),
        ..err
    }
}

/// A clap error. `--help` and `--version` print on stdout (exit 0), unless
/// a word beside `--help` is unknown (`--help --jsn`: a usage error). The
/// bare tool shows its help on stderr (exit 2; ERR-11). Any other is a usage
/// error with clap's suggestion in the hint.
fn clap_error(
    err: clap::Error,
    cmd: &clap::Command,
    args: &[OsString],
    early: &Printer,
    env: &Env,
    trace: &TraceContext,
) -> ExitStatus {
    match err.kind() {
        ErrorKind::DisplayHelp => {
            let beside: Vec<&OsString> = args
                .iter()
                .filter(|a| !matches!(a.to_str(), Some("--help" | "-h")))
                .collect();
            if let Err(unknown) = cmd.clone().try_get_matches_from(beside)
                && unknown.kind() == ErrorKind::UnknownArgument
            {
                return report_early(&usage_problem(&unknown, cmd, &words(args)), early, trace);
            }
            // The command whose help was asked, found as discovery finds it; `--help` is the
            // long help, `-h` the short one, as clap has them.
            let words: Vec<&str> = args.iter().skip(1).filter_map(|a| a.to_str()).collect();
            let (path, node) = crate::run::discovery::command_at(cmd, &words);
            let long = words.contains(&"--help");
            let look = help_look(early, env, false);
            let help = help::shown(cmd.get_name(), node, path.is_empty(), long, look);
            match early.stdout(&help) {
                Ok(()) => ExitStatus::Ok,
                Err(problem) => report_early(&problem, early, trace),
            }
        }
        ErrorKind::DisplayVersion => {
            let _ = err.print();
            ExitStatus::Ok
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand if args.len() <= 1 => {
            let look = help_look(early, env, true);
            early.stderr_text(&help::shown(cmd.get_name(), cmd, true, true, look));
            ExitStatus::Usage
        }
        _ => report_early(&usage_problem(&err, cmd, &words(args)), early, trace),
    }
}

/// argv without the program, as far as it is UTF-8 (the words a command path is made of).
fn words(args: &[OsString]) -> Vec<&str> {
    args.iter().skip(1).filter_map(|a| a.to_str()).collect()
}

/// How help looks on stdout (or stderr): the printer's colour (off under `--no-color`,
/// `NO_COLOR`, `TERM=dumb` and outside a terminal) and the width of `COLUMNS` or the terminal.
fn help_look(early: &Printer, env: &Env, on_stderr: bool) -> help::Look {
    let color = match on_stderr {
        true => early.problem_text == Some(true),
        false => early.color,
    };
    help::Look::new(color, env.get("COLUMNS"), on_stderr)
}

/// Print an error from before the command started (no audit record: the
/// invocation did not reach a command).
fn report_early(problem: &Problem, printer: &Printer, trace: &TraceContext) -> ExitStatus {
    printer.problem(problem, &trace.trace_id);
    problem.exit
}

#[cfg(test)]
mod tests {
    use super::*;

    /// OUT-10: a selection or filter that failed after a mutation names what the mutation made
    /// and says where the result is, and keeps the failure's exit code.
    #[test]
    fn after_a_mutation_the_error_names_its_reference_and_the_unfiltered_result() {
        let err = Problem::usage("het filter faalt");
        let reported = after_mutation(err.clone(), Some("FAKE-1"));
        assert_eq!(
            reported.detail,
            "na de uitgevoerde wijziging (referentie FAKE-1): het filter faalt"
        );
        assert_eq!(
            reported.hint.as_deref(),
            Some(
                "de wijziging (referentie FAKE-1) is uitgevoerd; het resultaat staat ongefilterd op stdout"
            )
        );
        assert_eq!(reported.exit, err.exit);
        let anonymous = after_mutation(err, None);
        assert!(
            anonymous
                .detail
                .starts_with("na de uitgevoerde wijziging: ")
        );
    }
}

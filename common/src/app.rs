//! The lifecycle of one invocation, the same for every tool.
//!
//! 1. `--help --json` → discovery; `completions` → a completion script.
//! 2. Parse with clap; a usage error is one JSON object on stderr, exit 2.
//! 3. Check `--fields` against the command's output schema (exit 2).
//! 4. Open the audit log before any work (exit 74 if it cannot be opened).
//! 5. Refuse a bad `--timeout`, an unreadable environment variable or a bad
//!    `--fields` (audited); otherwise run the command; a panic becomes exit 70
//!    with its location (never its data) in the error and the record.
//! 6. Apply `--fields`, then `--provenance`, then write the audit record;
//!    only then print. If the record cannot be written, nothing is printed
//!    and the exit is 74.

use std::ffi::OsString;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use chrono::{SecondsFormat, Utc};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, FromArgMatches};
use serde_json::{Value, json};

use crate::audit::{self, AuditLog};
use crate::cli::{Cli, Commands};
use crate::context::Context;
use crate::crash;
use crate::discovery;
use crate::env::{Env, PROCESSING_ACTIVITY};
use crate::error::{Error, Halt, Problem};
use crate::exit::ExitStatus;
use crate::fields::Selection;
use crate::output::Printer;
use crate::provenance::{EnvelopeContext, Outcome, envelope};
use crate::tool::ToolInfo;
use crate::trace::TraceContext;

/// The tool's clap command with the profile's utility commands, built.
pub fn command<C: Commands>(info: &ToolInfo) -> clap::Command {
    let cmd = Cli::<C>::command()
        .name(info.name)
        .version(info.version)
        .about(info.description)
        .long_about(info.help)
        .disable_help_subcommand(true)
        .disable_help_flag(true)
        .disable_version_flag(true)
        .arg(
            clap::Arg::new("help")
                .short('h')
                .long("help")
                .global(true)
                .action(clap::ArgAction::Help)
                .help("Toon deze hulp (met --json: de machineleesbare beschrijving)"),
        )
        .arg(
            clap::Arg::new("version")
                .short('V')
                .long("version")
                .action(clap::ArgAction::Version)
                .help("Toon de versie"),
        )
        .subcommand(
            clap::Command::new("completions")
                .about("Schrijf een shell-completionscript naar stdout")
                .arg(
                    clap::Arg::new("shell")
                        .required(true)
                        .value_parser(clap::value_parser!(clap_complete::Shell)),
                ),
        );
    let mut cmd = in_dutch(cmd);
    cmd.build();
    cmd
}

/// Plain `--help` in Dutch: headings and template (rule DISC-20).
fn in_dutch(cmd: clap::Command) -> clap::Command {
    cmd.help_template(
        "{before-help}{about-with-newline}\nGebruik: {usage}\n\n{all-args}{after-help}",
    )
    .subcommand_help_heading("Opdrachten")
    .subcommand_value_name("OPDRACHT")
    .mut_args(|arg| {
        // A command's option value may start with `-` (`--naam -Donald`).
        let value_option =
            !arg.is_positional() && !arg.is_global_set() && arg.get_action().takes_values();
        let arg = if value_option {
            arg.allow_hyphen_values(true)
        } else {
            arg
        };
        let heading = if arg.is_positional() {
            "Argumenten"
        } else if arg.is_global_set() {
            "Profielopties"
        } else {
            "Opties"
        };
        arg.help_heading(heading)
    })
    .mut_subcommands(in_dutch)
}

/// Run a tool to completion; only this function decides the exit code.
///
/// No panic reaches the user: the runtime's panic text is suppressed and any
/// panic outside the command (which `run` catches and audits itself) still
/// ends in one error object and exit 70 (rule ERR-12).
pub fn main<C: Commands>(info: &'static ToolInfo) -> ExitCode {
    crash::install();
    crash::catch(|| run::<C>(info))
        .unwrap_or_else(|report| report_early(&report.problem(), &TraceContext::start(None)))
}

fn run<C: Commands>(info: &'static ToolInfo) -> ExitCode {
    let started = Utc::now();
    let clock = Instant::now();
    let env = Env::read(info.env);
    let trace = TraceContext::start(env.get("TRACEPARENT"));
    let args: Vec<OsString> = std::env::args_os().collect();

    if let Some(code) = discovery_request::<C>(info, &args) {
        return code;
    }
    let cmd = command::<C>(info);
    let matches = match cmd.clone().try_get_matches_from(&args) {
        Ok(m) => m,
        Err(err) => return clap_error(err, &trace),
    };
    if let Some(("completions", sub)) = matches.subcommand() {
        let shell = *sub
            .get_one::<clap_complete::Shell>("shell")
            .expect("a required argument");
        let mut script = Vec::new();
        clap_complete::generate(shell, &mut cmd.clone(), info.name, &mut script);
        let printer = Printer::new(None, true, true);
        return match printer.stdout(&String::from_utf8_lossy(&script)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => report_early(&err, &trace),
        };
    }
    let path = subcommand_path(&matches);
    let Some(spec) = info.command(&path) else {
        return report_early(
            &Problem::software(format!("geen specificatie voor {path:?}")),
            &trace,
        );
    };
    let tool = match Cli::<C>::from_arg_matches(&matches) {
        Ok(t) => t,
        Err(err) => return clap_error(err, &trace),
    };
    let globals = tool.global.clone();
    let printer = Printer::new(
        globals.output,
        globals.no_color || env.get("NO_COLOR").is_some() || env.get("TERM") == Some("dumb"),
        globals.quiet,
    );
    // A bad `--timeout` is a usage error like any other after parsing, so it
    // is audited (AUDIT-1); until then the default bounds the audit waits.
    let default_timeout = Duration::from_secs(info.default_timeout_secs);
    let (timeout, bad_timeout) = match globals.timeout {
        Some(t) if !(t > 0.0 && t.is_finite() && t <= 86_400.0) => (
            default_timeout,
            Some(Problem::usage(format!(
                "--timeout moet tussen 0 en 86400 seconden liggen, niet {t}"
            ))),
        ),
        Some(t) => (Duration::from_secs_f64(t), None),
        None => (default_timeout, None),
    };
    let deadline = clock + timeout;
    // An unreadable variable that decides the destination leaves no
    // trustworthy place for a record: 78 without one (AUDIT-2, CONF-7).
    let mut log = match audit::destination(globals.audit_log.as_deref(), &env, info.audit_env)
        .and_then(|path| AuditLog::open(&path, deadline))
    {
        Ok(log) => log,
        Err(err) => return report_early(&err, &trace),
    };

    let mut ctx = Context::new(info, spec, &globals, &env, trace, printer, deadline);
    // `--fields` is checked against the output schema before any work, but
    // after the audit log is open, so a refused selection is audited too.
    let (selection, bad_fields) = match globals.fields.as_deref() {
        Some(text) => match Selection::parse(text, &spec.output_schema()) {
            Ok(sel) => (Some(sel), None),
            Err(err) => (None, Some(err)),
        },
        None => (None, None),
    };
    let refused = bad_timeout.or_else(|| env.check().err()).or(bad_fields);
    let result = match crash::catch(|| match refused {
        Some(problem) => Err(problem.into()),
        None => tool.command.run(&mut ctx),
    }) {
        Ok(result) => result,
        Err(report) => {
            for (key, value) in report.attributes() {
                ctx.audit_attribute(key, value);
            }
            Err(report.problem().into())
        }
    };

    let finish = Finish {
        ctx: &ctx,
        started: started.to_rfc3339_opts(SecondsFormat::Millis, true),
        processing_activity: env.get(PROCESSING_ACTIVITY).unwrap_or(""),
    };
    match result {
        Ok(outcome) => finish.success(&mut log, outcome, selection.as_ref()),
        Err(Error::Halt(halt)) => finish.halt(&mut log, *halt),
        Err(Error::Problem(problem)) => finish.failure(&mut log, &problem),
    }
}

/// The end of an invocation that reached its command.
struct Finish<'c, 'a> {
    ctx: &'c Context<'a>,
    started: String,
    processing_activity: &'c str,
}

impl Finish<'_, '_> {
    fn success(
        &self,
        log: &mut AuditLog,
        mut outcome: Outcome,
        selection: Option<&Selection>,
    ) -> ExitCode {
        let ctx = self.ctx;
        let data = match selection {
            Some(sel) => sel.apply(&outcome.data),
            None => std::mem::take(&mut outcome.data),
        };
        let document = if ctx.globals.provenance {
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
            };
            envelope(data, &outcome, &env_ctx)
        } else {
            data
        };
        let text = ctx.printer.render(&document);
        if let Err(err) = self.record(log, ExitStatus::Ok, None) {
            return self.print_problem(&err);
        }
        if let Some(Err(err)) = outcome.commit.take().map(|commit| commit()) {
            // The record above announced a success that did not become
            // durable: a second record of the same span says so.
            let _ = self.record(log, err.exit, Some(&err));
            ctx.printer.stderr_json(&err.to_json(&ctx.trace.trace_id));
            return exit_code(err.exit);
        }
        match ctx.printer.stdout(&text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => {
                // The result was processed (and recorded as OK) but not
                // delivered: a second record of the same span says so.
                let _ = self.record(log, err.exit, Some(&err));
                self.print_problem(&err)
            }
        }
    }

    fn halt(&self, log: &mut AuditLog, halt: Halt) -> ExitCode {
        let ctx = self.ctx;
        match halt {
            Halt::DryRun(plan) => {
                if let Err(err) = self.record(log, ExitStatus::Ok, None) {
                    return self.print_problem(&err);
                }
                match ctx.printer.stdout(&ctx.printer.render(&plan.json)) {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(err) => self.print_problem(&err),
                }
            }
            Halt::Refused(plan, problem) => {
                if let Err(err) = self.record(log, problem.exit, Some(&problem)) {
                    return self.print_problem(&err);
                }
                let _ = ctx.printer.stdout(&ctx.printer.render(&plan.json));
                ctx.printer
                    .stderr_json(&problem.to_json(&ctx.trace.trace_id));
                exit_code(problem.exit)
            }
        }
    }

    fn failure(&self, log: &mut AuditLog, problem: &Problem) -> ExitCode {
        if let Err(err) = self.record(log, problem.exit, Some(problem)) {
            return self.print_problem(&err);
        }
        self.ctx
            .printer
            .stderr_json(&problem.to_json(&self.ctx.trace.trace_id));
        exit_code(problem.exit)
    }

    fn print_problem(&self, problem: &Problem) -> ExitCode {
        self.ctx
            .printer
            .stderr_json(&problem.to_json(&self.ctx.trace.trace_id));
        exit_code(problem.exit)
    }

    fn record(
        &self,
        log: &mut AuditLog,
        exit: ExitStatus,
        problem: Option<&Problem>,
    ) -> Result<(), Problem> {
        let ctx = self.ctx;
        let mut attributes = ctx.audit.to_json(self.processing_activity);
        if let Some(p) = problem {
            attributes.insert("error.code".into(), p.code.as_ref().into());
        }
        if ctx.globals.dry_run {
            attributes.insert("overheid.dry_run".into(), true.into());
        }
        if let Some(digest) = &ctx.plan_digest {
            attributes.insert("overheid.plan_digest".into(), digest.clone().into());
        }
        let mut record = json!({
            "trace_id": ctx.trace.trace_id,
            "span_id": ctx.trace.span_id,
            "name": ctx.name,
            "start_time": self.started,
            "end_time": Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true),
            "status": if exit == ExitStatus::Ok { "OK" } else { "ERROR" },
            "exit_code": exit.code(),
            "tool": ctx.tool.name,
            "tool_version": ctx.tool.version,
            "attributes": attributes,
        });
        if let Some(parent) = &ctx.trace.parent_span_id {
            record["parent_span_id"] = parent.clone().into();
        }
        crate::secrets::scrub_value(&mut record);
        log.append(&record, ctx.spec.is_mutating())
    }
}

/// Handle `--help --json` anywhere on the command line.
fn discovery_request<C: Commands>(info: &ToolInfo, args: &[OsString]) -> Option<ExitCode> {
    let words: Vec<&str> = args.iter().skip(1).filter_map(|a| a.to_str()).collect();
    // A cheap look first: most calls are not discovery.
    if !(words.iter().any(|w| matches!(*w, "--help" | "-h")) && words.contains(&"--json")) {
        return None;
    }
    let cmd = command::<C>(info);
    let (path, node, help, json) = scan(&cmd, &words);
    if !(help && json) {
        return None;
    }
    let document = match info.command(&path) {
        Some(spec) => discovery::tool_entry(node, spec),
        None => discovery::document(&cmd, info, &path),
    };
    let printer = Printer::new(None, true, true);
    let _ = printer.stdout(&printer.render(&document));
    Some(ExitCode::SUCCESS)
}

/// Walk the words as clap would: subcommand names extend the path, the value
/// of an option is skipped (so `--naam --json` is a name, not a flag), and
/// after `--` everything is data (rule DISC-15). Returns the command path, its
/// node, and whether `--help`/`-h` and `--json` appeared as flags.
fn scan<'c>(
    cmd: &'c clap::Command,
    words: &[&str],
) -> (Vec<String>, &'c clap::Command, bool, bool) {
    let (mut path, mut node) = (Vec::new(), cmd);
    let (mut help, mut json) = (false, false);
    let takes_value = |node: &clap::Command, word: &str| {
        node.get_arguments().any(|a| {
            let named = match word.strip_prefix("--") {
                Some(long) => a.get_long() == Some(long),
                None => word.len() == 2 && a.get_short() == word.chars().nth(1),
            };
            named && a.get_action().takes_values()
        })
    };
    let mut iter = words.iter();
    while let Some(word) = iter.next() {
        match *word {
            "--" => break,
            "--help" | "-h" => help = true,
            "--json" => json = true,
            w if w.starts_with('-') => {
                if !w.contains('=') && takes_value(node, w) {
                    iter.next();
                }
            }
            w => {
                if let Some(sub) = node.find_subcommand(w) {
                    path.push(w.to_string());
                    node = sub;
                }
            }
        }
    }
    (path, node, help, json)
}

fn subcommand_path(matches: &clap::ArgMatches) -> Vec<String> {
    let mut path = Vec::new();
    let mut current = matches;
    while let Some((name, sub)) = current.subcommand() {
        path.push(name.to_string());
        current = sub;
    }
    path
}

/// A clap error: help and version print normally; a usage error is JSON
/// (exit 2) unless stderr is a terminal.
fn clap_error(err: clap::Error, trace: &TraceContext) -> ExitCode {
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        let _ = err.print();
        return ExitCode::SUCCESS;
    }
    if std::io::stderr().is_terminal() {
        let _ = err.print();
        return exit_code(ExitStatus::Usage);
    }
    report_early(&usage_problem(&err), trace)
}

fn context_text(err: &clap::Error, kind: ContextKind) -> Option<String> {
    match err.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        ContextValue::Strings(list) => Some(list.join(", ")),
        other => Some(other.to_string()),
    }
}

/// A clap error as a profile problem, in Dutch.
fn usage_problem(err: &clap::Error) -> Problem {
    let arg = context_text(err, ContextKind::InvalidArg).unwrap_or_default();
    let value = context_text(err, ContextKind::InvalidValue).unwrap_or_default();
    let detail = match err.kind() {
        ErrorKind::UnknownArgument => format!("onbekende optie of argument: {arg}"),
        ErrorKind::InvalidSubcommand => format!(
            "onbekend commando: {}",
            context_text(err, ContextKind::InvalidSubcommand).unwrap_or_default()
        ),
        ErrorKind::MissingRequiredArgument => format!("verplicht argument ontbreekt: {arg}"),
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            "commando ontbreekt".to_string()
        }
        ErrorKind::InvalidValue if value.is_empty() => format!("lege waarde voor {arg}"),
        ErrorKind::InvalidValue => format!("ongeldige waarde {value:?} voor {arg}"),
        ErrorKind::ArgumentConflict => {
            format!("{arg} is meer dan eens of samen met een andere optie gegeven")
        }
        ErrorKind::TooManyValues => format!("te veel waarden voor {arg}"),
        ErrorKind::WrongNumberOfValues | ErrorKind::TooFewValues => {
            format!("verkeerd aantal waarden voor {arg}")
        }
        ErrorKind::ValueValidation => format!("ongeldige waarde {value:?} voor {arg}"),
        _ => "ongeldige aanroep".to_string(),
    };
    let mut hint = String::from("zie --help of --help --json");
    if let Some(valid) = context_text(err, ContextKind::ValidValue).filter(|v| !v.trim().is_empty())
    {
        hint = format!("geldige waarden: {valid}; {hint}");
    }
    Problem::usage(detail).with_hint(hint)
}

/// Print an error from before the command started (no audit record: the
/// invocation did not reach a command).
fn report_early(problem: &Problem, trace: &TraceContext) -> ExitCode {
    Printer::new(None, true, false).stderr_json(&problem.to_json(&trace.trace_id));
    exit_code(problem.exit)
}

fn exit_code(status: ExitStatus) -> ExitCode {
    ExitCode::from(status.code())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(clap::Subcommand, Debug)]
    enum Probe {
        Zoeken {
            #[arg(long)]
            naam: Option<String>,
        },
        Get {
            id: String,
        },
    }

    impl Commands for Probe {
        fn run(self, _: &mut Context<'_>) -> crate::Result<Outcome> {
            unreachable!("parsing only")
        }
    }

    fn built() -> clap::Command {
        let mut cmd = in_dutch(Cli::<Probe>::command());
        cmd.build();
        cmd
    }

    fn discovery(words: &[&str]) -> Option<Vec<String>> {
        let cmd = built();
        let (path, _, help, json) = scan(&cmd, words);
        (help && json).then_some(path)
    }

    #[test]
    fn discovery_is_found_past_option_values_but_not_in_them() {
        assert_eq!(discovery(&["--help", "--json"]), Some(vec![]));
        assert_eq!(
            discovery(&["-o", "json", "zoeken", "--help", "--json"]),
            Some(vec!["zoeken".to_string()])
        );
        assert_eq!(discovery(&["zoeken", "--naam", "--json", "--help"]), None);
        assert_eq!(discovery(&["zoeken", "--naam=--json", "--help"]), None);
        assert_eq!(discovery(&["get", "--", "--help", "--json"]), None);
    }

    #[test]
    fn option_values_may_start_with_a_hyphen() {
        let matches = built()
            .try_get_matches_from(["t", "zoeken", "--naam", "-Donald"])
            .expect("a value, not a flag");
        let (_, sub) = matches.subcommand().expect("zoeken");
        assert_eq!(
            sub.get_one::<String>("naam").map(String::as_str),
            Some("-Donald")
        );
    }
}

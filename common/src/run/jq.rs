//! `--jq EXPR`: a jq filter over the result, evaluated by jaq, no external jq
//! (rules OUT-9, OUT-10).
//!
//! The expression is compiled before any work (a bad one is exit 2, before
//! any request) and applied to the document that would have been printed
//! (after `--fields` and `--provenance`). Each result is one line: a string
//! raw, anything else as compact JSON, as `gh --jq` does. The output is the
//! user's: no `outputSchema` describes it.
//!
//! A filter is a program, and no filter may end the process that holds the
//! command's result (OUT-10): `def f: [f]; f` recurses until its stack runs
//! out, `[.,.]` repeated doubles a value until memory does, and jaq has no
//! bound on either. So evaluation runs in a worker: the same program started
//! again with [`WORKER_ARG`] (nothing else of it runs), without any
//! environment, reading the expression and the document on stdin. Its
//! evaluating thread has a stack of [`STACK_BYTES`], which bounds the depth of
//! recursion; its address space is capped at [`MEMORY_BYTES`], which bounds
//! its values; its output at [`MAX_OUTPUT_BYTES`] (a value is measured before it
//! is written out); the command's deadline bounds its time (exit 124). A filter
//! that exceeds a bound ends the worker, and the command reports exit 2 with
//! its audit record.
//!
//! Filters that would reach outside the document are not offered: `env` and
//! `$ENV` (the environment is read in one place), `halt`/`halt_error` (only
//! `main` ends the process), `input`, `inputs`, `debug` and `stderr` (nothing
//! but data on stdout), and `import`/`include` of modules or data (exit 2).

use std::io::Read;
use std::time::Instant;

use jaq_core::box_iter::box_once;
use jaq_core::load::{Arena, File, Import, Loader};
use jaq_core::{Compiler, Ctx, Exn, Native, RcIter};
use jaq_json::Val;
use serde_json::Value;

use crate::call::child::{Ending, Environment, Spawn};
use crate::problem::error::Problem;
use crate::problem::exit::ExitStatus;

/// The argument that starts a program as the `--jq` worker.
pub(crate) const WORKER_ARG: &str = "--overheid-jq-worker";
/// The longest expression accepted, in bytes.
const MAX_EXPRESSION_LEN: usize = 4096;
/// The most output one evaluation may produce, in bytes.
const MAX_OUTPUT_BYTES: usize = 64 * 1024 * 1024;
/// The stack of the worker's evaluating thread: the bound on recursion.
pub(crate) const STACK_BYTES: usize = 64 * 1024 * 1024;
/// The worker's address space: the bound on its values (with its stack, code and input).
pub(crate) const MEMORY_BYTES: u64 = 1024 * 1024 * 1024;
/// Native filters not offered (see the module documentation).
const DENIED: [&str; 7] = [
    "env",
    "halt",
    "halt_error",
    "input",
    "inputs",
    "debug",
    "stderr",
];
/// Why `import` and `include` fail.
const NO_MODULES: &str = "import en include zijn niet beschikbaar onder --jq";

/// A checked `--jq` expression.
#[derive(Clone, Debug)]
pub(crate) struct JqFilter {
    expression: String,
}

impl JqFilter {
    /// Compile `expression` to check it (exit 2 with jaq's reason if it is not a filter).
    pub(crate) fn parse(expression: &str) -> Result<Self, Problem> {
        if expression.len() > MAX_EXPRESSION_LEN {
            return Err(Problem::usage(format!(
                "--jq-expressie te lang (max {MAX_EXPRESSION_LEN} tekens)"
            )));
        }
        compile(expression).map_err(|reason| {
            Problem::usage(format!("ongeldige --jq-expressie: {reason}"))
                .with_hint("een jq-filter, bv. '.naam' of '.resultaten[] | .kvkNummer'")
        })?;
        Ok(Self {
            expression: expression.to_string(),
        })
    }

    /// The lines `document` gives under this filter, each ending in a newline, evaluated in
    /// the worker. A runtime error of the filter, or a filter that exceeds the worker's
    /// bounds, is exit 2; not done by `deadline`, 124.
    pub(crate) fn apply(&self, document: &Value, deadline: Instant) -> Result<String, Problem> {
        let program = std::env::current_exe()
            .map_err(|e| Problem::software(format!("--jq kon niet starten: {e}")))?;
        let request = serde_json::json!({"expression": self.expression, "document": document});
        let spawn = Spawn {
            stdin: Some(request.to_string().into_bytes()),
            max_output: MAX_OUTPUT_BYTES + 1,
            ..Spawn::new(
                program,
                vec![WORKER_ARG.into()],
                Environment::Only(Vec::new()),
            )
        };
        let remaining = deadline.saturating_duration_since(Instant::now());
        let finished = crate::call::child::run(spawn, remaining)
            .map_err(|e| Problem::software(format!("--jq kon niet starten: {e}")))?;
        let failed = |reason: &str| Problem::usage(format!("--jq-expressie faalde: {reason}"));
        match finished.ending {
            Ending::Exited(0) if finished.stdout.len() <= MAX_OUTPUT_BYTES => {
                String::from_utf8(finished.stdout)
                    .map_err(|_| Problem::software("--jq gaf geen UTF-8"))
            }
            Ending::Exited(0) => Err(failed(&format!("meer dan {MAX_OUTPUT_BYTES} bytes uitvoer"))),
            Ending::Exited(1) => {
                Err(failed(&String::from_utf8_lossy(&finished.stdout)))
            }
            Ending::TimedOut => Err(Problem::timeout(
                "de tijdslimiet (--timeout) verstreek tijdens het uitvoeren van --jq",
            )),
            Ending::Signalled | Ending::Exited(_) | Ending::Cancelled => Err(failed(&format!(
                "de filter overschreed de grenzen van --jq (recursiediepte: een stapel van {} MiB; geheugen: {} MiB)",
                STACK_BYTES >> 20,
                MEMORY_BYTES >> 20
            ))
            .with_hint("een filter zonder onbegrensde recursie of verdubbeling van waarden")),
        }
    }
}

/// The worker ([`WORKER_ARG`]): read `{"expression", "document"}` on stdin, evaluate under
/// the bounds of the module documentation, write the lines on stdout. Exit 0 with the
/// lines, 1 with the filter's error; a filter that exceeds a bound ends
/// the process by a signal.
pub(crate) fn worker() -> ExitStatus {
    use rustix::process::{Resource, Rlimit, setrlimit};
    let limit = |bytes| Rlimit {
        current: Some(bytes),
        maximum: Some(bytes),
    };
    // No core file of a filter that ran out of stack or memory.
    let _ = setrlimit(Resource::Core, limit(0));
    let _ = setrlimit(Resource::As, limit(MEMORY_BYTES));
    let mut input = Vec::new();
    let request: Option<(String, Value)> = std::io::stdin()
        .read_to_end(&mut input)
        .ok()
        .and_then(|_| serde_json::from_slice::<Value>(&input).ok())
        .and_then(|mut v| {
            let expression = v.get("expression")?.as_str()?.to_string();
            Some((expression, v.get_mut("document")?.take()))
        });
    drop(input);
    let Some((expression, document)) = request else {
        return ExitStatus::Usage;
    };
    let evaluated = std::thread::Builder::new()
        .name("jq".into())
        .stack_size(STACK_BYTES)
        .spawn(move || evaluate(&expression, document))
        .ok()
        .and_then(|thread| thread.join().ok());
    let (status, text) = match evaluated {
        Some(Ok(text)) => (ExitStatus::Ok, text),
        Some(Err(reason)) => (ExitStatus::Error, reason),
        None => return ExitStatus::Software,
    };
    match crate::print::output::Printer::new(None, true, true).stdout(&text) {
        Ok(()) => status,
        Err(_) => ExitStatus::Software,
    }
}

type JqProgram = jaq_core::Filter<Native<Val>>;

fn compile(expression: &str) -> Result<JqProgram, String> {
    let program = File {
        code: expression,
        path: (),
    };
    let loader = Loader::new(jaq_std::defs().chain(jaq_json::defs())).with_read(
        |_: Import<&str, ()>| -> Result<File<String, ()>, String> { Err(NO_MODULES.to_string()) },
    );
    let arena = Arena::default();
    let modules = loader
        .load(&arena, program)
        .and_then(|modules| {
            // `import "…" as $x` (data) does not pass the reader.
            jaq_core::load::import(&modules, |_| Err(NO_MODULES.to_string()))?;
            Ok(modules)
        })
        .map_err(|errors| {
            errors
                .into_iter()
                .map(|(_, e)| match e {
                    jaq_core::load::Error::Io(list) => list
                        .into_iter()
                        .map(|(_, m)| m)
                        .collect::<Vec<_>>()
                        .join("; "),
                    jaq_core::load::Error::Lex(list) => {
                        expected(list.into_iter().map(|(e, at)| (e.as_str(), at)))
                    }
                    jaq_core::load::Error::Parse(list) => {
                        expected(list.into_iter().map(|(e, at)| (e.as_str(), at)))
                    }
                })
                .collect::<Vec<_>>()
                .join("; ")
        })?;
    // The standard definitions refer to the denied filters, so they stay
    // defined, as an error.
    let funs = jaq_std::funs()
        .chain(jaq_json::funs())
        .map(|(name, arity, native)| {
            if DENIED.contains(&name) {
                (
                    name,
                    arity,
                    Native::new(|_, _| {
                        box_once(Err(Exn::from(jaq_core::Error::str(
                            "niet beschikbaar onder --jq",
                        ))))
                    }),
                )
            } else {
                (name, arity, native)
            }
        });
    Compiler::default()
        .with_funs(funs)
        .compile(modules)
        .map_err(|errors| {
            errors
                .into_iter()
                .flat_map(|(_, list)| list)
                .map(|(name, undefined)| format!("onbekend {}: {name}", undefined.as_str()))
                .collect::<Vec<_>>()
                .join("; ")
        })
}

/// "X verwacht bij …" for each thing the lexer or parser expected.
fn expected<'a>(list: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    list.map(|(what, at)| format!("{what} verwacht bij {:?}", snippet(at)))
        .collect::<Vec<_>>()
        .join("; ")
}

/// At most 30 characters of the text where an error was found.
fn snippet(at: &str) -> String {
    at.chars().take(30).collect()
}

/// Compile and run on this thread (values of jaq are not `Send`).
fn evaluate(expression: &str, input: Value) -> Result<String, String> {
    let filter = compile(expression)?;
    let inputs = RcIter::new(core::iter::empty());
    let mut out = String::new();
    for result in filter.run((Ctx::new([], &inputs), Val::from(input))) {
        let value = result.map_err(|e| e.to_string())?;
        let room = MAX_OUTPUT_BYTES.saturating_sub(out.len());
        match value {
            Val::Str(s) if s.len() <= room => out.push_str(&s),
            // Measured before it is written out: a value shared many times over (`[.,.]`
            // repeated) is small in memory and may not be as text.
            other if fits(&other, room) => out.push_str(&Value::from(other).to_string()),
            _ => return Err(format!("meer dan {MAX_OUTPUT_BYTES} bytes uitvoer")),
        }
        out.push('\n');
        if out.len() > MAX_OUTPUT_BYTES {
            return Err(format!("meer dan {MAX_OUTPUT_BYTES} bytes uitvoer"));
        }
    }
    Ok(out)
}

/// Whether `value` as compact JSON takes at most `room` bytes (counted with a separator for
/// every member, a few bytes over its length; the walk stops as soon as it is too long).
fn fits(value: &Val, room: usize) -> bool {
    fn take(room: &mut usize, n: usize) -> bool {
        match room.checked_sub(n) {
            Some(left) => {
                *room = left;
                true
            }
            None => false,
        }
    }
    fn walk(value: &Val, room: &mut usize) -> bool {
        match value {
            Val::Null | Val::Bool(_) | Val::Int(_) | Val::Float(_) => take(room, 1),
            Val::Num(n) => take(room, n.len()),
            Val::Str(s) => take(room, s.len() + 2),
            Val::Arr(items) => {
                take(room, 2) && items.iter().all(|item| take(room, 1) && walk(item, room))
            }
            Val::Obj(map) => {
                take(room, 2)
                    && map
                        .iter()
                        .all(|(k, v)| take(room, k.len() + 4) && walk(v, room))
            }
        }
    }
    walk(value, &mut { room })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Evaluation on this thread (the worker's own step; `apply` runs the program again,
    /// which only the binaries' tests do).
    fn run(expr: &str, doc: Value) -> Result<String, String> {
        JqFilter::parse(expr).map_err(|p| p.detail)?;
        evaluate(expr, doc)
    }

    #[test]
    fn strings_are_raw_and_the_rest_compact_one_per_line() {
        let doc: Value = serde_json::from_str(
            r#"{"naam": "Test BV", "lijst": [{"a": 1}, {"a": 2.50}], "n": 12345678901234567890}"#,
        )
        .unwrap();
        assert_eq!(run(".naam", doc.clone()).unwrap(), "Test BV\n");
        assert_eq!(
            run(".lijst[]", doc.clone()).unwrap(),
            "{\"a\":1}\n{\"a\":2.50}\n"
        );
        assert_eq!(run(".n", doc.clone()).unwrap(), "12345678901234567890\n");
        assert_eq!(run(".lijst | map(.a) | add", doc).unwrap(), "3.5\n");
    }

    #[test]
    fn a_bad_expression_is_a_usage_error() {
        for bad in [".[", "foo(", "nietbestaand", "$ENV"] {
            let err = JqFilter::parse(bad).expect_err(bad);
            assert_eq!(err.exit.code(), 2, "{bad}: {err:?}");
        }
    }

    /// OUT-10: modules and data files are not read, whatever the path.
    #[test]
    fn import_and_include_are_usage_errors() {
        for bad in [
            r#"import "/etc/hostname" as $h; $h"#,
            r#"import "lib" as lib; ."#,
            r#"include "/etc/hostname"; ."#,
            r#"include "lib"; ."#,
        ] {
            let err = JqFilter::parse(bad).expect_err(bad);
            assert_eq!(err.exit.code(), 2, "{bad}: {err:?}");
            assert!(err.detail.contains(NO_MODULES), "{err:?}");
        }
    }

    #[test]
    fn filters_that_reach_outside_the_document_fail() {
        for denied in ["env", "halt", "halt_error(1)", "input", "debug", "stderr"] {
            let err = run(denied, json!({"a": 1})).expect_err(denied);
            assert!(err.contains("niet beschikbaar"), "{err:?}");
        }
    }

    #[test]
    fn a_runtime_error_is_reported() {
        run(".a.b", json!({"a": [1]})).expect_err("index of array");
    }

    /// A value shared many times over is measured before it is written out.
    #[test]
    fn output_is_measured_before_it_is_written() {
        let err = run("reduce range(60) as $i (.; [., .])", json!("x")).expect_err("2^60");
        assert!(err.contains("bytes uitvoer"), "{err}");
        assert!(fits(&Val::from(json!({"a": [1, "bc"]})), 16));
        assert!(!fits(&Val::from(json!({"a": [1, "bc"]})), 15));
    }
}

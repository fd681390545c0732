//! `--jq EXPR`: a jq filter over the result, evaluated by jaq, no external jq
//! (rule OUT-9).
//!
//! The expression is compiled before any work (a bad one is exit 2, before
//! any request) and applied to the document that would have been printed
//! (after `--fields` and `--provenance`). Each result is one line: a string
//! raw, anything else as compact JSON, as `gh --jq` does. The output is the
//! user's: no `outputSchema` describes it.
//!
//! Evaluation runs on its own thread so the command's deadline bounds it
//! (exit 124), and its output is capped. Filters that would reach outside
//! the document are not offered: `env` and `$ENV` (the environment is read in
//! one place), `halt`/`halt_error` (only `main` ends the process), `input`,
//! `inputs`, `debug` and `stderr` (nothing but data on stdout).

use std::sync::mpsc;
use std::time::Instant;

use jaq_core::box_iter::box_once;
use jaq_core::load::{Arena, File, Loader};
use jaq_core::{Compiler, Ctx, Exn, Native, RcIter};
use jaq_json::Val;
use serde_json::Value;

use crate::error::Problem;

/// The longest expression accepted, in bytes.
const MAX_EXPRESSION_LEN: usize = 4096;
/// The most output one evaluation may produce, in bytes.
const MAX_OUTPUT_BYTES: usize = 64 * 1024 * 1024;
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

/// A checked `--jq` expression.
#[derive(Clone, Debug)]
pub struct JqFilter {
    expression: String,
}

impl JqFilter {
    /// Compile `expression` to check it (exit 2 with jaq's reason if it is not a filter).
    pub fn parse(expression: &str) -> Result<Self, Problem> {
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

    /// The lines `document` gives under this filter, each ending in a newline.
    /// A runtime error of the filter is exit 2; not done by `deadline`, 124.
    pub fn apply(&self, document: &Value, deadline: Instant) -> Result<String, Problem> {
        let (tx, rx) = mpsc::channel();
        let expression = self.expression.clone();
        let input = document.clone();
        let spawned = std::thread::Builder::new()
            .name("jq".into())
            .stack_size(16 * 1024 * 1024)
            .spawn(move || {
                let _ = tx.send(evaluate(&expression, input));
            });
        if let Err(e) = spawned {
            return Err(Problem::software(format!("--jq kon niet starten: {e}")));
        }
        let remaining = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(remaining) {
            Ok(Ok(text)) => Ok(text),
            Ok(Err(reason)) => Err(Problem::usage(format!("--jq-expressie faalde: {reason}"))),
            // The thread is left behind; the process ends right after.
            Err(mpsc::RecvTimeoutError::Timeout) => Err(Problem::timeout(
                "de tijdslimiet (--timeout) verstreek tijdens het uitvoeren van --jq",
            )),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                Err(Problem::software("--jq stopte zonder uitkomst"))
            }
        }
    }
}

type JqProgram = jaq_core::Filter<Native<Val>>;

fn compile(expression: &str) -> Result<JqProgram, String> {
    let program = File {
        code: expression,
        path: (),
    };
    let loader = Loader::new(jaq_std::defs().chain(jaq_json::defs()));
    let arena = Arena::default();
    let modules = loader.load(&arena, program).map_err(|errors| {
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
        match value {
            Val::Str(s) => out.push_str(&s),
            other => out.push_str(&Value::from(other).to_string()),
        }
        out.push('\n');
        if out.len() > MAX_OUTPUT_BYTES {
            return Err(format!("meer dan {MAX_OUTPUT_BYTES} bytes uitvoer"));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use serde_json::json;

    fn run(expr: &str, doc: Value) -> Result<String, Problem> {
        JqFilter::parse(expr)?.apply(&doc, Instant::now() + Duration::from_secs(10))
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

    #[test]
    fn the_deadline_bounds_evaluation() {
        let filter = JqFilter::parse("last(range(1e18))").unwrap();
        let started = Instant::now();
        let err = filter
            .apply(&json!(1), Instant::now() + Duration::from_millis(300))
            .expect_err("endless");
        assert_eq!(err.exit.code(), 124);
        assert!(started.elapsed() < Duration::from_secs(3));
    }

    #[test]
    fn filters_that_reach_outside_the_document_fail() {
        for denied in ["env", "halt", "halt_error(1)", "input", "debug", "stderr"] {
            let err = run(denied, json!({"a": 1})).expect_err(denied);
            assert_eq!(err.exit.code(), 2, "{denied}: {err:?}");
            assert!(err.detail.contains("niet beschikbaar"), "{err:?}");
        }
    }

    #[test]
    fn a_runtime_error_is_reported() {
        let err = run(".a.b", json!({"a": [1]})).expect_err("index of array");
        assert_eq!(err.exit.code(), 2);
    }
}

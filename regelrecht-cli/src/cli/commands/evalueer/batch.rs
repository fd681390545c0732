//! `evalueer LAW_ID --batch FILE|-`: many cases in one process. Input is JSON Lines, one case
//! per line: `{"id": …, "params": {…}, "peildatum"?: "JJJJ-MM-DD", "uitvoer"?: [...]}`; output
//! is JSON Lines too, one line per case in input order: `{"id", "resultaat": <as evalueer>}`
//! or `{"id", "fout": <error object>}`. Blank lines are skipped.
//!
//! The corpus is loaded once. A bad case (malformed line, wrong type, missing input, unknown
//! output) never stops the batch; only the deadline (`--timeout`, exit 124) or unreadable
//! input does. Exit 0 when every case succeeded, else exit 1 (`BATCH_DEELS_GEFAALD`) after
//! the lines, with the summary `N gevallen: N gelukt, N gefaald` on stderr. Each data subject
//! a case names (`bsn`, `kvk_nummer`) is named in the audit log, one record per subject.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::time::Instant;

use chrono::NaiveDate;
use common::validate::Validation;
use common::{Context, Environment, ExitStatus, FieldError, Outcome, Problem, Result};
use regelrecht_engine::{Corpus, Request, parse_iso_date};
use serde_json::{Map, Value};

use super::Args;
use crate::cli::evaluation::{self, Options};
use crate::cli::laws::{self, ENGINE_VERSION, SOURCE};
use crate::cli::params;

/// Longest input line.
pub(crate) const MAX_LINE_BYTES: usize = 1024 * 1024;
/// Most cases in one batch.
pub(crate) const MAX_CASES: usize = 1_000_000;

/// One case as read.
struct Case {
    id: Value,
    params: Map<String, Value>,
    date: Option<String>,
    outputs: Option<Vec<String>>,
}

fn parse_case(line: &str) -> std::result::Result<Case, (Value, Problem)> {
    let invalid = |id: &Value, detail: String| {
        (
            id.clone(),
            Problem::invalid(vec![FieldError::new("batch", detail)]),
        )
    };
    let value: Value = serde_json::from_str(line).map_err(|e| {
        invalid(
            &Value::Null,
            format!("geen geldige JSON: {}", common::input::json_reason(&e)),
        )
    })?;
    let Value::Object(mut obj) = value else {
        return Err(invalid(&Value::Null, "een geval is een JSON-object".into()));
    };
    let id = obj.remove("id").unwrap_or(Value::Null);
    let params = match obj.remove("params") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(p)) => p,
        Some(_) => return Err(invalid(&id, "\"params\" moet een object zijn".into())),
    };
    let date = match obj.remove("peildatum") {
        None | Some(Value::Null) => None,
        Some(Value::String(d)) => Some(d),
        Some(_) => {
            return Err(invalid(
                &id,
                "\"peildatum\" moet een tekst JJJJ-MM-DD zijn".into(),
            ));
        }
    };
    let outputs = match obj.remove("uitvoer") {
        None | Some(Value::Null) => None,
        Some(Value::String(o)) => Some(vec![o]),
        Some(Value::Array(items)) => Some(
            items
                .into_iter()
                .map(|i| match i {
                    Value::String(s) if !s.trim().is_empty() => Ok(s.trim().to_string()),
                    _ => Err(invalid(&id, "\"uitvoer\" is een lijst van namen".into())),
                })
                .collect::<std::result::Result<_, _>>()?,
        ),
        Some(_) => {
            return Err(invalid(
                &id,
                "\"uitvoer\" is een naam of een lijst van namen".into(),
            ));
        }
    };
    if let Some(key) = obj.keys().next() {
        return Err(invalid(
            &id,
            format!("onbekend veld \"{key}\" (verwacht id, params, peildatum, uitvoer)"),
        ));
    }
    Ok(Case {
        id,
        params,
        date,
        outputs,
    })
}

/// Evaluates one case; every failure is this case's problem.
fn run_case(
    corpus: &Corpus,
    law_id: &str,
    default_date: NaiveDate,
    default_outputs: &[String],
    case: Case,
    options: &Options<'_>,
    ctx: &mut Context<'_>,
) -> std::result::Result<(Value, Vec<String>), Problem> {
    let into_problem = |e: common::Error| {
        e.into_problem()
            .unwrap_or_else(|| Problem::software("onverwachte stop in een batchgeval"))
    };
    let date = match &case.date {
        None => default_date,
        Some(text) => parse_iso_date(text).ok_or_else(|| {
            Problem::invalid(vec![FieldError::new(
                "peildatum",
                format!("'{text}' is geen datum JJJJ-MM-DD"),
            )])
        })?,
    };
    let outputs = case.outputs.unwrap_or_else(|| default_outputs.to_vec());
    if outputs.is_empty() {
        return Err(Problem::invalid(vec![FieldError::new(
            "uitvoer",
            "geen uitvoer: geef \"uitvoer\" in het geval of --uitvoer",
        )]));
    }
    let file = laws::select(corpus, law_id, date).map_err(into_problem)?;
    let law = file
        .law()
        .map_err(|e| into_problem(crate::cli::problems::load_error(&e)))?;
    let (typed, warnings) = params::typed(law, Some(case.params), &[]).map_err(into_problem)?;
    params::check_outputs(corpus, law, date, &outputs).map_err(into_problem)?;
    params::check_spelling(corpus, law, &typed.undeclared).map_err(into_problem)?;
    let params: Map<String, Value> = typed
        .values
        .iter()
        .map(|(k, v)| (k.clone(), v.to_json()))
        .collect();
    params::audit_subjects(ctx, &typed.values);
    let request = Request {
        law_id: law_id.to_string(),
        outputs,
        params: typed.values,
        date,
    };
    // Nothing here reads the trace beyond `--uitleg` and the receipt.
    let done = evaluation::evaluate_traced(corpus, &request, &params, options, false)
        .map_err(into_problem)?;
    // The untranslatable warnings are in the data (`onvertaalbaar.waarschuwingen`).
    Ok((done.data, warnings))
}

/// Reads the input as lines, each at most [`MAX_LINE_BYTES`].
fn lines(source: &str) -> std::result::Result<Box<dyn BufRead>, String> {
    if source == "-" {
        return Ok(Box::new(BufReader::new(std::io::stdin())));
    }
    let path = Path::new(source);
    let shown = path.display();
    let unreadable = |e: std::io::Error| format!("{shown} kon niet gelezen worden: {e}");
    if !std::fs::metadata(path).map_err(unreadable)?.is_file() {
        return Err(format!("{shown} is geen gewoon bestand"));
    }
    let file = std::fs::File::open(path).map_err(unreadable)?;
    Ok(Box::new(BufReader::new(file)))
}

/// Reads one line of at most [`MAX_LINE_BYTES`]; `Ok(None)` at the end.
fn next_line(
    input: &mut Box<dyn BufRead>,
) -> std::io::Result<Option<std::result::Result<String, ()>>> {
    let mut bytes = Vec::new();
    let read = (&mut *input)
        .take(MAX_LINE_BYTES as u64 + 1)
        .read_until(b'\n', &mut bytes)?;
    if read == 0 {
        return Ok(None);
    }
    if bytes.len() > MAX_LINE_BYTES && !bytes.ends_with(b"\n") {
        // Skip the rest of the over-long line.
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let n = (&mut *input).take(64 * 1024).read_until(b'\n', &mut rest)?;
            if n == 0 || rest.ends_with(b"\n") {
                break;
            }
        }
        return Ok(Some(Err(())));
    }
    Ok(Some(String::from_utf8(bytes).map_err(|_| ())))
}

/// The batch's arguments, checked before any work.
struct Checked<'a> {
    law_id: &'a str,
    default_date: NaiveDate,
    /// The outputs of a case that names none.
    defaults: Vec<String>,
    input: Box<dyn BufRead>,
}

/// A case's id with its result and warnings, or its id with why it failed.
type CaseOutcome = std::result::Result<(Value, (Value, Vec<String>)), (Value, Problem)>;

/// Checks the batch's arguments and opens its input, before any work.
fn validate<'a>(args: &'a Args, source: &str, ctx: &Context<'_>) -> Result<Checked<'a>> {
    let law_id = args.law_id.trim();
    let mut validation = Validation::new();
    validation.check(!law_id.is_empty(), "law_id", || "geef een $id".to_string());
    let default_date = args.peildatum.date(ctx.today(), &mut validation);
    args.corpus.validate(&mut validation);
    let defaults: Vec<String> = args.uitvoer.iter().map(|o| o.trim().to_string()).collect();
    validation.check(defaults.iter().all(|o| !o.is_empty()), "uitvoer", || {
        "een --uitvoer is leeg".to_string()
    });
    let input = match lines(source) {
        Ok(input) => Some(input),
        Err(detail) => {
            validation.push("batch", detail);
            None
        }
    };
    validation.finish()?;
    let input = input.ok_or_else(|| Problem::software("invoer ontbreekt na validatie"))?;
    Ok(Checked {
        law_id,
        default_date,
        defaults,
        input,
    })
}

/// One output line: the case's `resultaat` (with its `waarschuwingen`), or its `fout` with the
/// input line's `regel`.
fn case_line(outcome: CaseOutcome, number: usize, trace_id: &str) -> Value {
    // Built by moving the parts in (`json!` would copy each through `to_value`).
    let mut v = Map::new();
    match outcome {
        Ok((id, (data, warnings))) => {
            v.insert("id".into(), id);
            v.insert("resultaat".into(), data);
            if !warnings.is_empty() {
                v.insert("waarschuwingen".into(), warnings.into());
            }
        }
        Err((id, problem)) => {
            let mut fout = problem.to_json(trace_id);
            fout["regel"] = number.into();
            v.insert("id".into(), id);
            v.insert("fout".into(), fout);
        }
    }
    Value::Object(v)
}

pub(super) fn run(args: &Args, source: &str, ctx: &mut Context<'_>) -> Result<Outcome> {
    let Checked {
        law_id,
        default_date,
        defaults,
        mut input,
    } = validate(args, source, ctx)?;
    let corpus = args.corpus.load(ctx)?;
    let primary = laws::select(&corpus, law_id, default_date)?;
    let (primary_uri, primary_sha) = (laws::source_uri(primary), primary.sha256().to_string());
    let options = args.options();
    // The parameters are the batch's, line by line (`--param` cannot be given with it).
    let passed = ctx.gate(
        args.plan(law_id, default_date, &options)
            .set("batch", source)
            .set("uitvoer", defaults.clone())
            .set("param", Value::Null),
    )?;

    let deadline = ctx.deadline();
    // Spooled when printed as lines, so a batch's memory does not grow with its cases;
    // `--fields` selects in each line's result (the output schema is a single evaluation's).
    let mut out = ctx.json_lines("resultaat");
    let (mut ok, mut failed) = (0usize, 0usize);
    let mut number = 0usize;
    while let Some(line) = next_line(&mut input).map_err(|e| {
        Problem::invalid(vec![FieldError::new(
            "batch",
            format!("invoer kon niet gelezen worden: {e}"),
        )])
    })? {
        number += 1;
        if Instant::now() >= deadline {
            return Err(Problem::timeout(format!(
                "--timeout verstreken bij regel {number} van de batch"
            ))
            .into());
        }
        let result = match line {
            Err(()) => Err((
                Value::Null,
                Problem::invalid(vec![FieldError::new(
                    "batch",
                    format!("regel {number}: langer dan {MAX_LINE_BYTES} bytes of geen UTF-8"),
                )]),
            )),
            Ok(text) if text.trim().is_empty() => continue,
            Ok(text) => parse_case(&text),
        };
        if out.len() >= MAX_CASES {
            return Err(Problem::invalid(vec![FieldError::new(
                "batch",
                format!("meer dan {MAX_CASES} gevallen; splits de batch"),
            )])
            .into());
        }
        let outcome = match result {
            Err(failure) => Err(failure),
            Ok(case) => {
                let id = case.id.clone();
                run_case(
                    &corpus,
                    law_id,
                    default_date,
                    &defaults,
                    case,
                    &options,
                    ctx,
                )
                .map(|done| (id.clone(), done))
                .map_err(|p| (id, p))
            }
        };
        if outcome.is_ok() {
            ok += 1;
        } else {
            failed += 1;
        }
        out.push(case_line(outcome, number, &ctx.trace.trace_id))?;
    }
    let summary = format!("{} gevallen: {ok} gelukt, {failed} gefaald", ok + failed);
    let mut outcome = passed
        .answer_lines(out, SOURCE, Environment::Local)?
        .source_url(primary_uri, "LOCAL", primary_sha)
        .extra("law_id", law_id.into())
        .extra("engine_version", ENGINE_VERSION.into())
        .closing(summary.clone());
    if failed > 0 {
        outcome = outcome.failed(
            Problem::new(
                ExitStatus::Error,
                common::codes::BATCH_DEELS_GEFAALD,
                "Batch deels gefaald",
                summary,
            )
            .with_hint("elk gefaald geval heeft op zijn regel een \"fout\" met de reden"),
        );
    }
    Ok(outcome)
}

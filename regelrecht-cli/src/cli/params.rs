//! A law's parameters as commands take them: typed by the law's declarations, checked
//! against the outputs and names it declares (a misspelling is exit 65 with the name meant),
//! read from `--param-json FILE|-` within a bound, and the data subjects they name for the
//! audit record.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use chrono::NaiveDate;
use common::validate::Validation;
use common::{Context, FieldError, Result};
use regelrecht_engine::params::typed_params;
use regelrecht_engine::{Corpus, FieldType, Law, TypedParams, Value as EngineValue};
use serde_json::{Map, Value};

use crate::cli::problems;

/// Parameters that name a data subject, and the subject's identifier type (AUDIT-14).
const SUBJECT_PARAMS: [(&str, &str); 2] = [("bsn", "BSN"), ("kvk_nummer", "KVK_NUMMER")];

/// Names each data subject the parameters identify for the audit record.
pub(crate) fn audit_subjects(ctx: &mut Context<'_>, params: &BTreeMap<String, EngineValue>) {
    for (name, id_type) in SUBJECT_PARAMS {
        match params.get(name) {
            Some(EngineValue::String(id)) if !id.is_empty() => ctx.subject(id, id_type),
            Some(EngineValue::Number(n)) => ctx.subject(&n.to_string(), id_type),
            _ => {}
        }
    }
}

/// How alike a given name must be to a declared one to count as its misspelling.
const SPELLING_SIMILARITY: f64 = 0.85;

/// A parameter the law does not declare but that is close to one it does (and that no other
/// loaded law declares, nor a procedure stage requires) is a misspelling: exit 65 with the name
/// meant. Other undeclared names pass with a warning, for laws the evaluation reaches.
pub(crate) fn check_spelling(corpus: &Corpus, law: &Law, undeclared: &[String]) -> Result<()> {
    if undeclared.is_empty() {
        return Ok(());
    }
    let declared: Vec<&str> = regelrecht_engine::params::declarations(law)
        .into_iter()
        .map(|f| f.name.as_str())
        .collect();
    let suggestion = |name: &str| {
        declared
            .iter()
            .map(|d| (strsim::jaro_winkler(name, d), *d))
            .filter(|(score, _)| *score >= SPELLING_SIMILARITY)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, d)| d)
    };
    let close: Vec<(&String, &str)> = undeclared
        .iter()
        .filter_map(|n| suggestion(n).map(|d| (n, d)))
        .collect();
    if close.is_empty() {
        return Ok(());
    }
    // Only now, on this rare path, look at every law: a name another law declares is meant
    // for that law.
    let known_elsewhere = |name: &str| {
        corpus.files().filter_map(|f| f.law().ok()).any(|l| {
            regelrecht_engine::params::declarations(l)
                .iter()
                .any(|f| f.name == name)
                || l.procedure
                    .iter()
                    .flat_map(|p| &p.stages)
                    .flat_map(|s| &s.requires)
                    .any(|r| r.name == name)
        })
    };
    let errors: Vec<FieldError> = close
        .into_iter()
        .filter(|(name, _)| !known_elsewhere(name))
        .map(|(name, meant)| {
            FieldError::new(
                "param",
                format!(
                    "'{}' kent geen parameter '{name}'; bedoelt u '{meant}'?",
                    law.id
                ),
            )
        })
        .collect();
    if errors.is_empty() {
        return Ok(());
    }
    Err(common::Problem::invalid(errors)
        .with_hint(format!("parameters van deze wet: {}", declared.join(", ")))
        .into())
}

/// Every requested output must be one the law produces, or one a hook gives when it fires on
/// one of its articles (exit 65 listing the unknown ones). The hooks are only looked for when
/// an output is not the law's own.
pub(crate) fn check_outputs(
    corpus: &Corpus,
    law: &Law,
    date: NaiveDate,
    outputs: &[String],
) -> Result<()> {
    let own = |o: &&String| law.article_for_output(o).is_none();
    if !outputs.iter().any(|o| own(&o)) {
        return Ok(());
    }
    let from_hooks = regelrecht_engine::resolve::hook_outputs(corpus, law, date)
        .map_err(|e| problems::eval_error(&e, "uitvoer"))?;
    let unknown: Vec<FieldError> = outputs
        .iter()
        .filter(own)
        .filter(|o| !from_hooks.contains(*o))
        .map(|o| FieldError::new("uitvoer", format!("'{}' heeft geen uitvoer '{o}'", law.id)))
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    let mut known: Vec<&str> = law.outputs().map(|(_, f)| f.name.as_str()).collect();
    known.extend(from_hooks.iter().map(String::as_str));
    Err(common::Problem::invalid(unknown)
        .with_hint(format!(
            "uitvoer van deze wet (ook uit hooks): {}",
            known.join(", ")
        ))
        .into())
}

/// Parameters typed by the law's declarations, by the one typing rule of every command
/// ([`regelrecht_engine::params::check_value`]): a JSON number given for a `string` parameter
/// (an identifier such as a BSN written as a number) stays that number, as in the reference
/// engine and a scenario, with a warning (returned); every other mismatch is exit 65.
pub(crate) fn typed(
    law: &Law,
    json: Option<Map<String, Value>>,
    texts: &[(String, String)],
) -> Result<(TypedParams, Vec<String>)> {
    let typed = typed_params(law, json.as_ref(), texts).map_err(|e| problems::param_errors(&e))?;
    let declared = regelrecht_engine::params::declarations(law);
    let warnings = json
        .iter()
        .flatten()
        .filter(|(name, value)| {
            value.is_number()
                && !texts.iter().any(|(given, _)| given == *name)
                && declared
                    .iter()
                    .any(|f| f.name == **name && f.field_type == FieldType::String)
        })
        .map(|(name, value)| {
            format!(
                "parameter '{name}' is een tekst volgens de wet maar is gegeven als getal ({value}); als getal doorgegeven"
            )
        })
        .collect();
    Ok((typed, warnings))
}

/// The most bytes `--param-json` reads (from a file or stdin).
const MAX_PARAM_JSON_BYTES: u64 = 1024 * 1024;

/// The JSON object of `--param-json FILE|-`. A file must be a regular file (a FIFO or device is
/// refused, not waited on); errors never quote its contents.
pub(crate) fn read_param_json(
    source: &str,
    validation: &mut Validation,
) -> Option<Map<String, Value>> {
    let text = read_source(source);
    let parsed = text.and_then(|t| match serde_json::from_str::<Value>(&t) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(format!(
            "--param-json moet één JSON-object zijn, niet {}",
            json_kind(&other)
        )),
        Err(e) => Err(format!(
            "--param-json is geen geldige JSON: {}",
            common::input::json_reason(&e)
        )),
    });
    match parsed {
        Ok(map) => Some(map),
        Err(detail) => {
            validation.push("param_json", detail);
            None
        }
    }
}

/// The text of `-` (stdin) or a regular file, at most [`MAX_PARAM_JSON_BYTES`]; the error
/// never quotes the contents.
pub(crate) fn read_source(source: &str) -> std::result::Result<String, String> {
    if source == "-" {
        read_bounded(std::io::stdin().lock())
            .map_err(|e| format!("stdin kon niet gelezen worden: {e}"))
    } else {
        read_param_file(Path::new(source))
    }
}

fn read_param_file(path: &Path) -> std::result::Result<String, String> {
    let shown = path.display();
    let unreadable = |e: std::io::Error| format!("{shown} kon niet gelezen worden: {e}");
    let regular = std::fs::metadata(path).map_err(unreadable)?.is_file();
    let file = if regular {
        std::fs::File::open(path).map_err(unreadable)?
    } else {
        return Err(format!("{shown} is geen gewoon bestand"));
    };
    if !file.metadata().map_err(unreadable)?.is_file() {
        return Err(format!("{shown} is geen gewoon bestand"));
    }
    read_bounded(file).map_err(unreadable)
}

/// At most [`MAX_PARAM_JSON_BYTES`] of UTF-8 text.
fn read_bounded(reader: impl Read) -> std::io::Result<String> {
    let mut text = String::new();
    reader
        .take(MAX_PARAM_JSON_BYTES + 1)
        .read_to_string(&mut text)?;
    if text.len() as u64 > MAX_PARAM_JSON_BYTES {
        return Err(std::io::Error::other(format!(
            "groter dan {MAX_PARAM_JSON_BYTES} bytes"
        )));
    }
    Ok(text)
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "een boolean",
        Value::Number(_) => "een getal",
        Value::String(_) => "een tekst",
        Value::Array(_) => "een lijst",
        Value::Object(_) => "een object",
    }
}

//! Engine failures as profile errors: malformed law files, parameters of the wrong type, and
//! outputs the engine refuses to compute (always an error naming what is missing, never a value).

use common::codes::{self, Code};
use common::{Error, ExitStatus, FieldError, Problem};
use regelrecht_engine::{ErrorKind, EvalError, LoadError, LoadErrorKind, ParamError};

/// A malformed law file: exit 65, naming the file, the line and the problem; loading that ran
/// past the deadline: exit 124.
pub(crate) fn load_error(e: &LoadError) -> Error {
    if e.kind == LoadErrorKind::Deadline {
        return Problem::timeout(format!("{}: {}", e.file, e.problem)).into();
    }
    if let LoadErrorKind::TooManyFiles(bound) = e.kind {
        return Problem::invalid(vec![FieldError::new(
            "corpus",
            format!("{}: meer dan {bound} wetbestanden", e.file),
        )])
        .with_hint(format!(
            "de grens is {bound} wetbestanden; verhoog die met {}=AANTAL, of laad minder mappen",
            crate::cli::settings::MAX_FILES_ENV
        ))
        .into();
    }
    let place = match e.line {
        Some(line) => format!("{} regel {line}", e.file),
        None => e.file.clone(),
    };
    Problem::new(
        ExitStatus::DataErr,
        common::codes::WETBESTAND_ONGELDIG,
        "Wetbestand ongeldig",
        format!("wetbestand {place}: {}", e.problem),
    )
    .with_hint("herstel het bestand of laat de map weg uit --corpus / REGELRECHT_CORPUS")
    .with_errors(vec![FieldError::new("corpus", e.to_string())])
    .into()
}

/// Parameters that do not fit the law's declarations: exit 65, one entry per parameter.
pub(crate) fn param_errors(errors: &[ParamError]) -> Error {
    Problem::invalid(
        errors
            .iter()
            .map(|e| FieldError::new("param", e.to_string()))
            .collect(),
    )
    .into()
}

/// The registered code of an engine error (`EvalError::code`, all Dutch and in the
/// registry; a code the registry lacks would be a bug, reported as `ONGELDIG`).
fn engine_code(e: &EvalError) -> Code {
    Code::named(e.code()).unwrap_or(codes::ONGELDIG)
}

/// An evaluation the engine refused. `outputs_pointer` is the argument naming the outputs
/// (`uitvoer` for `evalueer`).
pub(crate) fn eval_error(e: &EvalError, outputs_pointer: &str) -> Error {
    let top_level = e.context.is_empty();
    match &e.kind {
        ErrorKind::Load(load) => load_error(load),
        ErrorKind::LawNotFound { .. }
        | ErrorKind::LawNotInForce { .. }
        | ErrorKind::LawEnded { .. }
            if top_level =>
        {
            Problem::not_found(e.to_string()).into()
        }
        ErrorKind::OutputNotFound { .. } if top_level => {
            Problem::invalid(vec![FieldError::new(outputs_pointer, e.to_string())])
                .with_hint("zie regelrecht-cli wet toon LAW_ID voor de uitvoer van de wet")
                .into()
        }
        _ => {
            let (pointer, detail, hint) = match e.missing() {
                Some(name) => (
                    "param",
                    e.kind.to_string(),
                    Some(format!(
                        "geef '{name}' mee met --param {name}=WAARDE of in --param-json"
                    )),
                ),
                None => (outputs_pointer, e.to_string(), None),
            };
            let mut err = Problem::new(
                ExitStatus::DataErr,
                engine_code(e),
                "Uitkomst niet te berekenen",
                e.to_string(),
            )
            .with_errors(vec![FieldError::new(pointer, detail)]);
            if let Some(hint) = hint {
                err = err.with_hint(hint);
            }
            err.into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every code the engine can give (the literals of `EvalError::code`) is in the registry,
    /// so `engine_code` never falls back.
    #[test]
    fn every_engine_code_is_registered() {
        let source = include_str!("../../engine/src/error.rs");
        let body = source
            .split("pub fn code(&self) -> &'static str {")
            .nth(1)
            .and_then(|rest| rest.split("\n    }\n").next())
            .expect("EvalError::code in the engine");
        let codes: Vec<&str> = body.split('"').skip(1).step_by(2).collect();
        assert!(codes.len() >= 10, "{codes:?}");
        for code in codes {
            assert!(
                Code::named(code).is_some(),
                "engine code {code} is not in common::codes"
            );
        }
        let error = EvalError::type_error("ADD", "x");
        assert_eq!(engine_code(&error), codes::TYPE_FOUT);
        let error = EvalError::new(ErrorKind::DivisionByZero);
        assert_eq!(engine_code(&error), codes::DELING_DOOR_NUL);
    }
}

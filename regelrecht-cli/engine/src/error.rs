//! Errors: a malformed law file ([`LoadError`]) and an evaluation the engine refuses to complete
//! ([`EvalError`], always naming what is missing or wrong, never a guessed value).

use crate::origin::Origin;
use std::fmt;

/// A law file that cannot be read or parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// File path or `builtin:<name>`.
    pub file: String,
    /// 1-based line of the problem, when known.
    pub line: Option<usize>,
    /// What is wrong. Never text taken from the file beyond the law's `$id`.
    pub problem: String,
    /// Why loading stopped.
    pub kind: LoadErrorKind,
}

/// The ways loading fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadErrorKind {
    /// The file (or directory) is unreadable, malformed or beyond a limit.
    Invalid,
    /// The deadline passed before loading was done.
    Deadline,
    /// More law files than the bound on the number of files (which the caller may raise).
    TooManyFiles(usize),
}

impl LoadError {
    pub(crate) fn new(
        origin: &Origin,
        line: Option<usize>,
        problem: impl Into<String>,
    ) -> LoadError {
        LoadError {
            file: origin.display(),
            line,
            problem: problem.into(),
            kind: LoadErrorKind::Invalid,
        }
    }

    pub(crate) fn deadline(origin: &Origin) -> LoadError {
        LoadError {
            kind: LoadErrorKind::Deadline,
            ..LoadError::new(
                origin,
                None,
                "tijdslimiet verstreken tijdens het laden van wetten",
            )
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file, self.problem),
            None => write!(f, "{}: {}", self.file, self.problem),
        }
    }
}

impl std::error::Error for LoadError {}

/// Why an evaluation failed.
#[derive(Debug, Clone, PartialEq)]
pub enum ErrorKind {
    /// A law file could not be parsed.
    Load(LoadError),
    /// No law with this `$id` is loaded.
    LawNotFound { law: String },
    /// No version of the law is in force on the date.
    LawNotInForce { law: String, date: String },
    /// The law ended before the date.
    LawEnded {
        law: String,
        date: String,
        valid_to: String,
    },
    /// The law has no such output.
    OutputNotFound { law: String, output: String },
    /// A `$variable` could not be resolved (no parameter, input, definition or output).
    MissingValue {
        name: String,
        law: String,
        article: String,
    },
    /// An input from an external data source (`source: {}`) was not given as a parameter.
    MissingExternalData {
        name: String,
        law: String,
        article: String,
    },
    /// A required open term has no implementation and no default.
    MissingImplementation {
        law: String,
        article: String,
        open_term: String,
    },
    /// The article contains a construct that was not translated (RFC-012).
    Untranslatable {
        law: String,
        article: String,
        construct: String,
        reason: String,
    },
    /// A cyclic reference between outputs.
    Cycle { path: Vec<String> },
    /// An operand of the wrong type.
    Type { operation: String, message: String },
    /// Division by zero.
    DivisionByZero,
    /// Units that cannot be combined (RFC-023).
    UnitMismatch {
        operation: String,
        left: String,
        right: String,
    },
    /// A calculation date or value that is not a valid date.
    InvalidDate { value: String },
    /// Any other refusal (ambiguous implementation, invalid operation, overflow).
    Invalid { message: String },
}

/// An evaluation error, with the chain of outputs being evaluated when it happened.
#[derive(Debug, Clone, PartialEq)]
pub struct EvalError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// Outer to inner: `law#output` frames that were being evaluated.
    pub context: Vec<String>,
    /// What was evaluated up to the failure (set on errors returned by [`crate::Engine::evaluate`]).
    pub trace: Option<Box<crate::trace::TraceNode>>,
}

impl EvalError {
    /// A new error without context.
    pub fn new(kind: ErrorKind) -> EvalError {
        EvalError {
            kind,
            context: Vec::new(),
            trace: None,
        }
    }

    /// A type error.
    pub fn type_error(operation: &str, message: impl Into<String>) -> EvalError {
        EvalError::new(ErrorKind::Type {
            operation: operation.to_string(),
            message: message.into(),
        })
    }

    /// Another refusal.
    pub fn invalid(message: impl Into<String>) -> EvalError {
        EvalError::new(ErrorKind::Invalid {
            message: message.into(),
        })
    }

    /// Adds an outer frame.
    pub(crate) fn within(mut self, frame: String) -> EvalError {
        self.context.insert(0, frame);
        self
    }

    /// Short machine code of the kind (for the profile's `errors[]`).
    pub fn code(&self) -> &'static str {
        match &self.kind {
            ErrorKind::Load(_) => "PARSE_FOUT",
            ErrorKind::LawNotFound { .. } | ErrorKind::OutputNotFound { .. } => "NIET_GEVONDEN",
            ErrorKind::LawNotInForce { .. } | ErrorKind::LawEnded { .. } => "NIET_GELDIG",
            ErrorKind::MissingValue { .. } | ErrorKind::MissingExternalData { .. } => "ONTBREEKT",
            ErrorKind::MissingImplementation { .. } => "GEEN_IMPLEMENTATIE",
            ErrorKind::Untranslatable { .. } => "ONVERTAALBAAR",
            ErrorKind::Cycle { .. } => "KRINGVERWIJZING",
            ErrorKind::Type { .. }
            | ErrorKind::UnitMismatch { .. }
            | ErrorKind::InvalidDate { .. } => "TYPE_FOUT",
            ErrorKind::DivisionByZero => "DELING_DOOR_NUL",
            ErrorKind::Invalid { .. } => "ONGELDIG",
        }
    }

    /// The reference engine's (English) wording of this error, where the RegelRecht conformance
    /// suite pins it (`the execution fails with "…"`); our own message is Dutch, this one is
    /// only for matching scenarios written against the reference.
    pub fn reference_message(&self) -> Option<String> {
        Some(match &self.kind {
            ErrorKind::LawNotFound { law } => format!("Law '{law}' not found"),
            ErrorKind::LawNotInForce { law, date } => {
                format!("No version of law '{law}' in force on {date}")
            }
            ErrorKind::LawEnded {
                law,
                date,
                valid_to,
            } => format!(
                "No version of law '{law}' in force on {date}; last in force until {valid_to}"
            ),
            ErrorKind::OutputNotFound { law, output } => {
                format!("Output '{output}' not found in law '{law}'")
            }
            ErrorKind::Untranslatable {
                law,
                article,
                construct,
                ..
            } => format!("Untranslatable construct '{construct}' in {law} article {article}"),
            ErrorKind::DivisionByZero => "Division by zero".to_string(),
            _ => return None,
        })
    }

    /// The name of what is missing, for a missing value, input or implementation.
    pub fn missing(&self) -> Option<&str> {
        match &self.kind {
            ErrorKind::MissingValue { name, .. } | ErrorKind::MissingExternalData { name, .. } => {
                Some(name)
            }
            ErrorKind::MissingImplementation { open_term, .. } => Some(open_term),
            _ => None,
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Load(e) => write!(f, "wetbestand ongeldig: {e}"),
            ErrorKind::LawNotFound { law } => write!(f, "wet '{law}' is niet geladen"),
            ErrorKind::LawNotInForce { law, date } => {
                write!(f, "geen versie van '{law}' is geldig op {date}")
            }
            ErrorKind::LawEnded {
                law,
                date,
                valid_to,
            } => write!(f, "'{law}' is vervallen na {valid_to} (peildatum {date})"),
            ErrorKind::OutputNotFound { law, output } => {
                write!(f, "'{law}' heeft geen uitvoer '{output}'")
            }
            ErrorKind::MissingValue { name, law, article } => {
                write!(
                    f,
                    "waarde '{name}' ontbreekt (nodig in {law} artikel {article}): geen parameter, invoer, definitie of uitvoer"
                )
            }
            ErrorKind::MissingExternalData { name, law, article } => {
                write!(
                    f,
                    "invoer '{name}' komt uit een externe gegevensbron en is niet als parameter gegeven ({law} artikel {article})"
                )
            }
            ErrorKind::MissingImplementation {
                law,
                article,
                open_term,
            } => {
                write!(
                    f,
                    "open norm '{open_term}' van {law} artikel {article} heeft geen implementatie en geen standaardwaarde"
                )
            }
            ErrorKind::Untranslatable {
                law,
                article,
                construct,
                reason,
            } => {
                write!(
                    f,
                    "{law} artikel {article} bevat een onvertaalbare constructie '{construct}': {reason}"
                )
            }
            ErrorKind::Cycle { path } => write!(f, "kringverwijzing: {}", path.join(" -> ")),
            ErrorKind::Type { operation, message } => write!(f, "{operation}: {message}"),
            ErrorKind::DivisionByZero => write!(f, "deling door nul"),
            ErrorKind::UnitMismatch {
                operation,
                left,
                right,
            } => {
                write!(
                    f,
                    "{operation}: eenheden '{left}' en '{right}' passen niet bij elkaar"
                )
            }
            ErrorKind::InvalidDate { value } => {
                write!(f, "'{value}' is geen geldige datum (JJJJ-MM-DD)")
            }
            ErrorKind::Invalid { message } => f.write_str(message),
        }
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        if !self.context.is_empty() {
            write!(f, " (bij {})", self.context.join(" -> "))?;
        }
        Ok(())
    }
}

impl std::error::Error for EvalError {}

impl From<LoadError> for EvalError {
    fn from(e: LoadError) -> EvalError {
        EvalError::new(ErrorKind::Load(e))
    }
}

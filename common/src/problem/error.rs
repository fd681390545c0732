//! The one error type of the family, and its mapping to exit codes.
//!
//! A command either succeeds with an [`crate::call::provenance::Outcome`] or fails with an
//! [`Error`]. An error is a [`Problem`] (printed as one RFC 9457 object on
//! stderr) or a [`Halt`]: the planned stop of a dry run or of a mutation that
//! was not confirmed (the plan goes to stdout). Problems are built with the
//! constructors and `with_*` methods of [`Problem`] and become an [`Error`]
//! through `From` (so `?` converts them); the profile's own machinery (audit
//! log, printer, environment, validation, commits) fails with a bare
//! [`Problem`], since it can never halt.

use std::borrow::Cow;

use serde::Serialize;

use crate::problem::codes::{self, Code};
use crate::problem::exit::ExitStatus;

/// One invalid input, with a JSON Pointer to the argument it concerns.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct FieldError {
    pub pointer: String,
    pub detail: String,
}

impl FieldError {
    /// An error about the argument `name` (a property of the inputSchema).
    pub fn new(name: &str, detail: impl Into<String>) -> Self {
        Self {
            pointer: format!("/{name}"),
            detail: detail.into(),
        }
    }
}

/// A failure as the profile reports it (rule ERR-1).
#[derive(Clone, Debug)]
pub struct Problem {
    pub exit: ExitStatus,
    /// A registered code (§8.3): never a free string.
    pub code: Code,
    pub title: Cow<'static, str>,
    pub detail: String,
    pub status: Option<u16>,
    pub errors: Vec<FieldError>,
    pub retry_after: Option<u64>,
    pub hint: Option<String>,
}

/// A planned stop: the plan is the result. It is carried as printed (the JSON of
/// [`crate::call::plan::Plan`], its digest in `plan_digest`), so errors need not know plans.
#[derive(Debug)]
pub enum Halt {
    /// `--dry-run`: print the plan, exit 0.
    DryRun(serde_json::Value),
    /// A mutation refused by the gate (no `--confirm`: exit 80; a digest that
    /// does not match: exit 81): print the plan on stdout and the problem on stderr.
    Refused(serde_json::Value, Problem),
}

/// Why a command did not produce data.
#[derive(Debug)]
pub enum Error {
    Problem(Box<Problem>),
    Halt(Box<Halt>),
}

/// The result type of everything a command does.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Problem {
    /// A new problem with the given exit status, registered code and Dutch texts.
    pub fn new(
        exit: ExitStatus,
        code: Code,
        title: impl Into<Cow<'static, str>>,
        detail: impl Into<String>,
    ) -> Self {
        Self {
            exit,
            code,
            title: title.into(),
            detail: detail.into(),
            status: None,
            errors: Vec::new(),
            retry_after: None,
            hint: None,
        }
    }

    /// A usage error (exit 2).
    pub fn usage(detail: impl Into<String>) -> Self {
        Self::new(
            ExitStatus::Usage,
            codes::ONGELDIG_GEBRUIK,
            "Ongeldig gebruik",
            detail,
        )
    }

    /// Invalid input values (exit 65), all of them at once.
    pub fn invalid(errors: Vec<FieldError>) -> Self {
        let detail = errors
            .iter()
            .map(|e| e.detail.as_str())
            .collect::<Vec<_>>()
            .join("; ");
        Self::new(
            ExitStatus::DataErr,
            codes::ONGELDIGE_INVOER,
            "Ongeldige invoer",
            detail,
        )
        .with_errors(errors)
    }

    /// A named thing does not exist (exit 66).
    pub fn not_found(detail: impl Into<String>) -> Self {
        Self::new(
            ExitStatus::NotFound,
            codes::NIET_GEVONDEN,
            "Niet gevonden",
            detail,
        )
    }

    /// The source cannot be reached (exit 69).
    pub fn unavailable(detail: impl Into<String>) -> Self {
        Self::new(
            ExitStatus::Unavailable,
            codes::BRON_ONBEREIKBAAR,
            "Bron niet bereikbaar",
            detail,
        )
    }

    /// The source answered something unreadable (exit 76).
    pub fn protocol(detail: impl Into<String>) -> Self {
        Self::new(
            ExitStatus::Protocol,
            codes::PARSE_FOUT,
            "Onverwacht antwoord van de bron",
            detail,
        )
    }

    /// Access refused (exit 77).
    pub fn no_permission(detail: impl Into<String>) -> Self {
        Self::new(
            ExitStatus::NoPerm,
            codes::NIET_TOEGESTAAN,
            "Geen toegang",
            detail,
        )
    }

    /// Configuration missing or unsafe (exit 78).
    pub fn config(detail: impl Into<String>) -> Self {
        Self::new(
            ExitStatus::Config,
            codes::CONFIG_FOUT,
            "Configuratie ontbreekt of is onveilig",
            detail,
        )
    }

    /// Writing output or the audit record failed (exit 74).
    pub fn io(detail: impl Into<String>) -> Self {
        Self::new(
            ExitStatus::IoErr,
            codes::IO_FOUT,
            "Schrijven mislukt",
            detail,
        )
    }

    /// An internal error (exit 70).
    pub fn software(detail: impl Into<String>) -> Self {
        Self::new(
            ExitStatus::Software,
            codes::INTERNE_FOUT,
            "Interne fout",
            detail,
        )
    }

    /// Temporarily unavailable; retry later (exit 75).
    pub fn temporary(detail: impl Into<String>, retry_after: Option<u64>) -> Self {
        Self {
            retry_after,
            ..Self::new(
                ExitStatus::TempFail,
                codes::TIJDELIJK_NIET_BESCHIKBAAR,
                "Tijdelijk niet beschikbaar",
                detail,
            )
        }
    }

    /// The `--timeout` deadline passed (exit 124).
    pub fn timeout(detail: impl Into<String>) -> Self {
        Self::new(
            ExitStatus::Timeout,
            codes::TIJDLIMIET_VERSTREKEN,
            "Tijdslimiet verstreken",
            detail,
        )
    }

    /// The call was interrupted by its caller (Ctrl-C, `SIGINT`; exit 130).
    pub fn interrupted(detail: impl Into<String>) -> Self {
        Self::new(
            ExitStatus::Interrupted,
            codes::ONDERBROKEN,
            "Onderbroken",
            detail,
        )
    }

    /// Add a hint for the caller.
    #[must_use]
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Attach the invalid inputs (JSON Pointers to arguments) to any problem.
    #[must_use]
    pub fn with_errors(mut self, errors: Vec<FieldError>) -> Self {
        self.errors = errors;
        self
    }

    /// Record the upstream HTTP status.
    #[must_use]
    pub fn with_status(mut self, status: u16) -> Self {
        self.status = Some(status);
        self
    }

    /// Replace the symbolic code by another registered one.
    #[must_use]
    pub fn with_code(mut self, code: Code) -> Self {
        self.code = code;
        self
    }
}

impl From<Problem> for Error {
    fn from(problem: Problem) -> Self {
        Self::Problem(Box::new(problem))
    }
}

impl Error {
    /// The exit status this error ends the process with.
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            Self::Problem(p) => p.exit,
            Self::Halt(h) => match &**h {
                Halt::DryRun(_) => ExitStatus::Ok,
                Halt::Refused(_, problem) => problem.exit,
            },
        }
    }

    /// The problem, if this is one (a refused plan carries one too).
    pub fn problem(&self) -> Option<&Problem> {
        match self {
            Self::Problem(p) => Some(p),
            Self::Halt(h) => match &**h {
                Halt::DryRun(_) => None,
                Halt::Refused(_, p) => Some(p),
            },
        }
    }

    /// This error's problem, taken out.
    pub fn into_problem(self) -> Option<Problem> {
        match self {
            Self::Problem(p) => Some(*p),
            Self::Halt(h) => match *h {
                Halt::DryRun(_) => None,
                Halt::Refused(_, p) => Some(p),
            },
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(err: std::io::Error) -> Self {
        Problem::io(err.to_string()).into()
    }
}

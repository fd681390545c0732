//! What the engine does with an article that contains an untranslatable construct (RFC-012):
//! the four modes and the decision per article.
//!
//! - `error` (default): an unaccepted construct is an error; an accepted one runs its partial
//!   logic.
//! - `propagate`: every article runs its partial logic; the outputs of an article with any
//!   untranslatable construct are tainted, and so are the outputs of every article that reads a
//!   tainted value (through an input from the same or another law).
//! - `warn`: every article runs its partial logic; an unaccepted construct is a warning in the
//!   evaluation (and the trace), nothing is tainted.
//! - `ignore`: as `error`, without noting accepted constructs: unaccepted ones still fail.

use crate::error::{ErrorKind, EvalError};
use crate::law::{Article, Law};
use std::fmt;
use std::str::FromStr;

/// Where an untranslatable taint comes from: the article with the untranslatable construct
/// (as the reference's sentinel value names it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taint {
    /// `$id` of the law with the construct.
    pub law: String,
    /// Its article.
    pub article: String,
    /// The construct that could not be translated.
    pub construct: String,
}

/// How untranslatable constructs are handled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UntranslatableMode {
    /// Refuse unaccepted constructs (the default).
    #[default]
    Error,
    /// Run partial logic and taint what depends on it.
    Propagate,
    /// Run partial logic with a warning.
    Warn,
    /// Refuse unaccepted constructs, run accepted ones silently.
    Ignore,
}

impl UntranslatableMode {
    /// Every mode, in documentation order.
    pub const ALL: [UntranslatableMode; 4] = [
        UntranslatableMode::Error,
        UntranslatableMode::Propagate,
        UntranslatableMode::Warn,
        UntranslatableMode::Ignore,
    ];

    /// The mode's name (`error`, `propagate`, `warn`, `ignore`).
    pub fn as_str(self) -> &'static str {
        match self {
            UntranslatableMode::Error => "error",
            UntranslatableMode::Propagate => "propagate",
            UntranslatableMode::Warn => "warn",
            UntranslatableMode::Ignore => "ignore",
        }
    }
}

impl fmt::Display for UntranslatableMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for UntranslatableMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        UntranslatableMode::ALL
            .into_iter()
            .find(|m| m.as_str() == s)
            .ok_or_else(|| format!("onbekende modus '{s}' (kies error, propagate, warn of ignore)"))
    }
}

/// What the mode decides for one article.
#[derive(Debug, Default)]
pub(super) struct Verdict {
    /// The article's outputs are tainted (propagate mode, any construct): by its first
    /// construct.
    pub(super) taint: Option<Taint>,
    /// Warnings to record (warn mode, unaccepted constructs).
    pub(super) warnings: Vec<String>,
}

/// Refuses `article` when the mode does not let its constructs run, else says what to record.
pub(super) fn check(
    mode: UntranslatableMode,
    law: &Law,
    article: &Article,
) -> Result<Verdict, EvalError> {
    let mut verdict = Verdict::default();
    let constructs = article
        .machine_readable
        .iter()
        .flat_map(|m| &m.untranslatables);
    for u in constructs {
        match mode {
            UntranslatableMode::Error | UntranslatableMode::Ignore if !u.accepted => {
                return Err(EvalError::new(ErrorKind::Untranslatable {
                    law: law.id.clone(),
                    article: article.number.clone(),
                    construct: u.construct.clone(),
                    reason: u.reason.clone(),
                }));
            }
            UntranslatableMode::Propagate => {
                verdict.taint.get_or_insert_with(|| Taint {
                    law: law.id.clone(),
                    article: article.number.clone(),
                    construct: u.construct.clone(),
                });
            }
            UntranslatableMode::Warn if !u.accepted => verdict.warnings.push(format!(
                "{} artikel {} bevat een onvertaalbare constructie '{}' ({}); alleen de vertaalde logica is uitgevoerd",
                law.id, article.number, u.construct, u.reason
            )),
            _ => {}
        }
    }
    Ok(verdict)
}

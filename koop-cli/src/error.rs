//! Errors of the KOOP source core. What they mean for the user (exit status, error code, title,
//! hint) is decided once, at the binary's edge (`src/cli/problems.rs`); the core only says what
//! went wrong.
//!
//! - [`KoopError::InvalidInput`]: bad BWB id, date or search term;
//! - [`KoopError::NotFound`]: unknown law at that date, unknown article;
//! - [`KoopError::Diagnostic`]: SRU diagnostics (also when they arrive with HTTP 200); diagnostics 1–5
//!   of the SRU diagnostic set and diagnostics without a number blame the service
//!   ([`Diagnostic::is_unavailable`]), all others reject what we asked;
//! - [`KoopError::Protocol`]: the answer is unusable (see [`ProtocolError`]).

use std::fmt;

/// Everything that can go wrong in the KOOP core (no I/O happens here).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KoopError {
    /// User input that cannot be used (the argument name is in `field`, snake_case as in the inputSchema).
    InvalidInput { field: &'static str, detail: String },
    /// The law or the article does not exist; `nearby` holds article numbers close to the one asked for.
    NotFound { detail: String, nearby: Vec<String> },
    /// The SRU service answered with diagnostics instead of records.
    Diagnostic(Diagnostic),
    /// The source broke the protocol (see [`ProtocolError`]).
    Protocol(ProtocolError),
}

/// One SRU diagnostic (`diagnostics/diagnostic/{uri, details, message}`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Diagnostic {
    /// E.g. `info:srw/diagnostic/1/10`.
    pub uri: Option<String>,
    /// Human readable message of the service.
    pub message: Option<String>,
    /// Extra details (often the offending parameter or index).
    pub details: Option<String>,
}

impl Diagnostic {
    /// The number at the end of a standard SRU diagnostic URI (`info:srw/diagnostic/1/N`).
    pub fn number(&self) -> Option<u32> {
        let uri = self.uri.as_deref()?.trim();
        let rest = uri.strip_prefix("info:srw/diagnostic/1/")?;
        rest.parse().ok()
    }

    /// True when the diagnostic blames the service rather than the request (exit 69, not 65).
    pub fn is_unavailable(&self) -> bool {
        matches!(self.number(), None | Some(1..=5))
    }
}

/// Ways in which an answer of the source is unusable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProtocolError {
    /// The body is not XML at all (no root element).
    NotXml,
    /// The XML ends before all elements are closed; `position` is the byte offset of the end.
    Truncated { position: u64 },
    /// The XML is not well-formed.
    Malformed { position: u64, detail: String },
    /// The root element is not the expected one.
    WrongRoot {
        expected: &'static str,
        found: String,
    },
    /// A required element is missing.
    MissingElement { element: &'static str },
    /// A value cannot be interpreted (e.g. a date or a count).
    BadValue {
        element: &'static str,
        value: String,
    },
    /// A record points to a URL outside the allowed repository.
    ForeignHost { url: String },
    /// More elements are open at once than any real answer needs (`limit`, see `xml::MAX_DEPTH`).
    TooDeep { position: u64, limit: usize },
    /// One rendered text would grow beyond `limit` bytes, more than the input can honestly yield.
    TooMuchText { limit: usize },
}

impl fmt::Display for KoopError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidInput { field, detail } => write!(f, "{field}: {detail}"),
            Self::NotFound { detail, .. } => f.write_str(detail),
            Self::Diagnostic(d) => {
                f.write_str("SRU-diagnose")?;
                if let Some(uri) = &d.uri {
                    write!(f, " {uri}")?;
                }
                if let Some(message) = &d.message {
                    write!(f, ": {message}")?;
                }
                if let Some(details) = &d.details {
                    write!(f, " ({details})")?;
                }
                Ok(())
            }
            Self::Protocol(p) => fmt::Display::fmt(p, f),
        }
    }
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotXml => f.write_str("het antwoord is geen XML"),
            Self::Truncated { position } => {
                write!(f, "de XML is afgebroken (einde bij byte {position})")
            }
            Self::Malformed { position, detail } => {
                write!(f, "ongeldige XML bij byte {position}: {detail}")
            }
            Self::WrongRoot { expected, found } => {
                write!(
                    f,
                    "onverwacht hoofdelement <{found}>, verwacht <{expected}>"
                )
            }
            Self::MissingElement { element } => write!(f, "element <{element}> ontbreekt"),
            Self::BadValue { element, value } => {
                write!(f, "onbruikbare waarde in <{element}>: {value:?}")
            }
            Self::ForeignHost { url } => {
                write!(
                    f,
                    "de bron verwijst naar een URL buiten de repository: {url}"
                )
            }
            Self::TooDeep { position, limit } => write!(
                f,
                "de XML is te diep genest: meer dan {limit} elementen in elkaar (bij byte {position}); \
                 zo'n structuur komt in een regeling niet voor"
            ),
            Self::TooMuchText { limit } => write!(
                f,
                "de tekst van één onderdeel wordt langer dan {limit} bytes, meer dan dit antwoord \
                 kan bevatten; het antwoord is niet als regeling te lezen"
            ),
        }
    }
}

impl std::error::Error for KoopError {}

impl From<ProtocolError> for KoopError {
    fn from(value: ProtocolError) -> Self {
        Self::Protocol(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diag(uri: Option<&str>) -> Diagnostic {
        Diagnostic {
            uri: uri.map(str::to_owned),
            message: Some("x".into()),
            details: None,
        }
    }

    #[test]
    fn diagnostics_split_between_unavailable_and_rejected() {
        assert!(diag(None).is_unavailable());
        assert!(diag(Some("info:srw/diagnostic/1/2")).is_unavailable());
        assert!(!diag(Some("info:srw/diagnostic/1/10")).is_unavailable());
        assert!(!diag(Some("info:srw/diagnostic/1/61")).is_unavailable());
        assert!(diag(Some("iets anders")).is_unavailable());
    }
}

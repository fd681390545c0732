//! Errors of the KOOP source core, each with the profile exit code and error code the CLI reports.
//!
//! Mapping (decided here, the CLI follows it):
//! - [`KoopError::InvalidInput`] → exit 65 (DATAERR), code `INVALID_INPUT`: bad BWB id, date or search term.
//! - [`KoopError::NotFound`] → exit 66 (NOT_FOUND), code `NIET_GEVONDEN`: unknown law at that date, unknown article.
//! - [`KoopError::Diagnostic`] → SRU diagnostics (also when they arrive with HTTP 200). Diagnostics 1–5 of the
//!   SRU diagnostic set (general system error, system temporarily unavailable, authentication, unsupported
//!   operation/version) and diagnostics without a number are the service's fault: exit 69 (UNAVAILABLE),
//!   code `SOURCE_UNAVAILABLE`. All others (query syntax, unsupported index or relation, start record out of
//!   range, …) reject what we asked: exit 65 (DATAERR), code `API_FOUT`.
//! - [`KoopError::Protocol`] → exit 76 (PROTOCOL): the answer is not XML, truncated, has the wrong root or
//!   misses required elements (code `PARSE_FOUT`), or a record points to a host outside the repository
//!   (code `OMLEIDING_GEWEIGERD`, as the profile registers it for rule NET-11).

use std::fmt;

/// Exit code 65 (DATAERR) of the profile.
pub const EXIT_DATAERR: i32 = 65;
/// Exit code 66 (NOT_FOUND) of the profile.
pub const EXIT_NOT_FOUND: i32 = 66;
/// Exit code 69 (UNAVAILABLE) of the profile.
pub const EXIT_UNAVAILABLE: i32 = 69;
/// Exit code 76 (PROTOCOL) of the profile.
pub const EXIT_PROTOCOL: i32 = 76;

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
}

impl KoopError {
    /// Exit code of the profile for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            Self::InvalidInput { .. } => EXIT_DATAERR,
            Self::NotFound { .. } => EXIT_NOT_FOUND,
            Self::Diagnostic(d) if d.is_unavailable() => EXIT_UNAVAILABLE,
            Self::Diagnostic(_) => EXIT_DATAERR,
            Self::Protocol(_) => EXIT_PROTOCOL,
        }
    }

    /// Error code of the profile (`code` member of the error object).
    pub fn code(&self) -> &'static str {
        match self {
            Self::InvalidInput { .. } => "INVALID_INPUT",
            Self::NotFound { .. } => "NIET_GEVONDEN",
            Self::Diagnostic(d) if d.is_unavailable() => "SOURCE_UNAVAILABLE",
            Self::Diagnostic(_) => "API_FOUT",
            Self::Protocol(ProtocolError::ForeignHost { .. }) => "OMLEIDING_GEWEIGERD",
            Self::Protocol(_) => "PARSE_FOUT",
        }
    }

    /// Short Dutch title (`title` member of the error object).
    pub fn title(&self) -> &'static str {
        match self {
            Self::InvalidInput { .. } => "Ongeldige invoer",
            Self::NotFound { .. } => "Niet gevonden",
            Self::Diagnostic(d) if d.is_unavailable() => "Zoekdienst niet beschikbaar",
            Self::Diagnostic(_) => "Zoekdienst weigert de zoekvraag",
            Self::Protocol(ProtocolError::ForeignHost { .. }) => {
                "Verwijzing naar andere host geweigerd"
            }
            Self::Protocol(_) => "Onleesbaar antwoord van de bron",
        }
    }

    /// Dutch hint for the user, when there is something useful to suggest.
    pub fn hint(&self) -> Option<String> {
        match self {
            Self::NotFound { nearby, .. } if !nearby.is_empty() => {
                Some(format!("Artikelen in de buurt: {}", nearby.join(", ")))
            }
            _ => None,
        }
    }
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

    fn diag(uri: Option<&str>) -> KoopError {
        KoopError::Diagnostic(Diagnostic {
            uri: uri.map(str::to_owned),
            message: Some("x".into()),
            details: None,
        })
    }

    #[test]
    fn diagnostics_split_between_unavailable_and_rejected() {
        assert_eq!(diag(None).exit_code(), 69);
        assert_eq!(diag(Some("info:srw/diagnostic/1/2")).exit_code(), 69);
        assert_eq!(diag(Some("info:srw/diagnostic/1/10")).exit_code(), 65);
        assert_eq!(diag(Some("info:srw/diagnostic/1/61")).code(), "API_FOUT");
        assert_eq!(diag(Some("iets anders")).exit_code(), 69);
    }

    #[test]
    fn exit_codes_follow_the_profile() {
        let nf = KoopError::NotFound {
            detail: "x".into(),
            nearby: vec!["4".into(), "5".into()],
        };
        assert_eq!(nf.exit_code(), 66);
        assert_eq!(nf.hint().as_deref(), Some("Artikelen in de buurt: 4, 5"));
        let p = KoopError::from(ProtocolError::NotXml);
        assert_eq!((p.exit_code(), p.code()), (76, "PARSE_FOUT"));
        let h = KoopError::from(ProtocolError::ForeignHost {
            url: "https://x".into(),
        });
        assert_eq!((h.exit_code(), h.code()), (76, "OMLEIDING_GEWEIGERD"));
        let i = KoopError::InvalidInput {
            field: "bwb_id",
            detail: "x".into(),
        };
        assert_eq!((i.exit_code(), i.code()), (65, "INVALID_INPUT"));
    }
}

//! Core failures as profile errors: the one place where a [`KoopError`] gets its exit status,
//! error code, title and hint (the core itself knows nothing of exit codes).
//!
//! - [`KoopError::InvalidInput`] → 65 `ONGELDIGE_INVOER`, with the argument as pointer;
//! - [`KoopError::NotFound`] → 66 `NIET_GEVONDEN`, nearby article numbers in the hint;
//! - [`KoopError::Diagnostic`] → 69 `BRON_ONBEREIKBAAR` when the diagnostic blames the service
//!   ([`koop_cli::Diagnostic::is_unavailable`]), else 65 `API_FOUT` (the service rejects the query);
//! - [`KoopError::Protocol`] → 76: `OMLEIDING_GEWEIGERD` for a URL outside the repository (NET-11),
//!   `PARSE_FOUT` for everything else (not XML, truncated, too deep, too much text, …).

use common::{ExitStatus, FieldError, Problem};
use koop_cli::{KoopError, ProtocolError};

/// The profile's error for `err`.
pub(crate) fn to_error(err: KoopError) -> Problem {
    let detail = err.to_string();
    match err {
        KoopError::InvalidInput { field, detail } => {
            Problem::invalid(vec![FieldError::new(field, detail)])
        }
        KoopError::NotFound { nearby, .. } => {
            let error = Problem::new(
                ExitStatus::NotFound,
                common::codes::NIET_GEVONDEN,
                "Niet gevonden",
                detail,
            );
            if nearby.is_empty() {
                error
            } else {
                error.with_hint(format!("Artikelen in de buurt: {}", nearby.join(", ")))
            }
        }
        KoopError::Diagnostic(d) if d.is_unavailable() => Problem::new(
            ExitStatus::Unavailable,
            common::codes::BRON_ONBEREIKBAAR,
            "Zoekdienst niet beschikbaar",
            detail,
        ),
        KoopError::Diagnostic(_) => Problem::new(
            ExitStatus::DataErr,
            common::codes::API_FOUT,
            "Zoekdienst weigert de zoekvraag",
            detail,
        ),
        KoopError::Protocol(ProtocolError::ForeignHost { .. }) => Problem::new(
            ExitStatus::Protocol,
            common::codes::OMLEIDING_GEWEIGERD,
            "Verwijzing naar andere host geweigerd",
            detail,
        ),
        KoopError::Protocol(_) => Problem::new(
            ExitStatus::Protocol,
            common::codes::PARSE_FOUT,
            "Onleesbaar antwoord van de bron",
            detail,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use koop_cli::Diagnostic;

    fn diag(uri: Option<&str>) -> KoopError {
        KoopError::Diagnostic(Diagnostic {
            uri: uri.map(str::to_owned),
            message: Some("x".into()),
            details: None,
        })
    }

    #[test]
    fn koop_errors_map_to_the_profile() {
        let cases = [
            (
                KoopError::InvalidInput {
                    field: "bwb_id",
                    detail: "x".into(),
                },
                65,
                "ONGELDIGE_INVOER",
            ),
            (
                KoopError::NotFound {
                    detail: "x".into(),
                    nearby: vec!["1".into()],
                },
                66,
                "NIET_GEVONDEN",
            ),
            (diag(None), 69, "BRON_ONBEREIKBAAR"),
            (
                diag(Some("info:srw/diagnostic/1/2")),
                69,
                "BRON_ONBEREIKBAAR",
            ),
            (diag(Some("iets anders")), 69, "BRON_ONBEREIKBAAR"),
            (diag(Some("info:srw/diagnostic/1/10")), 65, "API_FOUT"),
            (diag(Some("info:srw/diagnostic/1/61")), 65, "API_FOUT"),
            (ProtocolError::NotXml.into(), 76, "PARSE_FOUT"),
            (
                ProtocolError::ForeignHost { url: "x".into() }.into(),
                76,
                "OMLEIDING_GEWEIGERD",
            ),
        ];
        for (err, exit, code) in cases {
            let what = format!("{err:?}");
            let mapped = to_error(err);
            let problem = mapped;
            assert_eq!(
                (problem.exit.code(), problem.code.name),
                (exit, code),
                "{what}"
            );
        }
        let hint = to_error(KoopError::NotFound {
            detail: "x".into(),
            nearby: vec!["4".into(), "5".into()],
        });
        assert_eq!(hint.hint.as_deref(), Some("Artikelen in de buurt: 4, 5"));
        let invalid = to_error(KoopError::InvalidInput {
            field: "peildatum",
            detail: "x".into(),
        });
        assert_eq!(invalid.errors[0].pointer, "/peildatum");
    }
}

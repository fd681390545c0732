//! A failed exchange as the profile's error: a timeout (exit 124), an answer that is not HTTP
//! (76), an unreachable host or an untrusted chain (69), told by the types in the error chain,
//! never by the wording of a message.

use std::time::{Duration, Instant};

use crate::problem::error::{Error, Problem};

pub(super) fn deadline_passed() -> Error {
    Problem::timeout("de tijdslimiet (--timeout) is verstreken voordat de bron antwoordde").into()
}

/// The problem of a failed exchange; `issuer` names the issuer of a chain the verifier refused as
/// untrusted, if it did.
pub(super) fn transport_error(err: &reqwest::Error, issuer: Option<String>) -> Error {
    if err.is_builder() {
        // The request could not be formed, e.g. a key with a control character.
        return Problem::config("het verzoek kon niet worden opgebouwd: een sleutel of instelling bevat een ongeldig teken")
            .with_hint("controleer de geheime variabelen op spaties, regeleinden of stuurtekens").into();
    }
    let host = err
        .url()
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_else(|| "de bron".to_string());
    let what = match Failure::of(err) {
        Failure::Timeout => return deadline_passed(),
        Failure::NotHttp(why) => {
            // The connection worked; what came back is not HTTP (rule EXIT-9).
            return Problem::protocol(format!(
                "het antwoord van {host} is geen geldig HTTP: {why}"
            ))
            .with_hint("de basis-URL wijst waarschijnlijk niet naar deze dienst")
            .into();
        }
        Failure::Dns => "de naam kon niet worden opgezocht (DNS)",
        Failure::Refused => "de verbinding werd geweigerd",
        Failure::Untrusted => return untrusted_chain(&host, issuer),
        Failure::Tls { certificate: true } => {
            "de TLS-verbinding kon niet worden opgezet (certificaat)"
        }
        Failure::Tls { certificate: false } => "de TLS-verbinding kon niet worden opgezet",
        Failure::Other if err.is_connect() => "er kon geen verbinding worden gemaakt",
        Failure::Other => "de verbinding mislukte",
    };
    Problem::unavailable(format!("{host} is niet bereikbaar: {what}"))
        .with_hint("controleer de netwerkverbinding en de basis-URL; probeer het later opnieuw")
        .into()
}

/// A certificate chain that leads to no trusted root (NET-12): its own code, and a hint naming the
/// issuer and how to add its CA.
fn untrusted_chain(host: &str, issuer: Option<String>) -> Error {
    let issuer = issuer.unwrap_or_else(|| "een onbekende uitgever".to_string());
    Problem::new(
        crate::problem::exit::ExitStatus::Unavailable,
        crate::problem::codes::CERTIFICAAT_NIET_VERTROUWD,
        "Certificaat niet vertrouwd",
        format!(
            "{host} is niet bereikbaar: de certificaatketen leidt niet naar een vertrouwd \
             basiscertificaat (uitgegeven door {issuer})"
        ),
    )
    .with_hint(format!(
        "voeg het basiscertificaat van {issuer} toe aan de vertrouwde certificaten van het systeem \
         (bv. /usr/local/share/ca-certificates en update-ca-certificates), of zet SSL_CERT_FILE op \
         een PEM-bundel met de systeemcertificaten plus dat certificaat (SSL_CERT_FILE vervangt de \
         systeemcertificaten)"
    ))
    .into()
}

/// What a failed exchange came down to, told by the types in its error chain (never by the
/// wording of a message, which a dependency may change).
#[derive(Debug, PartialEq)]
enum Failure {
    /// The deadline passed (reqwest's timeout, or an I/O error of kind `TimedOut`).
    Timeout,
    /// The connection worked; what came back is not HTTP.
    NotHttp(&'static str),
    /// The host name could not be looked up ([`NameNotResolved`]).
    Dns,
    /// An I/O error of kind `ConnectionRefused`.
    Refused,
    /// The server's chain leads to no trusted root (rustls's `UnknownIssuer`).
    Untrusted,
    /// Another `rustls` error; `certificate` when the server's certificate was refused.
    Tls {
        certificate: bool,
    },
    Other,
}

impl Failure {
    /// The failure `err` reports, the most telling cause first.
    fn of(err: &(dyn std::error::Error + 'static)) -> Self {
        let causes = causes(err);
        let timed_out = causes.iter().any(|cause| {
            cause
                .downcast_ref::<reqwest::Error>()
                .is_some_and(reqwest::Error::is_timeout)
                || io_kind(*cause) == Some(std::io::ErrorKind::TimedOut)
        });
        if timed_out {
            return Self::Timeout;
        }
        if let Some(why) = causes.iter().find_map(|cause| {
            cause
                .downcast_ref::<hyper::Error>()
                .and_then(not_http_reason)
        }) {
            return Self::NotHttp(why);
        }
        if causes.iter().any(|cause| cause.is::<NameNotResolved>()) {
            return Self::Dns;
        }
        if causes
            .iter()
            .any(|cause| io_kind(*cause) == Some(std::io::ErrorKind::ConnectionRefused))
        {
            return Self::Refused;
        }
        if let Some(tls) = causes
            .iter()
            .find_map(|cause| cause.downcast_ref::<rustls::Error>())
        {
            if matches!(
                tls,
                rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer)
            ) {
                return Self::Untrusted;
            }
            let certificate = matches!(
                tls,
                rustls::Error::InvalidCertificate(_) | rustls::Error::NoCertificatesPresented
            );
            return Self::Tls { certificate };
        }
        Self::Other
    }
}

/// `err` and its causes. An `io::Error` that wraps another error is followed into that error
/// (its own `source` skips it): that is where rustls and reqwest put theirs.
fn causes<'e>(
    err: &'e (dyn std::error::Error + 'static),
) -> Vec<&'e (dyn std::error::Error + 'static)> {
    let mut causes = Vec::new();
    let mut next = Some(err);
    while let Some(cause) = next {
        causes.push(cause);
        next = match cause
            .downcast_ref::<std::io::Error>()
            .and_then(std::io::Error::get_ref)
        {
            Some(inner) => Some(inner as &(dyn std::error::Error + 'static)),
            None => cause.source(),
        };
    }
    causes
}

fn io_kind(err: &(dyn std::error::Error + 'static)) -> Option<std::io::ErrorKind> {
    err.downcast_ref::<std::io::Error>()
        .map(std::io::Error::kind)
}

/// Why hyper's `err` means the answer was not HTTP: a head it could not
/// parse (garbage, HTTP/0.9, a bad status line, a head beyond hyper's limits
/// such as a 2 MB header or thousands of headers), or a connection closed
/// before a complete answer (nothing, or only an interim `100`).
fn not_http_reason(err: &hyper::Error) -> Option<&'static str> {
    if err.is_parse() {
        Some("de kop van het antwoord is onleesbaar of te groot")
    } else if err.is_incomplete_message() {
        Some("de verbinding werd gesloten voordat er een volledig antwoord was")
    } else {
        None
    }
}

pub(super) fn read_error(err: &reqwest::Error, deadline: Instant) -> Error {
    let deadline_near = Instant::now() + Duration::from_millis(50) >= deadline;
    if deadline_near || Failure::of(err) == Failure::Timeout {
        return deadline_passed();
    }
    Problem::unavailable("het antwoord van de bron brak halverwege af").into()
}

/// A host name the system resolver could not look up.
#[derive(Debug)]
pub(super) struct NameNotResolved(pub(super) std::io::Error);

impl std::fmt::Display for NameNotResolved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "de naam kon niet worden opgezocht: {}", self.0)
    }
}

impl std::error::Error for NameNotResolved {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A transport failure is told by the types in its chain, whatever the messages say.
    #[test]
    fn transport_failures_are_told_by_type_not_by_text() {
        use std::io::{Error as Io, ErrorKind};
        #[derive(Debug)]
        struct Wrapper(Box<dyn std::error::Error + Send + Sync>);
        impl std::fmt::Display for Wrapper {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("dns error: timed out: certificate: Connection refused")
            }
        }
        impl std::error::Error for Wrapper {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&*self.0)
            }
        }
        let of = |inner: Box<dyn std::error::Error + Send + Sync>| Failure::of(&Wrapper(inner));
        assert_eq!(
            of(Box::new(Io::from(ErrorKind::ConnectionRefused))),
            Failure::Refused
        );
        assert_eq!(
            of(Box::new(Io::from(ErrorKind::TimedOut))),
            Failure::Timeout
        );
        assert_eq!(
            of(Box::new(NameNotResolved(Io::other("no such host")))),
            Failure::Dns
        );
        let untrusted = rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer);
        // tokio-rustls hands rustls's error on inside an `io::Error` (whose `source` skips it).
        assert_eq!(
            of(Box::new(Io::new(ErrorKind::InvalidData, untrusted))),
            Failure::Untrusted
        );
        let certificate = rustls::Error::InvalidCertificate(rustls::CertificateError::Expired);
        assert_eq!(
            of(Box::new(Io::new(ErrorKind::InvalidData, certificate))),
            Failure::Tls { certificate: true }
        );
        assert_eq!(
            of(Box::new(Io::new(
                ErrorKind::InvalidData,
                rustls::Error::DecryptError
            ))),
            Failure::Tls { certificate: false }
        );
        // Words alone decide nothing: the wrapper's message names every failure.
        assert_eq!(of(Box::new(Io::other("timed out"))), Failure::Other);
    }
}

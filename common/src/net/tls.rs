//! TLS for the one HTTP client and the shared store's database connection (rule NET-12): the
//! operating system's roots (or the bundle in
//! `SSL_CERT_FILE` / `SSL_CERT_DIR`, which replace them, as `rustls-native-certs` reads them), and
//! a verifier that is webpki's own but remembers who issued a chain it could not trust, so the
//! error can name that issuer and say how to add its CA. The KvK API, for one, is served under
//! the Staat der Nederlanden Private Root CA – G1 (PKIoverheid), which many trust stores lack.

use std::sync::{Arc, Mutex, PoisonError};

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, SignatureScheme};

use crate::problem::error::Problem;

/// Where the verifier puts the issuer of a chain it refused as untrusted.
pub type UntrustedIssuer = Arc<Mutex<Option<String>>>;

/// The client's TLS configuration, and the slot that names the issuer of an untrusted chain.
pub fn client_config() -> Result<(rustls::ClientConfig, UntrustedIssuer), Problem> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut roots = rustls::RootCertStore::empty();
    roots.add_parsable_certificates(rustls_native_certs::load_native_certs().certs);
    // Without a single root (a system without CA certificates, an unreadable SSL_CERT_FILE)
    // every chain is untrusted, and the error says how to add a CA.
    let inner = if roots.is_empty() {
        None
    } else {
        Some(
            WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider.clone())
                .build()
                .map_err(|e| {
                    Problem::config(format!("TLS-verificatie kon niet worden opgezet: {e}"))
                })?,
        )
    };
    let issuer = UntrustedIssuer::default();
    let verifier = Remembering {
        inner,
        algorithms: provider.signature_verification_algorithms,
        issuer: Arc::clone(&issuer),
    };
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| Problem::config(format!("TLS kon niet worden opgezet: {e}")))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    Ok((config, issuer))
}

/// webpki's verifier, unchanged in every decision; on an unknown issuer it notes that issuer.
/// Without roots (`inner` is `None`) every chain has an unknown issuer.
#[derive(Debug)]
struct Remembering {
    inner: Option<Arc<WebPkiServerVerifier>>,
    algorithms: rustls::crypto::WebPkiSupportedAlgorithms,
    issuer: UntrustedIssuer,
}

impl ServerCertVerifier for Remembering {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let verdict = match &self.inner {
            Some(inner) => {
                inner.verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
            }
            None => Err(rustls::Error::InvalidCertificate(
                CertificateError::UnknownIssuer,
            )),
        };
        if let Err(rustls::Error::InvalidCertificate(CertificateError::UnknownIssuer)) = &verdict {
            // The last certificate presented is the one nearest the root: its issuer is missing.
            let top = intermediates.last().unwrap_or(end_entity);
            *self.issuer.lock().unwrap_or_else(PoisonError::into_inner) = issuer_name(top);
        }
        verdict
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

/// The issuer of a DER certificate as `CN=…, OU=…, O=…, C=…` (the attributes people know, in
/// the certificate's order; control characters shown as `?`, at most 300 characters).
pub(crate) fn issuer_name(der: &[u8]) -> Option<String> {
    let (_, certificate, _) = tlv(der)?;
    let (_, mut tbs, _) = tlv(certificate)?;
    let mut field = 0;
    loop {
        let (tag, content, rest) = tlv(tbs)?;
        tbs = rest;
        if tag == 0xa0 {
            continue; // [0] version
        }
        field += 1;
        if field == 3 {
            return Some(name(content)).filter(|n| !n.is_empty());
        }
    }
}

/// An X.501 `Name` (the content of its SEQUENCE) as text.
fn name(mut rdns: &[u8]) -> String {
    let mut parts = Vec::new();
    while let Some((_, set, rest)) = tlv(rdns) {
        rdns = rest;
        let mut attributes = set;
        while let Some((_, attribute, rest)) = tlv(attributes) {
            attributes = rest;
            let Some((0x06, oid, value)) = tlv(attribute) else {
                continue;
            };
            let label = match oid {
                [0x55, 0x04, 0x03] => "CN",
                [0x55, 0x04, 0x0b] => "OU",
                [0x55, 0x04, 0x0a] => "O",
                [0x55, 0x04, 0x06] => "C",
                _ => continue,
            };
            if let Some((tag, text, _)) = tlv(value) {
                parts.push(format!("{label}={}", text_of(tag, text)));
            }
        }
    }
    let joined: String = parts
        .join(", ")
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    joined.chars().take(300).collect()
}

/// A directory string: BMPString as UTF-16, the others as (lossy) UTF-8.
fn text_of(tag: u8, bytes: &[u8]) -> String {
    if tag == 0x1e {
        let units: Vec<u16> = bytes
            .chunks_exact(2)
            .map(|pair| u16::from_be_bytes([pair[0], pair[1]]))
            .collect();
        return String::from_utf16_lossy(&units);
    }
    String::from_utf8_lossy(bytes).into_owned()
}

/// One DER element: its tag, its content and what follows it.
fn tlv(input: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = input.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let count = usize::from(first & 0x7f);
        if count == 0 || count > 4 || rest.len() < count {
            return None;
        }
        let len = rest[..count]
            .iter()
            .fold(0usize, |len, &b| (len << 8) | usize::from(b));
        (len, &rest[count..])
    };
    (rest.len() >= len).then(|| (tag, &rest[..len], &rest[len..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A DER element of `tag` around `content`.
    fn der(tag: u8, content: &[u8]) -> Vec<u8> {
        let mut out = vec![tag];
        if content.len() < 0x80 {
            out.push(content.len() as u8);
        } else {
            out.push(0x82);
            out.extend_from_slice(&(content.len() as u16).to_be_bytes());
        }
        out.extend_from_slice(content);
        out
    }

    fn attribute(oid: u8, tag: u8, value: &[u8]) -> Vec<u8> {
        let inner = [der(0x06, &[0x55, 0x04, oid]), der(tag, value)].concat();
        der(0x31, &der(0x30, &inner))
    }

    #[test]
    fn names_the_issuer_of_a_certificate() {
        let bmp: Vec<u8> = "Stäat".encode_utf16().flat_map(u16::to_be_bytes).collect();
        let issuer = der(
            0x30,
            &[
                attribute(0x06, 0x13, b"NL"),
                attribute(0x0a, 0x1e, &bmp),
                attribute(0x03, 0x0c, "Private Root CA – G1\u{7}".as_bytes()),
            ]
            .concat(),
        );
        let tbs = der(
            0x30,
            &[
                der(0xa0, &der(0x02, &[2])),
                der(0x02, &[1; 200]),
                der(0x30, &der(0x06, &[0x2a])),
                issuer,
                der(0x30, &[]),
            ]
            .concat(),
        );
        let certificate = der(0x30, &[tbs, der(0x30, &[]), der(0x03, &[0])].concat());
        assert_eq!(
            issuer_name(&certificate).as_deref(),
            Some("C=NL, O=Stäat, CN=Private Root CA – G1?")
        );
        assert_eq!(issuer_name(&certificate[..40]), None, "cut short");
        assert_eq!(issuer_name(b""), None);
    }
}

//! NET-12: a certificate chain that leads to no trusted root is its own problem
//! (`CERTIFICAAT_NIET_VERTROUWD`, exit 69), naming the issuer and how to add its CA. A private CA
//! made here (a root, "Test Private Root CA – G1", and an intermediate under it, as KvK's
//! PKIoverheid chain has) and a TLS server on loopback that presents the leaf and the
//! intermediate; the trust store is a PEM bundle in `SSL_CERT_FILE`.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Arc;

use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use serde_json::Value;

use crate::support::{Sandbox, run};

/// A CA certificate (`CN`, `O`, `C=NL`) with its key, self-signed or under `parent`.
fn ca(
    cn: &str,
    parent: Option<&CertifiedIssuer<'static, KeyPair>>,
) -> CertifiedIssuer<'static, KeyPair> {
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.distinguished_name.push(DnType::CountryName, "NL");
    params
        .distinguished_name
        .push(DnType::OrganizationName, "Testoverheid");
    params.distinguished_name.push(DnType::CommonName, cn);
    let key = KeyPair::generate().unwrap();
    match parent {
        None => CertifiedIssuer::self_signed(params, key).unwrap(),
        Some(parent) => CertifiedIssuer::signed_by(params, key, parent).unwrap(),
    }
}

/// A TLS server on `127.0.0.1` presenting `chain`, answering every request with one
/// vestigingsprofiel; its base URL.
fn server(chain: Vec<CertificateDer<'static>>, key: &KeyPair) -> String {
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der()));
    let config = Arc::new(
        rustls::ServerConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .unwrap(),
    );
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let config = Arc::clone(&config);
            std::thread::spawn(move || {
                let connection = rustls::ServerConnection::new(config).unwrap();
                let mut tls = rustls::StreamOwned::new(connection, stream);
                let mut request = Vec::new();
                let mut buffer = [0u8; 1024];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    match tls.read(&mut buffer) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => request.extend_from_slice(&buffer[..n]),
                    }
                }
                let body = r#"{"vestigingsnummer":"000037178598","kvkNummer":"68750110"}"#;
                let _ = write!(
                    tls,
                    "HTTP/1.1 200 OK\r\ncontent-type: application/hal+json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = tls.flush();
                tls.conn.send_close_notify();
                let _ = tls.flush();
            });
        }
    });
    format!("https://127.0.0.1:{port}/api")
}

/// A leaf for `127.0.0.1` under `issuer`, with its key.
fn leaf(issuer: &CertifiedIssuer<'static, KeyPair>) -> (CertificateDer<'static>, KeyPair) {
    let params = CertificateParams::new(vec!["127.0.0.1".to_string()]).unwrap();
    let key = KeyPair::generate().unwrap();
    let cert = params.signed_by(&key, issuer).unwrap();
    (cert.der().clone(), key)
}

/// `vestigingsprofiel toon` against `base` with `bundle` as the only trusted roots.
fn call(sandbox: &Sandbox, base: &str, bundle: &PathBuf) -> test_support::cli::Run {
    let mut cmd = sandbox.cmd(base);
    cmd.env("SSL_CERT_FILE", bundle);
    run(cmd, ["vestigingsprofiel", "toon", "000037178598"])
}

#[test]
fn net_12_an_untrusted_chain_names_its_issuer_and_how_to_add_it() {
    let root = ca("Test Private Root CA – G1", None);
    let intermediate = ca("Test Domein Server CA 2026", Some(&root));
    let (leaf, key) = leaf(&intermediate);
    let base = server(vec![leaf.clone(), intermediate.der().clone()], &key);
    let sandbox = Sandbox::new();
    // Another private CA is all this system trusts.
    let other = ca("Ander Basiscertificaat", None);
    let elsewhere = sandbox.write("ander.pem", &other.pem());
    let error = call(&sandbox, &base, &elsewhere).error(69);
    assert_eq!(error["code"], "CERTIFICAAT_NIET_VERTROUWD", "{error}");
    test_support::cli::assert_valid("error.schema.json", &error);
    let detail = error["detail"].as_str().unwrap();
    assert!(detail.contains("127.0.0.1"), "{detail}");
    assert!(
        detail.contains("CN=Test Private Root CA – G1") && detail.contains("O=Testoverheid"),
        "the issuer of the top of the chain: {detail}"
    );
    let hint = error["hint"].as_str().unwrap();
    assert!(hint.contains("SSL_CERT_FILE"), "{hint}");
    assert!(hint.contains("Test Private Root CA – G1"), "{hint}");
    let record = sandbox.audit_records().pop().unwrap();
    assert_eq!(
        record["attributes"]["error.code"],
        "CERTIFICAAT_NIET_VERTROUWD"
    );

    // As the hint says: the root in the bundle, and the same server is trusted.
    let bundle = sandbox.write("bundel.pem", &format!("{}{}", other.pem(), root.pem()));
    let data: Value = call(&sandbox, &base, &bundle).json();
    assert_eq!(data["kvkNummer"], "68750110");

    // A server that leaves out its intermediate: the root is trusted, yet the chain does not
    // reach it; the error names the missing link's issuer, the intermediate.
    let bare = server(vec![leaf], &key);
    let error = call(&sandbox, &bare, &bundle).error(69);
    assert_eq!(error["code"], "CERTIFICAAT_NIET_VERTROUWD");
    assert!(
        error["detail"]
            .as_str()
            .unwrap()
            .contains("CN=Test Domein Server CA 2026"),
        "{error}"
    );
}

/// NET-9 stays: a chain for another name is refused, and not as an untrusted chain.
#[test]
fn net_9_a_certificate_for_another_name_is_still_refused() {
    let root = ca("Test Private Root CA – G1", None);
    let params = CertificateParams::new(vec!["api.kvk.nl".to_string()]).unwrap();
    let key = KeyPair::generate().unwrap();
    let cert = params.signed_by(&key, &root).unwrap();
    let base = server(vec![cert.der().clone()], &key);
    let sandbox = Sandbox::new();
    let bundle = sandbox.write("bundel.pem", &root.pem());
    let error = call(&sandbox, &base, &bundle).error(69);
    assert_eq!(error["code"], "BRON_ONBEREIKBAAR", "{error}");
}

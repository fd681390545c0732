//! The OAuth 2.0 authorization-code flow with PKCE (S256, RFC 7636) as the family runs it, once
//! for both of its relying parties: the approval page of `overheid-mcp --http` (a session login
//! and a decision's login) and rvo-cli's browser login on this machine ([`super::loopback`],
//! RFC 8252).
//!
//! [`authorization_url`] is where the browser logs in, asking what [`Ask`] says: a fresh login
//! (`prompt=login`, `max_age=0`), an assurance (`acr_values`), and for an approval its detail
//! (`authorization_details`, RFC 9396) with its target as `resource` (RFC 8707). [`exchange`]
//! trades the callback's code for the tokens at the token endpoint, on the family's HTTP client
//! (bounded by [`REQUEST_TIMEOUT`]); the code, the verifier and a client secret are masked in
//! anything it reports, and the tokens are held as secrets from the moment they are read.
//! Verifying the tokens is the caller's ([`super::provider`], [`super::token`]).

use std::time::Instant;

use base64::Engine as _;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::detail::Detail;
use super::provider::{REQUEST_TIMEOUT, why};
use crate::net::http::{ClientConfig, HttpClient, Request};

/// A relying party at one provider: its endpoints, its client and where the browser comes back.
pub struct Client<'a> {
    pub authorization_endpoint: &'a str,
    pub token_endpoint: &'a str,
    pub client_id: &'a str,
    /// A confidential client's secret (the page may have one; a CLI is a public client).
    pub client_secret: Option<&'a str>,
    pub redirect_uri: &'a str,
}

/// What a login asks beyond the person: a fresh login, an assurance, and for an approval its
/// detail.
#[derive(Default)]
pub struct Ask<'a> {
    /// `prompt=login` and `max_age=0`.
    pub fresh: bool,
    /// The assurance the login must have (`acr_values`).
    pub acr: Option<&'a str>,
    /// The authorization detail to approve (and its target as `resource`).
    pub detail: Option<&'a Detail>,
}

/// What the token endpoint gave for a code.
pub struct Tokens {
    pub access_token: Option<String>,
    pub id_token: Option<String>,
}

/// A new random value: `bytes` random bytes, base64url without padding.
pub fn random(bytes: usize) -> Result<String, String> {
    let mut buffer = vec![0u8; bytes];
    getrandom::fill(&mut buffer).map_err(|e| format!("geen willekeurige waarde: {e}"))?;
    Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(buffer))
}

/// The S256 code challenge of a verifier (RFC 7636 §4.2).
pub fn challenge(verifier: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// Where the browser logs in, with this login's `state`, `nonce` and PKCE `verifier`.
pub fn authorization_url(
    client: &Client<'_>,
    state: &str,
    nonce: &str,
    verifier: &str,
    ask: &Ask<'_>,
) -> String {
    let mut pairs = vec![
        ("response_type", "code".to_string()),
        ("client_id", client.client_id.to_string()),
        ("redirect_uri", client.redirect_uri.to_string()),
        ("scope", "openid profile".to_string()),
        ("state", state.to_string()),
        ("nonce", nonce.to_string()),
        ("code_challenge", challenge(verifier)),
        ("code_challenge_method", "S256".to_string()),
    ];
    if ask.fresh {
        pairs.push(("prompt", "login".to_string()));
        pairs.push(("max_age", "0".to_string()));
    }
    if let Some(acr) = ask.acr {
        pairs.push(("acr_values", acr.to_string()));
    }
    if let Some(detail) = ask.detail {
        pairs.push(("authorization_details", detail.request_parameter()));
        pairs.push(("resource", detail.audience()));
    }
    Request::get(client.authorization_endpoint)
        .query(&pairs)
        .url
}

/// Trade the callback's `code` for the tokens (blocking, one request). `Err` says why, in
/// Dutch, without the code, the verifier or a secret.
pub fn exchange(client: &Client<'_>, code: &str, verifier: &str) -> Result<Tokens, String> {
    let mut pairs = vec![
        ("grant_type", "authorization_code"),
        ("code", code),
        ("redirect_uri", client.redirect_uri),
        ("client_id", client.client_id),
        ("code_verifier", verifier),
    ];
    let mut secrets = vec![code, verifier];
    if let Some(secret) = client.client_secret {
        pairs.push(("client_secret", secret));
        secrets.push(secret);
    }
    let request = Request::post_form(client.token_endpoint, &pairs, &secrets);
    let http = HttpClient::new(
        &ClientConfig {
            deadline: Instant::now() + REQUEST_TIMEOUT,
            max_body: 1 << 20,
            proxy: None,
        },
        !client.token_endpoint.starts_with("http://"),
    )
    .map_err(|e| format!("HTTP-client: {}", why(e)))?;
    let response = http
        .send(&request, client.token_endpoint)
        .map_err(|e| format!("tokenaanvraag: {}", why(e)))?;
    let body: Value = serde_json::from_slice(&response.body).map_err(|_| {
        format!(
            "het tokenendpoint antwoordde {} zonder JSON",
            response.status
        )
    })?;
    if response.status != 200 {
        return Err(format!(
            "het tokenendpoint antwoordde {}: {}",
            response.status,
            body["error"].as_str().unwrap_or("onbekende fout")
        ));
    }
    let held = |name: &str| {
        let token = body[name].as_str().map(str::to_string);
        if let Some(token) = &token {
            crate::process::secrets::hold(token);
        }
        token
    };
    Ok(Tokens {
        access_token: held("access_token"),
        id_token: held("id_token"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_challenge_is_s256_of_the_verifier() {
        // base64url(sha256(verifier)) without padding, as Python's hashlib and base64 give it.
        assert_eq!(
            challenge("dBjftJeZ4CVP-mB92K0uGNjwGnqxp5LslXTESEQPR8s"),
            "mbi5vEdCSdDfL0I527bzPLNuuMdjNFIJRk4i50dEkX0"
        );
        let a = random(32).unwrap();
        assert_eq!(a.len(), 43);
        assert_ne!(a, random(32).unwrap());
    }
}

//! The person's login: OpenID Connect authorization-code flow with PKCE (S256) as a relying party.
//!
//! The provider (its metadata, keys and JWT verification) is `common::approval::provider`, the
//! same code that verifies approval tokens in rvo-cli; its keys are kept in memory and fetched
//! again once for a `kid` the kept set does not have. Two kinds of login go through here:
//!
//! - **The session login** (to see proposals): `state`, `nonce` and the code challenge; the ID
//!   token is verified (signature, `iss`, `aud` = the client id, `exp`, `nbf`, an `iat` not in the
//!   future, the `nonce` of this login).
//! - **A decision's login** (profile §10.3, MUT-20): the same, asked fresh (`prompt=login`,
//!   `max_age=0`, `acr_values` when the operator asks an assurance) and, to approve, for the
//!   proposal's authorization detail (`authorization_details`, RFC 9396) and its target
//!   (`resource`, RFC 8707): the access token that comes back is the approval token.
//!
//! The person is the ID token's `sub` and name, and the companies the same claims that bearer
//! tokens carry them in.
//!
//! Written on the family's HTTP client and `jsonwebtoken` rather than the `openidconnect` crate:
//! the flow is three requests and two token checks, and `openidconnect` would bring a second
//! HTTP stack and a second JWT verifier into the bridge.

use std::sync::RwLock;
use std::time::Instant;

use base64::Engine as _;
use common::approval::detail::Detail;
use common::approval::provider::{self, Provider as Keys, REQUEST_TIMEOUT};
use common::http::{ClientConfig, HttpClient, Request};
use serde_json::{Map, Value};

use crate::identity::auth::CompanyClaims;

/// The claim that names the company of the company claim (as eHerkenning gives it).
const COMPANY_NAME_CLAIM: &str = "bedrijfsnaam";

/// The relying party's view of one provider.
pub(crate) struct Provider {
    authorization_endpoint: String,
    token_endpoint: String,
    keys: RwLock<Keys>,
    client_id: String,
    client_secret: Option<String>,
    pub redirect_uri: String,
}

/// The person who logged in.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Person {
    pub sub: String,
    pub name: String,
    /// The companies the person acts for: the company claim's, and an intermediary's list.
    pub companies: Vec<String>,
    /// Company names the login gives (`bedrijfsnaam` beside the company claim, as eHerkenning
    /// names the company a person represents), by KvK number.
    #[serde(default)]
    pub company_names: std::collections::BTreeMap<String, String>,
}

/// What a login asks beyond the person: a fresh login, and for an approval its detail.
#[derive(Default)]
pub(crate) struct Ask<'a> {
    /// `prompt=login` and `max_age=0`.
    pub fresh: bool,
    /// The assurance the login must have (`acr_values`).
    pub acr: Option<&'a str>,
    /// The authorization detail to approve (and its target as `resource`).
    pub detail: Option<&'a Detail>,
}

/// What a login's code brought: the person, the ID token's claims, and the access token.
pub(crate) struct LoggedIn {
    pub person: Person,
    pub claims: Map<String, Value>,
    pub access_token: Option<String>,
}

/// A new random value: `bytes` random bytes, base64url.
pub(crate) fn random(bytes: usize) -> Result<String, String> {
    let mut buffer = vec![0u8; bytes];
    getrandom::fill(&mut buffer).map_err(|e| format!("geen willekeurige waarde: {e}"))?;
    Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(buffer))
}

/// The S256 code challenge of a verifier (RFC 7636).
pub(crate) fn challenge(verifier: &str) -> String {
    let hex = common::digest::sha256_hex(verifier.as_bytes());
    let bytes: Vec<u8> = (0..hex.len() / 2)
        .filter_map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok())
        .collect();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// What the family's client said went wrong.
fn why(error: common::Error) -> String {
    match error {
        common::Error::Problem(problem) => problem.detail,
        common::Error::Halt(_) => "afgebroken".to_string(),
    }
}

impl Provider {
    /// Read the provider's metadata and keys (blocking; once, at start).
    pub(crate) fn discover(
        issuer: &str,
        client_id: &str,
        client_secret: Option<String>,
        redirect_uri: String,
    ) -> Result<Self, String> {
        let keys = Keys::discover(issuer).map_err(|why| format!("{issuer}: {}", why.0))?;
        let endpoint = |name: &str| keys.endpoint(name).map_err(|why| why.0);
        Ok(Self {
            authorization_endpoint: endpoint("authorization_endpoint")?,
            token_endpoint: endpoint("token_endpoint")?,
            keys: RwLock::new(keys),
            client_id: client_id.to_string(),
            client_secret,
            redirect_uri,
        })
    }

    /// Where the browser logs in, asking what `ask` says.
    pub(crate) fn authorization_url(
        &self,
        state: &str,
        nonce: &str,
        verifier: &str,
        ask: &Ask<'_>,
    ) -> String {
        let mut pairs = vec![
            ("response_type", "code".to_string()),
            ("client_id", self.client_id.clone()),
            ("redirect_uri", self.redirect_uri.clone()),
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
        Request::get(&self.authorization_endpoint).query(&pairs).url
    }

    /// The origin of the provider's login (scheme, host and port of its authorization endpoint).
    pub(crate) fn origin(&self) -> String {
        url::Url::parse(&self.authorization_endpoint)
            .map(|url| url.origin().ascii_serialization())
            .unwrap_or_default()
    }

    /// Exchange the callback's code (blocking) and verify the ID token it brings.
    pub(crate) fn exchange(
        &self,
        code: &str,
        verifier: &str,
        nonce: &str,
        claims: &CompanyClaims,
    ) -> Result<LoggedIn, String> {
        let mut pairs = vec![
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", self.redirect_uri.as_str()),
            ("client_id", self.client_id.as_str()),
            ("code_verifier", verifier),
        ];
        let mut secrets = vec![code, verifier];
        if let Some(secret) = &self.client_secret {
            pairs.push(("client_secret", secret.as_str()));
            secrets.push(secret.as_str());
        }
        let request = Request::post_form(&self.token_endpoint, &pairs, &secrets);
        let client = HttpClient::new(
            &ClientConfig {
                deadline: Instant::now() + REQUEST_TIMEOUT,
                max_body: 1 << 20,
                proxy: None,
            },
            !self.token_endpoint.starts_with("http://"),
        )
        .map_err(|e| format!("HTTP-client: {}", why(e)))?;
        let response = client
            .send(&request, &self.token_endpoint)
            .map_err(|e| format!("tokenaanvraag: {}", why(e)))?;
        if response.status != 200 {
            return Err(format!("het tokenendpoint antwoordde {}", response.status));
        }
        let body: Value = serde_json::from_slice(&response.body)
            .map_err(|e| format!("tokenantwoord is geen JSON: {e}"))?;
        let access_token = body["access_token"].as_str().map(str::to_string);
        if let Some(token) = &access_token {
            common::secrets::hold(token);
        }
        let token = body["id_token"]
            .as_str()
            .ok_or("het tokenantwoord heeft geen id_token")?;
        let (person, claims) = self.verify(token, nonce, claims)?;
        Ok(LoggedIn {
            person,
            claims,
            access_token,
        })
    }

    /// The provider's keys, fetched again once when a token names a `kid` they lack.
    pub(crate) fn keys_for(&self, token: &str) -> Keys {
        let kid = provider::header_kid(token);
        let kept = self
            .keys
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        if kept.has_key(kid.as_deref()) {
            return kept;
        }
        match kept.refreshed() {
            Ok(fresh) => {
                *self
                    .keys
                    .write()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = fresh.clone();
                fresh
            }
            Err(_) => kept,
        }
    }

    /// The person in an ID token of this provider, for this client and this login's nonce.
    pub(crate) fn verify(
        &self,
        token: &str,
        nonce: &str,
        companies: &CompanyClaims,
    ) -> Result<(Person, Map<String, Value>), String> {
        let claims = self
            .keys_for(token)
            .verify(token, &self.client_id)
            .map_err(|why| format!("ID-token geweigerd: {why}"))?;
        if claims.get("nonce").and_then(Value::as_str) != Some(nonce) {
            return Err("nonce van het ID-token klopt niet".to_string());
        }
        let sub = claims["sub"].as_str().unwrap_or_default().to_string();
        let name = ["name", "preferred_username", "email"]
            .iter()
            .find_map(|c| claims.get(*c).and_then(Value::as_str))
            .unwrap_or(&sub)
            .to_string();
        let numbers = companies.companies(&claims).map_err(|why| why.0)?;
        let mut company_names = std::collections::BTreeMap::new();
        if let (Some(number), Some(name)) = (
            claims.get(&companies.kvk).and_then(Value::as_str),
            claims.get(COMPANY_NAME_CLAIM).and_then(Value::as_str),
        ) {
            company_names.insert(number.to_string(), name.to_string());
        }
        Ok((
            Person {
                sub,
                name,
                companies: numbers,
                company_names,
            },
            claims,
        ))
    }
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

//! The person's login: OpenID Connect authorization-code flow with PKCE (S256) as a relying party.
//!
//! At start the provider's metadata is read from `<issuer>/.well-known/openid-configuration`
//! and its keys from the `jwks_uri` there; the issuer must be the one named. A login sends the
//! browser to the authorization endpoint with `state`, `nonce` and the code challenge; the
//! callback's code is exchanged at the token endpoint with the verifier, and the ID token is
//! verified here (asymmetric signature by a key of the provider's set, `iss`, `aud` = the client
//! id, `exp`, and the `nonce` of this login). The person is the token's `sub` and name, and the
//! company the same claim that bearer tokens carry it in.
//!
//! Written on the family's HTTP client and `jsonwebtoken` (which verifies the bearer tokens
//! already) rather than the `openidconnect` crate: the flow is three requests and one token
//! check, `openidconnect` would bring a second HTTP stack (its own reqwest glue) and a second
//! JWT verifier into the bridge, and the calls run blocking on the family's client anyway.

use std::time::{Duration, Instant};

use base64::Engine as _;
use common::http::{ClientConfig, HttpClient, Request};
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{DecodingKey, Validation};
use serde_json::{Map, Value};

use crate::identity::auth::{ALGORITHMS, CompanyClaims, public_keys};

/// How long one request to the provider may take.
const PROVIDER_TIMEOUT: Duration = Duration::from_secs(10);
/// The largest answer read from the provider.
const MAX_BODY: u64 = 1 << 20;

/// The relying party's view of one provider.
pub(crate) struct Provider {
    pub issuer: String,
    authorization_endpoint: String,
    token_endpoint: String,
    keys: Vec<(Option<String>, DecodingKey)>,
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

fn client(url: &str) -> Result<HttpClient, String> {
    let tls = !url.starts_with("http://");
    HttpClient::new(
        &ClientConfig {
            deadline: Instant::now() + PROVIDER_TIMEOUT,
            max_body: MAX_BODY,
            proxy: None,
        },
        tls,
    )
    .map_err(|e| format!("HTTP-client: {}", why(e)))
}

fn get_json(url: &str) -> Result<Value, String> {
    let response = client(url)?
        .send(&Request::get(url), url)
        .map_err(|e| format!("{url}: {}", why(e)))?;
    if response.status != 200 {
        return Err(format!("{url} antwoordde {}", response.status));
    }
    serde_json::from_slice(&response.body).map_err(|e| format!("{url}: geen JSON: {e}"))
}

impl Provider {
    /// Read the provider's metadata and keys (blocking; once, at start).
    pub(crate) fn discover(
        issuer: &str,
        client_id: &str,
        client_secret: Option<String>,
        redirect_uri: String,
    ) -> Result<Self, String> {
        let issuer = issuer.trim_end_matches('/');
        let metadata = get_json(&format!("{issuer}/.well-known/openid-configuration"))?;
        let text = |name: &str| {
            metadata[name]
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("de OpenID-configuratie van {issuer} mist {name}"))
        };
        let named = text("issuer")?;
        if named.trim_end_matches('/') != issuer {
            return Err(format!(
                "de OpenID-configuratie noemt issuer {named:?}, niet {issuer:?}"
            ));
        }
        let set: JwkSet = serde_json::from_value(get_json(&text("jwks_uri")?)?)
            .map_err(|e| format!("jwks_uri van {issuer} is geen JWKS: {e}"))?;
        let keys = public_keys(&set);
        if keys.is_empty() {
            return Err(format!(
                "{issuer} publiceert geen bruikbare publieke sleutel"
            ));
        }
        Ok(Self {
            issuer: named,
            authorization_endpoint: text("authorization_endpoint")?,
            token_endpoint: text("token_endpoint")?,
            keys,
            client_id: client_id.to_string(),
            client_secret,
            redirect_uri,
        })
    }

    /// Where the browser logs in.
    pub(crate) fn authorization_url(&self, state: &str, nonce: &str, verifier: &str) -> String {
        let pairs = [
            ("response_type", "code".to_string()),
            ("client_id", self.client_id.clone()),
            ("redirect_uri", self.redirect_uri.clone()),
            ("scope", "openid profile".to_string()),
            ("state", state.to_string()),
            ("nonce", nonce.to_string()),
            ("code_challenge", challenge(verifier)),
            ("code_challenge_method", "S256".to_string()),
        ];
        Request::get(&self.authorization_endpoint).query(&pairs).url
    }

    /// Exchange the callback's code (blocking) and verify the ID token it brings.
    pub(crate) fn exchange(
        &self,
        code: &str,
        verifier: &str,
        nonce: &str,
        claims: &CompanyClaims,
    ) -> Result<Person, String> {
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
        let response = client(&self.token_endpoint)?
            .send(&request, &self.token_endpoint)
            .map_err(|e| format!("tokenaanvraag: {}", why(e)))?;
        if response.status != 200 {
            return Err(format!("het tokenendpoint antwoordde {}", response.status));
        }
        let body: Value = serde_json::from_slice(&response.body)
            .map_err(|e| format!("tokenantwoord is geen JSON: {e}"))?;
        let token = body["id_token"]
            .as_str()
            .ok_or("het tokenantwoord heeft geen id_token")?;
        self.verify(token, nonce, claims)
    }

    /// The person in an ID token of this provider, for this client and this login's nonce.
    pub(crate) fn verify(
        &self,
        token: &str,
        nonce: &str,
        companies: &CompanyClaims,
    ) -> Result<Person, String> {
        let header =
            jsonwebtoken::decode_header(token).map_err(|e| format!("ongeldig ID-token: {e}"))?;
        if !ALGORITHMS.contains(&header.alg) {
            return Err("algoritme van het ID-token niet toegestaan".to_string());
        }
        let mut validation = Validation::new(header.alg);
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.client_id]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = 30;
        let mut last = "geen sleutel past bij het ID-token".to_string();
        for (_, key) in self
            .keys
            .iter()
            .filter(|(kid, _)| header.kid.is_none() || kid.is_none() || *kid == header.kid)
        {
            match jsonwebtoken::decode::<Map<String, Value>>(token, key, &validation) {
                Ok(data) => {
                    let claims = data.claims;
                    if claims.get("nonce").and_then(Value::as_str) != Some(nonce) {
                        return Err("nonce van het ID-token klopt niet".to_string());
                    }
                    let sub = claims["sub"].as_str().unwrap_or_default().to_string();
                    let name = ["name", "preferred_username", "email"]
                        .iter()
                        .find_map(|c| claims.get(*c).and_then(Value::as_str))
                        .unwrap_or(&sub)
                        .to_string();
                    let companies = companies.companies(&claims).map_err(|why| why.0)?;
                    return Ok(Person {
                        sub,
                        name,
                        companies,
                    });
                }
                Err(e) => last = format!("ID-token geweigerd: {e}"),
            }
        }
        Err(last)
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

//! The organisation's identity provider as the family reads it: its OpenID metadata
//! (`<issuer>/.well-known/openid-configuration`), its signing keys (`jwks_uri`), and the
//! verification of a JWT it signed.
//!
//! - **Fetched on the family's HTTP client** (`https`, or `http` to loopback; no proxy; every
//!   request bounded by [`REQUEST_TIMEOUT`] and the body by [`MAX_BODY`]); the metadata must
//!   name the issuer that was asked for, so a provider cannot speak for another.
//! - **Keys kept as their HTTP caching says**: a CLI (a new process per call) keeps the metadata
//!   and keys in the family cache ([`crate::net::cache::PreparedForms`]) until the JWKS answer's
//!   `Cache-Control: max-age` (at most [`MAX_KEEP`]; `no-store` keeps nothing); a long-running
//!   verifier keeps the [`Provider`] itself. A token signed by a key the kept set does not have
//!   makes one fresh fetch ([`Provider::refreshed`]): a provider that rotated its keys is
//!   followed, and a forged `kid` costs one request, never a loop.
//! - **Asymmetric signatures only** ([`ALGORITHMS`]); a shared secret in a JWKS is never a key.
//!
//! The cache is the user's own (CACHE-6): an agent running as the same user could put keys
//! there, so a local check is a convenience, never the boundary; the backend that files checks
//! the token with keys of its own (`spec/rvo-backend.md` §2.1).

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use jsonwebtoken::jwk::{AlgorithmParameters, JwkSet};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{Map, Value, json};

use crate::net::cache::{PreparedForms, Settings};
use crate::net::http::{ClientConfig, HttpClient, Request};

/// How long one request to the provider may take.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// The largest answer read from the provider.
const MAX_BODY: u64 = 1 << 20;
/// The longest a CLI keeps the provider's keys, whatever `max-age` says.
const MAX_KEEP: u64 = 24 * 3600;
/// How much clock difference with the provider is tolerated (`exp`, `nbf`, `iat`).
pub const LEEWAY_SECONDS: u64 = 30;

/// Signature algorithms accepted: asymmetric only.
pub const ALGORITHMS: &[Algorithm] = &[
    Algorithm::EdDSA,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
];

/// Why the provider could not be used: it could not be reached, or what it said is not usable.
/// Either way exit 69, naming the issuer (the caller adds it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unusable(pub String);

/// One identity provider: its endpoints and keys.
#[derive(Clone)]
pub struct Provider {
    pub issuer: String,
    /// The metadata as read (endpoints by their metadata names).
    metadata: Map<String, Value>,
    keys: Vec<(Option<String>, DecodingKey)>,
    /// Where a CLI keeps them; `None` for a verifier that keeps them in memory.
    cache: Option<PreparedForms>,
}

impl std::fmt::Debug for Provider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Provider")
            .field("issuer", &self.issuer)
            .field("keys", &self.keys.len())
            .finish_non_exhaustive()
    }
}

/// The usable public keys of a JWKS, by `kid`: a shared secret (`oct`) is never a key here.
pub fn public_keys(set: &JwkSet) -> Vec<(Option<String>, DecodingKey)> {
    set.keys
        .iter()
        .filter(|jwk| !matches!(jwk.algorithm, AlgorithmParameters::OctetKey(_)))
        .filter_map(|jwk| Some((jwk.common.key_id.clone(), DecodingKey::from_jwk(jwk).ok()?)))
        .collect()
}

fn client(url: &str) -> Result<HttpClient, Unusable> {
    HttpClient::new(
        &ClientConfig {
            deadline: Instant::now() + REQUEST_TIMEOUT,
            max_body: MAX_BODY,
            proxy: None,
        },
        !url.starts_with("http://"),
    )
    .map_err(|e| Unusable(format!("HTTP-client: {}", why(e))))
}

/// What the family's client said went wrong.
pub(crate) fn why(error: crate::problem::error::Error) -> String {
    match error {
        crate::problem::error::Error::Problem(problem) => problem.detail,
        crate::problem::error::Error::Halt(_) => "afgebroken".to_string(),
    }
}

/// A GET of JSON from the provider, with the answer's `max-age` (0 without one).
fn get_json(url: &str) -> Result<(Value, u64), Unusable> {
    let response = client(url)?
        .send(&Request::get(url), url)
        .map_err(|e| Unusable(format!("{url}: {}", why(e))))?;
    if response.status != 200 {
        return Err(Unusable(format!("{url} antwoordde {}", response.status)));
    }
    let keep = max_age(response.header("cache-control"));
    let value = serde_json::from_slice(&response.body)
        .map_err(|e| Unusable(format!("{url} gaf geen JSON: {e}")))?;
    Ok((value, keep))
}

/// How long an answer with this `Cache-Control` may be kept: its `max-age` (at most
/// [`MAX_KEEP`]), 0 with `no-store`, `no-cache` or none.
fn max_age(header: Option<&str>) -> u64 {
    let Some(header) = header else { return 0 };
    let directives: Vec<String> = header
        .split(',')
        .map(|d| d.trim().to_ascii_lowercase())
        .collect();
    if directives
        .iter()
        .any(|d| d == "no-store" || d == "no-cache")
    {
        return 0;
    }
    directives
        .iter()
        .find_map(|d| d.strip_prefix("max-age=")?.trim_matches('"').parse().ok())
        .map_or(0, |age: u64| age.min(MAX_KEEP))
}

fn now_seconds() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl Provider {
    /// The provider `issuer` (without a trailing `/`), read from the network now.
    pub fn discover(issuer: &str) -> Result<Provider, Unusable> {
        Self::fetch(issuer, None)
    }

    /// The provider `issuer`, from the family cache in `settings` while its keys may be kept
    /// there, else from the network (and kept). A cache that cannot be used is passed over.
    pub fn cached(issuer: &str, settings: Option<Settings>) -> Result<Provider, Unusable> {
        let issuer = issuer.trim_end_matches('/');
        let cache = settings.map(|s| PreparedForms::new(s, format!("idp-sleutels {issuer}")));
        if let Some(kept) = cache.as_ref().and_then(|c| Self::kept(issuer, c)) {
            return Ok(kept);
        }
        Self::fetch(issuer, cache)
    }

    /// The same provider with its keys fetched again (a `kid` it did not have).
    pub fn refreshed(&self) -> Result<Provider, Unusable> {
        Self::fetch(&self.issuer, self.cache.clone())
    }

    fn kept(issuer: &str, cache: &PreparedForms) -> Option<Provider> {
        let bytes = cache
            .get(&crate::data::digest::sha256_hex(issuer.as_bytes()))
            .ok()??;
        let kept: Value = serde_json::from_slice(&bytes).ok()?;
        if kept["issuer"] != json!(issuer) || kept["tot"].as_u64()? <= now_seconds() {
            return None;
        }
        let set: JwkSet = serde_json::from_value(kept["jwks"].clone()).ok()?;
        Some(Provider {
            issuer: issuer.to_string(),
            metadata: kept["metadata"].as_object()?.clone(),
            keys: public_keys(&set),
            cache: Some(cache.clone()),
        })
    }

    fn fetch(issuer: &str, cache: Option<PreparedForms>) -> Result<Provider, Unusable> {
        let issuer = issuer.trim_end_matches('/');
        crate::net::http::check_url(issuer).map_err(|p| Unusable(p.detail))?;
        let (metadata, _) = get_json(&format!("{issuer}/.well-known/openid-configuration"))?;
        let metadata = metadata
            .as_object()
            .cloned()
            .ok_or_else(|| Unusable("de OpenID-configuratie is geen object".into()))?;
        let named = metadata
            .get("issuer")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if named.trim_end_matches('/') != issuer {
            return Err(Unusable(format!(
                "de OpenID-configuratie noemt issuer {named:?}, niet {issuer:?}"
            )));
        }
        let jwks_uri = metadata
            .get("jwks_uri")
            .and_then(Value::as_str)
            .ok_or_else(|| Unusable("de OpenID-configuratie noemt geen jwks_uri".into()))?
            .to_string();
        let (jwks, keep) = get_json(&jwks_uri)?;
        let set: JwkSet = serde_json::from_value(jwks.clone())
            .map_err(|e| Unusable(format!("jwks_uri gaf geen JWKS: {e}")))?;
        let keys = public_keys(&set);
        if keys.is_empty() {
            return Err(Unusable(
                "de provider publiceert geen bruikbare publieke sleutel".into(),
            ));
        }
        if let Some(cache) = cache.as_ref().filter(|_| keep > 0) {
            let kept = json!({"issuer": issuer, "tot": now_seconds() + keep, "metadata": metadata, "jwks": jwks});
            // A cache that cannot be written only costs the next call a fetch.
            let _ = cache.put(
                &crate::data::digest::sha256_hex(issuer.as_bytes()),
                kept.to_string().as_bytes(),
            );
        }
        Ok(Provider {
            issuer: issuer.to_string(),
            metadata,
            keys,
            cache,
        })
    }

    /// The endpoint the metadata names `name` (`token_endpoint`, …), if it names one that the
    /// family's client may call.
    pub fn endpoint(&self, name: &str) -> Result<String, Unusable> {
        let url = self
            .metadata
            .get(name)
            .and_then(Value::as_str)
            .ok_or_else(|| Unusable(format!("de OpenID-configuratie noemt geen {name}")))?;
        crate::net::http::check_url(url).map_err(|p| Unusable(format!("{name}: {}", p.detail)))?;
        Ok(url.to_string())
    }

    /// Whether the provider has a key for a token with this `kid` (any key when it names none).
    pub fn has_key(&self, kid: Option<&str>) -> bool {
        kid.is_none()
            || self
                .keys
                .iter()
                .any(|(k, _)| k.is_none() || k.as_deref() == kid)
    }

    /// The claims of `token` when a key of this provider signed it, it is this provider's
    /// (`iss`), for `audience` (`aud`), current (`exp`, `nbf`, and an `iat` not in the future,
    /// all within [`LEEWAY_SECONDS`]); else why not.
    pub fn verify(&self, token: &str, audience: &str) -> Result<Map<String, Value>, String> {
        let header = jsonwebtoken::decode_header(token)
            .map_err(|_| "het is geen ondertekend token (JWT)".to_string())?;
        if !ALGORITHMS.contains(&header.alg) {
            return Err(format!("algoritme {:?} niet toegestaan", header.alg));
        }
        let mut validation = Validation::new(header.alg);
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.validate_nbf = true;
        validation.leeway = LEEWAY_SECONDS;
        let mut last = "geen sleutel van de provider past bij het token".to_string();
        for (_, key) in self
            .keys
            .iter()
            .filter(|(kid, _)| header.kid.is_none() || kid.is_none() || *kid == header.kid)
        {
            match jsonwebtoken::decode::<Map<String, Value>>(token, key, &validation) {
                Ok(data) => {
                    let claims = data.claims;
                    if let Some(iat) = claims.get("iat").and_then(Value::as_u64)
                        && iat > now_seconds() + LEEWAY_SECONDS
                    {
                        return Err("het token is uitgegeven in de toekomst (iat)".to_string());
                    }
                    return Ok(claims);
                }
                Err(e) => last = refusal(&e),
            }
        }
        Err(last)
    }
}

/// The `kid` a token's header names, if its header can be read.
pub fn header_kid(token: &str) -> Option<String> {
    jsonwebtoken::decode_header(token).ok()?.kid
}

/// A JWT refusal in words.
fn refusal(error: &jsonwebtoken::errors::Error) -> String {
    use jsonwebtoken::errors::ErrorKind;
    match error.kind() {
        ErrorKind::ExpiredSignature => "het token is verlopen (exp)".into(),
        ErrorKind::ImmatureSignature => "het token is nog niet geldig (nbf)".into(),
        ErrorKind::InvalidIssuer => "het token is van een andere uitgever (iss)".into(),
        ErrorKind::InvalidAudience => "het token is voor een andere ontvanger (aud)".into(),
        ErrorKind::InvalidSignature => "de handtekening klopt niet".into(),
        ErrorKind::MissingRequiredClaim(claim) => format!("het token mist {claim}"),
        _ => format!("het token is ongeldig: {error}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_kept_as_long_as_max_age_says() {
        assert_eq!(max_age(Some("public, max-age=300")), 300);
        assert_eq!(max_age(Some("max-age=\"60\"")), 60);
        assert_eq!(max_age(Some("max-age=9999999")), MAX_KEEP);
        assert_eq!(max_age(Some("no-store, max-age=300")), 0);
        assert_eq!(max_age(Some("no-cache")), 0);
        assert_eq!(max_age(None), 0);
    }
}

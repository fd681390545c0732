//! Bearer tokens over HTTP: the bridge is an OAuth 2.1 resource server (MCP authorization).
//!
//! A request to `/mcp` carries `Authorization: Bearer <JWT>`. The token is verified against a
//! JWKS file (`--auth-jwks`): an asymmetric signature by a key of that set (by `kid` when the
//! token names one), the issuer (`--auth-issuer`), the audience (`--auth-audience`) and the
//! expiry. The company comes from one claim (`--auth-kvk-claim`, default `kvk_nummer`) and only
//! from there; an intermediary's token may list several (`--auth-companies-claim`), of which a
//! call names one in `_meta["nl.overheid/sessie"]`. The person comes from `sub`; what the token
//! may do from `scope` ([`crate::identity::scope`]).
//! Anything else is a 401 with `WWW-Authenticate` pointing to the RFC 9728 metadata, before
//! anything runs. The accepted algorithms (asymmetric only), the usable keys of a JWKS and the
//! clock leeway are the family's one set (`common::approval::provider`), as for approval tokens.

use std::collections::BTreeMap;
use std::path::Path;

use common::approval::provider::{ALGORITHMS, LEEWAY_SECONDS, public_keys};
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{Map, Value};

use common::args::{KvkNummer, is_kvk_nummer};

use crate::identity::scope::Scope;
use crate::identity::session::Session;

/// Default claim that names the company.
pub(crate) const DEFAULT_KVK_CLAIM: &str = "kvk_nummer";

/// Verifies bearer tokens.
pub(crate) struct Verifier {
    keys: Vec<(Option<String>, DecodingKey)>,
    validation: Validation,
    claims: CompanyClaims,
    pub issuer: String,
}

/// The claims that name the companies a token or a login acts for.
#[derive(Clone, Debug)]
pub(crate) struct CompanyClaims {
    /// `--auth-kvk-claim`: one KvK number.
    pub kvk: String,
    /// `--auth-companies-claim`: a list of KvK numbers (intermediaries).
    pub list: Option<String>,
}

impl CompanyClaims {
    pub(crate) fn new(kvk: Option<&str>, list: Option<&str>) -> Self {
        Self {
            kvk: kvk.unwrap_or(DEFAULT_KVK_CLAIM).to_string(),
            list: list.map(str::to_string),
        }
    }

    /// The companies in `claims`: the company claim's, then the list claim's (once each).
    pub(crate) fn companies(&self, claims: &Map<String, Value>) -> Result<Vec<String>, Refused> {
        let mut companies = match claims.get(&self.kvk) {
            None => Vec::new(),
            Some(Value::String(number)) if is_kvk_nummer(number) => vec![number.clone()],
            Some(_) => {
                return Err(Refused(format!(
                    "claim {} is geen KvK-nummer (8 cijfers)",
                    self.kvk
                )));
            }
        };
        if let Some(list) = self
            .list
            .as_ref()
            .and_then(|name| Some((name, claims.get(name)?)))
        {
            let refused = || Refused(format!("claim {} is geen lijst van KvK-nummers", list.0));
            for item in list.1.as_array().ok_or_else(refused)? {
                let number = item
                    .as_str()
                    .filter(|n| is_kvk_nummer(n))
                    .ok_or_else(refused)?;
                if !companies.iter().any(|known| known == number) {
                    companies.push(number.to_string());
                }
            }
        }
        Ok(companies)
    }
}

/// A call that names a company its token does not list.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct NotYours;

/// Why a token was refused (the `error_description` of the 401).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Refused(pub String);

/// What a verified token grants: who calls, for which company, with which scopes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Grant {
    /// The token's `sub`: the person (or the intermediary) who makes the calls.
    pub subject: Option<String>,
    /// The companies the token acts for: the company claim's, then the list claim's.
    pub companies: Vec<String>,
    /// The token's scopes; `None` when it has no `scope` claim.
    pub scopes: Option<Vec<String>>,
    /// The OAuth client the token was issued to: its `client_id` (RFC 9068 §2.2), else `azp`.
    pub client: Option<String>,
}

impl Grant {
    /// Whether the token carries `scope`. A token without a `scope` claim may read and not file
    /// (see [`crate::identity::scope`]).
    pub(crate) fn allows(&self, scope: Scope) -> bool {
        match &self.scopes {
            None => scope == Scope::Read,
            Some(granted) => granted.iter().any(|g| g == scope.name()),
        }
    }

    /// The identity of a call made with this token, given the identity the call names in
    /// `_meta` (if any): that company when the token lists it, else the token's only company.
    /// `Err` when the call names a company the token does not list.
    pub(crate) fn session(&self, named: Option<Session>) -> Result<Session, NotYours> {
        let argument = KvkNummer::SCHEMA.name;
        let company = match named {
            Some(named) => {
                let company = named.values.get(argument).ok_or(NotYours)?;
                if !self.companies.contains(company) {
                    return Err(NotYours);
                }
                Some(company.clone())
            }
            None => match self.companies.as_slice() {
                [only] => Some(only.clone()),
                _ => None,
            },
        };
        let values = company
            .map(|company| BTreeMap::from([(argument.to_string(), company)]))
            .unwrap_or_default();
        Ok(Session {
            subject: self.subject.clone(),
            companies: self.companies.len(),
            ..Session::per_request(values)
        })
    }
}

impl Verifier {
    /// Read the JWKS and set the checks.
    pub(crate) fn new(
        jwks: &Path,
        issuer: &str,
        audience: &str,
        claims: CompanyClaims,
    ) -> Result<Self, String> {
        let text = std::fs::read_to_string(jwks)
            .map_err(|e| format!("--auth-jwks {}: {e}", jwks.display()))?;
        let set: JwkSet = serde_json::from_str(&text)
            .map_err(|e| format!("--auth-jwks {} is geen JWKS: {e}", jwks.display()))?;
        let keys = public_keys(&set);
        if keys.is_empty() {
            return Err(format!(
                "--auth-jwks {} bevat geen bruikbare publieke sleutel",
                jwks.display()
            ));
        }
        let mut validation = Validation::new(Algorithm::EdDSA);
        validation.algorithms = ALGORITHMS.to_vec();
        validation.set_issuer(&[issuer]);
        validation.set_audience(&[audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        validation.leeway = LEEWAY_SECONDS;
        // A token not valid yet is refused as one that is no longer valid (RFC 7519 §4.1.5).
        validation.validate_nbf = true;
        Ok(Self {
            keys,
            validation,
            claims,
            issuer: issuer.to_string(),
        })
    }

    /// What the token in the `Authorization` header value grants, or why it grants nothing.
    pub(crate) fn verify(&self, authorization: Option<&str>) -> Result<Grant, Refused> {
        let token = authorization
            .and_then(|value| {
                let (scheme, token) = value.split_once(' ')?;
                scheme
                    .eq_ignore_ascii_case("bearer")
                    .then_some(token.trim())
            })
            .filter(|token| !token.is_empty())
            .ok_or_else(|| Refused("geen bearer-token".to_string()))?;
        let header = jsonwebtoken::decode_header(token)
            .map_err(|e| Refused(format!("ongeldig token: {e}")))?;
        if !ALGORITHMS.contains(&header.alg) {
            return Err(Refused("algoritme niet toegestaan".to_string()));
        }
        let mut validation = self.validation.clone();
        validation.algorithms = vec![header.alg];
        let candidates = self
            .keys
            .iter()
            .filter(|(kid, _)| header.kid.is_none() || kid.is_none() || *kid == header.kid);
        let mut last = Refused("geen sleutel past bij dit token".to_string());
        for (_, key) in candidates {
            match jsonwebtoken::decode::<Map<String, Value>>(token, key, &validation) {
                Ok(data) => {
                    self.issued_in_the_past(&data.claims)?;
                    return self.grant(&data.claims);
                }
                Err(e) => last = Refused(format!("token geweigerd: {e}")),
            }
        }
        Err(last)
    }

    /// An `iat` (when present) must be a number no later than now, within the leeway: a token
    /// issued in the future comes from a clock or issuer that cannot be trusted.
    fn issued_in_the_past(&self, claims: &Map<String, Value>) -> Result<(), Refused> {
        let Some(iat) = claims.get("iat") else {
            return Ok(());
        };
        let now = jsonwebtoken::get_current_timestamp();
        match iat.as_f64() {
            Some(at) if at <= (now + self.validation.leeway) as f64 => Ok(()),
            Some(_) => Err(Refused(
                "token geweigerd: iat ligt in de toekomst".to_string(),
            )),
            None => Err(Refused("token geweigerd: iat is geen getal".to_string())),
        }
    }

    fn grant(&self, claims: &Map<String, Value>) -> Result<Grant, Refused> {
        let companies = self.claims.companies(claims)?;
        let subject = match claims.get("sub") {
            None => None,
            Some(Value::String(sub)) if !sub.is_empty() => Some(sub.clone()),
            Some(_) => return Err(Refused("claim sub is geen tekst".to_string())),
        };
        Ok(Grant {
            subject,
            companies,
            scopes: scopes(claims.get("scope"))?,
            client: client(claims),
        })
    }
}

/// The OAuth client a token was issued to: `client_id` (RFC 9068 §2.2), else `azp` (OpenID
/// Connect). Only shown to people, so a claim that is no text is left out rather than refused.
fn client(claims: &Map<String, Value>) -> Option<String> {
    ["client_id", "azp"]
        .iter()
        .find_map(|name| claims.get(*name).and_then(Value::as_str))
        .map(str::to_string)
}

/// The `scope` claim: a space-separated text (RFC 9068 §2.2.3, RFC 8693 §4.2), or a list of
/// texts as some providers issue it.
fn scopes(claim: Option<&Value>) -> Result<Option<Vec<String>>, Refused> {
    let refused = || Refused("claim scope is geen tekst of lijst van teksten".to_string());
    match claim {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.split_whitespace().map(String::from).collect())),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| item.as_str().map(String::from).ok_or_else(refused))
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        Some(_) => Err(refused()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn without_a_scope_claim_a_token_reads_and_does_not_file() {
        let grant = |scopes| Grant {
            subject: None,
            companies: Vec::new(),
            scopes,
            client: None,
        };
        let unscoped = grant(None);
        assert!(unscoped.allows(Scope::Read) && !unscoped.allows(Scope::File));
        let filing = grant(Some(vec!["overheid:indienen".to_string()]));
        assert!(filing.allows(Scope::File) && !filing.allows(Scope::Read));
        let other = grant(Some(vec!["openid".to_string()]));
        assert!(!other.allows(Scope::Read) && !other.allows(Scope::File));
        assert_eq!(
            scopes(Some(&json!("openid  overheid:lezen"))),
            Ok(Some(vec![
                "openid".to_string(),
                "overheid:lezen".to_string()
            ]))
        );
        assert_eq!(
            scopes(Some(&json!(["overheid:indienen"]))),
            Ok(Some(vec!["overheid:indienen".to_string()]))
        );
        assert!(scopes(Some(&json!(7))).is_err());
        assert!(scopes(Some(&json!([7]))).is_err());
    }

    #[test]
    fn the_client_is_the_tokens_client_id_else_its_azp() {
        let of = |claims: Value| client(claims.as_object().unwrap());
        assert_eq!(
            of(json!({"client_id": "a", "azp": "b"})).as_deref(),
            Some("a")
        );
        assert_eq!(of(json!({"azp": "b"})).as_deref(), Some("b"));
        assert_eq!(
            of(json!({"client_id": 7, "azp": "b"})).as_deref(),
            Some("b")
        );
        assert_eq!(of(json!({"sub": "p1"})), None);
    }
}

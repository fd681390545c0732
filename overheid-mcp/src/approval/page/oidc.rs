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

use common::approval::code_flow;
pub(crate) use common::approval::code_flow::{Ask, random};
use common::approval::provider::{self, Provider as Keys};
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

/// What a login's code brought: the person, the ID token's claims, and the access token.
pub(crate) struct LoggedIn {
    pub person: Person,
    pub claims: Map<String, Value>,
    pub access_token: Option<String>,
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
        code_flow::authorization_url(&self.client(), state, nonce, verifier, ask)
    }

    /// This relying party as the shared code flow sees it.
    fn client(&self) -> code_flow::Client<'_> {
        code_flow::Client {
            authorization_endpoint: &self.authorization_endpoint,
            token_endpoint: &self.token_endpoint,
            client_id: &self.client_id,
            client_secret: self.client_secret.as_deref(),
            redirect_uri: &self.redirect_uri,
        }
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
        let tokens = code_flow::exchange(&self.client(), code, verifier)?;
        let access_token = tokens.access_token;
        let token = tokens
            .id_token
            .ok_or("het tokenantwoord heeft geen id_token")?;
        let (person, claims) = self.verify(&token, nonce, claims)?;
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

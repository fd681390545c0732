//! A fake identity provider for the approval tests: OpenID metadata, a JWKS (with
//! `Cache-Control: max-age`, fetches counted), the device authorization grant (RFC 8628) and
//! the authorization-code flow with PKCE, both with rich authorization requests (RFC 9396) and
//! resource indicators (RFC 8707): the access token is a JWT for the resource asked, carrying the
//! authorization details asked.
//!
//! The person is played by the test: [`FakeIdp::log_in_as`] says who logs in next,
//! [`FakeIdp::approve`] / [`FakeIdp::decline`] finish a device login (the person at the
//! verification page). A login asked without `prompt=login` and `max_age=0` reuses an old
//! session: its `auth_time` is an hour ago, as a real provider's would be. [`FakeIdp::tweak`]
//! changes the claims of the tokens issued next (an expired one, another audience), and
//! [`FakeIdp::token`] signs any claims with the provider's key.
//!
//! The real provider of the end-to-end tests is npm `oidc-provider` (overheid-mcp/tests/agent);
//! this one is for the integration tests that run without Node.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use serde_json::{Map, Value, json};

use crate::jwt::Signer;
use crate::{FakeServer, RecordedRequest, Reply};

/// The authorization detail type the provider accepts (as oidc-provider's `types` would).
pub const DETAIL_TYPE: &str = "nl.overheid.indiening";

/// A person who can log in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    pub sub: String,
    pub name: String,
    pub kvk_nummer: String,
    /// The assurance of their login (`acr`).
    pub acr: String,
}

impl Person {
    pub fn new(sub: &str, name: &str, kvk_nummer: &str) -> Person {
        Person {
            sub: sub.into(),
            name: name.into(),
            kvk_nummer: kvk_nummer.into(),
            acr: "substantieel".into(),
        }
    }
}

/// A device login waiting for the person.
#[derive(Debug, Clone)]
pub struct Pending {
    pub user_code: String,
    /// The request's parameters as sent (`authorization_details`, `resource`, `prompt`, …).
    pub params: HashMap<String, String>,
}

#[derive(Debug, Clone, PartialEq)]
enum DeviceState {
    Waiting,
    Approved(Person),
    Declined,
    Expired,
    /// Its tokens were issued: a device code is used once.
    Used,
}

struct Device {
    user_code: String,
    params: HashMap<String, String>,
    state: DeviceState,
    last_poll: Option<Instant>,
}

type Tweak = Box<dyn Fn(&mut Map<String, Value>) + Send>;

struct State {
    base: String,
    signer: Signer,
    who: Person,
    devices: HashMap<String, Device>,
    /// Authorization codes: their parameters and who logged in.
    codes: HashMap<String, (HashMap<String, String>, Person)>,
    tweak: Option<Tweak>,
    interval: u64,
    jwks_fetches: usize,
    next: usize,
}

/// The fake provider; stops on drop.
pub struct FakeIdp {
    server: FakeServer,
    state: Arc<Mutex<State>>,
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn form(request: &RecordedRequest) -> HashMap<String, String> {
    form_urlencoded::parse(&request.body).into_owned().collect()
}

fn error(status: u16, code: &str) -> Reply {
    Reply::json(status, &json!({"error": code, "error_description": code}))
}

impl FakeIdp {
    /// A provider on a free loopback port; the first person to log in is Anna of 68750110.
    pub fn start() -> FakeIdp {
        let state = Arc::new(Mutex::new(State {
            base: String::new(),
            signer: Signer::new("idp-sleutel-1"),
            who: Person::new("anna", "Anna de Vries", "68750110"),
            devices: HashMap::new(),
            codes: HashMap::new(),
            tweak: None,
            interval: 1,
            jwks_fetches: 0,
            next: 0,
        }));
        let shared = Arc::clone(&state);
        let server = FakeServer::start(move |request| {
            let mut state = shared.lock().unwrap_or_else(PoisonError::into_inner);
            state.answer(request)
        });
        state.lock().unwrap().base = server.base_url();
        FakeIdp { server, state }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The issuer (its base URL).
    pub fn issuer(&self) -> String {
        self.server.base_url()
    }

    /// The server's recorded requests.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.server.requests()
    }

    /// How often the keys were fetched.
    pub fn jwks_fetches(&self) -> usize {
        self.state().jwks_fetches
    }

    /// Who logs in next.
    pub fn log_in_as(&self, person: Person) {
        self.state().who = person;
    }

    /// The polling interval the device authorization names (seconds; default 1).
    pub fn set_interval(&self, seconds: u64) {
        self.state().interval = seconds;
    }

    /// Changes the claims of every token issued from now on (both access and ID tokens).
    pub fn tweak(&self, change: impl Fn(&mut Map<String, Value>) + Send + 'static) {
        self.state().tweak = Some(Box::new(change));
    }

    /// The device logins waiting for the person.
    pub fn pending(&self) -> Vec<Pending> {
        self.state()
            .devices
            .values()
            .filter(|d| d.state == DeviceState::Waiting)
            .map(|d| Pending {
                user_code: d.user_code.clone(),
                params: d.params.clone(),
            })
            .collect()
    }

    /// Waits (at most `timeout`) for a device login to be asked for.
    pub fn wait_for_login(&self, timeout: Duration) -> Option<Pending> {
        let until = Instant::now() + timeout;
        while Instant::now() < until {
            if let Some(pending) = self.pending().into_iter().next() {
                return Some(pending);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    fn finish(&self, user_code: &str, to: DeviceState) {
        let mut state = self.state();
        let device = state
            .devices
            .values_mut()
            .find(|d| d.user_code == user_code)
            .expect("a device login with that code");
        device.state = to;
    }

    /// The person who logs in next approves the device login `user_code` (logs in, consents).
    pub fn approve(&self, user_code: &str) {
        let who = self.state().who.clone();
        self.finish(user_code, DeviceState::Approved(who));
    }

    /// The person declines the device login `user_code`.
    pub fn decline(&self, user_code: &str) {
        self.finish(user_code, DeviceState::Declined);
    }

    /// The device login `user_code` expires.
    pub fn expire(&self, user_code: &str) {
        self.finish(user_code, DeviceState::Expired);
    }

    /// `claims` signed with the provider's key.
    pub fn token(&self, claims: &Value) -> String {
        self.state().signer.token(claims)
    }

    /// An approval token as this provider issues it after a fresh login of `person`: for
    /// `audience`, carrying `detail`.
    pub fn approval_token(&self, person: &Person, audience: &str, detail: &Value) -> String {
        let state = self.state();
        let claims = state.access_claims(
            person,
            audience,
            Some(json!([detail])),
            "overheid-cli",
            now(),
        );
        state.signer.token(&Value::Object(claims))
    }
}

impl State {
    fn answer(&mut self, request: &RecordedRequest) -> Reply {
        let base = self.base.clone();
        match (request.method.as_str(), request.path.as_str()) {
            (_, "/.well-known/openid-configuration") => Reply::json(
                200,
                &json!({
                    "issuer": base,
                    "authorization_endpoint": format!("{base}/authorize"),
                    "token_endpoint": format!("{base}/token"),
                    "device_authorization_endpoint": format!("{base}/device"),
                    "jwks_uri": format!("{base}/jwks"),
                    "authorization_details_types_supported": [DETAIL_TYPE],
                }),
            ),
            (_, "/jwks") => {
                self.jwks_fetches += 1;
                Reply::json(200, &json!({"keys": [self.signer.jwk()]}))
                    .header("cache-control", "public, max-age=300")
            }
            ("POST", "/device") => self.device_authorization(request),
            ("GET", "/authorize") => self.authorize(request),
            ("POST", "/token") => self.token(request),
            _ => error(404, "not_found"),
        }
    }

    fn checked_details(params: &HashMap<String, String>) -> Result<Option<Value>, Reply> {
        let Some(text) = params.get("authorization_details") else {
            return Ok(None);
        };
        let details: Value =
            serde_json::from_str(text).map_err(|_| error(400, "invalid_authorization_details"))?;
        let valid = details.as_array().is_some_and(|entries| {
            !entries.is_empty()
                && entries
                    .iter()
                    .all(|e| e["type"] == json!(DETAIL_TYPE) && e["voorstel_id"].is_string())
        });
        if !valid {
            return Err(error(400, "invalid_authorization_details"));
        }
        Ok(Some(details))
    }

    fn device_authorization(&mut self, request: &RecordedRequest) -> Reply {
        let params = form(request);
        if params.get("client_id").is_none_or(|c| c.is_empty()) {
            return error(400, "invalid_client");
        }
        if let Err(reply) = Self::checked_details(&params) {
            return reply;
        }
        self.next += 1;
        let device_code = format!("apparaatcode-{}-{}", self.next, now());
        let user_code = format!("ABCD-{:04}", self.next);
        self.devices.insert(
            device_code.clone(),
            Device {
                user_code: user_code.clone(),
                params,
                state: DeviceState::Waiting,
                last_poll: None,
            },
        );
        let base = &self.base;
        Reply::json(
            200,
            &json!({
                "device_code": device_code,
                "user_code": user_code,
                "verification_uri": format!("{base}/device/verify"),
                "verification_uri_complete": format!("{base}/device/verify?user_code={user_code}"),
                "expires_in": 600,
                "interval": self.interval,
            }),
        )
    }

    fn authorize(&mut self, request: &RecordedRequest) -> Reply {
        let params: HashMap<String, String> = request.query.iter().cloned().collect();
        if let Err(reply) = Self::checked_details(&params) {
            return reply;
        }
        let (Some(redirect), Some(state)) = (params.get("redirect_uri"), params.get("state"))
        else {
            return error(400, "invalid_request");
        };
        self.next += 1;
        let code = format!("code-{}", self.next);
        let back = format!("{redirect}?code={code}&state={state}");
        self.codes.insert(code, (params.clone(), self.who.clone()));
        Reply::redirect(&back)
    }

    /// When the person logged in: now for a login asked fresh, an hour ago for an old session.
    fn auth_time(params: &HashMap<String, String>) -> i64 {
        let fresh = params
            .get("prompt")
            .is_some_and(|p| p.split(' ').any(|p| p == "login"))
            && params.get("max_age").map(String::as_str) == Some("0");
        if fresh { now() } else { now() - 3600 }
    }

    fn access_claims(
        &self,
        person: &Person,
        audience: &str,
        details: Option<Value>,
        client_id: &str,
        auth_time: i64,
    ) -> Map<String, Value> {
        let at = now();
        let mut claims = json!({
            "iss": self.base, "sub": person.sub, "aud": audience, "client_id": client_id,
            "iat": at, "nbf": at, "exp": at + 300, "jti": format!("jti-{}-{at}", self.next),
            "auth_time": auth_time, "acr": person.acr, "name": person.name,
            "scope": "openid profile",
        });
        if let Some(details) = details {
            claims["authorization_details"] = details;
        }
        let mut claims = claims.as_object().cloned().unwrap_or_default();
        if let Some(tweak) = &self.tweak {
            tweak(&mut claims);
        }
        claims
    }

    fn tokens(&self, params: &HashMap<String, String>, person: &Person) -> Reply {
        let client_id = params.get("client_id").cloned().unwrap_or_default();
        let auth_time = Self::auth_time(params);
        let details = match Self::checked_details(params) {
            Ok(details) => details,
            Err(reply) => return reply,
        };
        let audience = params
            .get("resource")
            .cloned()
            .unwrap_or_else(|| client_id.clone());
        let access = self.access_claims(person, &audience, details, &client_id, auth_time);
        let mut id = json!({
            "iss": self.base, "sub": person.sub, "aud": client_id, "iat": now(),
            "exp": now() + 300, "auth_time": auth_time, "name": person.name,
            "kvk_nummer": person.kvk_nummer, "acr": person.acr,
        });
        if let Some(nonce) = params.get("nonce") {
            id["nonce"] = json!(nonce);
        }
        let mut id = id.as_object().cloned().unwrap_or_default();
        if let Some(tweak) = &self.tweak {
            tweak(&mut id);
        }
        Reply::json(
            200,
            &json!({
                "access_token": self.signer.token(&Value::Object(access)),
                "id_token": self.signer.token(&Value::Object(id)),
                "token_type": "Bearer", "expires_in": 300,
            }),
        )
    }

    fn token(&mut self, request: &RecordedRequest) -> Reply {
        let form = form(request);
        match form.get("grant_type").map(String::as_str) {
            Some("urn:ietf:params:oauth:grant-type:device_code") => {
                let code = form.get("device_code").cloned().unwrap_or_default();
                let interval = Duration::from_secs(self.interval);
                let Some(device) = self.devices.get_mut(&code) else {
                    return error(400, "invalid_grant");
                };
                let too_soon = device
                    .last_poll
                    .is_some_and(|last| last.elapsed() + Duration::from_millis(200) < interval);
                device.last_poll = Some(Instant::now());
                match device.state.clone() {
                    DeviceState::Waiting if too_soon => error(400, "slow_down"),
                    DeviceState::Waiting => error(400, "authorization_pending"),
                    DeviceState::Declined => error(400, "access_denied"),
                    DeviceState::Expired => error(400, "expired_token"),
                    DeviceState::Used => error(400, "invalid_grant"),
                    DeviceState::Approved(person) => {
                        device.state = DeviceState::Used;
                        let params = device.params.clone();
                        self.tokens(&params, &person)
                    }
                }
            }
            Some("authorization_code") => {
                let code = form.get("code").cloned().unwrap_or_default();
                let Some((params, person)) = self.codes.remove(&code) else {
                    return error(400, "invalid_grant");
                };
                if let Some(challenge) = params.get("code_challenge") {
                    let verifier = form.get("code_verifier").cloned().unwrap_or_default();
                    let hashed = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(
                        ring::digest::digest(&ring::digest::SHA256, verifier.as_bytes()),
                    );
                    if &hashed != challenge {
                        return error(400, "invalid_grant");
                    }
                }
                self.tokens(&params, &person)
            }
            _ => error(400, "unsupported_grant_type"),
        }
    }
}

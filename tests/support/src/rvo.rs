//! A fake RVO backend of `spec/rvo-backend.md`, contract 2.0: a filing needs a person's approval
//! token, checked here with the identity provider's keys, never trusting the client.
//!
//! `POST {base}/rapportages` files only when `Authorization: Bearer` carries an access token
//! that a key of the provider signed (its JWKS, fetched and kept as `Cache-Control: max-age`
//! says), of the provider (`iss`), for this backend (`aud` is the base URL), current (`exp`,
//! `nbf`, an `iat` not in the future), with exactly one authorization detail of type
//! `nl.overheid.indiening` whose `plan_digest` is the `Idempotency-Key` and the plan digest of the
//! body (so the body is the one the person approved), whose `kvk_nummer` and `regeling_id` are
//! the body's and whose `backend` is this base URL. Anything else is `403` with a problem of type
//! `…/goedkeuring-vereist`, and nothing is filed. A service credential
//! (`Overheid-Dienstsleutel`) identifies the calling system and is required when configured,
//! but never files alone. The key is looked up after the token: a replay with a valid token
//! returns the first result (`200`); another body under a token's key is not approved (`403`).
//!
//! Reads (`GET`) take the service credential or a person's token.
//!
//! This fake is the independent check of the tests: it verifies with `jsonwebtoken` directly,
//! not with the family's verifier.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{DecodingKey, Validation};
use serde_json::{Map, Value, json};

use crate::{FakeServer, RecordedRequest, Reply};

/// The header of the service credential (contract 2.0).
pub const SERVICE_HEADER: &str = "overheid-dienstsleutel";
/// The command whose plan digest is a filing's key (`rvo-cli rapportage indienen`).
const FILING_COMMAND: &str = "rvo-cli rapportage indienen";
/// The problem type of a filing without a valid approval.
pub const APPROVAL_REQUIRED: &str = "https://overheid-cli.nl/problemen/goedkeuring-vereist";

/// One filed report, as kept.
#[derive(Debug, Clone)]
pub struct Filed {
    pub key: String,
    pub body_sha256: String,
    pub record: Value,
    /// The person whose token filed it (`sub`).
    pub approved_by: String,
}

/// The provider's public keys by `kid`.
type Keys = Vec<(Option<String>, DecodingKey)>;

struct State {
    issuer: String,
    service_token: Option<String>,
    base: String,
    /// The keys and until when they may be kept (their `max-age`).
    keys: Option<(Instant, Keys)>,
    jwks_fetches: usize,
    filed: Vec<Filed>,
    refusals: Vec<String>,
}

/// The fake backend; stops on drop.
pub struct RvoBackend {
    server: FakeServer,
    state: Arc<Mutex<State>>,
}

fn problem(status: u16, kind: &str, title: &str, detail: &str) -> Reply {
    Reply::json(
        status,
        &json!({"type": kind, "title": title, "status": status, "detail": detail}),
    )
    .header("content-type", "application/problem+json")
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl RvoBackend {
    /// A 2.0 backend trusting the provider `issuer`; with `service_token`, that credential is
    /// also required (in [`SERVICE_HEADER`]).
    pub fn start(issuer: &str, service_token: Option<&str>) -> RvoBackend {
        let state = Arc::new(Mutex::new(State {
            issuer: issuer.trim_end_matches('/').to_string(),
            service_token: service_token.map(str::to_string),
            base: String::new(),
            keys: None,
            jwks_fetches: 0,
            filed: Vec::new(),
            refusals: Vec::new(),
        }));
        let shared = Arc::clone(&state);
        let server = FakeServer::start(move |request| answer(&shared, request));
        state.lock().unwrap().base = format!("{}/api", server.base_url());
        RvoBackend { server, state }
    }

    /// The base URL to set as `RVO_API_BASE` (and the audience of its tokens).
    pub fn base_url(&self) -> String {
        format!("{}/api", self.server.base_url())
    }

    /// The reports filed, in order.
    pub fn filed(&self) -> Vec<Filed> {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .filed
            .clone()
    }

    /// Why each refused filing was refused, in order.
    pub fn refusals(&self) -> Vec<String> {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .refusals
            .clone()
    }

    /// How often the provider's keys were fetched.
    pub fn jwks_fetches(&self) -> usize {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .jwks_fetches
    }

    /// The requests received.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.server.requests()
    }
}

fn answer(shared: &Mutex<State>, request: &RecordedRequest) -> Reply {
    let mut state = shared.lock().unwrap_or_else(PoisonError::into_inner);
    let service_ok = match &state.service_token {
        Some(token) => request.header(SERVICE_HEADER) == Some(token.as_str()),
        None => true,
    };
    match (request.method.as_str(), request.path.as_str()) {
        ("POST", "/api/rapportages") => {
            let filed = file(&mut state, request, service_ok);
            if let Err((_, why)) = &filed {
                state.refusals.push(why.clone());
            }
            filed.unwrap_or_else(|(reply, _)| reply)
        }
        ("GET", path) if path.starts_with("/api/rapportages") => {
            let person = bearer(request)
                .and_then(|token| verify(&mut state, token).ok())
                .is_some();
            if !service_ok && !person {
                return problem(401, "about:blank", "Niet aangemeld", "geen geldige sleutel");
            }
            read(&state, request)
        }
        _ => problem(404, "about:blank", "Niet gevonden", "onbekend pad"),
    }
}

fn bearer(request: &RecordedRequest) -> Option<&str> {
    request.header("authorization")?.strip_prefix("Bearer ")
}

/// The provider's keys, fetched when none are kept or the kept ones are past their `max-age`.
fn keys(state: &mut State) -> Result<Keys, String> {
    if let Some((until, keys)) = &state.keys
        && Instant::now() < *until
    {
        return Ok(keys.clone());
    }
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(5))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| e.to_string())?;
    let get = |url: &str| client.get(url).send().map_err(|e| e.to_string());
    let metadata: Value = serde_json::from_slice(
        &get(&format!(
            "{}/.well-known/openid-configuration",
            state.issuer
        ))?
        .bytes()
        .map_err(|e| e.to_string())?,
    )
    .map_err(|e| e.to_string())?;
    let jwks_uri = metadata["jwks_uri"]
        .as_str()
        .ok_or("geen jwks_uri")?
        .to_string();
    let response = get(&jwks_uri)?;
    let keep = response
        .headers()
        .get("cache-control")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            v.split(',')
                .find_map(|d| d.trim().strip_prefix("max-age=")?.parse().ok())
        })
        .unwrap_or(0u64);
    let set: JwkSet = serde_json::from_slice(&response.bytes().map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    state.jwks_fetches += 1;
    let keys: Keys = set
        .keys
        .iter()
        .filter_map(|jwk| Some((jwk.common.key_id.clone(), DecodingKey::from_jwk(jwk).ok()?)))
        .collect();
    state.keys = Some((Instant::now() + Duration::from_secs(keep), keys.clone()));
    Ok(keys)
}

/// The claims of a valid approval token for this backend, or why not.
fn verify(state: &mut State, token: &str) -> Result<Map<String, Value>, String> {
    let header = jsonwebtoken::decode_header(token).map_err(|_| "geen JWT".to_string())?;
    if matches!(
        header.alg,
        jsonwebtoken::Algorithm::HS256
            | jsonwebtoken::Algorithm::HS384
            | jsonwebtoken::Algorithm::HS512
    ) {
        return Err("symmetrisch algoritme".into());
    }
    let mut validation = Validation::new(header.alg);
    validation.set_issuer(&[&state.issuer]);
    validation.set_audience(&[&state.base]);
    validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
    validation.validate_nbf = true;
    validation.leeway = 30;
    let mut keys = keys(state)?;
    if !keys
        .iter()
        .any(|(kid, _)| kid.is_none() || *kid == header.kid)
    {
        state.keys = None;
        keys = self::keys(state)?;
    }
    let mut last = "geen sleutel past".to_string();
    for (_, key) in keys
        .iter()
        .filter(|(kid, _)| kid.is_none() || *kid == header.kid)
    {
        match jsonwebtoken::decode::<Map<String, Value>>(token, key, &validation) {
            Ok(data) => {
                if data
                    .claims
                    .get("iat")
                    .and_then(Value::as_u64)
                    .is_some_and(|iat| iat > now() + 30)
                {
                    return Err("iat in de toekomst".into());
                }
                return Ok(data.claims);
            }
            Err(e) => last = e.to_string(),
        }
    }
    Err(last)
}

type Refused = (Reply, String);

fn refuse(why: &str) -> Refused {
    (
        problem(403, APPROVAL_REQUIRED, "Goedkeuring vereist", why),
        why.to_string(),
    )
}

fn file(state: &mut State, request: &RecordedRequest, service_ok: bool) -> Result<Reply, Refused> {
    if state.service_token.is_some() && bearer(request) == state.service_token.as_deref() {
        return Err(refuse(
            "een dienstsleutel dient niets in zonder goedkeuring van een persoon",
        ));
    }
    if !service_ok {
        return Err((
            problem(
                401,
                "about:blank",
                "Niet aangemeld",
                "dienstsleutel ontbreekt of klopt niet",
            ),
            "dienstsleutel".into(),
        ));
    }
    let token = bearer(request).ok_or_else(|| refuse("geen goedkeuringstoken van een persoon"))?;
    let claims = verify(state, token).map_err(|why| refuse(&format!("token ongeldig: {why}")))?;
    let key = request
        .header("idempotency-key")
        .map(str::to_string)
        .ok_or_else(|| {
            (
                problem(400, "about:blank", "Idempotency-Key ontbreekt", ""),
                "sleutel".into(),
            )
        })?;
    let body: Value = serde_json::from_slice(&request.body).map_err(|_| {
        (
            problem(400, "about:blank", "Ongeldige aanvraag", ""),
            "body".into(),
        )
    })?;
    let details: Vec<&Value> = claims
        .get("authorization_details")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|d| d["type"] == json!("nl.overheid.indiening"))
        .collect();
    let [detail] = details.as_slice() else {
        return Err(refuse("geen (of meer dan één) nl.overheid.indiening"));
    };
    for (member, expected) in [
        ("plan_digest", json!(key)),
        ("kvk_nummer", body["kvk_nummer"].clone()),
        ("regeling_id", body["regeling_id"].clone()),
        ("backend", json!(state.base)),
    ] {
        if detail.get(member) != Some(&expected) || expected.is_null() {
            return Err(refuse(&format!("{member} past niet bij de aanvraag")));
        }
    }
    // The person approved this body: a filing's key is the plan digest of its body (profile
    // MUT-3, `spec/rvo-backend.md` §3), so another body under the approved key was not approved.
    if common::plan::digest(FILING_COMMAND, &body) != key {
        return Err(refuse(
            "de aanvraag is niet wat de persoon goedkeurde (de plan-digest van de body verschilt)",
        ));
    }
    let body_sha = common::digest::canonical_sha256(&body);
    if let Some(done) = state.filed.iter().find(|f| f.key == key) {
        if done.body_sha256 != body_sha {
            return Ok(problem(
                422,
                "https://overheid-cli.nl/problemen/idempotency-key-reused",
                "Idempotency-Key al gebruikt",
                "andere aanvraag",
            ));
        }
        return Ok(Reply::json(200, &receipt(&done.record)));
    }
    let reference = format!("RVO-NEP-{}", state.filed.len() + 1);
    let mut record = body.clone();
    record["referentienummer"] = json!(reference);
    record["ontvangen_op"] = json!("2026-12-06T10:00:00.000Z");
    record["status"] = json!("ONTVANGEN");
    state.filed.push(Filed {
        key,
        body_sha256: body_sha,
        record: record.clone(),
        approved_by: claims
            .get("sub")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .into(),
    });
    Ok(Reply::json(201, &receipt(&record)).header(
        "location",
        &format!("{}/rapportages/{reference}", state.base),
    ))
}

fn receipt(record: &Value) -> Value {
    json!({"referentienummer": record["referentienummer"], "ontvangen_op": record["ontvangen_op"], "status": record["status"]})
}

fn read(state: &State, request: &RecordedRequest) -> Reply {
    if let Some(reference) = request.path.strip_prefix("/api/rapportages/") {
        return match state
            .filed
            .iter()
            .find(|f| f.record["referentienummer"] == json!(reference))
        {
            Some(filed) => Reply::json(200, &filed.record),
            None => problem(
                404,
                "about:blank",
                "Niet gevonden",
                "onbekend referentienummer",
            ),
        };
    }
    let company = request.query_param("kvk_nummer").unwrap_or_default();
    let reports: Vec<&Value> = state
        .filed
        .iter()
        .map(|f| &f.record)
        .filter(|r| r["kvk_nummer"] == json!(company))
        .collect();
    Reply::json(200, &json!({"rapportages": reports}))
}

//! A person's login for one approval, from a terminal: the OAuth 2.0 Device Authorization Grant
//! (RFC 8628), as `gh auth login` does it, asking for one authorization detail (RFC 9396).
//!
//! 1. [`start`] asks the provider's `device_authorization_endpoint` for a code, with the CLIs'
//!    public client, scope `openid profile`, the detail (`authorization_details`), its target
//!    as resource indicator (`resource`, RFC 8707: the access token's audience), and a fresh
//!    login (`prompt=login`, `max_age=0`, and `acr_values` when the operator asks for one).
//! 2. The person opens the verification link on any device, logs in, and sees at the provider
//!    what they approve (the detail) before they consent.
//! 3. [`DeviceLogin::wait`] polls the token endpoint at the provider's interval (5 s when it
//!    names none; 5 s more after `slow_down`), until the person consented (the tokens), declined
//!    (`access_denied`) or the code expired (`expired_token`, or its `expires_in` passed), or
//!    Ctrl-C. Each request is bounded by [`REQUEST_TIMEOUT`]; the whole wait by the code's life.
//!
//! Device flows can be phished (the OAuth cross-device BCP): the code lives only as long as the
//! provider says, and the person sees the detail at the provider itself, not only here.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;

use super::detail::Detail;
use super::provider::{Provider, REQUEST_TIMEOUT, Unusable, why};
use crate::net::http::{ClientConfig, HttpClient, Request};

/// The interval RFC 8628 prescribes when the provider names none.
const DEFAULT_INTERVAL: Duration = Duration::from_secs(5);
/// The grant type of a device code at the token endpoint.
const GRANT_TYPE: &str = "urn:ietf:params:oauth:grant-type:device_code";
/// How often the wait looks at Ctrl-C between polls.
const TICK: Duration = Duration::from_millis(50);

/// A login in progress: what the person is shown, and what polls for its end.
pub struct DeviceLogin {
    /// The code the person types at [`DeviceLogin::verification_uri`].
    pub user_code: String,
    pub verification_uri: String,
    /// The link with the code in it, when the provider gives one.
    pub verification_uri_complete: Option<String>,
    /// When the code expires.
    pub expires_at: Instant,
    /// When the login was asked for (seconds since the epoch): a login must not be older.
    pub started: i64,
    interval: Duration,
    device_code: String,
    token_endpoint: String,
    client_id: String,
}

/// How a login ended.
#[derive(Debug)]
pub enum Ended {
    /// The person consented: the access token (the approval) and the ID token, if any.
    Approved {
        access_token: String,
        id_token: Option<String>,
    },
    /// The person declined at the provider.
    Declined,
    /// The code expired before the person finished.
    Expired,
    /// Ctrl-C.
    Interrupted,
}

fn client(url: &str) -> Result<HttpClient, Unusable> {
    HttpClient::new(
        &ClientConfig {
            deadline: Instant::now() + REQUEST_TIMEOUT,
            max_body: 1 << 20,
            proxy: None,
        },
        !url.starts_with("http://"),
    )
    .map_err(|e| Unusable(format!("HTTP-client: {}", why(e))))
}

/// A form POST to the provider: the status and the JSON body.
fn post(url: &str, pairs: &[(&str, &str)], secrets: &[&str]) -> Result<(u16, Value), Unusable> {
    let request = Request::post_form(url, pairs, secrets);
    let response = client(url)?
        .send(&request, url)
        .map_err(|e| Unusable(format!("{url}: {}", why(e))))?;
    let body = serde_json::from_slice(&response.body)
        .map_err(|_| Unusable(format!("{url} antwoordde {} zonder JSON", response.status)))?;
    Ok((response.status, body))
}

/// Asks `provider` for a login of a person at `client_id` that approves `detail`, with the
/// assurance `acr` when the operator asks for one.
pub fn start(
    provider: &Provider,
    client_id: &str,
    detail: &Detail,
    acr: Option<&str>,
) -> Result<DeviceLogin, Unusable> {
    let endpoint = provider.endpoint("device_authorization_endpoint")?;
    let token_endpoint = provider.endpoint("token_endpoint")?;
    let details = detail.request_parameter();
    let audience = detail.audience();
    let mut pairs = vec![
        ("client_id", client_id),
        ("scope", "openid profile"),
        ("authorization_details", details.as_str()),
        ("resource", audience.as_str()),
        ("prompt", "login"),
        ("max_age", "0"),
    ];
    if let Some(acr) = acr {
        pairs.push(("acr_values", acr));
    }
    let started = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let asked = Instant::now();
    let (status, body) = post(&endpoint, &pairs, &[])?;
    if status != 200 {
        return Err(Unusable(format!(
            "de provider weigerde de login ({status}: {})",
            error_text(&body)
        )));
    }
    let text = |name: &str| body.get(name).and_then(Value::as_str).map(str::to_string);
    let (Some(device_code), Some(user_code), Some(verification_uri)) = (
        text("device_code"),
        text("user_code"),
        text("verification_uri"),
    ) else {
        return Err(Unusable(
            "het antwoord mist device_code, user_code of verification_uri".into(),
        ));
    };
    crate::process::secrets::hold(&device_code);
    let expires_in = body.get("expires_in").and_then(Value::as_u64).unwrap_or(0);
    if expires_in == 0 {
        return Err(Unusable(
            "het antwoord noemt geen geldige expires_in".into(),
        ));
    }
    let interval = body
        .get("interval")
        .and_then(Value::as_u64)
        .map_or(DEFAULT_INTERVAL, Duration::from_secs)
        .max(Duration::from_secs(1));
    Ok(DeviceLogin {
        user_code,
        verification_uri,
        verification_uri_complete: text("verification_uri_complete"),
        expires_at: asked + Duration::from_secs(expires_in),
        started,
        interval,
        device_code,
        token_endpoint,
        client_id: client_id.to_string(),
    })
}

/// The provider's `error` and `error_description` in one line.
fn error_text(body: &Value) -> String {
    let error = body["error"].as_str().unwrap_or("onbekende fout");
    match body["error_description"].as_str() {
        Some(description) => format!("{error}: {description}"),
        None => error.to_string(),
    }
}

impl DeviceLogin {
    /// The link to show the person: the complete one when there is one.
    pub fn link(&self) -> &str {
        self.verification_uri_complete
            .as_deref()
            .unwrap_or(&self.verification_uri)
    }

    /// Waits for the login's end, polling at the provider's interval; `interrupted` is asked
    /// between polls (Ctrl-C).
    pub fn wait(&mut self, interrupted: impl Fn() -> bool) -> Result<Ended, Unusable> {
        loop {
            let next = Instant::now() + self.interval;
            while Instant::now() < next {
                if interrupted() {
                    return Ok(Ended::Interrupted);
                }
                if Instant::now() >= self.expires_at {
                    return Ok(Ended::Expired);
                }
                std::thread::sleep(TICK.min(next.saturating_duration_since(Instant::now())));
            }
            if let Some(ended) = self.poll()? {
                return Ok(ended);
            }
        }
    }

    /// One poll: `None` while the person has not finished.
    pub fn poll(&mut self) -> Result<Option<Ended>, Unusable> {
        let pairs = [
            ("grant_type", GRANT_TYPE),
            ("device_code", self.device_code.as_str()),
            ("client_id", self.client_id.as_str()),
        ];
        let (status, body) = post(&self.token_endpoint, &pairs, &[self.device_code.as_str()])?;
        if status == 200 {
            let access_token = body
                .get("access_token")
                .and_then(Value::as_str)
                .ok_or_else(|| Unusable("het tokenantwoord heeft geen access_token".into()))?
                .to_string();
            crate::process::secrets::hold(&access_token);
            let id_token = body
                .get("id_token")
                .and_then(Value::as_str)
                .map(str::to_string);
            if let Some(id_token) = &id_token {
                crate::process::secrets::hold(id_token);
            }
            return Ok(Some(Ended::Approved {
                access_token,
                id_token,
            }));
        }
        match body.get("error").and_then(Value::as_str) {
            Some("authorization_pending") => Ok(None),
            Some("slow_down") => {
                self.interval += DEFAULT_INTERVAL;
                Ok(None)
            }
            Some("access_denied") => Ok(Some(Ended::Declined)),
            Some("expired_token") => Ok(Some(Ended::Expired)),
            _ => Err(Unusable(format!(
                "het tokenendpoint antwoordde {status}: {}",
                error_text(&body)
            ))),
        }
    }
}

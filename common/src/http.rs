//! The one HTTP client setup of the family (rules NET-1 … NET-7).
//!
//! Blocking reqwest with rustls and the operating system's root store.
//! Every request: a deadline from `--timeout`, a `User-Agent` naming the tool,
//! the caller's `traceparent`, redirects only under the configured base (so a
//! key in a header never reaches another host or path), at most two retries
//! with back-off for idempotent requests on 429/502/503/504 (honouring
//! `Retry-After` with a floor of 250 ms, never beyond the deadline), and a cap
//! on the response body. Plain `http://` is refused unless the host is
//! loopback. An answer that is not HTTP is a protocol error (exit 76).

use std::io::Read;
use std::net::IpAddr;
use std::time::{Duration, Instant};

use reqwest::Url;
use serde_json::{Map, Value};

use crate::digest::sha256_hex;
use crate::error::{Error, Problem, Result};

/// Default cap on a response body: 20 MiB.
pub const DEFAULT_MAX_RESPONSE_BYTES: u64 = 20 * 1024 * 1024;
const MAX_RETRIES: u32 = 2;
const REDIRECT_LIMIT: usize = 5;
/// The shortest wait before a retry, whatever `Retry-After` says (rule NET-4).
const MIN_BACKOFF: Duration = Duration::from_millis(250);

/// One header of a request; secret values are redacted in plans.
#[derive(Clone, Debug)]
pub struct Header {
    pub name: String,
    pub value: String,
    pub secret: bool,
}

/// A request a command makes (or, in a dry run, would make).
#[derive(Clone, Debug)]
pub struct Request {
    pub method: &'static str,
    pub url: String,
    pub headers: Vec<Header>,
    pub body: Option<Value>,
    /// A body that is not JSON (an OTLP export): its content type and bytes.
    payload: Option<(&'static str, Vec<u8>)>,
    /// Retrying is safe although the method is not idempotent (an OTLP export).
    retry_safe: bool,
}

impl Request {
    /// The request as the client sends it: with the `User-Agent` naming the
    /// tool and the caller's `traceparent`. The plan shows this form, so it
    /// describes the real request; this is the one place they are added.
    #[must_use]
    pub fn with_client_headers(mut self, user_agent: &str, traceparent: &str) -> Self {
        for (name, value) in [("User-Agent", user_agent), ("traceparent", traceparent)] {
            self.headers.push(Header {
                name: name.into(),
                value: value.into(),
                secret: false,
            });
        }
        self
    }

    /// A GET of `url`.
    pub fn get(url: impl Into<String>) -> Self {
        Self {
            method: "GET",
            url: url.into(),
            headers: Vec::new(),
            body: None,
            payload: None,
            retry_safe: false,
        }
    }

    /// A POST of a JSON body.
    pub fn post(url: impl Into<String>, body: Value) -> Self {
        Self {
            body: Some(body),
            ..Self::get(url).with_method("POST")
        }
    }

    /// A POST of an OTLP/HTTP export (`content_type` and its encoded
    /// `bytes`). The OTLP specification makes an export retryable on
    /// 429/502/503/504, so it is retried as an idempotent request is (NET-4).
    pub fn otlp_export(url: impl Into<String>, content_type: &'static str, bytes: Vec<u8>) -> Self {
        Self {
            payload: Some((content_type, bytes)),
            retry_safe: true,
            ..Self::get(url).with_method("POST")
        }
    }

    /// A POST of an HTML form (`application/x-www-form-urlencoded`), e.g. an OAuth token
    /// request. Values given as secret are held ([`crate::secrets`]). Not retried.
    pub fn post_form(url: impl Into<String>, pairs: &[(&str, &str)], secrets: &[&str]) -> Self {
        for secret in secrets {
            crate::secrets::hold(secret);
        }
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(pairs)
            .finish();
        Self {
            payload: Some(("application/x-www-form-urlencoded", body.into_bytes())),
            ..Self::get(url).with_method("POST")
        }
    }

    fn with_method(mut self, method: &'static str) -> Self {
        self.method = method;
        self
    }

    /// Add a header.
    #[must_use]
    pub fn header(mut self, name: &str, value: impl Into<String>) -> Self {
        self.headers.push(Header {
            name: name.to_string(),
            value: value.into(),
            secret: false,
        });
        self
    }

    /// Add a header whose value is a secret. The value is held
    /// ([`crate::secrets`]): no output or record will show it.
    #[must_use]
    pub fn secret_header(mut self, name: &str, value: impl Into<String>) -> Self {
        let value = value.into();
        crate::secrets::hold(&value);
        self.headers.push(Header {
            name: name.to_string(),
            value,
            secret: true,
        });
        self
    }

    /// Add query parameters, percent-encoded.
    #[must_use]
    pub fn query(mut self, pairs: &[(&str, String)]) -> Self {
        if pairs.is_empty() {
            return self;
        }
        if let Ok(mut url) = Url::parse(&self.url) {
            url.query_pairs_mut()
                .extend_pairs(pairs.iter().map(|(k, v)| (*k, v.as_str())));
            self.url = url.to_string();
        }
        self
    }

    /// Retrying is safe: the method is idempotent, or the request carries an
    /// `Idempotency-Key`.
    pub fn is_idempotent(&self) -> bool {
        matches!(self.method, "GET" | "HEAD" | "PUT" | "DELETE")
            || self.retry_safe
            || self
                .headers
                .iter()
                .any(|h| h.name.eq_ignore_ascii_case("idempotency-key"))
    }

    /// The request as a plan shows it: secrets as `***`.
    pub fn to_plan_json(&self) -> Value {
        let headers: Map<String, Value> = self
            .headers
            .iter()
            .map(|h| {
                let value = if h.secret { "***" } else { h.value.as_str() };
                (h.name.clone(), Value::from(value))
            })
            .collect();
        serde_json::json!({
            "method": self.method,
            "url": self.url,
            "headers": headers,
            "body": self.body.clone().unwrap_or(Value::Null),
        })
    }

    /// Refuse what the client would refuse, before anything is sent and also
    /// in a dry run (rule DRY-4): a URL the profile does not allow, or a
    /// header the wire cannot carry (a key with a newline): exit 78.
    pub fn check(&self) -> Result<(), Problem> {
        check_url(&self.url)?;
        for h in &self.headers {
            let name_ok = reqwest::header::HeaderName::from_bytes(h.name.as_bytes()).is_ok();
            if !name_ok || reqwest::header::HeaderValue::from_str(&h.value).is_err() {
                // Never echo the value: it may be the secret.
                return Err(Problem::config(format!(
                    "de header {:?} van het verzoek bevat een ongeldig teken",
                    h.name
                ))
                .with_hint(
                    "controleer de geheime variabelen op spaties, regeleinden of stuurtekens",
                ));
            }
        }
        Ok(())
    }
}

/// Check an `HTTPS_PROXY` value: an `http` or `https` URL with a host and
/// no other parts (exit 78). A dry run checks it too (rule DRY-4).
pub fn check_proxy(proxy: Option<&str>) -> Result<Option<Url>, Problem> {
    let Some(text) = proxy else { return Ok(None) };
    let refuse = |why: &str| {
        Problem::config(format!("HTTPS_PROXY is geen bruikbare proxy: {why}"))
            .with_hint("zet HTTPS_PROXY op http://host:poort of maak de variabele leeg")
    };
    let url = Url::parse(text).map_err(|_| refuse("geen URL"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(refuse("alleen http- en https-proxy's worden ondersteund"));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(refuse("de URL noemt geen host"));
    }
    if !matches!(url.path(), "" | "/") || url.query().is_some() || url.fragment().is_some() {
        return Err(refuse("een proxy-URL heeft geen pad of query"));
    }
    Ok(Some(url))
}

/// Parse `url` and apply the transport rule: https, or http to loopback only.
pub fn check_url(url: &str) -> Result<Url, Problem> {
    let parsed = Url::parse(url).map_err(|e| {
        Problem::config(format!("ongeldige URL {url:?}: {e}"))
            .with_hint("controleer de basis-URL in de omgevingsvariabelen")
    })?;
    if !parsed.username().is_empty() || parsed.password().is_some() {
        // Never echo the URL: it holds a credential.
        return Err(Problem::config(
            "een basis-URL met gebruikersnaam of wachtwoord is niet toegestaan",
        )
        .with_hint("zet sleutels in de daarvoor bedoelde geheime variabele, niet in de URL"));
    }
    match parsed.scheme() {
        "https" => Ok(parsed),
        "http" if is_loopback(&parsed) => Ok(parsed),
        "http" => Err(Problem::config(format!(
            "onversleuteld http naar {} is niet toegestaan",
            parsed.host_str().unwrap_or("?")
        ))
        .with_hint("gebruik https; http mag alleen naar 127.0.0.1, ::1 of localhost")),
        other => Err(Problem::config(format!(
            "URL-schema {other:?} wordt niet ondersteund"
        ))),
    }
}

/// Refuse a URL taken from a response unless it lies under `base` (same
/// scheme, host and port, path below the base's path): a crafted answer must
/// not make a tool fetch arbitrary URLs (rule NET-11, exit 76).
pub fn ensure_under(url: &str, base: &str) -> Result<Url, Problem> {
    let refuse = || {
        Problem::protocol(format!(
            "URL uit het antwoord valt buiten de bron {base}: {url}"
        ))
        .with_code(crate::codes::OMLEIDING_GEWEIGERD)
    };
    let target = Url::parse(url).map_err(|_| refuse())?;
    let base_url = Url::parse(base).map_err(|_| refuse())?;
    let (Some(path), Some(base_path)) = (decoded_path(&target), decoded_path(&base_url)) else {
        return Err(refuse());
    };
    let base_path = base_path.trim_end_matches('/');
    let same_origin = target.scheme() == base_url.scheme()
        && target.host_str() == base_url.host_str()
        && target.port_or_known_default() == base_url.port_or_known_default();
    let path = path.as_str();
    let below = path == base_path
        || base_path.is_empty()
        || path
            .strip_prefix(base_path)
            .is_some_and(|rest| rest.starts_with('/'));
    if same_origin && below && target.username().is_empty() && target.password().is_none() {
        Ok(target)
    } else {
        Err(refuse())
    }
}

/// The path of `url` as a server may read it: percent-decoded. `None` when
/// a segment of the decoded path is `.` or `..` (also with a backslash as
/// separator) or it holds a NUL: a traversal such as `..%2F` that
/// `Url::parse` leaves alone (rule NET-11).
fn decoded_path(url: &Url) -> Option<String> {
    let path = percent_encoding::percent_decode_str(url.path())
        .decode_utf8()
        .ok()?
        .into_owned();
    let traversal = path
        .split(['/', '\\'])
        .any(|segment| segment == "." || segment == "..");
    (!traversal && !path.contains('\0')).then_some(path)
}

/// The base a redirect of `url` must stay under: the longest of the
/// configured `bases` that `url` lies under, else the directory of `url`
/// itself (rule NET-11).
pub fn redirect_scope<'b>(url: &str, bases: impl IntoIterator<Item = &'b str>) -> String {
    bases
        .into_iter()
        .filter(|base| ensure_under(url, base).is_ok())
        .max_by_key(|base| base.len())
        .map(str::to_string)
        .or_else(|| {
            Url::parse(url)
                .and_then(|u| u.join("."))
                .ok()
                .map(String::from)
        })
        .unwrap_or_else(|| url.to_string())
}

/// `localhost`, `127.0.0.0/8` or `::1`: a local fake, never a real source.
pub fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        None => false,
    }
}

/// A response as received: status, headers, the whole (capped) body.
#[derive(Clone, Debug)]
pub struct Response {
    pub status: u16,
    /// The URL that answered (after redirects), as provenance and audit name it.
    pub url: String,
    /// The method of the request that answered (a 303 turns a POST into a GET).
    pub method: &'static str,
    headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// An answer read back from the response cache ([`crate::cache`]): a GET of `url`, no headers.
    pub(crate) fn stored(url: String, status: u16, body: Vec<u8>) -> Self {
        Self {
            status,
            url,
            method: "GET",
            headers: Vec::new(),
            body,
        }
    }

    /// A header value (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body parsed as JSON; anything else is a protocol error (exit 76).
    pub fn json(&self) -> Result<Value> {
        let value = serde_json::from_slice(&self.body).map_err(|e| {
            Problem::protocol(format!(
                "het antwoord (HTTP {}) is geen geldige JSON: {}",
                self.status,
                crate::input::json_reason(&e)
            ))
            .with_status(self.status)
        })?;
        Ok(value)
    }

    /// The profile's error for a non-2xx answer (rules EXIT-4 … EXIT-8).
    ///
    /// `detail` says what the source answered (with its own code and text
    /// where it has them); `addressed` tells whether the request named one
    /// thing (then 404/410 means "does not exist", exit 66) or a collection or
    /// service (then 404/410 means the source is not where it should be, 69).
    pub fn status_error(&self, detail: String, addressed: bool) -> Problem {
        let status = self.status;
        let retry_after = self.retry_after();
        let err = match status {
            429 => {
                let wait = retry_after.unwrap_or(1);
                Problem::temporary(detail, Some(wait)).with_hint(format!(
                    "te veel verzoeken; wacht {wait} {} en probeer het opnieuw",
                    if wait == 1 { "seconde" } else { "seconden" }
                ))
            }
            503 if retry_after.is_some() => Problem::temporary(detail, retry_after),
            400 | 422 => Problem::new(
                crate::ExitStatus::DataErr,
                crate::codes::API_FOUT,
                "De bron weigerde het verzoek",
                detail,
            ),
            401 | 403 => Problem::no_permission(detail),
            404 | 410 if addressed => Problem::not_found(detail),
            404 | 410 | 500..=599 => Problem::unavailable(detail),
            _ => Problem::new(
                crate::ExitStatus::Error,
                crate::codes::API_FOUT,
                "Onverwacht antwoord van de bron",
                detail,
            ),
        };
        err.with_status(status)
    }

    /// SHA-256 of the body as received.
    pub fn sha256(&self) -> String {
        sha256_hex(&self.body)
    }

    /// `Retry-After` in whole seconds, if present (delta-seconds or HTTP date).
    pub fn retry_after(&self) -> Option<u64> {
        let value = self.header("retry-after")?.trim();
        const DAY: u64 = 86_400;
        if let Ok(secs) = value.parse::<u64>() {
            return Some(secs.min(DAY));
        }
        let date = chrono::DateTime::parse_from_rfc2822(value).ok()?;
        let secs = (date.timestamp() - chrono::Utc::now().timestamp()).max(0);
        Some((secs as u64).min(DAY))
    }
}

/// What the client needs to know about its caller.
pub struct ClientConfig<'a> {
    pub deadline: Instant,
    pub max_body: u64,
    pub proxy: Option<&'a str>,
}

/// The configured client.
pub struct HttpClient {
    inner: reqwest::blocking::Client,
    deadline: Instant,
    max_body: u64,
    /// The issuer of a chain the TLS verifier refused as untrusted (NET-12).
    untrusted: crate::tls::UntrustedIssuer,
}

impl HttpClient {
    /// Build a client. `needs_tls` is false when every URL is plain loopback
    /// http, which spares loading the root store.
    #[allow(clippy::disallowed_methods, reason = "one HTTP client")]
    pub fn new(config: &ClientConfig<'_>, needs_tls: bool) -> Result<Self> {
        let remaining = config.deadline.saturating_duration_since(Instant::now());
        let mut builder = reqwest::blocking::Client::builder()
            .timeout(remaining.max(Duration::from_millis(1)))
            .connect_timeout(remaining.clamp(Duration::from_millis(1), Duration::from_secs(10)))
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .tls_built_in_native_certs(false)
            .dns_resolver(std::sync::Arc::new(Resolver::new()))
            .pool_max_idle_per_host(1);
        let mut untrusted = crate::tls::UntrustedIssuer::default();
        if needs_tls {
            let (tls, issuer) = crate::tls::client_config()?;
            builder = builder.use_preconfigured_tls(tls);
            untrusted = issuer;
        }
        if let Some(proxy) = check_proxy(config.proxy)? {
            let proxy = reqwest::Proxy::https(proxy.as_str())
                .map_err(|e| Problem::config(format!("ongeldige proxy: {e}")))?;
            builder = builder.proxy(proxy);
        }
        let inner = builder
            .build()
            .map_err(|e| Problem::config(format!("HTTP-client kon niet worden gemaakt: {e}")))?;
        Ok(Self {
            inner,
            deadline: config.deadline,
            max_body: config.max_body,
            untrusted,
        })
    }

    /// The same client (its connection pool, runtime thread and TLS roots) with
    /// other bounds: the audit export reuses the command's client this way
    /// instead of building a second one.
    pub fn bounded(&self, deadline: Instant, max_body: u64) -> Self {
        Self {
            inner: self.inner.clone(),
            deadline,
            max_body,
            untrusted: std::sync::Arc::clone(&self.untrusted),
        }
    }

    /// Send `request`, retrying where that is safe; the body is read whole.
    /// Redirects are followed only while they stay under `scope` (see
    /// [`redirect_scope`]); the response names the URL that answered.
    pub fn send(&self, request: &Request, scope: &str) -> Result<Response> {
        request.check()?;
        let mut attempt = 0;
        loop {
            let response = self.follow(request, scope)?;
            let retryable = matches!(response.status, 429 | 502 | 503 | 504)
                && request.is_idempotent()
                && attempt < MAX_RETRIES;
            if retryable {
                let wait = response
                    .retry_after()
                    .map(Duration::from_secs)
                    .unwrap_or_else(|| MIN_BACKOFF * (1 << attempt))
                    .max(MIN_BACKOFF);
                if Instant::now()
                    .checked_add(wait)
                    .is_some_and(|t| t < self.deadline)
                {
                    std::thread::sleep(wait);
                    attempt += 1;
                    continue;
                }
            }
            return Ok(response);
        }
    }

    /// One request and the redirects that answer it, each checked against
    /// `scope` before anything (the key, the body) is sent there (rule NET-11).
    fn follow(&self, request: &Request, scope: &str) -> Result<Response> {
        let mut url = check_url(&request.url)?;
        let mut hop = request.clone();
        for _ in 0..=REDIRECT_LIMIT {
            let response = self.send_once(&hop, &url)?;
            if !(300..400).contains(&response.status) {
                return Ok(response);
            }
            let refused = |why: String| {
                Problem::protocol(format!("doorverwijzing geweigerd: {why}"))
                    .with_code(crate::codes::OMLEIDING_GEWEIGERD)
                    .with_status(response.status)
            };
            let location = response
                .header("location")
                .ok_or_else(|| refused("het antwoord noemt geen Location".into()))?;
            let next = url
                .join(location)
                .map_err(|_| refused(format!("ongeldige Location {location:?}")))?;
            url = ensure_under(next.as_str(), scope)
                .map_err(|_| refused(format!("{} valt buiten {scope}", shown(&next))))?;
            if response.status == 303 || (hop.method == "POST" && response.status <= 302) {
                hop.method = "GET";
                hop.body = None;
                hop.payload = None;
            }
        }
        Err(Problem::protocol(format!(
            "doorverwijzing geweigerd: meer dan {REDIRECT_LIMIT} doorverwijzingen"
        ))
        .with_code(crate::codes::OMLEIDING_GEWEIGERD)
        .into())
    }

    fn send_once(&self, request: &Request, url: &Url) -> Result<Response> {
        let remaining = self.deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            return Err(deadline_passed());
        }
        let method = reqwest::Method::from_bytes(request.method.as_bytes())
            .map_err(|e| Problem::software(e.to_string()))?;
        let mut builder = self.inner.request(method, url.clone()).timeout(remaining);
        for h in &request.headers {
            builder = builder.header(&h.name, &h.value);
        }
        if let Some(body) = &request.body {
            builder = builder
                .header("content-type", "application/json")
                .body(body.to_string());
        }
        if let Some((content_type, bytes)) = &request.payload {
            builder = builder
                .header("content-type", *content_type)
                .body(bytes.clone());
        }
        let response = builder.send().map_err(|e| {
            let issuer = self
                .untrusted
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .take();
            transport_error(&e, issuer)
        })?;
        let status = response.status().as_u16();
        let final_url = response.url().to_string();
        let headers = response
            .headers()
            .iter()
            .map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap_or("").to_string()))
            .collect();
        let mut body = Vec::new();
        response
            .take(self.max_body + 1)
            .read_to_end(&mut body)
            .map_err(|e| read_error(&e, self.deadline))?;
        if body.len() as u64 > self.max_body {
            return Err(Problem::protocol(format!(
                "het antwoord is groter dan {} bytes",
                self.max_body
            ))
            .with_code(crate::codes::ANTWOORD_TE_GROOT)
            .with_hint("verhoog OVERHEID_MAX_RESPONSE_BYTES als dit antwoord terecht zo groot is")
            .into());
        }
        Ok(Response {
            status,
            url: final_url,
            method: request.method,
            headers,
            body,
        })
    }
}

/// A URL as an error shows it: whole but for user information, so a held secret in it is
/// found and masked whole (SEC-2; a URL cut at its query could show part of a key that holds
/// a `?`).
fn shown(url: &Url) -> String {
    let mut url = url.clone();
    let _ = url.set_username("");
    let _ = url.set_password(None);
    url.to_string()
}

fn deadline_passed() -> Error {
    Problem::timeout("de tijdslimiet (--timeout) is verstreken voordat de bron antwoordde").into()
}

/// The problem of a failed exchange; `issuer` names the issuer of a chain the verifier refused as
/// untrusted, if it did.
fn transport_error(err: &reqwest::Error, issuer: Option<String>) -> Error {
    if err.is_builder() {
        // The request could not be formed, e.g. a key with a control character.
        return Problem::config("het verzoek kon niet worden opgebouwd: een sleutel of instelling bevat een ongeldig teken")
            .with_hint("controleer de geheime variabelen op spaties, regeleinden of stuurtekens").into();
    }
    let host = err
        .url()
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_else(|| "de bron".to_string());
    let what = match Failure::of(err) {
        Failure::Timeout => return deadline_passed(),
        Failure::NotHttp(why) => {
            // The connection worked; what came back is not HTTP (rule EXIT-9).
            return Problem::protocol(format!(
                "het antwoord van {host} is geen geldig HTTP: {why}"
            ))
            .with_hint("de basis-URL wijst waarschijnlijk niet naar deze dienst")
            .into();
        }
        Failure::Dns => "de naam kon niet worden opgezocht (DNS)",
        Failure::Refused => "de verbinding werd geweigerd",
        Failure::Untrusted => return untrusted_chain(&host, issuer),
        Failure::Tls { certificate: true } => {
            "de TLS-verbinding kon niet worden opgezet (certificaat)"
        }
        Failure::Tls { certificate: false } => "de TLS-verbinding kon niet worden opgezet",
        Failure::Other if err.is_connect() => "er kon geen verbinding worden gemaakt",
        Failure::Other => "de verbinding mislukte",
    };
    Problem::unavailable(format!("{host} is niet bereikbaar: {what}"))
        .with_hint("controleer de netwerkverbinding en de basis-URL; probeer het later opnieuw")
        .into()
}

/// A certificate chain that leads to no trusted root (NET-12): its own code, and a hint naming the
/// issuer and how to add its CA.
fn untrusted_chain(host: &str, issuer: Option<String>) -> Error {
    let issuer = issuer.unwrap_or_else(|| "een onbekende uitgever".to_string());
    Problem::new(
        crate::ExitStatus::Unavailable,
        crate::codes::CERTIFICAAT_NIET_VERTROUWD,
        "Certificaat niet vertrouwd",
        format!(
            "{host} is niet bereikbaar: de certificaatketen leidt niet naar een vertrouwd \
             basiscertificaat (uitgegeven door {issuer})"
        ),
    )
    .with_hint(format!(
        "voeg het basiscertificaat van {issuer} toe aan de vertrouwde certificaten van het systeem \
         (bv. /usr/local/share/ca-certificates en update-ca-certificates), of zet SSL_CERT_FILE op \
         een PEM-bundel met de systeemcertificaten plus dat certificaat (SSL_CERT_FILE vervangt de \
         systeemcertificaten)"
    ))
    .into()
}

/// What a failed exchange came down to, told by the types in its error chain (never by the
/// wording of a message, which a dependency may change).
#[derive(Debug, PartialEq)]
enum Failure {
    /// The deadline passed (reqwest's timeout, or an I/O error of kind `TimedOut`).
    Timeout,
    /// The connection worked; what came back is not HTTP.
    NotHttp(&'static str),
    /// The host name could not be looked up ([`NameNotResolved`]).
    Dns,
    /// An I/O error of kind `ConnectionRefused`.
    Refused,
    /// The server's chain leads to no trusted root (rustls's `UnknownIssuer`).
    Untrusted,
    /// Another `rustls` error; `certificate` when the server's certificate was refused.
    Tls {
        certificate: bool,
    },
    Other,
}

impl Failure {
    /// The failure `err` reports, the most telling cause first.
    fn of(err: &(dyn std::error::Error + 'static)) -> Self {
        let causes = causes(err);
        let timed_out = causes.iter().any(|cause| {
            cause
                .downcast_ref::<reqwest::Error>()
                .is_some_and(reqwest::Error::is_timeout)
                || io_kind(*cause) == Some(std::io::ErrorKind::TimedOut)
        });
        if timed_out {
            return Self::Timeout;
        }
        if let Some(why) = causes.iter().find_map(|cause| {
            cause
                .downcast_ref::<hyper::Error>()
                .and_then(not_http_reason)
        }) {
            return Self::NotHttp(why);
        }
        if causes.iter().any(|cause| cause.is::<NameNotResolved>()) {
            return Self::Dns;
        }
        if causes
            .iter()
            .any(|cause| io_kind(*cause) == Some(std::io::ErrorKind::ConnectionRefused))
        {
            return Self::Refused;
        }
        if let Some(tls) = causes
            .iter()
            .find_map(|cause| cause.downcast_ref::<rustls::Error>())
        {
            if matches!(
                tls,
                rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer)
            ) {
                return Self::Untrusted;
            }
            let certificate = matches!(
                tls,
                rustls::Error::InvalidCertificate(_) | rustls::Error::NoCertificatesPresented
            );
            return Self::Tls { certificate };
        }
        Self::Other
    }
}

/// `err` and its causes. An `io::Error` that wraps another error is followed into that error
/// (its own `source` skips it): that is where rustls and reqwest put theirs.
fn causes<'e>(
    err: &'e (dyn std::error::Error + 'static),
) -> Vec<&'e (dyn std::error::Error + 'static)> {
    let mut causes = Vec::new();
    let mut next = Some(err);
    while let Some(cause) = next {
        causes.push(cause);
        next = match cause
            .downcast_ref::<std::io::Error>()
            .and_then(std::io::Error::get_ref)
        {
            Some(inner) => Some(inner as &(dyn std::error::Error + 'static)),
            None => cause.source(),
        };
    }
    causes
}

fn io_kind(err: &(dyn std::error::Error + 'static)) -> Option<std::io::ErrorKind> {
    err.downcast_ref::<std::io::Error>()
        .map(std::io::Error::kind)
}

/// Why hyper's `err` means the answer was not HTTP: a head it could not
/// parse (garbage, HTTP/0.9, a bad status line, a head beyond hyper's limits
/// such as a 2 MB header or thousands of headers), or a connection closed
/// before a complete answer (nothing, or only an interim `100`).
fn not_http_reason(err: &hyper::Error) -> Option<&'static str> {
    if err.is_parse() {
        Some("de kop van het antwoord is onleesbaar of te groot")
    } else if err.is_incomplete_message() {
        Some("de verbinding werd gesloten voordat er een volledig antwoord was")
    } else {
        None
    }
}

fn read_error(err: &std::io::Error, deadline: Instant) -> Error {
    let deadline_near = Instant::now() + Duration::from_millis(50) >= deadline;
    if deadline_near || Failure::of(err) == Failure::Timeout {
        return deadline_passed();
    }
    Problem::unavailable("het antwoord van de bron brak halverwege af").into()
}

/// The system resolver, as reqwest uses it by default (`getaddrinfo` on a blocking thread),
/// whose failure is a [`NameNotResolved`]: a failed lookup is told from other connect failures
/// by its type.
#[derive(Clone)]
struct Resolver(hyper_util::client::legacy::connect::dns::GaiResolver);

impl Resolver {
    fn new() -> Self {
        Self(hyper_util::client::legacy::connect::dns::GaiResolver::new())
    }
}

impl reqwest::dns::Resolve for Resolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let mut gai = self.0.clone();
        let name = name.as_str().parse();
        Box::pin(async move {
            let not_resolved = |err| Box::new(NameNotResolved(err)) as Box<_>;
            let name = name.map_err(|_| {
                not_resolved(std::io::Error::from(std::io::ErrorKind::InvalidInput))
            })?;
            let addrs = tower_service::Service::call(&mut gai, name)
                .await
                .map_err(not_resolved)?;
            Ok(Box::new(addrs) as reqwest::dns::Addrs)
        })
    }
}

/// A host name the system resolver could not look up.
#[derive(Debug)]
struct NameNotResolved(std::io::Error);

impl std::fmt::Display for NameNotResolved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "de naam kon niet worden opgezocht: {}", self.0)
    }
}

impl std::error::Error for NameNotResolved {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_http_only_to_loopback() {
        assert!(check_url("http://127.0.0.1:8080/x").is_ok());
        assert!(check_url("http://127.9.9.9/x").is_ok());
        assert!(check_url("http://[::1]:1/x").is_ok());
        assert!(check_url("http://localhost/x").is_ok());
        assert!(check_url("https://api.kvk.nl/test/api").is_ok());
        for bad in [
            "http://api.kvk.nl/",
            "http://10.0.0.1/",
            "ftp://x/",
            "not a url",
        ] {
            let err = check_url(bad).unwrap_err();
            assert_eq!(err.exit.code(), 78, "{bad}");
            assert!(!err.detail.contains("S3CRET"), "{bad}");
        }
    }

    #[test]
    fn urls_from_answers_must_stay_under_the_base() {
        let base = "https://repository.example.nl/bwb";
        assert!(ensure_under("https://repository.example.nl/bwb/BWBR1/x.xml", base).is_ok());
        for bad in [
            "https://evil.example/bwb/x.xml",
            "http://repository.example.nl/bwb/x.xml",
            "https://repository.example.nl:8443/bwb/x.xml",
            "https://repository.example.nl/bwbx/x.xml",
            "https://user@repository.example.nl/bwb/x.xml",
            "not a url",
        ] {
            let err = ensure_under(bad, base).unwrap_err();
            assert_eq!(err.exit.code(), 76, "{bad}");
        }
    }

    #[test]
    fn encoded_traversal_is_decoded_before_comparing() {
        let base = "https://repository.example.nl/bwb";
        for bad in [
            "https://repository.example.nl/bwb/..%2F..%2Fetc/passwd",
            "https://repository.example.nl/bwb/%2E%2E/geheim",
            "https://repository.example.nl/bwb/%2e%2e%2fgeheim",
            "https://repository.example.nl/bwb/..%5Cgeheim",
            "https://repository.example.nl/bwb/a%00b",
            "https://repository.example.nl/bwb%2F..%2Fx",
        ] {
            let err = ensure_under(bad, base).unwrap_err();
            assert_eq!(err.exit.code(), 76, "{bad}");
        }
        assert!(ensure_under("https://repository.example.nl/bwb/BWBR1%20x/a.xml", base).is_ok());
        assert!(ensure_under("https://repository.example.nl/bwb/a..b/x.xml", base).is_ok());
        // What `Url` itself resolves is compared resolved.
        let resolved = ensure_under("https://repository.example.nl/bwb/x/%2E/y", base).unwrap();
        assert_eq!(resolved.path(), "/bwb/x/y");
    }

    #[test]
    fn redirects_are_scoped_to_the_longest_matching_base() {
        let bases = [
            "https://x.test/api",
            "https://x.test/api/v1",
            "https://y.test/",
        ];
        assert_eq!(
            redirect_scope("https://x.test/api/v1/a/b", bases),
            "https://x.test/api/v1"
        );
        assert_eq!(
            redirect_scope("https://x.test/api/v2", bases),
            "https://x.test/api"
        );
        assert_eq!(
            redirect_scope("https://z.test/a/b?q", bases),
            "https://z.test/a/"
        );
    }

    #[test]
    fn proxies_must_be_usable_urls() {
        assert!(check_proxy(None).unwrap().is_none());
        assert!(check_proxy(Some("http://proxy.example:3128")).is_ok());
        for bad in [
            "garbage",
            "ftp://proxy.example",
            "http://",
            "http://proxy.example:99999",
            "http://proxy.example/pad",
        ] {
            let err = check_proxy(Some(bad)).unwrap_err();
            assert_eq!(err.exit.code(), 78, "{bad}");
        }
    }

    #[test]
    fn headers_the_wire_cannot_carry_are_refused_without_echo() {
        let req = Request::get("https://x.test/a").secret_header("apikey", "s3cr3t\nX");
        let err = req.check().unwrap_err();
        assert_eq!(err.exit.code(), 78);
        assert!(!err.detail.contains("s3cr3t"));
        assert!(
            Request::get("https://x.test/a")
                .header("a b", "v")
                .check()
                .is_err()
        );
    }

    #[test]
    fn plans_redact_secret_headers() {
        let req = Request::get("https://x.test/a")
            .secret_header("apikey", "s3cr3t")
            .header("Accept", "application/json");
        let json = req.to_plan_json();
        assert_eq!(json["headers"]["apikey"], "***");
        assert_eq!(json["headers"]["Accept"], "application/json");
        assert!(!json.to_string().contains("s3cr3t"));
    }

    #[test]
    fn query_pairs_are_encoded() {
        let req = Request::get("https://x.test/a").query(&[("q", "a b&c".into())]);
        assert_eq!(req.url, "https://x.test/a?q=a+b%26c");
    }

    #[test]
    fn posts_are_idempotent_only_with_a_key() {
        assert!(!Request::post("https://x.test", Value::Null).is_idempotent());
        assert!(
            Request::post("https://x.test", Value::Null)
                .header("Idempotency-Key", "k")
                .is_idempotent()
        );
    }

    /// A transport failure is told by the types in its chain, whatever the messages say.
    #[test]
    fn transport_failures_are_told_by_type_not_by_text() {
        use std::io::{Error as Io, ErrorKind};
        #[derive(Debug)]
        struct Wrapper(Box<dyn std::error::Error + Send + Sync>);
        impl std::fmt::Display for Wrapper {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("dns error: timed out: certificate: Connection refused")
            }
        }
        impl std::error::Error for Wrapper {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&*self.0)
            }
        }
        let of = |inner: Box<dyn std::error::Error + Send + Sync>| Failure::of(&Wrapper(inner));
        assert_eq!(
            of(Box::new(Io::from(ErrorKind::ConnectionRefused))),
            Failure::Refused
        );
        assert_eq!(
            of(Box::new(Io::from(ErrorKind::TimedOut))),
            Failure::Timeout
        );
        assert_eq!(
            of(Box::new(NameNotResolved(Io::other("no such host")))),
            Failure::Dns
        );
        let untrusted = rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer);
        // tokio-rustls hands rustls's error on inside an `io::Error` (whose `source` skips it).
        assert_eq!(
            of(Box::new(Io::new(ErrorKind::InvalidData, untrusted))),
            Failure::Untrusted
        );
        let certificate = rustls::Error::InvalidCertificate(rustls::CertificateError::Expired);
        assert_eq!(
            of(Box::new(Io::new(ErrorKind::InvalidData, certificate))),
            Failure::Tls { certificate: true }
        );
        assert_eq!(
            of(Box::new(Io::new(
                ErrorKind::InvalidData,
                rustls::Error::DecryptError
            ))),
            Failure::Tls { certificate: false }
        );
        // Words alone decide nothing: the wrapper's message names every failure.
        assert_eq!(of(Box::new(Io::other("timed out"))), Failure::Other);
    }

    fn client() -> HttpClient {
        let config = ClientConfig {
            deadline: Instant::now() + Duration::from_secs(10),
            max_body: DEFAULT_MAX_RESPONSE_BYTES,
            proxy: None,
        };
        HttpClient::new(&config, false).unwrap()
    }

    #[test]
    fn a_closed_port_is_a_refused_connection() {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        // `localhost` goes through the resolver (`Resolver`), the address does not.
        for host in ["127.0.0.1", "localhost"] {
            let url = format!("http://{host}:{port}/x");
            let Err(Error::Problem(problem)) = client().send(&Request::get(&url), &url) else {
                panic!("a closed port answers")
            };
            assert_eq!(problem.exit.code(), 69, "{problem:?}");
            assert!(problem.detail.contains("geweigerd"), "{problem:?}");
        }
    }

    #[test]
    fn plain_text_to_a_tls_client_is_a_tls_failure() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!(
            "https://127.0.0.1:{}/x",
            listener.local_addr().unwrap().port()
        );
        let server = std::thread::spawn(move || {
            use std::io::Write;
            let (mut stream, _) = listener.accept().unwrap();
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n");
        });
        let Err(Error::Problem(problem)) = client().send(&Request::get(&url), &url) else {
            panic!("plain text passed for TLS")
        };
        server.join().unwrap();
        assert_eq!(problem.exit.code(), 69, "{problem:?}");
        assert!(problem.detail.contains("TLS-verbinding"), "{problem:?}");
    }
}

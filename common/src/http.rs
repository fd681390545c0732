//! The one HTTP client setup of the family (rules NET-1 … NET-7).
//!
//! Blocking reqwest with rustls and the operating system's root store.
//! Every request: a deadline from `--timeout`, a `User-Agent` naming the tool,
//! the caller's `traceparent`, redirects only within the same origin (so a key
//! in a header never reaches another host), at most two retries with back-off
//! for idempotent requests on 429/502/503/504 (honouring `Retry-After`, never
//! beyond the deadline), and a cap on the response body. Plain `http://` is
//! refused unless the host is loopback.

use std::io::Read;
use std::net::IpAddr;
use std::time::{Duration, Instant};

use reqwest::Url;
use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::plan::sha256_hex;

/// Default cap on a response body: 20 MiB.
pub const DEFAULT_MAX_RESPONSE_BYTES: u64 = 20 * 1024 * 1024;
const MAX_RETRIES: u32 = 2;
const REDIRECT_LIMIT: usize = 5;

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
}

impl Request {
    /// A GET of `url`.
    pub fn get(url: impl Into<String>) -> Self {
        Self {
            method: "GET",
            url: url.into(),
            headers: Vec::new(),
            body: None,
        }
    }

    /// A POST of a JSON body.
    pub fn post(url: impl Into<String>, body: Value) -> Self {
        Self {
            method: "POST",
            url: url.into(),
            headers: Vec::new(),
            body: Some(body),
        }
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

    /// Add a header whose value is a secret.
    #[must_use]
    pub fn secret_header(mut self, name: &str, value: impl Into<String>) -> Self {
        self.headers.push(Header {
            name: name.to_string(),
            value: value.into(),
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

    /// Refuse URLs the profile does not allow (exit 78), before anything is sent.
    pub fn check(&self) -> Result<()> {
        check_url(&self.url).map(|_| ())
    }
}

/// Parse `url` and apply the transport rule: https, or http to loopback only.
pub fn check_url(url: &str) -> Result<Url> {
    let parsed = Url::parse(url).map_err(|e| {
        Error::config(format!("ongeldige URL {url:?}: {e}"))
            .with_hint("controleer de basis-URL in de omgevingsvariabelen")
    })?;
    if !parsed.username().is_empty() || parsed.password().is_some() {
        // Never echo the URL: it holds a credential.
        return Err(Error::config(
            "een basis-URL met gebruikersnaam of wachtwoord is niet toegestaan",
        )
        .with_hint("zet sleutels in de daarvoor bedoelde geheime variabele, niet in de URL"));
    }
    match parsed.scheme() {
        "https" => Ok(parsed),
        "http" if is_loopback(&parsed) => Ok(parsed),
        "http" => Err(Error::config(format!(
            "onversleuteld http naar {} is niet toegestaan",
            parsed.host_str().unwrap_or("?")
        ))
        .with_hint("gebruik https; http mag alleen naar 127.0.0.1, ::1 of localhost")),
        other => Err(Error::config(format!(
            "URL-schema {other:?} wordt niet ondersteund"
        ))),
    }
}

/// Refuse a URL taken from a response unless it lies under `base` (same
/// scheme, host and port, path below the base's path): a crafted answer must
/// not make a tool fetch arbitrary URLs (rule NET-11, exit 76).
pub fn ensure_under(url: &str, base: &str) -> Result<Url> {
    let refuse = || {
        Error::protocol(format!(
            "URL uit het antwoord valt buiten de bron {base}: {url}"
        ))
        .with_code("OMLEIDING_GEWEIGERD")
    };
    let target = Url::parse(url).map_err(|_| refuse())?;
    let base_url = Url::parse(base).map_err(|_| refuse())?;
    let base_path = base_url.path().trim_end_matches('/');
    let same_origin = target.scheme() == base_url.scheme()
        && target.host_str() == base_url.host_str()
        && target.port_or_known_default() == base_url.port_or_known_default();
    let path = target.path();
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
    pub url: String,
    headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// A header value (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body parsed as JSON; anything else is a protocol error (exit 76).
    pub fn json(&self) -> Result<Value> {
        serde_json::from_slice(&self.body).map_err(|e| {
            Error::protocol(format!(
                "het antwoord (HTTP {}) is geen geldige JSON: {e}",
                self.status
            ))
            .with_status(self.status)
        })
    }

    /// The profile's error for a non-2xx answer (rules EXIT-4 … EXIT-8).
    ///
    /// `detail` says what the source answered (with its own code and text
    /// where it has them); `addressed` tells whether the request named one
    /// thing (then 404/410 means "does not exist", exit 66) or a collection or
    /// service (then 404/410 means the source is not where it should be, 69).
    pub fn status_error(&self, detail: String, addressed: bool) -> Error {
        let status = self.status;
        let retry_after = self.retry_after();
        let err = match status {
            429 => Error::temporary(detail, Some(retry_after.unwrap_or(1)))
                .with_hint("te veel verzoeken; wacht retry_after seconden"),
            503 if retry_after.is_some() => Error::temporary(detail, retry_after),
            400 | 422 => Error::new(
                crate::ExitStatus::DataErr,
                "API_FOUT",
                "De bron weigerde het verzoek",
                detail,
            ),
            401 | 403 => Error::no_permission(detail),
            404 | 410 if addressed => Error::not_found(detail),
            404 | 410 | 500..=599 => Error::unavailable(detail),
            _ => Error::new(
                crate::ExitStatus::Error,
                "API_FOUT",
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
    pub user_agent: String,
    pub deadline: Instant,
    pub max_body: u64,
    pub proxy: Option<&'a str>,
}

/// The configured client.
pub struct HttpClient {
    inner: reqwest::blocking::Client,
    deadline: Instant,
    max_body: u64,
}

impl HttpClient {
    /// Build a client. `needs_tls` is false when every URL is plain loopback
    /// http, which spares loading the root store.
    #[allow(clippy::disallowed_methods, reason = "one HTTP client")]
    pub fn new(config: &ClientConfig<'_>, needs_tls: bool) -> Result<Self> {
        let remaining = config.deadline.saturating_duration_since(Instant::now());
        let mut builder = reqwest::blocking::Client::builder()
            .user_agent(config.user_agent.clone())
            .timeout(remaining.max(Duration::from_millis(1)))
            .connect_timeout(remaining.clamp(Duration::from_millis(1), Duration::from_secs(10)))
            .redirect(same_origin_redirects())
            .no_proxy()
            .tls_built_in_native_certs(needs_tls)
            .pool_max_idle_per_host(1);
        if let Some(proxy) = config.proxy {
            let proxy = reqwest::Proxy::https(proxy)
                .map_err(|e| Error::config(format!("ongeldige proxy: {e}")))?;
            builder = builder.proxy(proxy);
        }
        let inner = builder
            .build()
            .map_err(|e| Error::config(format!("HTTP-client kon niet worden gemaakt: {e}")))?;
        Ok(Self {
            inner,
            deadline: config.deadline,
            max_body: config.max_body,
        })
    }

    /// Send `request`, retrying where that is safe; the body is read whole.
    pub fn send(&self, request: &Request, traceparent: &str) -> Result<Response> {
        let url = check_url(&request.url)?;
        let mut attempt = 0;
        loop {
            let response = self.send_once(request, &url, traceparent)?;
            let retryable = matches!(response.status, 429 | 502 | 503 | 504)
                && request.is_idempotent()
                && attempt < MAX_RETRIES;
            if retryable {
                let wait = response
                    .retry_after()
                    .map(Duration::from_secs)
                    .unwrap_or_else(|| Duration::from_millis(250 << attempt));
                if Instant::now()
                    .checked_add(wait)
                    .is_some_and(|t| t < self.deadline)
                {
                    std::thread::sleep(wait);
                    attempt += 1;
                    continue;
                }
            }
            if (300..400).contains(&response.status) {
                let target = response.header("location").unwrap_or("?");
                return Err(Error::protocol(format!(
                    "doorverwijzing geweigerd: andere origin of te veel doorverwijzingen ({})",
                    Url::parse(target)
                        .ok()
                        .and_then(|u| u.host_str().map(str::to_string))
                        .unwrap_or_else(|| target.to_string())
                ))
                .with_code("OMLEIDING_GEWEIGERD")
                .with_status(response.status));
            }
            return Ok(response);
        }
    }

    fn send_once(&self, request: &Request, url: &Url, traceparent: &str) -> Result<Response> {
        let remaining = self.deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            return Err(deadline_passed());
        }
        let method = reqwest::Method::from_bytes(request.method.as_bytes())
            .map_err(|e| Error::software(e.to_string()))?;
        let mut builder = self
            .inner
            .request(method, url.clone())
            .timeout(remaining)
            .header("traceparent", traceparent);
        for h in &request.headers {
            builder = builder.header(&h.name, &h.value);
        }
        if let Some(body) = &request.body {
            builder = builder
                .header("content-type", "application/json")
                .body(body.to_string());
        }
        let response = builder.send().map_err(|e| transport_error(&e))?;
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
            return Err(Error::protocol(format!(
                "het antwoord is groter dan {} bytes",
                self.max_body
            ))
            .with_code("ANTWOORD_TE_GROOT")
            .with_hint(
                "verhoog OVERHEID_MAX_RESPONSE_BYTES als dit antwoord terecht zo groot is",
            ));
        }
        Ok(Response {
            status,
            url: final_url,
            headers,
            body,
        })
    }
}

fn same_origin_redirects() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let Some(first) = attempt.previous().first() else {
            return attempt.stop();
        };
        let same = first.scheme() == attempt.url().scheme()
            && first.host_str() == attempt.url().host_str()
            && first.port_or_known_default() == attempt.url().port_or_known_default();
        if !same || attempt.previous().len() > REDIRECT_LIMIT {
            attempt.stop()
        } else {
            attempt.follow()
        }
    })
}

fn deadline_passed() -> Error {
    Error::timeout("de tijdslimiet (--timeout) is verstreken voordat de bron antwoordde")
}

fn transport_error(err: &reqwest::Error) -> Error {
    if err.is_timeout() {
        return deadline_passed();
    }
    if err.is_builder() {
        // The request could not be formed, e.g. a key with a control character.
        return Error::config("het verzoek kon niet worden opgebouwd: een sleutel of instelling bevat een ongeldig teken")
            .with_hint("controleer de geheime variabelen op spaties, regeleinden of stuurtekens");
    }
    let mut chain = err.to_string();
    let mut source = std::error::Error::source(err);
    while let Some(s) = source {
        chain = format!("{chain}: {s}");
        source = s.source();
    }
    if chain.contains("timed out") {
        return deadline_passed();
    }
    let host = err
        .url()
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_else(|| "de bron".to_string());
    let what = if chain.contains("dns error") || chain.contains("failed to lookup") {
        "de naam kon niet worden opgezocht (DNS)"
    } else if chain.contains("Connection refused") {
        "de verbinding werd geweigerd"
    } else if chain.contains("certificate") || chain.contains("tls") || chain.contains("TLS") {
        "de TLS-verbinding kon niet worden opgezet (certificaat)"
    } else if err.is_connect() {
        "er kon geen verbinding worden gemaakt"
    } else {
        "de verbinding mislukte"
    };
    Error::unavailable(format!("{host} is niet bereikbaar: {what}"))
        .with_hint("controleer de netwerkverbinding en de basis-URL; probeer het later opnieuw")
}

fn read_error(err: &std::io::Error, deadline: Instant) -> Error {
    let text = err.to_string();
    let deadline_near = Instant::now() + Duration::from_millis(50) >= deadline;
    if deadline_near || err.kind() == std::io::ErrorKind::TimedOut || text.contains("timed out") {
        return deadline_passed();
    }
    Error::unavailable("het antwoord van de bron brak halverwege af")
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
            assert_eq!(err.exit_status().code(), 78, "{bad}");
            assert!(!err.problem().unwrap().detail.contains("S3CRET"), "{bad}");
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
            assert_eq!(err.exit_status().code(), 76, "{bad}");
        }
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
}

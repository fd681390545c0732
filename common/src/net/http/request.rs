//! The request a command makes (or, in a dry run, would make): method, URL, headers (secret
//! ones held and shown as `***` in plans), a JSON or other body, and whether retrying it is safe.

use reqwest::Url;
use serde_json::{Map, Value};

use super::policy::check_url;
use crate::problem::error::{Problem, Result};

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
    pub(super) payload: Option<(&'static str, Vec<u8>)>,
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
    /// request. Values given as secret are held ([`crate::process::secrets`]). Not retried.
    pub fn post_form(url: impl Into<String>, pairs: &[(&str, &str)], secrets: &[&str]) -> Self {
        for secret in secrets {
            crate::process::secrets::hold(secret);
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
    /// ([`crate::process::secrets`]): no output or record will show it.
    #[must_use]
    pub fn secret_header(mut self, name: &str, value: impl Into<String>) -> Self {
        let value = value.into();
        crate::process::secrets::hold(&value);
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

#[cfg(test)]
mod tests {
    use super::*;

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
}

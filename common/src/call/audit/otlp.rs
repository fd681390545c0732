//! The Logboek destination: records exported as OTLP/HTTP spans, confirmed
//! before anything leaves the tool (rules AUDIT-20, AUDIT-21).
//!
//! Configured with the standard OpenTelemetry variables, read only when
//! `OVERHEID_AUDIT_EXPORT` chooses `otlp`. The export is synchronous: the
//! request goes through the family's one HTTP client (TLS, `http://` only to
//! loopback, the OTLP retry rules: 429/502/503/504, `Retry-After`, back-off)
//! within the command's deadline, and only a 2xx whose body rejects no span
//! confirms it. The full OpenTelemetry SDK is not used: its exporters batch
//! in the background and report failures to a global handler, while a
//! record here must be confirmed before the output is printed or the commit
//! runs, and a refusal must become the exit code (74).

use std::time::{Duration, Instant};

use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceResponse;
use opentelemetry_proto::tonic::resource::v1::Resource;
use prost::Message;
use serde_json::Value;

use super::{RECORD_GRACE, span};
use crate::call::tool::ToolInfo;
use crate::net::http::{ClientConfig, HttpClient, Request, Response, check_proxy, check_url};
use crate::problem::error::{Error, Problem, Result};
use crate::process::env::{
    Env, OTEL_RESOURCE_ATTRIBUTES, OTEL_SERVICE_NAME, OTLP_ENDPOINT, OTLP_HEADERS, OTLP_PROTOCOL,
    OTLP_TIMEOUT, OTLP_TRACES_ENDPOINT,
};

/// The collector OpenTelemetry assumes when no endpoint is configured.
pub(crate) const DEFAULT_ENDPOINT: &str = "http://localhost:4318";
/// `OTEL_EXPORTER_OTLP_TIMEOUT`'s default, as in the OpenTelemetry specification.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// The largest collector answer read (it is a short status message).
const MAX_ANSWER_BYTES: u64 = 64 * 1024;
/// The longest collector message quoted in an error.
const MAX_MESSAGE_CHARS: usize = 200;

/// An unconfirmed record: exit 74, like an unwritable file (AUDIT-21).
fn audit_error(detail: String) -> Problem {
    super::audit_error(detail).with_hint(
        "zonder bevestigde auditregel geen verwerking; controleer de Logboek-collector \
         (OTEL_EXPORTER_OTLP_ENDPOINT) en probeer het opnieuw",
    )
}

/// How the spans are encoded (`OTEL_EXPORTER_OTLP_PROTOCOL`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Protocol {
    Protobuf,
    Json,
}

/// A configured OTLP/HTTP exporter.
#[derive(Debug)]
pub(crate) struct OtlpExporter {
    url: String,
    headers: Vec<(String, String)>,
    protocol: Protocol,
    timeout: Duration,
    resource: Resource,
    proxy: Option<String>,
    user_agent: String,
    deadline: Instant,
}

impl OtlpExporter {
    /// Read and check the configuration (exit 78 naming the variable, never
    /// echoing a header value). Every header value is held as a secret.
    pub(crate) fn from_env(env: &Env, tool: &ToolInfo, deadline: Instant) -> Result<Self, Problem> {
        let url = endpoint(env)?;
        let raw_headers = env.value(OTLP_HEADERS)?;
        if let Some(raw) = raw_headers {
            crate::process::secrets::hold(raw);
        }
        let headers = pairs(OTLP_HEADERS, raw_headers, true)?;
        let protocol = match env.value(OTLP_PROTOCOL)? {
            None | Some("http/protobuf") => Protocol::Protobuf,
            Some("http/json") => Protocol::Json,
            Some(other) => {
                return Err(Problem::config(format!(
                    "{OTLP_PROTOCOL} {other:?} wordt niet ondersteund"
                ))
                .with_hint("gebruik http/protobuf of http/json (grpc niet)"));
            }
        };
        let timeout = match env.value(OTLP_TIMEOUT)? {
            None => DEFAULT_TIMEOUT,
            Some(text) => match text.trim().parse::<u64>() {
                Ok(ms) if ms > 0 => Duration::from_millis(ms),
                _ => {
                    return Err(Problem::config(format!(
                        "{OTLP_TIMEOUT} is geen positief aantal milliseconden: {text:?}"
                    )));
                }
            },
        };
        let proxy = env.value("HTTPS_PROXY")?.map(str::to_string);
        check_proxy(proxy.as_deref())?;
        let exporter = Self {
            url,
            headers,
            protocol,
            timeout,
            resource: resource(env, tool)?,
            proxy,
            user_agent: format!("{}/{} (overheid-cli audit)", tool.name, tool.version),
            deadline,
        };
        // The headers must be sendable: refused now, before any work (exit 78).
        exporter.request(Vec::new()).check()?;
        Ok(exporter)
    }

    /// Export `records` as spans and wait for the collector's confirmation.
    ///
    /// Bounded by the command's deadline (at least [`RECORD_GRACE`], as the
    /// file lock is) and by `OTEL_EXPORTER_OTLP_TIMEOUT`: past the command's
    /// deadline it is exit 124, past the exporter's own timeout, a refusal,
    /// an unreachable collector or a rejected span it is exit 74.
    ///
    /// `client` is the command's client, reused (with the export's bounds)
    /// when it has what the collector needs; otherwise one is built.
    pub(crate) fn export(
        &self,
        records: &[Value],
        client: Option<&HttpClient>,
    ) -> Result<(), Problem> {
        let message = span::request(records, &self.resource);
        let bytes = match self.protocol {
            Protocol::Protobuf => message.encode_to_vec(),
            Protocol::Json => {
                serde_json::to_vec(&message).map_err(|e| Problem::software(e.to_string()))?
            }
        };
        let now = Instant::now();
        let command_bound = self.deadline.max(now + RECORD_GRACE);
        let own_bound = now + self.timeout;
        let bound = command_bound.min(own_bound);
        let client = match client {
            Some(client) => Ok(client.bounded(bound, MAX_ANSWER_BYTES)),
            None => {
                let config = ClientConfig {
                    deadline: bound,
                    max_body: MAX_ANSWER_BYTES,
                    proxy: self.proxy.as_deref(),
                };
                HttpClient::new(&config, self.needs_tls())
            }
        };
        let sent = client.and_then(|client| client.send(&self.request(bytes), &self.url));
        match sent {
            Ok(response) if (200..300).contains(&response.status) => {
                self.confirmed(&response, records.len())
            }
            Ok(response) => Err(audit_error(format!(
                "de Logboek-collector {} weigerde de auditregel (HTTP {})",
                self.url, response.status
            ))),
            Err(Error::Problem(p)) if p.exit == crate::problem::exit::ExitStatus::Timeout => {
                if command_bound <= own_bound {
                    Err(Problem::timeout(format!(
                        "de Logboek-collector {} bevestigde de auditregel niet binnen de tijdslimiet",
                        self.url
                    ))
                    .with_hint("niets uitgevoerd of getoond; probeer het opnieuw of verhoog --timeout"))
                } else {
                    Err(audit_error(format!(
                        "de Logboek-collector {} bevestigde de auditregel niet binnen \
                         {OTLP_TIMEOUT} ({} ms)",
                        self.url,
                        self.timeout.as_millis()
                    )))
                }
            }
            Err(Error::Problem(p)) => Err(audit_error(format!(
                "de auditregel kon niet naar de Logboek-collector: {}",
                p.detail
            ))),
            Err(Error::Halt(_)) => Err(Problem::software("onverwachte stop bij de OTLP-export")),
        }
    }

    /// Whether the collector is reached over TLS (so a client needs the root store).
    pub(crate) fn needs_tls(&self) -> bool {
        self.url.starts_with("https:")
    }

    /// The export request, with the configured headers (held as secrets).
    fn request(&self, bytes: Vec<u8>) -> Request {
        let content_type = match self.protocol {
            Protocol::Protobuf => "application/x-protobuf",
            Protocol::Json => "application/json",
        };
        let mut request = Request::otlp_export(&self.url, content_type, bytes)
            .header("User-Agent", self.user_agent.clone());
        for (name, value) in &self.headers {
            request = request.secret_header(name, value.clone());
        }
        request
    }

    /// A 2xx confirms the write unless its body rejects spans (OTLP partial success).
    fn confirmed(&self, response: &Response, sent: usize) -> Result<(), Problem> {
        if response.body.is_empty() {
            return Ok(());
        }
        let json = match response.header("content-type") {
            Some(kind) => kind.contains("json"),
            None => self.protocol == Protocol::Json,
        };
        let answer = if json {
            json_rejection(&response.body)
        } else {
            ExportTraceServiceResponse::decode(response.body.as_slice())
                .ok()
                .map(|answer| {
                    let partial = answer.partial_success.unwrap_or_default();
                    (partial.rejected_spans, partial.error_message)
                })
        };
        let (rejected, message) = answer.ok_or_else(|| {
            audit_error(format!(
                "het antwoord van de Logboek-collector {} is onleesbaar (HTTP {})",
                self.url, response.status
            ))
        })?;
        match rejected {
            0 => Ok(()),
            _ => {
                let said: String = message
                    .chars()
                    .filter(|c| !c.is_control())
                    .take(MAX_MESSAGE_CHARS)
                    .collect();
                Err(audit_error(format!(
                    "de Logboek-collector {} weigerde {rejected} van {sent} spans: {said}",
                    self.url
                )))
            }
        }
    }
}

/// The rejected-span count and message of an OTLP/JSON answer, whose int64 may be a
/// number or a decimal string (the OTLP JSON mapping allows both).
fn json_rejection(body: &[u8]) -> Option<(i64, String)> {
    let answer: Value = serde_json::from_slice(body).ok()?;
    let Some(partial) = answer.get("partialSuccess") else {
        return Some((0, String::new()));
    };
    let rejected = match partial.get("rejectedSpans") {
        None => 0,
        Some(Value::String(text)) => text.parse().ok()?,
        Some(number) => number.as_i64()?,
    };
    let message = partial["errorMessage"].as_str().unwrap_or("").to_string();
    Some((rejected, message))
}

/// The traces URL: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as given, else
/// `OTEL_EXPORTER_OTLP_ENDPOINT` (default `http://localhost:4318`) with
/// `v1/traces` appended to its path; https, or http to loopback (exit 78).
pub(crate) fn endpoint(env: &Env) -> Result<String, Problem> {
    let (var, url) = match env.value(OTLP_TRACES_ENDPOINT)? {
        Some(url) => (OTLP_TRACES_ENDPOINT, url.to_string()),
        None => {
            let base = env.value(OTLP_ENDPOINT)?.unwrap_or(DEFAULT_ENDPOINT);
            (
                OTLP_ENDPOINT,
                format!("{}/v1/traces", base.trim_end_matches('/')),
            )
        }
    };
    let parsed = check_url(&url).map_err(|p| {
        Problem::config(format!("{var}: {}", p.detail)).with_hint(
            "zet de OTLP-collector op https://… (http alleen naar 127.0.0.1, ::1 of localhost)",
        )
    })?;
    if parsed.query().is_some() || parsed.fragment().is_some() {
        return Err(Problem::config(format!(
            "{var} mag geen query of fragment hebben"
        )));
    }
    Ok(parsed.to_string())
}

/// `key=value,…` (W3C Baggage style, values percent-decoded), as the
/// OpenTelemetry specification defines for headers and resource attributes.
/// A malformed list is exit 78 naming `var`; a `secret` list's values are
/// held and never echoed.
fn pairs(var: &str, text: Option<&str>, secret: bool) -> Result<Vec<(String, String)>, Problem> {
    let Some(text) = text else {
        return Ok(Vec::new());
    };
    let refuse = |what: &str| {
        Problem::config(format!("{var} is geen lijst sleutel=waarde,…: {what}"))
            .with_hint(format!("zet {var} als sleutel1=waarde1,sleutel2=waarde2"))
    };
    let mut out = Vec::new();
    for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let Some((key, value)) = item.split_once('=') else {
            return Err(refuse("een element zonder ="));
        };
        let key = key.trim();
        let value = percent_encoding::percent_decode_str(value.trim())
            .decode_utf8()
            .map_err(|_| refuse("een waarde is geen geldige UTF-8"))?
            .into_owned();
        if secret {
            crate::process::secrets::hold(&value);
        }
        if key.is_empty() {
            return Err(refuse("een lege sleutel"));
        }
        if !secret && value.chars().any(char::is_control) {
            return Err(refuse("een waarde met een stuurteken"));
        }
        out.push((key.to_string(), value));
    }
    Ok(out)
}

/// The Resource: `OTEL_RESOURCE_ATTRIBUTES`, then `service.name` (from
/// `OTEL_SERVICE_NAME`, else the attributes, else the tool's name),
/// `service.version` (the tool's) and `host.name`.
fn resource(env: &Env, tool: &ToolInfo) -> Result<Resource, Problem> {
    let mut attributes = pairs(
        OTEL_RESOURCE_ATTRIBUTES,
        env.value(OTEL_RESOURCE_ATTRIBUTES)?,
        false,
    )?;
    let named = attributes
        .iter()
        .rev()
        .find(|(k, _)| k == "service.name")
        .map(|(_, v)| v.clone());
    let service = env
        .value(OTEL_SERVICE_NAME)?
        .map(str::to_string)
        .or(named)
        .unwrap_or_else(|| tool.name.to_string());
    attributes.push(("service.name".into(), service));
    attributes.push(("service.version".into(), tool.version.into()));
    if let Some(host) = host_name() {
        attributes.push(("host.name".into(), host));
    }
    Ok(span::resource(attributes))
}

/// The machine's host name, where the system tells it without a call into C.
fn host_name() -> Option<String> {
    ["/proc/sys/kernel/hostname", "/etc/hostname"]
        .iter()
        .find_map(|path| std::fs::read_to_string(path).ok())
        .map(|name| name.trim().to_string())
        .filter(|name| !name.is_empty() && name.len() <= 255)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&'static str, &str)]) -> Env {
        Env::from_pairs(pairs)
    }

    #[test]
    fn endpoint_follows_the_otel_rules() {
        assert_eq!(
            endpoint(&env(&[])).unwrap(),
            "http://localhost:4318/v1/traces"
        );
        assert_eq!(
            endpoint(&env(&[(OTLP_ENDPOINT, "https://logboek.example.nl/otlp/")])).unwrap(),
            "https://logboek.example.nl/otlp/v1/traces"
        );
        assert_eq!(
            endpoint(&env(&[
                (OTLP_ENDPOINT, "https://a.example.nl"),
                (OTLP_TRACES_ENDPOINT, "https://b.example.nl/spans")
            ]))
            .unwrap(),
            "https://b.example.nl/spans"
        );
        for bad in [
            "http://logboek.example.nl",
            "https://user:pw@logboek.example.nl",
            "ftp://x",
        ] {
            let err = endpoint(&env(&[(OTLP_ENDPOINT, bad)])).unwrap_err();
            assert_eq!(err.exit.code(), 78, "{bad}");
            assert!(err.detail.contains(OTLP_ENDPOINT), "{}", err.detail);
        }
    }

    #[test]
    fn header_lists_are_decoded_and_never_echoed() {
        let got = pairs(
            OTLP_HEADERS,
            Some("Authorization=Bearer%20kanarie-otlp-1, x-tenant = kanarie-otlp-3 "),
            true,
        )
        .unwrap();
        assert_eq!(
            got,
            vec![
                ("Authorization".into(), "Bearer kanarie-otlp-1".into()),
                ("x-tenant".into(), "kanarie-otlp-3".into())
            ]
        );
        assert_eq!(
            crate::process::secrets::scrub("x kanarie-otlp-1 y"),
            "x *** y"
        );
        let err = pairs(OTLP_HEADERS, Some("kanarie-otlp-2"), true).unwrap_err();
        assert_eq!(err.exit.code(), 78);
        assert!(!format!("{err:?}").contains("kanarie-otlp-2"));
    }
}

//! A fake Logboek: the spans an OTLP/HTTP export sent to a [`crate::FakeServer`], decoded
//! with the official OTLP protobuf definitions (the `opentelemetry-proto` crate).

use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
pub use opentelemetry_proto::tonic::common::v1::any_value::Value as AnyValue;
pub use opentelemetry_proto::tonic::trace::v1::Span;
pub use opentelemetry_proto::tonic::trace::v1::status::StatusCode;
use prost::Message;

use crate::server::FakeServer;

/// The path OTLP/HTTP sends spans to.
pub const TRACES_PATH: &str = "/v1/traces";

/// Every export request received (`POST /v1/traces`), decoded as its content type says
/// (`application/x-protobuf`, or `application/json` per the OTLP JSON mapping). Panics on a
/// body that does not decode: the exporter must send valid OTLP.
pub fn exports(server: &FakeServer) -> Vec<ExportTraceServiceRequest> {
    server
        .requests()
        .iter()
        .filter(|r| r.method == "POST" && r.path == TRACES_PATH)
        .map(|r| match r.header("content-type") {
            Some("application/json") => {
                serde_json::from_slice(&r.body).expect("an OTLP/JSON export request")
            }
            other => {
                assert_eq!(other, Some("application/x-protobuf"), "content type");
                ExportTraceServiceRequest::decode(r.body.as_slice())
                    .expect("an OTLP protobuf export request")
            }
        })
        .collect()
}

/// The spans of every export received, in order.
pub fn spans(server: &FakeServer) -> Vec<Span> {
    exports(server)
        .into_iter()
        .flat_map(|e| e.resource_spans)
        .flat_map(|r| r.scope_spans)
        .flat_map(|s| s.spans)
        .collect()
}

/// The value of attribute `key` of `span`.
pub fn attribute(span: &Span, key: &str) -> Option<AnyValue> {
    span.attributes
        .iter()
        .find(|kv| kv.key == key)
        .and_then(|kv| kv.value.clone()?.value)
}

/// The string value of attribute `key` of `span`.
pub fn text(span: &Span, key: &str) -> Option<String> {
    match attribute(span, key)? {
        AnyValue::StringValue(s) => Some(s),
        _ => None,
    }
}

/// The string value of resource attribute `key` of the first export.
pub fn resource_text(server: &FakeServer, key: &str) -> Option<String> {
    let export = exports(server).into_iter().next()?;
    let resource = export.resource_spans.into_iter().next()?.resource?;
    resource
        .attributes
        .into_iter()
        .find(|kv| kv.key == key)
        .and_then(|kv| match kv.value?.value? {
            AnyValue::StringValue(s) => Some(s),
            _ => None,
        })
}

/// Bytes as lower-case hex (span and trace ids as the audit record writes them).
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

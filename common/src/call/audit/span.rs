//! An audit record as an OTLP span (rule AUDIT-21): the mapping of spec §11.1.
//!
//! The records are the one model; a span is built from a record, never the
//! other way round, so the file and the Logboek cannot disagree. The types are
//! the `opentelemetry-proto` crate's generated prost messages.

use chrono::DateTime;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use opentelemetry_proto::tonic::common::v1::{
    AnyValue, ArrayValue, InstrumentationScope, KeyValue, KeyValueList,
};
use opentelemetry_proto::tonic::resource::v1::Resource;
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use opentelemetry_proto::tonic::trace::v1::status::StatusCode;
use opentelemetry_proto::tonic::trace::v1::{ResourceSpans, ScopeSpans, Span, Status};
use serde_json::Value;

/// The instrumentation scope every span is reported under.
pub(crate) const SCOPE_NAME: &str = "overheid-cli";

/// One export request holding `records` (the call's record, then its
/// per-subject children) under `resource`.
pub(crate) fn request(records: &[Value], resource: &Resource) -> ExportTraceServiceRequest {
    ExportTraceServiceRequest {
        resource_spans: vec![ResourceSpans {
            resource: Some(resource.clone()),
            scope_spans: vec![ScopeSpans {
                scope: Some(InstrumentationScope {
                    name: SCOPE_NAME.into(),
                    version: crate::PROFILE_VERSION.into(),
                    ..Default::default()
                }),
                spans: records.iter().map(span).collect(),
                schema_url: String::new(),
            }],
            schema_url: String::new(),
        }],
    }
}

/// The span of one record: ids, parent, name, times, status, and every
/// attribute of the record plus `process.exit.code`.
pub(crate) fn span(record: &Value) -> Span {
    let text = |key: &str| record.get(key).and_then(Value::as_str).unwrap_or("");
    let mut attributes: Vec<KeyValue> = record
        .get("attributes")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(k, v)| key_value(k, any(v)))
        .collect();
    if let Some(code) = record.get("exit_code").and_then(Value::as_i64) {
        attributes.push(key_value("process.exit.code", Any::IntValue(code)));
    }
    let (code, message) = match text("status") {
        "OK" => (StatusCode::Ok, String::new()),
        "ERROR" => (
            StatusCode::Error,
            record["attributes"]["error.code"]
                .as_str()
                .unwrap_or("")
                .to_string(),
        ),
        _ => (StatusCode::Unset, String::new()),
    };
    Span {
        trace_id: hex_bytes(text("trace_id")),
        span_id: hex_bytes(text("span_id")),
        parent_span_id: hex_bytes(text("parent_span_id")),
        name: text("name").to_string(),
        kind: SpanKind::Internal as i32,
        start_time_unix_nano: unix_nanos(text("start_time")),
        end_time_unix_nano: unix_nanos(text("end_time")),
        attributes,
        status: Some(Status {
            message,
            code: code as i32,
        }),
        ..Default::default()
    }
}

/// A resource of `pairs` (key, value) in order; a later key replaces an earlier one.
pub(crate) fn resource(pairs: Vec<(String, String)>) -> Resource {
    let mut attributes: Vec<KeyValue> = Vec::new();
    for (key, value) in pairs {
        attributes.retain(|kv| kv.key != key);
        attributes.push(key_value(&key, Any::StringValue(value)));
    }
    Resource {
        attributes,
        ..Default::default()
    }
}

fn key_value(key: &str, value: Any) -> KeyValue {
    KeyValue {
        key: key.to_string(),
        value: Some(AnyValue { value: Some(value) }),
        ..Default::default()
    }
}

/// A JSON value as an OTLP attribute value, type for type.
fn any(value: &Value) -> Any {
    match value {
        Value::Bool(b) => Any::BoolValue(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Any::IntValue(i),
            None => Any::DoubleValue(n.as_f64().unwrap_or(0.0)),
        },
        Value::String(s) => Any::StringValue(s.clone()),
        Value::Array(items) => Any::ArrayValue(ArrayValue {
            values: items
                .iter()
                .map(|v| AnyValue {
                    value: Some(any(v)),
                })
                .collect(),
        }),
        Value::Object(map) => Any::KvlistValue(KeyValueList {
            values: map.iter().map(|(k, v)| key_value(k, any(v))).collect(),
        }),
        Value::Null => Any::StringValue(String::new()),
    }
}

/// Lower-case hex (the record's ids) as bytes; empty when absent.
fn hex_bytes(hex: &str) -> Vec<u8> {
    (0..hex.len() / 2)
        .filter_map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok())
        .collect()
}

/// An RFC 3339 time as nanoseconds since the epoch (0 when unparseable).
fn unix_nanos(time: &str) -> u64 {
    DateTime::parse_from_rfc3339(time)
        .ok()
        .and_then(|t| t.timestamp_nanos_opt())
        .map_or(0, |n| n.max(0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_maps_field_for_field() {
        let record = serde_json::json!({
            "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736",
            "span_id": "00f067aa0ba902b7",
            "parent_span_id": "b7ad6b7169203331",
            "name": "kvk-cli basisprofiel toon",
            "start_time": "2026-03-01T09:15:02.102Z",
            "end_time": "2026-03-01T09:15:02.431Z",
            "status": "ERROR",
            "exit_code": 69,
            "tool": "kvk-cli",
            "tool_version": "0.1.0",
            "attributes": {"dpl.core.processing_activity_id": "", "error.code": "BRON_ONBEREIKBAAR",
                           "http.response.status_code": 503, "overheid.dry_run": false,
                           "overheid.cache": "miss"}
        });
        let span = span(&record);
        assert_eq!(span.trace_id.len(), 16);
        assert_eq!(span.trace_id[0], 0x4b);
        assert_eq!(
            span.span_id,
            vec![0x00, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7]
        );
        assert_eq!(span.parent_span_id.len(), 8);
        assert_eq!(span.start_time_unix_nano, 1_772_356_502_102_000_000);
        assert_eq!(
            span.end_time_unix_nano - span.start_time_unix_nano,
            329_000_000
        );
        let status = span.status.unwrap();
        assert_eq!(status.code, StatusCode::Error as i32);
        assert_eq!(status.message, "BRON_ONBEREIKBAAR");
        let value = |key: &str| {
            span.attributes
                .iter()
                .find(|kv| kv.key == key)
                .and_then(|kv| kv.value.clone()?.value)
        };
        assert_eq!(value("process.exit.code"), Some(Any::IntValue(69)));
        assert_eq!(value("http.response.status_code"), Some(Any::IntValue(503)));
        assert_eq!(value("overheid.dry_run"), Some(Any::BoolValue(false)));
        assert_eq!(
            value("overheid.cache"),
            Some(Any::StringValue("miss".into())),
            "CACHE-4"
        );
        assert_eq!(
            value("dpl.core.processing_activity_id"),
            Some(Any::StringValue(String::new()))
        );
        let mut unset = record.clone();
        unset["status"] = "UNSET".into();
        unset.as_object_mut().unwrap().remove("parent_span_id");
        let span = super::span(&unset);
        assert!(span.parent_span_id.is_empty());
        assert_eq!(span.status.unwrap().code, StatusCode::Unset as i32);
    }
}

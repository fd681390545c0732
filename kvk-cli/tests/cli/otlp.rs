//! The Logboek destination (AUDIT-20, AUDIT-21): kvk-cli exporting its records as OTLP/HTTP
//! spans to a fake collector on 127.0.0.1 that decodes them with opentelemetry-proto.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use test_support::otlp::{self, AnyValue, StatusCode};
use test_support::{FakeServer, Reply};

use crate::support::{KEY, KvkFake, Sandbox, dry_runs_at_once, run};

const CANARY: &str = "kanarie-otlp-7c41d2";
const TRACE_ID: &str = "0af7651916cd43dd8448eb211c80319c";
const PARENT_SPAN: &str = "b7ad6b7169203331";

/// A collector answering each export with the next of `replies` (the last one repeats).
fn collector(replies: Vec<Reply>) -> FakeServer {
    let next = AtomicUsize::new(0);
    FakeServer::start(move |_| {
        let i = next.fetch_add(1, Ordering::SeqCst).min(replies.len() - 1);
        replies[i].clone()
    })
}

/// kvk-cli exporting to `collector` (`OVERHEID_AUDIT_EXPORT=export`), with the canary as token.
fn cmd(sandbox: &Sandbox, fake: &KvkFake, collector: &str, export: &str) -> assert_cmd::Command {
    let mut cmd = sandbox.cmd(&fake.base());
    cmd.env("OVERHEID_AUDIT_EXPORT", export)
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", collector)
        .env(
            "OTEL_EXPORTER_OTLP_HEADERS",
            format!("Authorization=Bearer%20{CANARY},x-tenant=gemeente"),
        );
    cmd
}

/// AUDIT-20, AUDIT-21, SEC-2: the span carries the record field for field (ids, parent,
/// name, times, status, dpl.core.*, the exit code) under a Resource naming the tool; the
/// collector gets the configured headers, and the canary token appears nowhere else.
#[test]
fn audit_21_a_success_is_one_span_like_the_record() {
    let fake = KvkFake::start();
    let logboek = collector(vec![Reply::new(200)]);
    let sandbox = Sandbox::new();
    let mut cmd = cmd(&sandbox, &fake, &logboek.base_url(), "file,otlp");
    cmd.env("TRACEPARENT", format!("00-{TRACE_ID}-{PARENT_SPAN}-01"))
        .env(
            "OVERHEID_PROCESSING_ACTIVITY_ID",
            "https://register.example.nl/verwerkingen/42",
        )
        .env("OVERHEID_FOREIGN_PROCESSOR", "https://bridge.example.nl")
        .env("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=test");
    let result = run(cmd, ["basisprofiel", "toon", "68750110"]);
    assert_eq!(result.code, 0, "{result:#?}");
    let record = sandbox.single_audit_record();
    let spans = otlp::spans(&logboek);
    assert_eq!(spans.len(), 1);
    let span = &spans[0];
    assert_eq!(otlp::hex(&span.trace_id), TRACE_ID);
    assert_eq!(
        otlp::hex(&span.span_id),
        record["span_id"].as_str().unwrap()
    );
    assert_eq!(otlp::hex(&span.parent_span_id), PARENT_SPAN);
    assert_eq!(span.name, "kvk-cli basisprofiel toon");
    assert!(span.start_time_unix_nano > 0);
    assert!(span.start_time_unix_nano <= span.end_time_unix_nano);
    assert_eq!(span.status.clone().unwrap().code, StatusCode::Ok as i32);
    for (key, value) in [
        (
            "dpl.core.processing_activity_id",
            "https://register.example.nl/verwerkingen/42",
        ),
        ("dpl.core.data_subject_id", "68750110"),
        ("dpl.core.data_subject_id_type", "KVK_NUMMER"),
        (
            "dpl.core.foreign_operation.processor",
            "https://bridge.example.nl",
        ),
    ] {
        assert_eq!(otlp::text(span, key).as_deref(), Some(value), "{key}");
        assert_eq!(record["attributes"][key], value, "{key} in the file record");
    }
    assert_eq!(
        otlp::attribute(span, "process.exit.code"),
        Some(AnyValue::IntValue(0))
    );
    assert_eq!(
        otlp::attribute(span, "http.response.status_code"),
        Some(AnyValue::IntValue(200))
    );
    assert_eq!(
        otlp::resource_text(&logboek, "service.name").as_deref(),
        Some("kvk-cli")
    );
    assert_eq!(
        otlp::resource_text(&logboek, "service.version").as_deref(),
        Some(env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(
        otlp::resource_text(&logboek, "deployment.environment").as_deref(),
        Some("test")
    );
    let sent = logboek.last_request().unwrap();
    assert_eq!(
        sent.header("authorization"),
        Some(format!("Bearer {CANARY}").as_str())
    );
    assert_eq!(sent.header("x-tenant"), Some("gemeente"));
    assert!(sent.header("user-agent").unwrap().starts_with("kvk-cli/"));
    for (place, text) in [
        ("stdout", result.stdout.clone()),
        ("stderr", result.stderr.clone()),
        ("audit file", sandbox.audit_text()),
        ("span", String::from_utf8_lossy(&sent.body).into_owned()),
    ] {
        assert!(!text.contains(CANARY), "SEC-2: the canary in {place}");
        assert!(!text.contains(KEY), "SEC-2: the KvK key in {place}");
    }
    assert!(
        !String::from_utf8_lossy(&sent.body).contains("Test BV Donald"),
        "AUDIT-7: no response data in the span"
    );
    // Discovery never shows the token either.
    let mut discovery = cmd_only(&sandbox);
    discovery.env(
        "OTEL_EXPORTER_OTLP_HEADERS",
        format!("Authorization={CANARY}"),
    );
    let shown = run(discovery, ["--help", "--json"]);
    assert!(shown.stdout.contains("OTEL_EXPORTER_OTLP_HEADERS"));
    assert!(!shown.stdout.contains(CANARY));
}

fn cmd_only(sandbox: &Sandbox) -> assert_cmd::Command {
    sandbox.cmd("http://127.0.0.1:9/api")
}

/// AUDIT-21: a 503 is retried (after the back-off) and a later 200 confirms; a 400 is not
/// retried and nothing is printed: exit 74.
#[test]
fn audit_21_retryable_answers_are_retried_others_are_74() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let logboek = collector(vec![Reply::new(503), Reply::new(200)]);
    let result = run(
        cmd(&sandbox, &fake, &logboek.base_url(), "otlp"),
        ["basisprofiel", "toon", "68750110"],
    );
    assert_eq!(result.code, 0, "{result:#?}");
    assert_eq!(logboek.request_count(), 2, "one retry");
    assert_eq!(otlp::spans(&logboek).len(), 2, "the same span, sent twice");
    assert!(!sandbox.audit_log().exists(), "otlp alone writes no file");

    let logboek = collector(vec![Reply::new(400)]);
    let result = run(
        cmd(&sandbox, &fake, &logboek.base_url(), "otlp"),
        ["basisprofiel", "toon", "68750110"],
    );
    let error = result.error(74);
    assert_eq!(error["code"], "AUDIT_FOUT");
    assert!(result.stdout.is_empty(), "nothing printed: {result:#?}");
    assert_eq!(logboek.request_count(), 1, "a 400 is not retried");

    // A 2xx that rejects the span (OTLP partial success) is no confirmation either.
    let rejected = opentelemetry_rejection();
    let logboek = collector(vec![
        Reply::new(200)
            .header("content-type", "application/json")
            .body(rejected),
    ]);
    let result = run(
        cmd(&sandbox, &fake, &logboek.base_url(), "otlp"),
        ["basisprofiel", "toon", "68750110"],
    );
    let error = result.error(74);
    assert!(
        error["detail"]
            .as_str()
            .unwrap()
            .contains("weigerde 1 van 1"),
        "{error}"
    );
    assert!(result.stdout.is_empty());
}

fn opentelemetry_rejection() -> Vec<u8> {
    br#"{"partialSuccess":{"rejectedSpans":"1","errorMessage":"geen ruimte"}}"#.to_vec()
}

/// AUDIT-21: a stalled collector is bounded: by the command's deadline (124) or by
/// OTEL_EXPORTER_OTLP_TIMEOUT (74); an unreachable one is 74. Nothing printed, nothing in the
/// file when the Logboek did not confirm.
#[test]
fn audit_21_stalled_or_unreachable_collector() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let logboek = collector(vec![Reply::new(200).delay(Duration::from_secs(20))]);
    let started = Instant::now();
    let mut stalled = cmd(&sandbox, &fake, &logboek.base_url(), "file,otlp");
    stalled.args(["--timeout", "1"]);
    let result = run(stalled, ["basisprofiel", "toon", "68750110"]);
    let error = result.error(124);
    assert_eq!(error["code"], "TIJDLIMIET_VERSTREKEN");
    assert!(result.stdout.is_empty());
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "bounded: {:?}",
        started.elapsed()
    );
    assert!(
        sandbox.audit_records().is_empty(),
        "unconfirmed: no file record"
    );

    let mut own_timeout = cmd(&sandbox, &fake, &logboek.base_url(), "otlp");
    own_timeout.env("OTEL_EXPORTER_OTLP_TIMEOUT", "300");
    let started = Instant::now();
    let result = run(own_timeout, ["basisprofiel", "toon", "68750110"]);
    assert_eq!(result.error(74)["code"], "AUDIT_FOUT");
    assert!(started.elapsed() < Duration::from_secs(8));

    // The server is dropped at once: its port then refuses connections.
    let closed = FakeServer::start(|_| Reply::new(200)).base_url();
    let result = run(
        cmd(&sandbox, &fake, &closed, "file,otlp"),
        ["basisprofiel", "toon", "68750110"],
    );
    let error = result.error(74);
    assert_eq!(error["code"], "AUDIT_FOUT");
    assert!(result.stdout.is_empty(), "nothing printed: {result:#?}");
    assert!(sandbox.audit_records().is_empty());
    assert!(!result.stderr.contains(CANARY));
}

/// AUDIT-20, CONF-7, NET-8: a misconfigured Logboek is exit 78 before any upstream request;
/// without `otlp` in OVERHEID_AUDIT_EXPORT the OTEL variables are not even read.
#[test]
fn audit_20_configuration_is_checked_before_any_work() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    for (var, value) in [
        ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://logboek.example.nl"),
        ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
        ("OTEL_EXPORTER_OTLP_TIMEOUT", "snel"),
        ("OTEL_EXPORTER_OTLP_HEADERS", CANARY),
        ("OVERHEID_AUDIT_EXPORT", "syslog"),
    ] {
        let mut cmd = cmd(&sandbox, &fake, "http://127.0.0.1:9", "otlp");
        cmd.env(var, value);
        let result = run(cmd, ["basisprofiel", "toon", "68750110"]);
        assert_eq!(result.error(78)["code"], "CONFIG_FOUT", "{var}");
        assert!(!result.stderr.contains(CANARY), "{var}: {}", result.stderr);
    }
    assert_eq!(fake.request_count(), 0, "nothing sent upstream");
    let mut cmd = cmd(&sandbox, &fake, "http://logboek.example.nl", "file");
    cmd.env("OTEL_EXPORTER_OTLP_HEADERS", CANARY);
    run(cmd, ["basisprofiel", "toon", "68750110"]).json();
}

/// AUDIT-14, AUDIT-21: several data subjects are one span for the call and a child span per
/// subject (same trace, parent = the call's span), sent in one export; http/json works alike.
#[test]
fn audit_21_several_subjects_are_child_spans() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let logboek = collector(vec![Reply::new(200)]);
    let mut cmd = cmd(&sandbox, &fake, &logboek.base_url(), "file,otlp");
    cmd.env("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json");
    run(cmd, ["zoek", "--naam", "Test"]).json();
    assert_eq!(logboek.request_count(), 1, "one export");
    let spans = otlp::spans(&logboek);
    let records = sandbox.audit_records();
    assert!(spans.len() > 2);
    assert_eq!(spans.len(), records.len());
    let call = &spans[0];
    assert!(otlp::text(call, "dpl.core.data_subject_id").is_none());
    for (span, record) in spans.iter().zip(&records).skip(1) {
        assert_eq!(span.trace_id, call.trace_id);
        assert_eq!(span.parent_span_id, call.span_id);
        assert_eq!(
            otlp::hex(&span.span_id),
            record["span_id"].as_str().unwrap()
        );
        assert_eq!(
            otlp::text(span, "dpl.core.data_subject_id").as_deref(),
            record["attributes"]["dpl.core.data_subject_id"].as_str()
        );
    }
}

/// AUDIT-21: 100 concurrent invocations → 100 confirmed spans, none lost.
#[test]
fn audit_21_a_hundred_concurrent_calls_lose_no_span() {
    const PROCESSES: usize = 100;
    let logboek = collector(vec![Reply::new(200)]);
    let sandbox = Sandbox::new();
    let numbers: Vec<String> = (0..PROCESSES)
        .map(|i| format!("{:08}", 20_000_000 + i))
        .collect();
    let env = [
        ("OVERHEID_AUDIT_EXPORT", "otlp".to_string()),
        ("OTEL_EXPORTER_OTLP_ENDPOINT", logboek.base_url()),
    ];
    dry_runs_at_once(&sandbox, &numbers, &env);
    let subjects: BTreeSet<String> = otlp::spans(&logboek)
        .iter()
        .map(|s| otlp::text(s, "dpl.core.data_subject_id").expect("subject"))
        .collect();
    assert_eq!(subjects, numbers.into_iter().collect::<BTreeSet<_>>());
    assert_eq!(logboek.request_count(), PROCESSES);
}

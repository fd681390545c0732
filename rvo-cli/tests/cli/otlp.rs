//! A filing with the Logboek as audit destination (AUDIT-20, AUDIT-21, MUT-13): the span is
//! confirmed before the commit; a refused or unreachable collector files nothing (exit 74).

use std::path::Path;
use std::sync::{Arc, Mutex};

use test_support::otlp::{self, StatusCode};
use test_support::{FakeServer, Reply};

use crate::support::{Sandbox, digest_of_default_report, indienen};

/// How many committed reports the store at `data_dir` holds right now (a filing whose
/// transaction is still open is not one).
fn filed(data_dir: &Path) -> usize {
    rvo_cli::verify::verify_store(&overheid_records::Location::Sqlite(data_dir.to_path_buf()))
        .map(|report| report.records)
        .unwrap_or(0)
}

fn filing(sandbox: &Sandbox, collector: &str) -> crate::support::Run {
    let mut cmd = sandbox.cmd();
    cmd.env("OVERHEID_AUDIT_EXPORT", "file,otlp")
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", collector);
    crate::support::run(cmd, indienen("warmtepomp,led-verlichting", &["--confirm"]))
}

/// AUDIT-21: the collector receives the filing's span while the store is still empty (the
/// record is confirmed before the commit), and only then is the report filed.
#[test]
fn audit_21_the_span_is_confirmed_before_the_commit() {
    let sandbox = Sandbox::new();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let logboek = {
        let seen = Arc::clone(&seen);
        let data_dir = sandbox.data_dir();
        FakeServer::start(move |_| {
            seen.lock().unwrap().push(filed(&data_dir));
            Reply::new(200)
        })
    };
    let result = filing(&sandbox, &logboek.base_url());
    assert_eq!(result.code, 0, "{result:#?}");
    assert_eq!(
        *seen.lock().unwrap(),
        vec![0],
        "nothing filed before the span was confirmed"
    );
    sandbox.assert_store(1);
    let spans = otlp::spans(&logboek);
    assert_eq!(spans.len(), 1);
    let span = &spans[0];
    assert_eq!(span.name, "rvo-cli rapportage indienen");
    assert_eq!(span.status.clone().unwrap().code, StatusCode::Ok as i32);
    assert_eq!(
        otlp::text(span, "overheid.plan_digest"),
        Some(digest_of_default_report())
    );
    assert_eq!(
        otlp::text(span, "dpl.core.data_subject_id").as_deref(),
        Some("68750110")
    );
    sandbox.assert_every_report_audited();
}

/// AUDIT-21, AUDIT-6: a collector that refuses (400) or cannot be reached: exit 74, nothing
/// printed, nothing filed, no file record; the next filing with a working Logboek succeeds.
#[test]
fn audit_21_a_refused_or_unreachable_collector_files_nothing() {
    let sandbox = Sandbox::new();
    let refusing = FakeServer::start(|_| Reply::new(400));
    let closed = FakeServer::start(|_| Reply::new(200)).base_url();
    for collector in [refusing.base_url(), closed] {
        let result = filing(&sandbox, &collector);
        assert_eq!(result.error(74)["code"], "AUDIT_FOUT", "{collector}");
        assert!(result.stdout.is_empty(), "{result:#?}");
        sandbox.assert_store(0);
        assert!(sandbox.audit_records().is_empty());
    }
    assert_eq!(refusing.request_count(), 1, "a 400 is not retried");
    let accepting = FakeServer::start(|_| Reply::new(200));
    assert_eq!(filing(&sandbox, &accepting.base_url()).code, 0);
    sandbox.assert_store(1);
}

//! Exactly once under pressure: twenty processes filing the same report at once produce one
//! report and twenty audit records. The store's lock is held from the replay check until the
//! report is committed, which is after the winner's audit record is appended; the others wait
//! and then replay.

use std::collections::HashSet;
use std::process::{Child, Stdio};

use serde_json::Value;

use crate::support::{Sandbox, indienen};

#[test]
fn twenty_processes_filing_the_same_report_produce_one() {
    let sandbox = Sandbox::new();
    let args = indienen("warmtepomp,led-verlichting", &["--confirm"]);
    let children: Vec<Child> = (0..20)
        .map(|_| {
            sandbox
                .process(&args)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn rvo-cli")
        })
        .collect();
    let results: Vec<Value> = children
        .into_iter()
        .map(|child| {
            let output = child.wait_with_output().expect("rvo-cli ends");
            assert!(output.status.success(), "{output:?}");
            serde_json::from_slice(&output.stdout).expect("JSON result")
        })
        .collect();
    let references: HashSet<&str> = results
        .iter()
        .map(|r| r["referentienummer"].as_str().unwrap())
        .collect();
    assert_eq!(references.len(), 1, "{references:?}");
    let first_filings = results.iter().filter(|r| r["replayed"] == false).count();
    assert_eq!(first_filings, 1);
    sandbox.assert_store(1);
    assert!(sandbox.store().temp_files.is_empty());
    let audit = sandbox.audit_records();
    assert_eq!(audit.len(), 20);
    assert!(audit.iter().all(|r| r["status"] == "OK"), "{audit:#?}");
    let filed = audit
        .iter()
        .filter(|r| r["attributes"]["overheid.replayed"] == false)
        .count();
    assert_eq!(filed, 1, "one audit record of a first filing: {audit:#?}");
    sandbox.assert_every_report_audited();
}

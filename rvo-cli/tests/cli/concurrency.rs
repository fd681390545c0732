//! Exactly once under pressure: twenty processes filing the same report at once produce one
//! report and twenty audit records. The store's unique key on the idempotency key decides: the
//! winner's transaction is open from its insert until after its audit record is appended; the
//! others wait for it and then replay.

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

/// NET-2: waiting for the store is bounded by `--timeout`. A filer that cannot write (here: the
/// test holds the SQLite store's write lock) gives up at the deadline with exit 124 and files
/// nothing, and readers, which take no lock, are not held up.
#[test]
fn a_held_store_ends_a_filing_at_its_deadline_and_readers_go_on() {
    let sandbox = Sandbox::new();
    // The store exists once a report was filed.
    sandbox.run(indienen("Isolatie", &["--confirm"])).json();
    let holder = sandbox.sqlite();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();

    let started = std::time::Instant::now();
    let run = sandbox.run(indienen("LED", &["--confirm", "--timeout", "1"]));
    let error = run.error(124);
    assert_eq!(error["code"], "TIJDLIMIET_VERSTREKEN", "{error:#}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "the filer waited {:?}",
        started.elapsed()
    );
    let listed = sandbox
        .run(["rapportage", "lijst", "68750110", "--timeout", "1"])
        .json();
    assert_eq!(listed["aantal"], 1);
    holder.execute_batch("ROLLBACK").unwrap();
    sandbox.assert_store(1);
    let audit = sandbox.audit_records();
    assert_eq!(audit[1]["name"], "rvo-cli rapportage indienen");
    assert_eq!(audit[1]["exit_code"], 124, "{audit:#?}");
}

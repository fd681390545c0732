//! Tests of the local store, one file per topic, and the helpers they share:
//!
//! - `filing`: exactly-once filing, replay, conflict, keys, reading back.
//! - `on_disk`: what is on disk: leftover temporary files, corrupt or tampered records, the
//!   default directory.
//! - `two_phase`: a prepared filing holds the lock and stays invisible until committed.
//! - `concurrency`: many threads and processes filing at once, and writers killed at every phase.

mod concurrency;
mod filing;
mod on_disk;
mod two_phase;

use std::path::Path;

use chrono::{DateTime, Utc};
use serde_json::json;

use super::*;
use crate::catalogue::Catalogue;
use crate::filing::{FilingInput, validate};
use crate::verify::verify_store;

fn now() -> DateTime<Utc> {
    "2026-11-30T10:00:00.123456Z".parse().unwrap()
}

fn input(kvk: &str, measures: &[&str]) -> FilingInput {
    FilingInput {
        kvk_nummer: kvk.to_string(),
        regeling_id: "EBR-2027".to_string(),
        maatregelen: measures.iter().map(|m| m.to_string()).collect(),
        toelichting: None,
        inhoud: None,
    }
}

fn valid(input: &FilingInput) -> ValidFiling<'static> {
    validate(Catalogue::embedded(), input, "2026-11-30".parse().unwrap()).unwrap()
}

/// The plan digest the CLI would use: SHA-256 of canonical `{command, arguments}`.
fn key_for(input: &FilingInput) -> String {
    let filing = valid(input);
    canonical_sha256(
        &json!({"command": "rvo-cli rapportage indienen", "arguments": filing.aanvraag}),
    )
    .unwrap()
}

fn assert_consistent(dir: &Path, records: usize) -> crate::verify::StoreReport {
    let report = verify_store(dir).unwrap();
    assert!(report.is_consistent(), "{report:?}");
    assert_eq!(report.records, records, "{report:?}");
    report
}

//! Consistency check of a local store, for tests (including the CLI's crash tests) and diagnostics.
//!
//! A store is consistent when every record file is complete and parseable, is filed under its own
//! key, matches its request, and has a well-formed reference number that no other record has.
//! Leftover temporary files of a crashed writer are reported but are not an inconsistency:
//! readers never look at them and the next writer removes them.

use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::canonical::canonical_sha256;
use crate::reference::is_well_formed;
use crate::store::{RECORDS_DIR, StoredRecord, TEMP_PREFIX, record_key};

/// What [`verify_store`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct StoreReport {
    /// Number of complete, consistent records.
    pub records: usize,
    /// Leftover temporary files (crash debris; harmless).
    pub temp_files: Vec<PathBuf>,
    /// Every inconsistency found; empty for a consistent store.
    pub problems: Vec<String>,
}

impl StoreReport {
    /// Whether no inconsistency was found.
    pub fn is_consistent(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Checks the store rooted at `dir`. A missing store is consistent and empty.
pub fn verify_store(dir: &Path) -> std::io::Result<StoreReport> {
    let records_dir = dir.join(RECORDS_DIR);
    let mut report = StoreReport::default();
    let entries = match fs::read_dir(&records_dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(report),
        Err(error) => return Err(error),
    };
    let mut references = std::collections::HashMap::new();
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name();
        let path = entry.path();
        if name.to_string_lossy().starts_with(TEMP_PREFIX) {
            report.temp_files.push(path);
            continue;
        }
        let Some(key) = record_key(&name) else {
            report
                .problems
                .push(format!("onbekend bestand {}", path.display()));
            continue;
        };
        let record: StoredRecord = match serde_json::from_slice(&fs::read(&path)?) {
            Ok(record) => record,
            Err(error) => {
                report
                    .problems
                    .push(format!("{}: onleesbaar record: {error}", path.display()));
                continue;
            }
        };
        let before = report.problems.len();
        check_record(&key, &record, &mut report.problems);
        let reference = record.resultaat.referentienummer.clone();
        if let Some(other) = references.insert(reference.clone(), key.clone()) {
            report.problems.push(format!(
                "referentienummer {reference} staat bij {other} én {key}"
            ));
        }
        if report.problems.len() == before {
            report.records += 1;
        }
    }
    report.temp_files.sort();
    Ok(report)
}

fn check_record(key: &str, record: &StoredRecord, problems: &mut Vec<String>) {
    let mut problem = |text: String| problems.push(format!("record {key}: {text}"));
    if record.idempotency_key != key {
        problem(format!(
            "staat onder de verkeerde sleutel ({})",
            record.idempotency_key
        ));
    }
    match canonical_sha256(&record.aanvraag) {
        Ok(sha) if sha == record.request_sha256 => {}
        _ => problem("request_sha256 past niet bij de aanvraag".to_string()),
    }
    let result = &record.resultaat;
    let request = &record.aanvraag;
    if (
        &result.kvk_nummer,
        &result.regeling_id,
        &result.maatregelen,
        &result.toelichting,
    ) != (
        &request.kvk_nummer,
        &request.regeling_id,
        &request.maatregelen,
        &request.toelichting,
    ) {
        problem("resultaat past niet bij de aanvraag".to_string());
    }
    if !is_well_formed(&result.referentienummer) {
        problem(format!(
            "ongeldig referentienummer {}",
            result.referentienummer
        ));
    }
    if result.lopende_zaak.referentienummer != result.referentienummer {
        problem("lopende zaak heeft een ander referentienummer".to_string());
    }
    if result.replayed {
        problem("opgeslagen resultaat staat op replayed".to_string());
    }
}

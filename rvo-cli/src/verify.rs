//! Consistency check of a local store, for tests (including the CLI's crash tests) and diagnostics.
//!
//! A store is consistent when every record file is complete and parseable, passes the checks the
//! store makes when it reads a record (`StoredRecord::problems`), and has a reference number that
//! no other record has.
//! Leftover temporary files of a crashed writer are reported but are not an inconsistency:
//! readers never look at them and the next writer removes them.

use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

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
        report.problems.extend(
            record
                .problems(&key)
                .into_iter()
                .map(|problem| format!("record {key}: {problem}")),
        );
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

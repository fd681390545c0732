//! Consistency check of this tool's filings in a store, for tests (including the CLI's crash
//! tests) and diagnostics.
//!
//! The filings are consistent when every one of them can be read and is sound as
//! [`crate::record::read`] checks it. Unique keys and reference numbers are the database's own
//! constraints, so they need no check here.

use overheid_records::{Error, Location, Store};
use serde::Serialize;

use crate::record::{self, TOOL};

/// What [`verify_store`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct StoreReport {
    /// Number of sound filings of this tool.
    pub records: usize,
    /// The idempotency keys of the sound filings, sorted.
    pub keys: Vec<String>,
    /// Every inconsistency found; empty for a consistent store.
    pub problems: Vec<String>,
}

impl StoreReport {
    /// Whether no inconsistency was found.
    pub fn is_consistent(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Checks the filings of this tool in the store at `location` (all companies).
pub fn verify_store(location: &Location) -> Result<StoreReport, Error> {
    let mut store = Store::open(location, None)?;
    let (filings, damaged) = store.filings(None)?;
    let mut report = StoreReport::default();
    for bad in damaged {
        report
            .problems
            .push(format!("record {}: {}", bad.key, bad.detail));
    }
    for filing in filings.iter().filter(|f| f.tool == TOOL) {
        match record::read(filing) {
            Ok(_) => report.keys.push(filing.key.clone()),
            Err(problems) => report.problems.extend(
                problems
                    .into_iter()
                    .map(|problem| format!("record {}: {problem}", filing.key)),
            ),
        }
    }
    report.keys.sort();
    report.records = report.keys.len();
    Ok(report)
}

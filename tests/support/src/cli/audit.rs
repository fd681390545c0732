//! Reading an audit log: one JSON record per line, each valid against
//! `audit-record.schema.json`.

use std::path::Path;

use serde_json::Value;

use super::assert_valid;

/// The records of the audit log at `path`, each validated against the schema.
/// A missing log is an empty list.
pub fn read_audit(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .map(|line| {
            let record: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("audit line is not JSON ({e}): {line}"));
            assert_valid("audit-record.schema.json", &record);
            record
        })
        .collect()
}

//! A result printed as JSON Lines (OUT-3), collected so that its memory does not grow with it.
//!
//! A batch of a million cases held as JSON values takes gigabytes (about 7 KiB a case); its lines
//! as printed take about 900 bytes each. When the lines will be printed as lines (no `--jq` or
//! `--provenance`, not a table, stdout not a terminal), each is selected (`--fields`) and
//! rendered when it is made and written to an anonymous temporary file, and the printer copies
//! that file to stdout after the audit record (AUDIT-6), as it prints any result. Otherwise the
//! values are kept, for the filter, envelope or pager that needs them whole.

use std::fs::File;
use std::io::{BufWriter, Seek, Write};
use std::time::Instant;

use serde_json::Value;

use crate::data::fields::Selection;
use crate::print::output::{OutputFormat, Printer};
use crate::problem::error::Problem;

/// The lines of a result as they are made: kept as values, or already rendered and spooled.
pub struct JsonLines {
    store: Store,
    selection: Option<LineSelection>,
    count: usize,
}

/// `--fields` for JSON Lines: applied to one member of each line, which the output schema
/// describes (the selection was checked against it).
#[derive(Clone)]
pub(crate) struct LineSelection {
    pub(crate) selection: Selection,
    pub(crate) member: &'static str,
    pub(crate) deadline: Instant,
}

enum Store {
    Values(Vec<Value>),
    Spooled {
        file: BufWriter<File>,
        printer: Printer,
    },
}

/// A result's lines, rendered, ready to be copied to stdout.
pub(crate) struct Spooled(pub(crate) File);

/// What a command's [`JsonLines`] became: values for the usual printing, or spooled lines.
pub(crate) enum Collected {
    Values(Value),
    Spooled(Spooled),
}

impl JsonLines {
    /// Lines kept as values.
    pub(crate) fn in_memory(selection: Option<LineSelection>) -> Self {
        Self {
            store: Store::Values(Vec::new()),
            selection,
            count: 0,
        }
    }

    /// Lines rendered by `printer` in compact JSON and spooled to an anonymous temporary file
    /// in `TMPDIR` (else `/tmp`): mode 0600, opened with `O_TMPFILE` where the file system has
    /// it, else created and unlinked at once; gone with the process. The error names the
    /// directory's variable when the file cannot be made.
    pub(crate) fn spooled(
        printer: Printer,
        selection: Option<LineSelection>,
    ) -> Result<Self, Problem> {
        let file = tempfile::tempfile().map_err(|e| {
            Problem::io(format!(
                "tijdelijk bestand voor de uitvoer kon niet worden gemaakt (TMPDIR): {e}"
            ))
        })?;
        Ok(Self {
            store: Store::Spooled {
                file: BufWriter::with_capacity(64 * 1024, file),
                printer: Printer {
                    format: OutputFormat::Json,
                    ..printer
                },
            },
            selection,
            count: 0,
        })
    }

    /// Add one line, its member selected by `--fields` if given (a selection past the deadline
    /// is exit 124). Spooled, it is rendered now (secrets masked as at any sink); a full disk is
    /// exit 74.
    pub fn push(&mut self, mut line: Value) -> Result<(), Problem> {
        if let Some(LineSelection {
            selection,
            member,
            deadline,
        }) = &self.selection
            && let Some(part) = line.get_mut(*member)
        {
            *part = selection.apply(part, *deadline)?;
        }
        match &mut self.store {
            Store::Values(values) => values.push(line),
            Store::Spooled { file, printer } => file
                .write_all(printer.render(&line).as_bytes())
                .map_err(spool_error)?,
        }
        self.count += 1;
        Ok(())
    }

    /// How many lines there are.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The lines as the printer takes them: a JSON array, or the spool rewound to its start.
    pub(crate) fn finish(self) -> Result<Collected, Problem> {
        match self.store {
            Store::Values(values) => Ok(Collected::Values(Value::Array(values))),
            Store::Spooled { file, .. } => {
                let mut file = file.into_inner().map_err(|e| spool_error(e.into_error()))?;
                file.rewind().map_err(spool_error)?;
                Ok(Collected::Spooled(Spooled(file)))
            }
        }
    }
}

fn spool_error(e: std::io::Error) -> Problem {
    Problem::io(format!(
        "uitvoer kon niet naar het tijdelijke bestand worden geschreven: {e}"
    ))
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use serde_json::json;

    use super::*;
    use crate::print::output::Printer;

    fn printer() -> Printer {
        Printer::new(Some(OutputFormat::Pretty), true, false)
    }

    #[test]
    fn spooled_lines_are_the_compact_lines_in_order() {
        let mut lines = JsonLines::spooled(printer(), None).unwrap();
        lines.push(json!({"id": 1, "a": [1, 2]})).unwrap();
        lines.push(json!({"id": 2})).unwrap();
        assert_eq!(lines.len(), 2);
        let Collected::Spooled(Spooled(mut file)) = lines.finish().unwrap() else {
            panic!("not spooled");
        };
        let mut text = String::new();
        file.read_to_string(&mut text).unwrap();
        assert_eq!(text, "{\"id\":1,\"a\":[1,2]}\n{\"id\":2}\n");
    }

    #[test]
    fn kept_lines_are_one_array() {
        let mut lines = JsonLines::in_memory(None);
        assert!(lines.is_empty());
        lines.push(json!(1)).unwrap();
        let Collected::Values(values) = lines.finish().unwrap() else {
            panic!("spooled");
        };
        assert_eq!(values, json!([1]));
    }
}

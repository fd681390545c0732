//! A JSON document named by a path argument that also takes `-` for stdin (DISC-21): read from
//! a regular file (a FIFO or device is refused, not waited on) or stdin, bounded in size. Errors
//! never quote the contents.

use std::io::Read;
use std::path::Path;

use serde_json::Value;

/// The JSON document at `source` (`-`: stdin), at most `max_bytes`; the error is a Dutch detail.
pub fn read_json(source: &str, max_bytes: u64) -> Result<Value, String> {
    let mut text = String::new();
    let read = if source == "-" {
        std::io::stdin()
            .lock()
            .take(max_bytes + 1)
            .read_to_string(&mut text)
            .map_err(|e| format!("stdin kon niet gelezen worden: {e}"))
    } else {
        let path = Path::new(source);
        let unreadable = |e: std::io::Error| format!("{source} kon niet gelezen worden: {e}");
        match std::fs::metadata(path) {
            Ok(m) if m.is_file() => std::fs::File::open(path)
                .and_then(|f| f.take(max_bytes + 1).read_to_string(&mut text))
                .map_err(unreadable),
            Ok(_) => Err(format!("{source} is geen gewoon bestand")),
            Err(e) => Err(unreadable(e)),
        }
    };
    read?;
    if text.len() as u64 > max_bytes {
        return Err(format!("{source} is groter dan {max_bytes} bytes"));
    }
    serde_json::from_str(&text).map_err(|e| format!("{source} is geen geldige JSON: {e}"))
}

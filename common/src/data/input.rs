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
    serde_json::from_str(&text)
        .map_err(|e| format!("{source} is geen geldige JSON: {}", json_reason(&e)))
}

/// Why a text is not JSON, in Dutch with the place (serde_json's own message is English).
pub fn json_reason(err: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let what = match err.classify() {
        Category::Eof => "de tekst houdt halverwege op",
        Category::Syntax => "ongeldige JSON-syntaxis",
        Category::Data => "een waarde van het verkeerde soort",
        Category::Io => "de tekst kon niet gelezen worden",
    };
    if err.line() == 0 {
        what.to_string()
    } else {
        format!("{what} (regel {}, kolom {})", err.line(), err.column())
    }
}

#[cfg(test)]
mod tests {
    use super::json_reason;

    #[test]
    fn json_errors_are_explained_in_dutch_with_their_place() {
        let reason =
            |text: &str| json_reason(&serde_json::from_str::<serde_json::Value>(text).unwrap_err());
        assert_eq!(
            reason("{\"a\": \"b"),
            "de tekst houdt halverwege op (regel 1, kolom 8)"
        );
        assert_eq!(
            reason("{\"a\" 1}"),
            "ongeldige JSON-syntaxis (regel 1, kolom 6)"
        );
        assert!(!reason("[1,]").contains("trailing"));
    }
}

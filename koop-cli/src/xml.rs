//! Small helpers shared by the streaming XML readers: error mapping, entity and text decoding.

use std::borrow::Cow;

use quick_xml::Reader;
use quick_xml::errors::{Error, IllFormedError, SyntaxError};
use quick_xml::events::{BytesRef, BytesText};

use crate::error::ProtocolError;

/// Most elements open at once in any answer we read. Real toestanden nest about 25 deep (book,
/// chapter, …, article, lid, list in list, table, cell, inline markup); deeper input is refused as a
/// protocol error instead of being rendered, so the work and the output stay linear in the input.
pub(crate) const MAX_DEPTH: usize = 100;

/// The protocol error for an element opened at `depth` (open elements before it), if that is too deep.
pub(crate) fn check_depth(depth: usize, position: u64) -> Result<(), ProtocolError> {
    if depth >= MAX_DEPTH {
        return Err(ProtocolError::TooDeep {
            position,
            limit: MAX_DEPTH,
        });
    }
    Ok(())
}

/// A reader over a byte slice with the settings both parsers need (end names checked, no trimming).
pub(crate) fn reader(xml: &[u8]) -> Reader<&[u8]> {
    let mut reader = Reader::from_reader(xml);
    let config = reader.config_mut();
    config.check_end_names = true;
    config.allow_unmatched_ends = false;
    config.expand_empty_elements = false;
    reader
}

/// True when the body cannot be XML: after an optional BOM and whitespace it does not start with `<`.
pub(crate) fn clearly_not_xml(xml: &[u8]) -> bool {
    let body = xml.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(xml);
    body.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'<')
}

/// Maps a quick-xml error to a protocol error; end-of-input problems count as truncation.
pub(crate) fn map_error(err: &Error, position: u64) -> ProtocolError {
    match err {
        Error::Syntax(
            SyntaxError::UnclosedTag
            | SyntaxError::UnclosedCData
            | SyntaxError::UnclosedComment
            | SyntaxError::UnclosedPIOrXmlDecl
            | SyntaxError::UnclosedDoctype
            | SyntaxError::InvalidBangMarkup,
        )
        | Error::IllFormed(IllFormedError::MissingEndTag(_)) => {
            ProtocolError::Truncated { position }
        }
        other => ProtocolError::Malformed {
            position,
            detail: other.to_string(),
        },
    }
}

/// Decoded text of a text event (UTF-8; invalid bytes are a protocol error).
pub(crate) fn text<'a>(
    event: &BytesText<'a>,
    position: u64,
) -> Result<Cow<'a, str>, ProtocolError> {
    event.decode().map_err(|e| ProtocolError::Malformed {
        position,
        detail: e.to_string(),
    })
}

/// The text an entity or character reference stands for; unknown entities are kept as written.
pub(crate) fn reference(event: &BytesRef<'_>, position: u64) -> Result<String, ProtocolError> {
    let malformed = |detail: String| ProtocolError::Malformed { position, detail };
    if event.is_char_ref() {
        return match event.resolve_char_ref() {
            Ok(Some(c)) => Ok(c.to_string()),
            Ok(None) => Ok(String::new()),
            Err(e) => Err(malformed(e.to_string())),
        };
    }
    let name = event.decode().map_err(|e| malformed(e.to_string()))?;
    Ok(match name.as_ref() {
        "lt" => "<".into(),
        "gt" => ">".into(),
        "amp" => "&".into(),
        "apos" => "'".into(),
        "quot" => "\"".into(),
        "nbsp" => "\u{a0}".into(),
        other => format!("&{other};"),
    })
}

/// Local name of a possibly prefixed XML name (`sru:record` → `record`).
pub(crate) fn local(name: &[u8]) -> &[u8] {
    match name.iter().rposition(|b| *b == b':') {
        Some(i) => &name[i + 1..],
        None => name,
    }
}

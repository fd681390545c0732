//! Reading incoming messages: one line each, at most [`MAX_MESSAGE_BYTES`].
//!
//! A line is read through a bounded reader, so a client cannot make the bridge hold more than
//! the limit in memory. A longer line is skipped to its newline without being kept, answered
//! with `-32600` (the id taken from the part read, when the id comes before the cut), and the
//! bridge reads on.

use std::io::{self, BufRead, Read};

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;

use crate::rpc::{self, INVALID_REQUEST, Id, RpcError};

/// Largest incoming message in bytes, without its newline (profile §3.2).
pub const MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;

/// What one read gave.
#[derive(Debug, PartialEq)]
pub enum Frame {
    /// The input ended.
    End,
    /// One whole message is in the buffer (with its newline, if it had one).
    Message,
    /// The message was longer than the limit; the buffer holds its first part, the rest is skipped.
    Oversized,
}

/// Read the next message into `line` (cleared first).
pub fn read(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Frame> {
    line.clear();
    let limit = MAX_MESSAGE_BYTES + 1;
    let read = input.by_ref().take(limit as u64).read_until(b'\n', line)?;
    if read == 0 {
        return Ok(Frame::End);
    }
    if read < limit || line.last() == Some(&b'\n') {
        return Ok(Frame::Message);
    }
    skip_line(input)?;
    Ok(Frame::Oversized)
}

/// Consume input up to and including the next newline, keeping none of it.
fn skip_line(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(());
        }
        match buffer.iter().position(|&byte| byte == b'\n') {
            Some(at) => {
                input.consume(at + 1);
                return Ok(());
            }
            None => {
                let all = buffer.len();
                input.consume(all);
            }
        }
    }
}

/// The error response to an oversized message whose first part is `prefix`.
pub fn oversized_response(prefix: &[u8]) -> String {
    let error = RpcError::new(
        INVALID_REQUEST,
        format!(
            "Bericht te groot: meer dan {MAX_MESSAGE_BYTES} bytes op één regel; het is niet gelezen. \
             Stuur kleinere argumenten."
        ),
    )
    .with_data(serde_json::json!({"max_bytes": MAX_MESSAGE_BYTES}));
    rpc::error_response(&leading_id(prefix), &error)
}

/// The top-level `id` of a message cut off at the limit, when it comes before the cut; else `null`.
fn leading_id(prefix: &[u8]) -> Id {
    let mut found = None;
    let mut reader = serde_json::Deserializer::from_slice(prefix);
    // The cut message never parses to its end; the id, once seen, is kept all the same.
    let _ = IdSeeker(&mut found).deserialize(&mut reader);
    found
        .as_deref()
        .and_then(Id::from_raw)
        .unwrap_or_else(Id::null)
}

/// Walks the members of the top-level object until it has read `id` as raw text.
struct IdSeeker<'a>(&'a mut Option<Box<RawValue>>);

impl<'de> DeserializeSeed<'de> for IdSeeker<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for IdSeeker<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a JSON-RPC message object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<(), A::Error> {
        while let Some(name) = members.next_key::<std::borrow::Cow<'de, str>>()? {
            if name == "id" {
                *self.0 = Some(members.next_value()?);
                return Ok(());
            }
            members.next_value::<IgnoredAny>()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::io::BufReader;

    use serde_json::Value;

    use super::*;

    fn frames(input: &[u8]) -> Vec<(Frame, usize)> {
        // A small buffer, so that skipping crosses many refills.
        let mut input = BufReader::with_capacity(1000, input);
        let mut line = Vec::new();
        let mut seen = Vec::new();
        loop {
            let frame = read(&mut input, &mut line).unwrap();
            if frame == Frame::End {
                return seen;
            }
            assert!(line.len() <= MAX_MESSAGE_BYTES + 1);
            seen.push((frame, line.len()));
        }
    }

    #[test]
    fn a_line_over_the_limit_is_cut_skipped_and_the_next_one_read() {
        let mut input = vec![b'a'; MAX_MESSAGE_BYTES];
        input.push(b'\n');
        input.extend(vec![b'b'; 3 * MAX_MESSAGE_BYTES]);
        input.extend(b"\n{}\n{}");
        assert_eq!(
            frames(&input),
            [
                (Frame::Message, MAX_MESSAGE_BYTES + 1),
                (Frame::Oversized, MAX_MESSAGE_BYTES + 1),
                (Frame::Message, 3),
                (Frame::Message, 2)
            ]
        );
        let unterminated = vec![b'c'; MAX_MESSAGE_BYTES + 1];
        assert_eq!(
            frames(&unterminated),
            [(Frame::Oversized, MAX_MESSAGE_BYTES + 1)]
        );
    }

    #[test]
    fn the_answer_carries_the_id_when_it_precedes_the_cut() {
        let answer = |prefix: &str| -> Value {
            serde_json::from_str(&oversized_response(prefix.as_bytes())).unwrap()
        };
        let first = answer(r#"{"jsonrpc":"2.0","id":5,"params":{"a":"xxxx"#);
        assert_eq!(first["id"], 5);
        assert_eq!(first["error"]["code"], INVALID_REQUEST);
        assert!(
            first["error"]["message"]
                .as_str()
                .unwrap()
                .contains("te groot")
        );
        assert!(
            oversized_response(br#"{"id":12345678901234567890123,"params":"#)
                .contains(r#""id":12345678901234567890123,"#)
        );
        assert_eq!(
            answer(r#"{"method":"x","id":"a\"b","params":[1,"#)["id"],
            "a\"b"
        );
        assert_eq!(answer(r#"{"params":{"id":7,"x":"xxxx"#)["id"], Value::Null);
        assert_eq!(answer(r#"{"id":{"nested":1},"params":"#)["id"], Value::Null);
        assert_eq!(answer(r#"[{"id":1},"#)["id"], Value::Null);
    }
}

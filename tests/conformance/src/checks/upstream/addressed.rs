//! Whether a read names one thing: its plan's first request carries a positional argument of the
//! example as a path segment (`/basisprofielen/68750110`), not as a query (`/zoeken?naam=…`).
//! Only then is a 404/410 answer "this thing does not exist" (EXIT-6).

use serde_json::Value;

use crate::probe::{Kind, Probe};
use crate::session::Session;

/// Why `upstream-410` found nothing to judge.
pub(super) const NONE_ADDRESSED: &str = "geen voorbeeld dat één ding opvraagt (een positioneel argument als padsegment van het eerste verzoek in het --dry-run-plan)";

/// The positional value that `probe`'s first request names in its path, if any.
pub(super) fn identifier(session: &Session, probe: &Probe) -> Option<String> {
    let index = probe.entry?;
    let entry = &session.entries[index];
    let plan = session
        .probes
        .iter()
        .find(|p| p.kind == Kind::DryRun(0) && p.entry == Some(index))?
        .stdout_json()?;
    let url = first_url(&plan)?;
    let arguments = entry.arguments_of(entry.examples.first()?).ok()?;
    let values: Vec<String> = entry
        .positional
        .iter()
        .filter_map(|name| arguments.get(name))
        .filter_map(|value| match value {
            Value::String(text) => Some(text.clone()),
            Value::Number(number) => Some(number.to_string()),
            _ => None,
        })
        .collect();
    let segments = path_segments(&url);
    values.into_iter().find(|value| segments.contains(value))
}

/// The URL of the first request of a plan (`requests[0]`, else the primary `url`).
fn first_url(plan: &Value) -> Option<String> {
    plan.get("requests")
        .and_then(Value::as_array)
        .and_then(|requests| requests.first())
        .and_then(|request| request.get("url"))
        .or_else(|| plan.get("url"))
        .and_then(Value::as_str)
        .map(String::from)
}

/// The percent-decoded path segments of `url` (scheme, authority, query and fragment dropped).
fn path_segments(url: &str) -> Vec<String> {
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = after_scheme
        .split_once('/')
        .map_or("", |(_, path)| path)
        .split(['?', '#'])
        .next()
        .unwrap_or("");
    path.split('/')
        .filter(|segment| !segment.is_empty())
        .map(percent_decode)
        .collect()
}

fn percent_decode(segment: &str) -> String {
    let bytes = segment.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = (bytes[i] == b'%')
            .then(|| segment.get(i + 1..i + 3))
            .flatten()
            .and_then(|pair| u8::from_str_radix(pair, 16).ok());
        match hex {
            Some(byte) => {
                decoded.push(byte);
                i += 3;
            }
            None => {
                decoded.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&decoded).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_leave_out_host_query_and_fragment() {
        assert_eq!(
            path_segments("http://127.0.0.1:8/p3-stil/v1/basisprofielen/68750110?geo=true#x"),
            ["p3-stil", "v1", "basisprofielen", "68750110"]
        );
        assert_eq!(
            path_segments("http://127.0.0.1:8/p3-stil/v2/zoeken?naam=68750110"),
            ["p3-stil", "v2", "zoeken"]
        );
        assert!(path_segments("http://127.0.0.1:8").is_empty());
    }

    #[test]
    fn segments_are_percent_decoded() {
        assert_eq!(
            path_segments("https://bron.example/items/RVO%2DEBR%20x/%zz"),
            ["items", "RVO-EBR x", "%zz"]
        );
    }

    #[test]
    fn the_first_request_wins_over_the_primary_url() {
        let plan = serde_json::json!({
            "url": "http://h/b/primair/1",
            "requests": [{"url": "http://h/b/zoek?id=1"}, {"url": "http://h/b/primair/1"}]
        });
        assert_eq!(first_url(&plan).as_deref(), Some("http://h/b/zoek?id=1"));
        let plan = serde_json::json!({"url": "http://h/b/item/1", "requests": []});
        assert_eq!(first_url(&plan).as_deref(), Some("http://h/b/item/1"));
    }
}

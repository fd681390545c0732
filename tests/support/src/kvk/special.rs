//! KvK numbers that make the fake misbehave, for testing error handling end to end.
//!
//! The first two are KvK's own error test cases in the test environment; the others
//! (`9000000n`) exist only in this fake. Every `/v1/...{kvkNummer}` route honours them.

use std::time::Duration;

use serde_json::json;

use super::fixtures;
use super::fout;
use crate::reply::Reply;

/// How long the stalling numbers stall: far beyond any sensible client timeout.
pub const STALL: Duration = Duration::from_secs(30);

/// The `Retry-After` (seconds) sent by the rate-limited and unavailable numbers.
pub const RETRY_AFTER_SECONDS: u64 = 120;

/// Every special number with what it returns (also the help text of `fake-upstream`).
pub const SPECIAL_NUMBERS: &[(&str, &str)] = &[
    ("90004973", "500 IPD9999 technische fout (KvK-testgeval)"),
    (
        "90002903",
        "404 IPD1003 tijdelijk niet leverbaar (KvK-testgeval)",
    ),
    ("90000001", "404 IPD1002 in behandeling"),
    ("90000002", "429 met Retry-After: 120"),
    ("90000003", "503 HTML-pagina met Retry-After: 120"),
    ("90000004", "502 HTML-pagina van een proxy"),
    ("90000005", "200 met afgekapte JSON"),
    ("90000006", "200 met JSON van een andere vorm (een array)"),
    ("90000007", "200 pas na 30 s (stil voor de headers)"),
    (
        "90000008",
        "200, headers en de eerste 100 bytes, dan 30 s stil",
    ),
    ("90000009", "200 met een HTML-onderhoudspagina"),
    (
        "90000010",
        "200 basisprofiel met totaalWerkzamePersonen 18446744073709551617 (boven 2^64)",
    ),
];

/// The integer beyond 2^64 that `90000010` answers with, as written on the wire.
pub const BEYOND_U64: &str = "18446744073709551617";

/// The misbehaving reply for `kvk_nummer`, or `None` for an ordinary number.
pub fn reply_for(kvk_nummer: &str) -> Option<Reply> {
    let retry_after = RETRY_AFTER_SECONDS.to_string();
    let full_profile = || {
        let company = fixtures::company("68750110").expect("68750110 is a fixture");
        fixtures::load(company.basisprofiel, "http://127.0.0.1", false)
    };
    let reply = match kvk_nummer {
        "90004973" => fout::technische_fout(),
        "90002903" => fout::tijdelijk_niet_leverbaar(),
        "90000001" => fout::in_behandeling(),
        "90000002" => Reply::text(429, "Too Many Requests").header("retry-after", &retry_after),
        "90000003" => Reply::html_error(503).header("retry-after", &retry_after),
        "90000004" => Reply::html_error(502),
        "90000005" => Reply::truncated_json(&full_profile()),
        "90000006" => Reply::json(200, &json!(["geen", "basisprofiel"])),
        "90000007" => Reply::json(200, &full_profile()).delay(STALL),
        "90000008" => Reply::json(200, &full_profile()).stall_mid_body(100, STALL),
        "90000010" => {
            let mut profile = full_profile();
            profile["kvkNummer"] = "90000010".into();
            profile["totaalWerkzamePersonen"] =
                serde_json::from_str(BEYOND_U64).expect("an integer");
            Reply::json(200, &profile)
        }
        "90000009" => Reply::new(200)
            .header("content-type", "text/html; charset=utf-8")
            .body(b"<!DOCTYPE html><html><body><h1>Onderhoud</h1></body></html>".to_vec()),
        _ => return None,
    };
    Some(reply)
}

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

/// 500 IPD9999, a technical error (KvK's own test case).
pub const TECHNISCHE_FOUT: &str = "90004973";
/// 404 IPD1003, temporarily not deliverable (KvK's own test case).
pub const TIJDELIJK_NIET_LEVERBAAR: &str = "90002903";
/// 404 IPD1002, the registration is being processed.
pub const IN_BEHANDELING: &str = "90000001";
/// 429 with `Retry-After:` [`RETRY_AFTER_SECONDS`].
pub const RATE_LIMITED: &str = "90000002";
/// 503 HTML page with `Retry-After:` [`RETRY_AFTER_SECONDS`].
pub const UNAVAILABLE_WITH_RETRY_AFTER: &str = "90000003";
/// 502 HTML page from a proxy.
pub const PROXY_502: &str = "90000004";
/// 200 with truncated JSON (of a full basisprofiel).
pub const TRUNCATED_JSON: &str = "90000005";
/// 200 with JSON of another shape (an array).
pub const WRONG_SHAPE: &str = "90000006";
/// 200 only after [`STALL`] (silent before the headers).
pub const STALL_BEFORE_HEADERS: &str = "90000007";
/// 200, headers and the first 100 bytes, then [`STALL`] of silence.
pub const STALL_MID_BODY: &str = "90000008";
/// 200 with an HTML maintenance page.
pub const HTML_200: &str = "90000009";
/// A basisprofiel whose `totaalWerkzamePersonen` is [`BEYOND_U64`] (exact numbers, NUM-1).
pub const BEYOND_U64_PROFILE: &str = "90000010";

/// A well-formed KvK number the fake does not know: 404 IPD0005.
pub const UNKNOWN_KVK_NUMBER: &str = "99999999";
/// A well-formed vestigingsnummer the fake does not know: 404 IPD0007.
pub const UNKNOWN_VESTIGINGSNUMMER: &str = "000000000001";

/// Every special number with what it returns (also the help text of `fake-upstream`).
pub const SPECIAL_NUMBERS: &[(&str, &str)] = &[
    (
        TECHNISCHE_FOUT,
        "500 IPD9999 technische fout (KvK-testgeval)",
    ),
    (
        TIJDELIJK_NIET_LEVERBAAR,
        "404 IPD1003 tijdelijk niet leverbaar (KvK-testgeval)",
    ),
    (IN_BEHANDELING, "404 IPD1002 in behandeling"),
    (RATE_LIMITED, "429 met Retry-After: 120"),
    (
        UNAVAILABLE_WITH_RETRY_AFTER,
        "503 HTML-pagina met Retry-After: 120",
    ),
    (PROXY_502, "502 HTML-pagina van een proxy"),
    (TRUNCATED_JSON, "200 met afgekapte JSON"),
    (WRONG_SHAPE, "200 met JSON van een andere vorm (een array)"),
    (
        STALL_BEFORE_HEADERS,
        "200 pas na 30 s (stil voor de headers)",
    ),
    (
        STALL_MID_BODY,
        "200, headers en de eerste 100 bytes, dan 30 s stil",
    ),
    (HTML_200, "200 met een HTML-onderhoudspagina"),
    (
        BEYOND_U64_PROFILE,
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
        TECHNISCHE_FOUT => fout::technische_fout(),
        TIJDELIJK_NIET_LEVERBAAR => fout::tijdelijk_niet_leverbaar(),
        IN_BEHANDELING => fout::in_behandeling(),
        RATE_LIMITED => Reply::text(429, "Too Many Requests").header("retry-after", &retry_after),
        UNAVAILABLE_WITH_RETRY_AFTER => Reply::html_error(503).header("retry-after", &retry_after),
        PROXY_502 => Reply::html_error(502),
        TRUNCATED_JSON => Reply::truncated_json(&full_profile()),
        WRONG_SHAPE => Reply::json(200, &json!(["geen", "basisprofiel"])),
        STALL_BEFORE_HEADERS => Reply::json(200, &full_profile()).delay(STALL),
        STALL_MID_BODY => Reply::json(200, &full_profile()).stall_mid_body(100, STALL),
        BEYOND_U64_PROFILE => {
            let mut profile = full_profile();
            profile["kvkNummer"] = BEYOND_U64_PROFILE.into();
            profile["totaalWerkzamePersonen"] =
                serde_json::from_str(BEYOND_U64).expect("an integer");
            Reply::json(200, &profile)
        }
        HTML_200 => Reply::new(200)
            .header("content-type", "text/html; charset=utf-8")
            .body(b"<!DOCTYPE html><html><body><h1>Onderhoud</h1></body></html>".to_vec()),
        _ => return None,
    };
    Some(reply)
}

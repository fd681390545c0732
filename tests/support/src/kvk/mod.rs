//! A fake KvK API (Handelsregister test environment) as a router for [`crate::FakeServer`].
//!
//! Serves, under any base path (`http://127.0.0.1:P/test/api`, `/kvk`, or none):
//!
//! | route | answer |
//! |---|---|
//! | `GET …/v1/basisprofielen/{kvkNummer}[?geoData=true]` | basisprofiel with `_embedded` hoofdvestiging and eigenaar |
//! | `GET …/v1/basisprofielen/{kvkNummer}/eigenaar[?geoData=true]` | eigenaar |
//! | `GET …/v1/basisprofielen/{kvkNummer}/hoofdvestiging[?geoData=true]` | vestiging |
//! | `GET …/v1/basisprofielen/{kvkNummer}/vestigingen` | list of vestigingen |
//! | `GET …/v1/vestigingsprofielen/{vestigingsnummer}[?geoData=true]` | vestiging |
//! | `GET …/v1/naamgevingen/kvknummer/{kvkNummer}` | naamgeving |
//! | `GET …/v2/zoeken?…` | search over the fixtures ([`zoeken`]) |
//!
//! Like the real API it wants an `apikey` header (any non-empty key works, except
//! [`KEY_INVALID`] → 401 and [`KEY_FORBIDDEN`] → 403), refuses an `Accept` that is not
//! JSON (406; for the Vestigingsprofiel API anything but `application/hal+json`, the only type
//! its OpenAPI document lists), answers a malformed number with 400 (IPD0004/IPD0006), an unknown one with
//! 404 (IPD0005/IPD0007) and zero search hits with 404 IPD5200. The numbers in
//! [`special::SPECIAL_NUMBERS`] misbehave on purpose (500, 429, stalls, broken JSON, …).
//!
//! Companies: 68750110 Test BV Donald (vestigingen 000037178598, 000037178601),
//! 69599084 Test EMZ Dagobert (000038509504), 69599068 Test Stichting Bolderbast
//! (000038509520, non-commercial) and 68727720 Test NV Katrien (no vestigingen).

pub mod fixtures;
pub mod fout;
mod profielen;
pub mod special;
pub mod zoeken;

use crate::reply::Reply;
use crate::request::RecordedRequest;

/// An `apikey` value that the fake rejects with 401, as the real API rejects a wrong key.
pub const KEY_INVALID: &str = "ongeldige-sleutel";

/// An `apikey` value that is valid but not authorised for any product: 403.
pub const KEY_FORBIDDEN: &str = "geen-toegang";

/// The `api-version` header the fake sends with every successful answer.
pub const API_VERSION: &str = "1.5.0";

/// The fake KvK router: answers `request` as the KvK API would.
pub fn kvk(request: &RecordedRequest) -> Reply {
    if request.method != "GET" {
        return Reply::text(405, "Alleen GET is toegestaan.").header("allow", "GET");
    }
    match request.header("apikey").map(str::trim) {
        None | Some("") | Some(KEY_INVALID) => return fout::geen_apikey(),
        Some(KEY_FORBIDDEN) => return fout::niet_geautoriseerd(),
        Some(_) => {}
    }
    let hal_only = request.path.contains("/vestigingsprofielen/");
    if let Some(accept) = request.header("accept")
        && !accepts_json(accept, hal_only)
    {
        return fout::accept_niet_ondersteund();
    }
    let Some((marker, route)) = split_version(&request.path) else {
        return fout::product_bestaat_niet();
    };
    let base = request.base_before(marker);
    let segments: Vec<&str> = route.trim_end_matches('/').split('/').collect();
    let reply = match segments.as_slice() {
        ["v2", "zoeken"] => zoeken::zoeken(request, &base),
        ["v1", "basisprofielen", kvk_nummer, rest @ ..] => {
            profielen::basisprofiel(request, &base, kvk_nummer, rest)
        }
        ["v1", "vestigingsprofielen", vestigingsnummer] => {
            profielen::vestigingsprofiel(request, &base, vestigingsnummer)
        }
        ["v1", "naamgevingen", "kvknummer", kvk_nummer] => profielen::naamgeving(&base, kvk_nummer),
        _ => fout::product_bestaat_niet(),
    };
    if reply.status_code() == 200 {
        reply.header("api-version", API_VERSION)
    } else {
        reply
    }
}

/// Splits `/prefix/v1/x/y` into (`"/v1/"`, `"v1/x/y"`), at the first version segment.
fn split_version(path: &str) -> Option<(&'static str, &str)> {
    ["/v1/", "/v2/"]
        .into_iter()
        .filter_map(|marker| path.find(marker).map(|index| (index, marker)))
        .min()
        .map(|(index, marker)| (marker, &path[index + 1..]))
}

/// Whether an `Accept` header admits JSON (as the real API requires, else 406); with
/// `hal_only`, only `application/hal+json` (or a wildcard) will do.
fn accepts_json(accept: &str, hal_only: bool) -> bool {
    accept.split(',').any(|range| {
        let media = range.split(';').next().unwrap_or("").trim();
        match media {
            "" | "*/*" | "application/*" | "application/hal+json" => true,
            "application/json" => !hal_only,
            _ => false,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_split_takes_the_first_marker() {
        assert_eq!(
            split_version("/test/api/v1/basisprofielen/1"),
            Some(("/v1/", "v1/basisprofielen/1"))
        );
        assert_eq!(split_version("/v2/zoeken"), Some(("/v2/", "v2/zoeken")));
        assert_eq!(split_version("/zoeken"), None);
    }

    #[test]
    fn accept_header_rules() {
        assert!(accepts_json("application/hal+json", false));
        assert!(accepts_json("text/html, application/json;q=0.9", false));
        assert!(accepts_json("*/*", false));
        assert!(!accepts_json("text/html", false));
        assert!(!accepts_json("application/xml", false));
        assert!(!accepts_json("application/json", true));
        assert!(accepts_json("application/hal+json, application/json", true));
    }
}

//! The fake KvK's `/v1` routes: basisprofiel (and its sub-resources), vestigingsprofiel, naamgeving.

use serde_json::Value;

use super::{fixtures, fout, special};
use crate::reply::Reply;
use crate::request::RecordedRequest;

/// `/v1/basisprofielen/{kvk_nummer}` followed by `rest` (empty, `eigenaar`, `hoofdvestiging`, `vestigingen`).
pub(super) fn basisprofiel(
    request: &RecordedRequest,
    base: &str,
    kvk_nummer: &str,
    rest: &[&str],
) -> Reply {
    let geo = match geo_data(request) {
        Ok(geo) => geo,
        Err(reply) => return reply,
    };
    let company = match company(kvk_nummer) {
        Ok(company) => company,
        Err(reply) => return reply,
    };
    let profiel = || fixtures::load(company.basisprofiel, base, geo);
    match rest {
        [] => Reply::json(200, &profiel()),
        ["eigenaar"] => embedded(profiel(), "eigenaar").map_or_else(
            || fout::kvk_nummer_niet_leverbaar(kvk_nummer),
            |eigenaar| Reply::json(200, &eigenaar),
        ),
        ["hoofdvestiging"] => hoofdvestiging(&profiel(), base, kvk_nummer, geo),
        ["vestigingen"] => Reply::json(200, &fixtures::load(company.vestigingen, base, false)),
        _ => fout::product_bestaat_niet(),
    }
}

/// `/v1/vestigingsprofielen/{vestigingsnummer}`.
pub(super) fn vestigingsprofiel(
    request: &RecordedRequest,
    base: &str,
    vestigingsnummer: &str,
) -> Reply {
    let geo = match geo_data(request) {
        Ok(geo) => geo,
        Err(reply) => return reply,
    };
    if !is_digits(vestigingsnummer, 12) {
        return fout::ongeldig_vestigingsnummer(vestigingsnummer);
    }
    match fixtures::vestiging(vestigingsnummer) {
        Some(document) => Reply::json(200, &fixtures::load(document, base, geo)),
        None => fout::vestigingsnummer_niet_leverbaar(vestigingsnummer),
    }
}

/// `/v1/naamgevingen/kvknummer/{kvk_nummer}`.
pub(super) fn naamgeving(base: &str, kvk_nummer: &str) -> Reply {
    match company(kvk_nummer) {
        Ok(company) => Reply::json(200, &fixtures::load(company.naamgeving, base, false)),
        Err(reply) => reply,
    }
}

/// The company for a KvK number, or the reply the real API gives instead
/// (400 for a malformed number, a special reply, 404 IPD0005 for an unknown one).
fn company(kvk_nummer: &str) -> Result<&'static fixtures::Company, Reply> {
    if !is_digits(kvk_nummer, 8) {
        return Err(fout::ongeldig_kvk_nummer(kvk_nummer));
    }
    if let Some(reply) = special::reply_for(kvk_nummer) {
        return Err(reply);
    }
    fixtures::company(kvk_nummer).ok_or_else(|| fout::kvk_nummer_niet_leverbaar(kvk_nummer))
}

/// The `geoData` query parameter: absent or `false` → false, `true` → true, else 400.
fn geo_data(request: &RecordedRequest) -> Result<bool, Reply> {
    match request.query_param("geoData") {
        None | Some("false") => Ok(false),
        Some("true") => Ok(true),
        Some(_) => Err(fout::ongeldige_parameters(&["geoData".to_owned()])),
    }
}

fn embedded(mut profiel: Value, name: &str) -> Option<Value> {
    profiel
        .get_mut("_embedded")?
        .as_object_mut()?
        .shift_remove(name)
}

/// The full vestigingsprofiel of the hoofdvestiging, its `self` link pointing at this route.
fn hoofdvestiging(profiel: &Value, base: &str, kvk_nummer: &str, geo: bool) -> Reply {
    let nummer = profiel["_embedded"]["hoofdvestiging"]["vestigingsnummer"].as_str();
    let Some(document) = nummer.and_then(fixtures::vestiging) else {
        return fout::kvk_nummer_niet_leverbaar(kvk_nummer);
    };
    let mut vestiging = fixtures::load(document, base, geo);
    if let Some(links) = vestiging["links"].as_array_mut() {
        for link in links.iter_mut().filter(|link| link["rel"] == "self") {
            link["href"] = format!("{base}/v1/basisprofielen/{kvk_nummer}/hoofdvestiging").into();
        }
    }
    Reply::json(200, &vestiging)
}

/// Whether `text` is exactly `count` ASCII digits.
pub(super) fn is_digits(text: &str, count: usize) -> bool {
    text.len() == count && text.bytes().all(|byte| byte.is_ascii_digit())
}

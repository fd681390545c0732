//! The fake KvK router: authentication, profile routes, errors, special numbers and search.
#![allow(clippy::disallowed_methods, reason = "own test client")]

use serde_json::Value;
use test_support::kvk::{self, KEY_FORBIDDEN, KEY_INVALID, special};
use test_support::{FakeServer, RecordedRequest, Reply};

const HOST: (&str, &str) = ("host", "127.0.0.1:7");

fn get(url: &str) -> Reply {
    kvk::kvk(&RecordedRequest::get(url, &[HOST, ("apikey", "k")]))
}

fn json(url: &str) -> Value {
    let reply = get(url);
    assert_eq!(reply.status_code(), 200, "{url}: {:?}", reply.body_json());
    reply.body_json().unwrap()
}

/// The status and the single fout code of an error reply.
fn fout(url: &str) -> (u16, String) {
    let reply = get(url);
    let body = reply
        .body_json()
        .unwrap_or_else(|| panic!("{url}: no JSON body"));
    let code = body["fout"][0]["code"].as_str().unwrap().to_owned();
    assert!(body["fout"][0]["omschrijving"].is_string());
    (reply.status_code(), code)
}

fn kvk_numbers(result: &Value) -> Vec<String> {
    result["resultaten"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            format!(
                "{}/{}",
                item["kvkNummer"].as_str().unwrap(),
                item["type"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn apikey_is_required_and_checked() {
    let url = "/test/api/v1/basisprofielen/68750110";
    for headers in [
        vec![HOST],
        vec![HOST, ("apikey", "")],
        vec![HOST, ("apikey", KEY_INVALID)],
    ] {
        let reply = kvk::kvk(&RecordedRequest::get(url, &headers));
        assert_eq!(reply.status_code(), 401);
        assert_eq!(reply.body_json().unwrap()["fout"][0]["code"], "IPD1998");
    }
    let forbidden = kvk::kvk(&RecordedRequest::get(
        url,
        &[HOST, ("apikey", KEY_FORBIDDEN)],
    ));
    assert_eq!(forbidden.status_code(), 403);
}

#[test]
fn the_key_used_is_visible_in_the_record() {
    let server = FakeServer::start(kvk::kvk);
    let response = reqwest::blocking::Client::new()
        .get(server.url("/test/api/v1/basisprofielen/68750110"))
        .header("apikey", "l7xx-mijn-sleutel")
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["api-version"], kvk::API_VERSION);
    let profiel: Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    assert_eq!(
        profiel["links"][0]["href"],
        server.url("/test/api/v1/basisprofielen/68750110"),
        "links point back at the fake, prefix included"
    );
    assert_eq!(
        server.requests()[0].header("apikey"),
        Some("l7xx-mijn-sleutel")
    );
}

#[test]
fn accept_must_admit_json() {
    let request = RecordedRequest::get(
        "/v1/basisprofielen/68750110",
        &[HOST, ("apikey", "k"), ("accept", "text/html")],
    );
    assert_eq!(kvk::kvk(&request).status_code(), 406);
    let request = RecordedRequest::get(
        "/v1/basisprofielen/68750110",
        &[HOST, ("apikey", "k"), ("accept", "application/hal+json")],
    );
    assert_eq!(kvk::kvk(&request).status_code(), 200);
}

#[test]
fn basisprofiel_of_test_bv_donald() {
    let profiel = json("/test/api/v1/basisprofielen/68750110");
    assert_eq!(profiel["naam"], "Test BV Donald");
    let hoofd = &profiel["_embedded"]["hoofdvestiging"];
    assert_eq!(hoofd["vestigingsnummer"], "000037178598");
    assert!(hoofd.get("rsin").is_none() && hoofd.get("handelsnamen").is_none());
    assert_eq!(profiel["_embedded"]["eigenaar"]["rsin"], "857587973");
    assert!(
        hoofd["adressen"][1]["volledigAdres"]
            .as_str()
            .unwrap()
            .contains("A    ")
    );
    assert!(!profiel.to_string().contains("geoData"));
    let geo = json("/test/api/v1/basisprofielen/68750110?geoData=true");
    assert!(
        geo["_embedded"]["hoofdvestiging"]["adressen"][1]["geoData"]["rijksdriehoekX"].is_f64()
    );
    assert_eq!(
        fout("/v1/basisprofielen/68750110?geoData=ja"),
        (400, "IPD1999".into())
    );
}

#[test]
fn sub_resources() {
    let eigenaar = json("/v1/basisprofielen/68750110/eigenaar");
    assert_eq!(eigenaar["rechtsvorm"], "Besloten vennootschap");
    let hoofd = json("/v1/basisprofielen/68750110/hoofdvestiging");
    assert_eq!(hoofd["rsin"], "857587973");
    assert_eq!(
        hoofd["links"][0]["href"],
        "http://127.0.0.1:7/v1/basisprofielen/68750110/hoofdvestiging"
    );
    let lijst = json("/v1/basisprofielen/68750110/vestigingen");
    assert_eq!(lijst["totaalAantalVestigingen"], 2);
    assert_eq!(lijst["vestigingen"][1]["vestigingsnummer"], "000037178601");
    // Katrien has no vestigingen: addresses under the eigenaar, no hoofdvestiging.
    assert_eq!(
        json("/v1/basisprofielen/68727720/vestigingen")["vestigingen"],
        Value::Array(vec![])
    );
    assert_eq!(
        json("/v1/basisprofielen/68727720/eigenaar")["adressen"][0]["plaats"],
        "Veendam"
    );
    assert_eq!(
        fout("/v1/basisprofielen/68727720/hoofdvestiging"),
        (404, "IPD0005".into())
    );
}

#[test]
fn vestigingsprofiel_and_naamgeving() {
    let neven = json("/v1/vestigingsprofielen/000037178601?geoData=true");
    assert_eq!(neven["indHoofdvestiging"], "Nee");
    assert!(neven["adressen"][0]["geoData"]["gpsLatitude"].is_f64());
    assert_eq!(
        fout("/v1/vestigingsprofielen/000099999999"),
        (404, "IPD0007".into())
    );
    assert_eq!(
        fout("/v1/vestigingsprofielen/37178601"),
        (400, "IPD0006".into())
    );
    let naamgeving = json("/v1/naamgevingen/kvknummer/69599068");
    assert_eq!(naamgeving["vestigingen"][0]["ookGenoemd"], "Bolderbast");
}

#[test]
fn unknown_and_malformed_numbers() {
    let reply = get("/v1/basisprofielen/12345678");
    assert_eq!(reply.status_code(), 404);
    assert_eq!(
        reply.body_json().unwrap()["fout"][0]["omschrijving"],
        "Op basis van het KVK-nummer 12345678 kan het product niet worden geleverd."
    );
    assert_eq!(
        fout("/v1/naamgevingen/kvknummer/12345678"),
        (404, "IPD0005".into())
    );
    assert_eq!(fout("/v1/basisprofielen/1234567"), (400, "IPD0004".into()));
    assert_eq!(fout("/v1/onbekend/1"), (404, "IPD0001".into()));
    assert_eq!(fout("/zonder-versie"), (404, "IPD0001".into()));
}

#[test]
fn special_numbers_misbehave_as_documented() {
    let profile = |number: &str| format!("/v1/basisprofielen/{number}");
    let retry_after = special::RETRY_AFTER_SECONDS.to_string();
    assert_eq!(
        fout(&profile(special::TECHNISCHE_FOUT)),
        (500, "IPD9999".into())
    );
    assert_eq!(
        fout(&profile(special::TIJDELIJK_NIET_LEVERBAAR)),
        (404, "IPD1003".into())
    );
    assert_eq!(
        fout(&format!("{}/eigenaar", profile(special::IN_BEHANDELING))),
        (404, "IPD1002".into())
    );
    let limited = get(&profile(special::RATE_LIMITED));
    assert_eq!(
        (limited.status_code(), limited.header_value("retry-after")),
        (429, Some(retry_after.as_str()))
    );
    let unavailable = get(&format!(
        "/v1/naamgevingen/kvknummer/{}",
        special::UNAVAILABLE_WITH_RETRY_AFTER
    ));
    assert_eq!(
        (
            unavailable.status_code(),
            unavailable.header_value("retry-after")
        ),
        (503, Some(retry_after.as_str()))
    );
    assert_eq!(get(&profile(special::PROXY_502)).status_code(), 502);
    let truncated = get(&profile(special::TRUNCATED_JSON));
    assert_eq!(
        (truncated.status_code(), truncated.body_json()),
        (200, None)
    );
    assert!(
        get(&profile(special::WRONG_SHAPE))
            .body_json()
            .unwrap()
            .is_array()
    );
    assert!(
        get(&profile(special::STALL_BEFORE_HEADERS))
            .delay_before_headers()
            .is_some()
    );
    assert_eq!(
        get(&profile(special::HTML_200)).header_value("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(special::SPECIAL_NUMBERS.len(), 12);
}

#[test]
fn search_by_kvk_nummer_finds_rechtspersoon_and_vestigingen() {
    let result = json("/test/api/v2/zoeken?kvkNummer=68750110");
    assert_eq!(result["totaal"], 3);
    assert_eq!(
        kvk_numbers(&result),
        [
            "68750110/rechtspersoon",
            "68750110/hoofdvestiging",
            "68750110/nevenvestiging"
        ]
    );
    let hoofd = &result["resultaten"][1];
    assert!(hoofd.get("rsin").is_none(), "rsin only when searched on");
    assert!(hoofd["adres"]["binnenlandsAdres"].get("postcode").is_none());
    assert_eq!(
        hoofd["_links"]["vestigingsprofiel"]["href"],
        "http://127.0.0.1:7/test/api/v1/vestigingsprofielen/000037178598"
    );
    assert!(
        result["_links"]["self"]["href"]
            .as_str()
            .unwrap()
            .contains("kvknummer=68750110")
    );
}

#[test]
fn search_filters() {
    let types = json("/v2/zoeken?kvkNummer=68750110&type=hoofdvestiging&type=rechtspersoon");
    assert_eq!(
        kvk_numbers(&types),
        ["68750110/rechtspersoon", "68750110/hoofdvestiging"]
    );
    let naam = json("/v2/zoeken?naam=donald%20test");
    assert_eq!(naam["totaal"], 3);
    assert_eq!(fout("/v2/zoeken?naam=donal"), (404, "IPD5200".into()));
    let plaats = json("/v2/zoeken?plaats=LOCHEM");
    assert!(
        plaats["links"].is_array() && plaats.get("_links").is_none(),
        "69599068 uses link arrays"
    );
    let adres = json("/v2/zoeken?postcode=8823sj&huisnummer=3&rsin=857587973");
    assert_eq!(adres["resultaten"][0]["rsin"], "857587973");
    assert_eq!(
        adres["resultaten"][0]["adres"]["binnenlandsAdres"]["postcode"],
        "8823SJ"
    );
    let postbus = json("/v2/zoeken?postcode=7240AA&postbusnummer=12");
    assert_eq!(
        postbus["resultaten"][0]["adres"]["binnenlandsAdres"]["type"],
        "postadres"
    );
}

#[test]
fn inactive_registrations_only_when_asked() {
    assert_eq!(fout("/v2/zoeken?naam=Beleggingen"), (404, "IPD5200".into()));
    let result = json("/v2/zoeken?naam=Beleggingen&inclusiefInactieveRegistraties=true");
    let item = &result["resultaten"][0];
    assert_eq!(item["actief"], "Nee");
    assert_eq!(item["adres"]["buitenlandsAdres"]["land"], "Frankrijk");
    assert!(
        json("/v2/zoeken?kvkNummer=68750110")["resultaten"][0]
            .get("actief")
            .is_none()
    );
}

#[test]
fn search_pages() {
    let first = json("/v2/zoeken?naam=Test&resultatenPerPagina=2");
    assert_eq!(
        (
            first["totaal"].as_u64(),
            first["resultaten"].as_array().unwrap().len()
        ),
        (Some(7), 2)
    );
    assert!(first.get("vorige").is_none());
    assert!(
        first["volgende"]
            .as_str()
            .unwrap()
            .ends_with("pagina=2&resultatenperpagina=2")
    );
    let last = json("/v2/zoeken?naam=Test&resultatenPerPagina=2&pagina=4");
    assert_eq!(last["resultaten"].as_array().unwrap().len(), 1);
    assert!(last.get("volgende").is_none());
    assert!(last["vorige"].as_str().unwrap().contains("pagina=3"));
}

#[test]
fn search_validation() {
    for url in [
        "/v2/zoeken?naam=x&onbekend=1",
        "/v2/zoeken?kvkNummer=6875011",
        "/v2/zoeken?rsin=12345678",
        "/v2/zoeken?vestigingsnummer=37178598",
        "/v2/zoeken?postcode=8823SJ",
        "/v2/zoeken?huisnummer=3",
        "/v2/zoeken?postcode=8823S&huisnummer=3",
        "/v2/zoeken?postcode=8823SJ&huisnummer=123456",
        "/v2/zoeken?postcode=8823SJ&huisnummer=3&huisletter=AB",
        "/v2/zoeken?naam=x&pagina=0",
        "/v2/zoeken?naam=x&pagina=1001",
        "/v2/zoeken?naam=x&resultatenPerPagina=101",
        "/v2/zoeken?naam=x&inclusiefInactieveRegistraties=ja",
        "/v2/zoeken?kvknummer=68750110",
        "/v2/zoeken",
    ] {
        assert_eq!(fout(url), (400, "IPD1999".into()), "{url}");
    }
    assert_eq!(
        fout("/v2/zoeken?naam=x&type=filiaal"),
        (400, "IPD5203".into())
    );
}

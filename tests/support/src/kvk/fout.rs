//! KvK error replies: `{"fout":[{"code":"IPDnnnn","omschrijving":"…"}]}` with the real codes.

use serde_json::json;

use crate::reply::Reply;

/// A KvK error body with one `fout` entry.
pub fn fout(status: u16, code: &str, omschrijving: &str) -> Reply {
    Reply::json(
        status,
        &json!({"fout": [{"code": code, "omschrijving": omschrijving}]}),
    )
}

/// 401: no or wrong `apikey` header.
pub fn geen_apikey() -> Reply {
    fout(401, "IPD1998", "Geen of onjuiste apikey aangeleverd.")
}

/// 403: the key is not authorised for this product.
pub fn niet_geautoriseerd() -> Reply {
    fout(403, "IPD1998", "Niet geautoriseerd voor deze operatie.")
}

/// 406: an `Accept` header that is neither JSON nor HAL+JSON.
pub fn accept_niet_ondersteund() -> Reply {
    fout(
        406,
        "IPD1998",
        "Opgegeven Accept header wordt niet ondersteund.",
    )
}

/// 404 IPD0001: no such product (unknown path).
pub fn product_bestaat_niet() -> Reply {
    fout(404, "IPD0001", "Het opgevraagde product bestaat niet.")
}

/// 400 IPD0004: the KvK number is not 8 digits.
pub fn ongeldig_kvk_nummer(kvk_nummer: &str) -> Reply {
    fout(
        400,
        "IPD0004",
        &format!("Het KVK-nummer {kvk_nummer} is niet valide."),
    )
}

/// 404 IPD0005: nothing deliverable for this KvK number.
pub fn kvk_nummer_niet_leverbaar(kvk_nummer: &str) -> Reply {
    fout(
        404,
        "IPD0005",
        &format!("Op basis van het KVK-nummer {kvk_nummer} kan het product niet worden geleverd."),
    )
}

/// 400 IPD0006: the vestigingsnummer is not 12 digits.
pub fn ongeldig_vestigingsnummer(vestigingsnummer: &str) -> Reply {
    fout(
        400,
        "IPD0006",
        &format!("Het vestigingsnummer {vestigingsnummer} is niet valide."),
    )
}

/// 404 IPD0007: nothing deliverable for this vestigingsnummer.
pub fn vestigingsnummer_niet_leverbaar(vestigingsnummer: &str) -> Reply {
    fout(
        404,
        "IPD0007",
        &format!(
            "Op basis van het vestigingsnummer {vestigingsnummer} kan het product niet worden geleverd."
        ),
    )
}

/// 404 IPD1002: temporarily not deliverable, the registration is being processed.
pub fn in_behandeling() -> Reply {
    fout(
        404,
        "IPD1002",
        "Het product is tijdelijk niet leverbaar, omdat de gegevens worden verwerkt. Probeer het later opnieuw.",
    )
}

/// 404 IPD1003: temporarily not deliverable, retry in 5 minutes.
pub fn tijdelijk_niet_leverbaar() -> Reply {
    fout(
        404,
        "IPD1003",
        "Het product is tijdelijk niet leverbaar. Probeer het over 5 minuten opnieuw.",
    )
}

/// 400 IPD1999: one or more parameters are invalid (named in the text).
pub fn ongeldige_parameters(names: &[String]) -> Reply {
    fout(
        400,
        "IPD1999",
        &format!(
            "Een of meerdere parameters zijn niet valide: {}.",
            names.join(", ")
        ),
    )
}

/// 404 IPD5200: the search found nothing.
pub fn geen_resultaten() -> Reply {
    fout(
        404,
        "IPD5200",
        "Er zijn geen resultaten gevonden aan de hand van de opgegeven parameter(s).",
    )
}

/// 400 IPD5203: an unknown `type` filter value.
pub fn ongeldig_type(value: &str) -> Reply {
    fout(
        400,
        "IPD5203",
        &format!(
            "Het type {value} is niet valide; kies hoofdvestiging, nevenvestiging of rechtspersoon."
        ),
    )
}

/// 500 IPD9999: technical error.
pub fn technische_fout() -> Reply {
    fout(
        500,
        "IPD9999",
        "Er is een technische fout opgetreden. Probeer het later opnieuw.",
    )
}

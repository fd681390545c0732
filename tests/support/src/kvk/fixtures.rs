//! The fake KvK's data: hand-written JSON documents compiled into the binary.
//!
//! Links in the files start with `{base}`, which is replaced by the base URL the client
//! used (so links point back at the fake, as the real API's links point at the real API).
//! Addresses carry `geoData`; the router removes it unless `geoData=true` is asked.

use serde_json::Value;

/// The placeholder for the base URL in fixture links.
const BASE_PLACEHOLDER: &str = "{base}";

/// One company of the fake register: its documents per route.
pub struct Company {
    /// The 8-digit KvK number.
    pub kvk_nummer: &'static str,
    /// `GET /v1/basisprofielen/{kvk}` (with `_embedded.hoofdvestiging` and `_embedded.eigenaar`).
    pub basisprofiel: &'static str,
    /// `GET /v1/basisprofielen/{kvk}/vestigingen`.
    pub vestigingen: &'static str,
    /// `GET /v1/naamgevingen/kvknummer/{kvk}`.
    pub naamgeving: &'static str,
}

/// Test BV Donald (68750110), the company with a complete profile that most tests ask for.
pub const DONALD: &str = "68750110";

/// Every company the fake knows, by KvK number.
pub const COMPANIES: &[Company] = &[
    Company {
        kvk_nummer: DONALD,
        basisprofiel: include_str!("../../fixtures/kvk/basisprofiel-68750110.json"),
        vestigingen: include_str!("../../fixtures/kvk/vestigingen-68750110.json"),
        naamgeving: include_str!("../../fixtures/kvk/naamgeving-68750110.json"),
    },
    Company {
        kvk_nummer: "69599084",
        basisprofiel: include_str!("../../fixtures/kvk/basisprofiel-69599084.json"),
        vestigingen: include_str!("../../fixtures/kvk/vestigingen-69599084.json"),
        naamgeving: include_str!("../../fixtures/kvk/naamgeving-69599084.json"),
    },
    Company {
        kvk_nummer: "69599068",
        basisprofiel: include_str!("../../fixtures/kvk/basisprofiel-69599068.json"),
        vestigingen: include_str!("../../fixtures/kvk/vestigingen-69599068.json"),
        naamgeving: include_str!("../../fixtures/kvk/naamgeving-69599068.json"),
    },
    Company {
        kvk_nummer: "68727720",
        basisprofiel: include_str!("../../fixtures/kvk/basisprofiel-68727720.json"),
        vestigingen: include_str!("../../fixtures/kvk/vestigingen-68727720.json"),
        naamgeving: include_str!("../../fixtures/kvk/naamgeving-68727720.json"),
    },
];

/// Every vestigingsprofiel the fake knows: (vestigingsnummer, document).
pub const VESTIGINGEN: &[(&str, &str)] = &[
    (
        "000037178598",
        include_str!("../../fixtures/kvk/vestigingsprofiel-000037178598.json"),
    ),
    (
        "000037178601",
        include_str!("../../fixtures/kvk/vestigingsprofiel-000037178601.json"),
    ),
    (
        "000038509504",
        include_str!("../../fixtures/kvk/vestigingsprofiel-000038509504.json"),
    ),
    (
        "000038509520",
        include_str!("../../fixtures/kvk/vestigingsprofiel-000038509520.json"),
    ),
];

/// The Zoeken v2 index: `{"inschrijvingen":[…]}`, one entry per registration, full addresses.
pub const ZOEKEN_INDEX: &str = include_str!("../../fixtures/kvk/zoeken-index.json");

/// The company with this KvK number, if the fake knows it.
pub fn company(kvk_nummer: &str) -> Option<&'static Company> {
    COMPANIES
        .iter()
        .find(|company| company.kvk_nummer == kvk_nummer)
}

/// The vestigingsprofiel document of this vestigingsnummer, if the fake knows it.
pub fn vestiging(vestigingsnummer: &str) -> Option<&'static str> {
    VESTIGINGEN
        .iter()
        .find(|(number, _)| *number == vestigingsnummer)
        .map(|(_, document)| *document)
}

/// Parses a fixture, pointing its links at `base` and keeping `geoData` only when asked.
///
/// Panics on a fixture that is not JSON: that is a bug in this crate, caught by its tests.
pub fn load(document: &str, base: &str, with_geo_data: bool) -> Value {
    let text = document.replace(BASE_PLACEHOLDER, base);
    let mut value: Value = serde_json::from_str(&text)
        .unwrap_or_else(|error| panic!("fake KvK fixture is no JSON: {error}"));
    if !with_geo_data {
        remove_key(&mut value, "geoData");
    }
    value
}

fn remove_key(value: &mut Value, key: &str) {
    match value {
        Value::Object(members) => {
            members.shift_remove(key);
            members
                .values_mut()
                .for_each(|member| remove_key(member, key));
        }
        Value::Array(items) => items.iter_mut().for_each(|item| remove_key(item, key)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fixture_parses_and_names_its_own_number() {
        for company in COMPANIES {
            for document in [
                company.basisprofiel,
                company.vestigingen,
                company.naamgeving,
            ] {
                let value = load(document, "http://x", true);
                assert_eq!(value["kvkNummer"], company.kvk_nummer);
                assert!(!value.to_string().contains(BASE_PLACEHOLDER));
            }
        }
        for (number, document) in VESTIGINGEN {
            assert_eq!(
                load(document, "http://x", true)["vestigingsnummer"],
                *number
            );
        }
    }

    #[test]
    fn geo_data_is_removed_unless_asked() {
        let document = company("68750110").unwrap().basisprofiel;
        assert!(!load(document, "b", false).to_string().contains("geoData"));
        let with = load(document, "b", true);
        assert!(
            with["_embedded"]["hoofdvestiging"]["adressen"][1]["geoData"]["gpsLatitude"].is_f64()
        );
    }

    #[test]
    fn volledig_adres_keeps_the_kvk_padding() {
        let value = load(company("68750110").unwrap().basisprofiel, "b", false);
        let adres = value["_embedded"]["hoofdvestiging"]["adressen"][1]["volledigAdres"]
            .as_str()
            .unwrap();
        assert!(adres.contains("3 A   "), "{adres}");
    }
}

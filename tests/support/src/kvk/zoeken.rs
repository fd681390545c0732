//! The fake KvK's `GET …/v2/zoeken`: Zoeken API v2 over the fixture index.
//!
//! Parameter names are the API's, exactly (`kvkNummer`, `resultatenPerPagina`, …); an
//! unknown or malformed parameter gives 400 IPD1999, an unknown `type` 400 IPD5203, zero
//! hits 404 IPD5200. `naam` matches whole words only (as the real API: "koophand" finds
//! nothing), `straatnaam` and `plaats` match case-insensitively. `rsin`, `postcode`,
//! `huisnummer`, `huisletter` and `postbusnummer` appear in a result only when searched on;
//! `actief` only with `inclusiefInactieveRegistraties=true`, which also admits inactive
//! registrations. Links come as `_links` objects, or as `links` arrays for registrations
//! whose fixture says so (69599068), the two shapes the API is known to use.

use serde_json::{Map, Value, json};

use super::fixtures::ZOEKEN_INDEX;
use super::fout;
use super::profielen::is_digits;
use crate::reply::Reply;
use crate::request::RecordedRequest;

/// Every query parameter the Zoeken v2 API accepts.
pub const PARAMETERS: &[&str] = &[
    "kvkNummer",
    "rsin",
    "vestigingsnummer",
    "naam",
    "straatnaam",
    "plaats",
    "postcode",
    "huisnummer",
    "huisletter",
    "postbusnummer",
    "type",
    "inclusiefInactieveRegistraties",
    "pagina",
    "resultatenPerPagina",
];

/// The values of `type` the API accepts.
pub const TYPES: &[&str] = &["hoofdvestiging", "nevenvestiging", "rechtspersoon"];

/// The parameters that count as a search criterion (`type` and paging do not).
const CRITERIA: &[&str] = &[
    "kvkNummer",
    "rsin",
    "vestigingsnummer",
    "naam",
    "straatnaam",
    "plaats",
    "postcode",
    "huisnummer",
    "postbusnummer",
];

/// A validated search.
struct Search<'a> {
    request: &'a RecordedRequest,
    types: Vec<&'a str>,
    inclusief_inactief: bool,
    pagina: usize,
    per_pagina: usize,
}

impl Search<'_> {
    fn param(&self, name: &str) -> Option<&str> {
        self.request.query_param(name)
    }

    fn matches(&self, entry: &Value) -> bool {
        let adres = &entry["adres"]["binnenlandsAdres"];
        let equal = |name: &str, actual: &Value| {
            self.param(name).is_none_or(|wanted| {
                actual
                    .as_str()
                    .is_some_and(|actual| actual.eq_ignore_ascii_case(wanted))
            })
        };
        let number = |name: &str, actual: &Value| {
            self.param(name).is_none_or(|wanted| {
                actual
                    .as_u64()
                    .is_some_and(|actual| wanted.parse() == Ok(actual))
            })
        };
        let postcode = self.param("postcode").map(|code| code.to_ascii_uppercase());
        equal("kvkNummer", &entry["kvkNummer"])
            && equal("rsin", &entry["rsin"])
            && equal("vestigingsnummer", &entry["vestigingsnummer"])
            && equal("straatnaam", &adres["straatnaam"])
            && equal("plaats", &adres["plaats"])
            && equal("huisletter", &adres["huisletter"])
            && number("huisnummer", &adres["huisnummer"])
            && number("postbusnummer", &adres["postbusnummer"])
            && postcode.is_none_or(|code| adres["postcode"] == code.as_str())
            && self.param("naam").is_none_or(|naam| {
                whole_words(naam, &entry["naam"]) || whole_words(naam, &entry["vervallenNaam"])
            })
            && (self.types.is_empty()
                || entry["type"]
                    .as_str()
                    .is_some_and(|kind| self.types.contains(&kind)))
            && (self.inclusief_inactief || entry["actief"] != "Nee")
    }

    /// The entry as the API shows it: fields that were not searched on are left out.
    fn present(&self, entry: &Value, base: &str) -> Value {
        let mut item = Map::new();
        for name in [
            "kvkNummer",
            "rsin",
            "vestigingsnummer",
            "naam",
            "adres",
            "type",
            "actief",
            "vervallenNaam",
        ] {
            let shown = match name {
                "rsin" => self.param("rsin").is_some(),
                "actief" => self.inclusief_inactief,
                _ => true,
            };
            if shown && let Some(value) = entry.get(name) {
                item.insert(name.to_owned(), value.clone());
            }
        }
        if self.param("postcode").is_none()
            && let Some(adres) = item
                .get_mut("adres")
                .and_then(|adres| adres.get_mut("binnenlandsAdres"))
                .and_then(Value::as_object_mut)
        {
            for hidden in ["postcode", "huisnummer", "huisletter", "postbusnummer"] {
                adres.shift_remove(hidden);
            }
        }
        let kvk = entry["kvkNummer"].as_str().unwrap_or_default();
        let mut links = vec![("basisprofiel", format!("{base}/v1/basisprofielen/{kvk}"))];
        if let Some(vestiging) = entry["vestigingsnummer"].as_str() {
            links.push((
                "vestigingsprofiel",
                format!("{base}/v1/vestigingsprofielen/{vestiging}"),
            ));
        }
        let (key, value) = link_member(&links, uses_link_array(entry));
        item.insert(key.to_owned(), value);
        Value::Object(item)
    }

    /// `base/v2/zoeken?…` for page `pagina`, parameter names lower-cased as the API does.
    fn page_url(&self, base: &str, pagina: usize) -> String {
        let mut query = form_urlencoded::Serializer::new(String::new());
        for (name, value) in &self.request.query {
            if name != "pagina" && name != "resultatenPerPagina" {
                query.append_pair(&name.to_ascii_lowercase(), value);
            }
        }
        query.append_pair("pagina", &pagina.to_string());
        query.append_pair("resultatenperpagina", &self.per_pagina.to_string());
        format!("{base}/v2/zoeken?{}", query.finish())
    }
}

/// Answers a Zoeken v2 request; `base` is the API base the client used.
pub fn zoeken(request: &RecordedRequest, base: &str) -> Reply {
    let search = match validate(request) {
        Ok(search) => search,
        Err(reply) => return reply,
    };
    let index: Value = serde_json::from_str(ZOEKEN_INDEX).expect("zoeken-index.json is JSON");
    let hits: Vec<&Value> = index["inschrijvingen"]
        .as_array()
        .map(|entries| {
            entries
                .iter()
                .filter(|entry| search.matches(entry))
                .collect()
        })
        .unwrap_or_default();
    if hits.is_empty() {
        return fout::geen_resultaten();
    }
    let start = (search.pagina - 1) * search.per_pagina;
    let page: Vec<&Value> = hits
        .iter()
        .skip(start)
        .take(search.per_pagina)
        .copied()
        .collect();
    let mut document = Map::new();
    document.insert("pagina".into(), json!(search.pagina));
    document.insert("resultatenPerPagina".into(), json!(search.per_pagina));
    document.insert("totaal".into(), json!(hits.len()));
    if search.pagina > 1 {
        document.insert(
            "vorige".into(),
            json!(search.page_url(base, search.pagina - 1)),
        );
    }
    if start + search.per_pagina < hits.len() {
        document.insert(
            "volgende".into(),
            json!(search.page_url(base, search.pagina + 1)),
        );
    }
    let resultaten = page
        .iter()
        .map(|entry| search.present(entry, base))
        .collect();
    document.insert("resultaten".into(), Value::Array(resultaten));
    let array_links = !page.is_empty() && page.iter().all(|entry| uses_link_array(entry));
    let self_link = [("self", search.page_url(base, search.pagina))];
    let (key, value) = link_member(&self_link, array_links);
    document.insert(key.into(), value);
    Reply::json(200, &Value::Object(document))
}

fn validate(request: &RecordedRequest) -> Result<Search<'_>, Reply> {
    let mut invalid: Vec<String> = Vec::new();
    let mut flag = |name: &str| {
        if !invalid.iter().any(|known| known == name) {
            invalid.push(name.to_owned());
        }
    };
    for (name, _) in &request.query {
        if !PARAMETERS.contains(&name.as_str()) {
            flag(name);
        }
    }
    let param = |name: &str| request.query_param(name);
    let digits =
        |name: &str, count: usize| param(name).is_some_and(|value| !is_digits(value, count));
    for (name, count) in [("kvkNummer", 8), ("rsin", 9), ("vestigingsnummer", 12)] {
        if digits(name, count) {
            flag(name);
        }
    }
    if param("postcode").is_some_and(|code| !is_postcode(code)) {
        flag("postcode");
    }
    for name in ["huisnummer", "postbusnummer"] {
        if param(name).is_some_and(|value| {
            value.is_empty() || value.len() > 5 || !value.bytes().all(|b| b.is_ascii_digit())
        }) {
            flag(name);
        }
    }
    if param("huisletter")
        .is_some_and(|letter| letter.len() != 1 || !letter.bytes().all(|b| b.is_ascii_alphabetic()))
    {
        flag("huisletter");
    }
    let has = |name: &str| param(name).is_some();
    if has("postcode") && !has("huisnummer") && !has("postbusnummer") {
        flag("postcode");
    }
    if has("huisnummer") && !has("postcode") {
        flag("huisnummer");
    }
    if has("postbusnummer") && !has("postcode") {
        flag("postbusnummer");
    }
    if has("huisletter") && !has("huisnummer") {
        flag("huisletter");
    }
    let inclusief_inactief = match param("inclusiefInactieveRegistraties") {
        None | Some("false") => false,
        Some("true") => true,
        Some(_) => {
            flag("inclusiefInactieveRegistraties");
            false
        }
    };
    let pagina = bounded(param("pagina"), 1, 1000, 1).unwrap_or_else(|| {
        flag("pagina");
        1
    });
    let per_pagina = bounded(param("resultatenPerPagina"), 1, 100, 10).unwrap_or_else(|| {
        flag("resultatenPerPagina");
        10
    });
    if !CRITERIA.iter().any(|name| has(name)) && invalid.is_empty() {
        return Err(fout::fout(
            400,
            "IPD1999",
            "Geef minimaal één zoekparameter op.",
        ));
    }
    if !invalid.is_empty() {
        return Err(fout::ongeldige_parameters(&invalid));
    }
    let types = request.query_values("type");
    if let Some(unknown) = types.iter().find(|kind| !TYPES.contains(kind)) {
        return Err(fout::ongeldig_type(unknown));
    }
    Ok(Search {
        request,
        types,
        inclusief_inactief,
        pagina,
        per_pagina,
    })
}

/// A number in `min..=max`, `default` when absent, `None` when malformed or out of range.
fn bounded(value: Option<&str>, min: usize, max: usize, default: usize) -> Option<usize> {
    match value {
        None => Some(default),
        Some(text) => text
            .parse()
            .ok()
            .filter(|number| (min..=max).contains(number)),
    }
}

fn is_postcode(code: &str) -> bool {
    let bytes = code.as_bytes();
    bytes.len() == 6
        && bytes[..4].iter().all(u8::is_ascii_digit)
        && bytes[4..].iter().all(u8::is_ascii_alphabetic)
}

/// Whether every word of `query` is a whole word of `name` (case-insensitive).
fn whole_words(query: &str, name: &Value) -> bool {
    let Some(name) = name.as_str() else {
        return false;
    };
    let words = |text: &str| -> Vec<String> {
        text.split(|c: char| !c.is_alphanumeric())
            .filter(|word| !word.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let name_words = words(name);
    let query_words = words(query);
    !query_words.is_empty() && query_words.iter().all(|word| name_words.contains(word))
}

fn uses_link_array(entry: &Value) -> bool {
    entry["linkVorm"] == "array"
}

/// Links as `("links", [{rel, href}])` or as `("_links", {rel: {href}})`.
fn link_member(links: &[(&str, String)], as_array: bool) -> (&'static str, Value) {
    if as_array {
        let items = links
            .iter()
            .map(|(rel, href)| json!({"rel": rel, "href": href}))
            .collect();
        ("links", Value::Array(items))
    } else {
        let object = links
            .iter()
            .map(|(rel, href)| ((*rel).to_owned(), json!({"href": href})))
            .collect();
        ("_links", Value::Object(object))
    }
}

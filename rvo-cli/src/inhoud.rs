//! The contents of a report under Bal art. 5.15a, lid 1, built from a concept-aanvraag
//! (`regelrecht-cli concept`) and the measures the entrepreneur names (spec/rvo-backend.md §3.1).
//!
//! - (a) the KvK number: the concept's;
//! - (b) the list measures taken: `--maatregel` by code or name, matched case-insensitively
//!   against the concept's list; a near miss is an error with a suggestion, never a guess;
//! - (c) the list measures that do not apply, with their unmet conditions: from the concept;
//! - (d) other measures taken with a payback time of at most five years: `--overige-maatregel`,
//!   free text; a text that names a list measure is refused (use `--maatregel`), so the two are
//!   never merged;
//! - (e) the energy use (kWh electricity, m³ natural-gas equivalent) from the concept's fields,
//!   and the calendar year it was measured over (`--kalenderjaar`).
//!
//! Which concept member feeds which part is the concept's own `rvo[].rapportage` mapping, so
//! nothing here names a regulation or a law.

use serde_json::Value;

use crate::backend_types::FieldError;
use crate::backend_types::{Energiegebruik, LijstMaatregel, NietVanToepassing, RapportageInhoud};
use crate::canonical::{canonical_maatregel, canonical_words};
use crate::filing::MAX_MAATREGEL_CHARS;

/// What the entrepreneur adds to a concept when filing it.
pub struct InhoudInput<'a> {
    pub concept: &'a Value,
    pub maatregelen: &'a [String],
    pub overige: &'a [String],
    pub kalenderjaar: Option<&'a str>,
}

/// A report built from a concept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FromConcept {
    pub regeling_id: String,
    pub kvk_nummer: String,
    /// The taken list measures as the report's `maatregelen` (`<code> <naam>`, canonical).
    pub maatregelen: Vec<String>,
    pub inhoud: RapportageInhoud,
}

fn error(pointer: &str, detail: impl Into<String>) -> FieldError {
    FieldError {
        pointer: pointer.to_string(),
        detail: detail.into(),
    }
}

/// One item of the concept's list.
struct Item {
    code: String,
    naam: String,
    applies: Option<bool>,
    unmet: Vec<String>,
}

fn items(list: &Value) -> Vec<Item> {
    list.as_array()
        .into_iter()
        .flatten()
        .map(|i| Item {
            code: i["code"].as_str().unwrap_or_default().to_string(),
            naam: i["naam"].as_str().unwrap_or_default().to_string(),
            applies: i["van_toepassing"].as_bool(),
            unmet: i["niet_vervulde_randvoorwaarden"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| c["randvoorwaarde"].as_str().map(String::from))
                .collect(),
        })
        .collect()
}

/// Edit distance of two texts (by characters).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let current = row[j + 1];
            row[j + 1] = (previous + usize::from(ca != *cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            previous = current;
        }
    }
    row[b.len()]
}

/// How a text names a list item: exactly (code or name, case-insensitive), nearly, or not.
enum Match<'i> {
    Exact(&'i Item),
    Near(&'i Item),
    None,
}

fn resolve<'i>(text: &str, list: &'i [Item]) -> Match<'i> {
    let wanted = canonical_maatregel(text);
    if let Some(item) = list
        .iter()
        .find(|i| canonical_maatregel(&i.code) == wanted || canonical_maatregel(&i.naam) == wanted)
    {
        return Match::Exact(item);
    }
    let near = list
        .iter()
        .map(|i| {
            let name = canonical_maatregel(&i.naam);
            let code = canonical_maatregel(&i.code);
            let d = distance(&wanted, &name).min(distance(&wanted, &code));
            let contained = wanted.len() >= 4 && (name.contains(&wanted) || wanted.contains(&name));
            (i, if contained { 0 } else { d }, name.chars().count())
        })
        .filter(|(_, d, len)| *d <= (*len / 4).max(2))
        .min_by_key(|(_, d, _)| *d);
    match near {
        Some((item, _, _)) => Match::Near(item),
        None => Match::None,
    }
}

fn field_value<'c>(concept: &'c Value, name: &str) -> Option<&'c Value> {
    concept["velden"]
        .as_array()?
        .iter()
        .find(|f| f["naam"] == name)
        .map(|f| &f["waarde"])
}

fn number(
    concept: &Value,
    mapping: &Value,
    member: &str,
    errors: &mut Vec<FieldError>,
) -> serde_json::Number {
    let field = mapping[member].as_str().unwrap_or_default();
    match field_value(concept, field).and_then(Value::as_number) {
        Some(n) => n.clone(),
        None => {
            errors.push(error(
                "/concept",
                format!("het concept heeft geen getal voor '{field}' ({member})"),
            ));
            serde_json::Number::from(0)
        }
    }
}

/// Why a concept is not complete, for whoever can change it: a source that could not be fetched
/// is no question for the person (make the concept again once the source answers), an open
/// question is (`--opgave`). Each is named only when there is one.
fn incomplete(concept: &Value) -> String {
    let names = |member: &str, describe: fn(&Value) -> Option<String>| -> Vec<String> {
        concept[member]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(describe)
            .collect()
    };
    let unfetched = names("niet_opgehaald", |missing| {
        let field = missing["naam"].as_str()?;
        let source = missing["bron"].as_str().unwrap_or("?");
        Some(match missing["reden"].as_str() {
            Some(why) => format!("{field} uit {source} ({why})"),
            None => format!("{field} uit {source}"),
        })
    });
    let open = names("open_vragen", |q| q["naam"].as_str().map(str::to_string));
    let mut why = Vec::new();
    if !unfetched.is_empty() {
        why.push(format!(
            "deze gegevens konden niet bij hun bron worden opgehaald: {}; dat is geen vraag voor de \
             persoon: maak het concept opnieuw (regelrecht-cli concept) als de bron antwoordt",
            unfetched.join("; ")
        ));
    }
    if !open.is_empty() {
        why.push(format!(
            "beantwoord de open vragen met regelrecht-cli concept --opgave ({})",
            open.join(", ")
        ));
    }
    if why.is_empty() {
        why.push("maak het concept opnieuw met regelrecht-cli concept".into());
    }
    format!("het concept is niet compleet: {}", why.join("; en "))
}

/// The report of a complete concept with the named measures, or every problem at once: the
/// concept's [`applying_scheme`], then the parts of the module's header in turn ((b)
/// [`taken_measures`], (d) [`other_measures`], (e) [`calendar_year`] and the energy use, (a)
/// [`kvk_number`]), and, when nothing is wrong, the report with (c) [`not_applicable`].
pub fn from_concept(input: &InhoudInput<'_>) -> Result<FromConcept, Vec<FieldError>> {
    let concept = input.concept;
    let scheme = applying_scheme(concept)?;
    let mapping = &scheme["rapportage"];
    let list = items(&concept["lijsten"][mapping["maatregelenlijst"].as_str().unwrap_or_default()]);
    let mut errors = Vec::new();
    let taken = taken_measures(input.maatregelen, &list, &mut errors);
    let overige = other_measures(input.overige, &list, &mut errors);
    if taken.is_empty() && overige.is_empty() {
        errors.push(error(
            "/maatregel",
            "geef ten minste één getroffen maatregel: --maatregel CODE of --overige-maatregel TEKST",
        ));
    }
    let kalenderjaar = calendar_year(input.kalenderjaar, &mut errors);
    let elektriciteit_kwh = number(concept, mapping, "elektriciteit_kwh", &mut errors);
    let aardgas = number(concept, mapping, "aardgas_m3", &mut errors);
    let kvk_nummer = kvk_number(concept, mapping, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut getroffen: Vec<LijstMaatregel> = taken
        .iter()
        .map(|i| LijstMaatregel {
            code: i.code.clone(),
            naam: i.naam.clone(),
        })
        .collect();
    getroffen.sort_by(|a, b| a.code.cmp(&b.code));
    Ok(FromConcept {
        regeling_id: scheme["regeling_id"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        kvk_nummer,
        maatregelen: getroffen
            .iter()
            .map(|m| canonical_maatregel(&format!("{} {}", m.code, m.naam)))
            .collect(),
        inhoud: RapportageInhoud {
            getroffen_maatregelen: getroffen,
            niet_van_toepassing: not_applicable(&list),
            overige_maatregelen: overige,
            energiegebruik: Energiegebruik {
                kalenderjaar,
                elektriciteit_kwh,
                aardgas_m3_aardgasequivalent: aardgas,
            },
            concept_digest: concept["concept_digest"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
            concept_regeling: format!(
                "{}@{}",
                concept["regeling"]["id"].as_str().unwrap_or_default(),
                concept["regeling"]["versie"].as_str().unwrap_or_default()
            ),
        },
    })
}

/// Step: the RVO scheme the complete concept leads to a report under; a concept that is not
/// complete, or leads to none, is refused alone.
fn applying_scheme(concept: &Value) -> Result<&Value, Vec<FieldError>> {
    if concept["status"] != "compleet" {
        return Err(vec![error("/concept", incomplete(concept))]);
    }
    concept["rvo"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|s| s["van_toepassing"] == Value::Bool(true))
        .ok_or_else(|| {
            vec![error(
                "/concept",
                "volgens het concept leidt geen uitkomst tot een RVO-rapportage; er valt niets in te dienen",
            )]
        })
}

/// Step (b): the list measures taken, each once, in the order given: every `--maatregel`
/// matched against the concept's list; one that does not apply, a near miss (with its
/// suggestion) or none at all is an error.
fn taken_measures<'l>(
    given: &[String],
    list: &'l [Item],
    errors: &mut Vec<FieldError>,
) -> Vec<&'l Item> {
    let mut taken: Vec<&Item> = Vec::new();
    for text in given {
        match resolve(text, list) {
            Match::Exact(item) if item.applies == Some(true) => {
                if !taken.iter().any(|t| t.code == item.code) {
                    taken.push(item);
                }
            }
            Match::Exact(item) => errors.push(error(
                "/maatregel",
                format!(
                    "maatregel {} '{}' is volgens het concept niet van toepassing",
                    item.code, item.naam
                ),
            )),
            Match::Near(item) => errors.push(error(
                "/maatregel",
                format!(
                    "'{text}' staat niet op de lijst; bedoelt u {} '{}'?",
                    item.code, item.naam
                ),
            )),
            Match::None => {
                let known: Vec<String> = list
                    .iter()
                    .map(|i| format!("{} '{}'", i.code, i.naam))
                    .collect();
                errors.push(error(
                    "/maatregel",
                    format!(
                        "'{text}' staat niet op de lijst ({}); een andere maatregel hoort bij --overige-maatregel",
                        known.join(", ")
                    ),
                ));
            }
        }
    }
    taken
}

/// Step (d): the other measures, filed as the person wrote them (the folded form only compares:
/// one measure once, whatever the order given); an empty one, one too long or with control
/// characters, or one that names a list measure is an error.
fn other_measures(given: &[String], list: &[Item], errors: &mut Vec<FieldError>) -> Vec<String> {
    let mut overige: Vec<(String, String)> = Vec::new();
    for text in given {
        let canonical = canonical_words(text);
        if canonical.is_empty() {
            errors.push(error("/overige_maatregel", "een overige maatregel is leeg"));
            continue;
        }
        if canonical.chars().count() > MAX_MAATREGEL_CHARS
            || canonical.chars().any(char::is_control)
        {
            errors.push(error(
                "/overige_maatregel",
                format!("een overige maatregel is langer dan {MAX_MAATREGEL_CHARS} tekens of bevat stuurtekens"),
            ));
            continue;
        }
        match resolve(text, list) {
            Match::Exact(item) | Match::Near(item) => errors.push(error(
                "/overige_maatregel",
                format!(
                    "'{text}' lijkt op lijstmaatregel {} '{}'; geef die met --maatregel {}",
                    item.code, item.naam, item.code
                ),
            )),
            Match::None => overige.push((canonical_maatregel(&canonical), canonical)),
        }
    }
    // Sorted by the folded form, then the spelling, so the order given changes nothing and of
    // two spellings of one measure the same one is kept.
    overige.sort();
    overige.dedup_by(|a, b| a.0 == b.0);
    overige.into_iter().map(|(_, text)| text).collect()
}

/// Step (e): the calendar year the energy use was measured over, as given, not trimmed: the
/// published pattern is what is accepted (DISC-22). Missing or malformed is an error (and 0).
fn calendar_year(given: Option<&str>, errors: &mut Vec<FieldError>) -> i32 {
    match given {
        Some(year) if year.len() == 4 && year.bytes().all(|b| b.is_ascii_digit()) => {
            year.parse().unwrap_or_default()
        }
        Some(year) => {
            errors.push(error(
                "/kalenderjaar",
                format!("{year:?} is geen kalenderjaar (JJJJ)"),
            ));
            0
        }
        None => {
            errors.push(error(
                "/kalenderjaar",
                "geef het kalenderjaar waarover het energiegebruik is gemeten (--kalenderjaar JJJJ)",
            ));
            0
        }
    }
}

/// Step (a): the KvK number of the concept's field the mapping names (the concept's own when it
/// has none); the two must be the same.
fn kvk_number(concept: &Value, mapping: &Value, errors: &mut Vec<FieldError>) -> String {
    let kvk_field = mapping["kvk_nummer"].as_str().unwrap_or("kvk_nummer");
    let kvk_nummer = field_value(concept, kvk_field)
        .and_then(Value::as_str)
        .or_else(|| concept["kvk_nummer"].as_str())
        .unwrap_or_default()
        .to_string();
    if concept["kvk_nummer"].as_str() != Some(kvk_nummer.as_str()) {
        errors.push(error(
            "/concept",
            "het KvK-nummer van het concept en dat van zijn gegevens verschillen",
        ));
    }
    kvk_nummer
}

/// Step (c): the list measures that do not apply, with their unmet conditions, from the concept.
fn not_applicable(list: &[Item]) -> Vec<NietVanToepassing> {
    list.iter()
        .filter(|i| i.applies == Some(false))
        .map(|i| NietVanToepassing {
            code: i.code.clone(),
            naam: i.naam.clone(),
            niet_vervulde_randvoorwaarden: i.unmet.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn concept() -> Value {
        json!({
            "status": "compleet",
            "kvk_nummer": "68750110",
            "regeling": {"id": "r", "versie": "1"},
            "concept_digest": "d",
            "velden": [
                {"naam": "kvk", "waarde": "68750110"},
                {"naam": "kwh", "waarde": 250000},
                {"naam": "m3", "waarde": 31000}
            ],
            "lijsten": {"lijst": [
                {"code": "GF4", "naam": "LED-verlichting", "van_toepassing": true},
                {"code": "FE4", "naam": "Laagdebiet afzuigkap", "van_toepassing": false,
                 "niet_vervulde_randvoorwaarden": [{"gegeven": "x", "randvoorwaarde": "Heeft u een afzuiginstallatie?"}]}
            ]},
            "rvo": [{"regeling_id": "RVO-TEST-1", "van_toepassing": true, "rapportage": {
                "kvk_nummer": "kvk", "maatregelenlijst": "lijst", "elektriciteit_kwh": "kwh", "aardgas_m3": "m3"}}]
        })
    }

    fn file(maatregelen: &[&str], overige: &[&str]) -> Result<FromConcept, Vec<FieldError>> {
        let c = concept();
        let m: Vec<String> = maatregelen.iter().map(|s| s.to_string()).collect();
        let o: Vec<String> = overige.iter().map(|s| s.to_string()).collect();
        from_concept(&InhoudInput {
            concept: &c,
            maatregelen: &m,
            overige: &o,
            kalenderjaar: Some("2025"),
        })
    }

    /// A source that could not be fetched is named as such, never as an open question: with every
    /// question answered the person has nothing to answer (issue 40: the list was empty).
    #[test]
    fn an_unfetched_source_is_named_and_is_no_question_for_the_person() {
        let detail = |concept: Value| {
            let errors = from_concept(&InhoudInput {
                concept: &concept,
                maatregelen: &[],
                overige: &[],
                kalenderjaar: Some("2025"),
            })
            .unwrap_err();
            assert_eq!(errors[0].pointer, "/concept");
            errors[0].detail.clone()
        };
        let unfetched = json!({"status": "onvolledig", "open_vragen": [], "niet_opgehaald": [
            {"naam": "kvk_nummer", "bron": "kvk-basisprofiel", "exit_code": 69,
             "reden": "api.kvk.nl is niet bereikbaar (BRON_ONBEREIKBAAR)"}]});
        let text = detail(unfetched);
        assert!(
            text.contains("kvk_nummer uit kvk-basisprofiel (api.kvk.nl is niet bereikbaar")
                && text.contains("geen vraag voor de persoon")
                && !text.contains("open vragen"),
            "{text}"
        );
        let both = json!({"status": "onvolledig",
            "open_vragen": [{"naam": "elektriciteitsverbruik_kwh"}],
            "niet_opgehaald": [{"naam": "kvk_nummer", "bron": "kvk-basisprofiel"}]});
        let text = detail(both);
        assert!(
            text.contains("kvk_nummer uit kvk-basisprofiel")
                && text.contains("--opgave (elektriciteitsverbruik_kwh)"),
            "{text}"
        );
        let open =
            json!({"status": "onvolledig", "open_vragen": [{"naam": "x"}], "niet_opgehaald": []});
        let text = detail(open);
        assert!(
            text.contains("--opgave (x)") && !text.contains("bron"),
            "{text}"
        );
    }

    #[test]
    fn measures_by_code_or_name_case_insensitively() {
        for text in ["GF4", "gf4", "led-verlichting", "LED-Verlichting"] {
            let built = file(&[text], &[]).unwrap();
            assert_eq!(built.inhoud.getroffen_maatregelen[0].code, "GF4", "{text}");
        }
        let built = file(&["gf4", "LED-verlichting"], &[]).unwrap();
        assert_eq!(built.inhoud.getroffen_maatregelen.len(), 1);
        assert_eq!(
            built.inhoud.niet_van_toepassing[0].niet_vervulde_randvoorwaarden,
            ["Heeft u een afzuiginstallatie?"]
        );
        assert_eq!(
            built.inhoud.energiegebruik.elektriciteit_kwh,
            serde_json::Number::from(250000)
        );
    }

    #[test]
    fn a_near_miss_gets_a_suggestion_and_others_are_never_merged() {
        let errors = file(&["LED-verlichtng"], &[]).unwrap_err();
        assert!(errors[0].detail.contains("bedoelt u GF4"), "{errors:?}");
        let errors = file(&["GF4"], &["led verlichting"]).unwrap_err();
        assert_eq!(errors[0].pointer, "/overige_maatregel");
        let errors = file(&["FE4"], &[]).unwrap_err();
        assert!(
            errors[0].detail.contains("niet van toepassing"),
            "{errors:?}"
        );
        let built = file(&[], &["Zonnepanelen op het dak"]).unwrap();
        assert_eq!(
            built.inhoud.overige_maatregelen,
            ["Zonnepanelen op het dak"]
        );
        assert!(built.maatregelen.is_empty());
    }

    #[test]
    fn other_measures_are_filed_as_written_and_compared_folded() {
        let built = file(
            &[],
            &["Warmtepomp  ACV", "Zonnepanelen (SDE)", "warmtepomp acv"],
        )
        .unwrap();
        assert_eq!(
            built.inhoud.overige_maatregelen,
            ["Warmtepomp ACV", "Zonnepanelen (SDE)"]
        );
        let reversed = file(
            &[],
            &["warmtepomp acv", "Zonnepanelen (SDE)", "Warmtepomp  ACV"],
        )
        .unwrap();
        assert_eq!(
            reversed.inhoud.overige_maatregelen,
            built.inhoud.overige_maatregelen
        );
        // Still refused when it is a list measure in another case.
        let errors = file(&[], &["LED VERLICHTING"]).unwrap_err();
        assert_eq!(errors[0].pointer, "/overige_maatregel");
    }
}

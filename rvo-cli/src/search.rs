//! Ranked, case- and accent-insensitive search over the catalogue.
//!
//! Every word of the query must occur in a scheme (in its id, name, keywords or description);
//! matches in the name and keywords weigh more than matches in the description, and whole words
//! more than parts of words. Equal scores put open schemes before closed ones and otherwise keep
//! catalogue order. Zero hits is an empty list, not an error.

use chrono::NaiveDate;
use serde::Serialize;

use crate::catalogue::{Catalogue, Regeling, Soort};
use crate::status::{RegelingOpDatum, Status};
use crate::text::{fold, words};

/// Filters applied after matching.
#[derive(Debug, Clone, Copy)]
pub struct Filters {
    /// Only schemes with this status on `date`.
    pub status: Option<Status>,
    /// Only schemes of this kind.
    pub soort: Option<Soort>,
    /// The date statuses are computed for.
    pub date: NaiveDate,
}

/// One search hit.
#[derive(Debug, Clone, Serialize)]
pub struct Treffer<'a> {
    /// The scheme with its status on the filter date.
    #[serde(flatten)]
    pub regeling: RegelingOpDatum<'a>,
    /// Relevance; higher is better. Only meaningful relative to other hits of the same query.
    pub score: u32,
}

/// Searches `catalogue` for `query`, best hits first (ties: open first, then catalogue order).
///
/// An empty query (no letters or digits) matches every scheme with score 0.
pub fn search<'a>(catalogue: &'a Catalogue, query: &str, filters: Filters) -> Vec<Treffer<'a>> {
    let folded_query = fold(query);
    let query_words: Vec<&str> = words(&folded_query).collect();
    let mut hits: Vec<Treffer<'a>> = catalogue
        .list()
        .iter()
        .filter(|regeling| filters.soort.is_none_or(|soort| regeling.soort == soort))
        .map(|regeling| RegelingOpDatum::new(regeling, filters.date))
        .filter(|shown| filters.status.is_none_or(|status| shown.status == status))
        .filter_map(|shown| {
            score(shown.regeling, &folded_query, &query_words).map(|score| Treffer {
                regeling: shown,
                score,
            })
        })
        .collect();
    hits.sort_by_key(|hit| {
        (
            std::cmp::Reverse(hit.score),
            status_rank(hit.regeling.status),
        )
    });
    hits
}

/// Among equal scores: open schemes first, then those opening soon, then closed ones.
fn status_rank(status: Status) -> u8 {
    match status {
        Status::Open => 0,
        Status::BinnenkortOpen => 1,
        Status::Gesloten => 2,
    }
}

/// Folded text of one scheme, split into the fields that weigh differently.
struct Fields {
    id: String,
    naam: String,
    trefwoorden: Vec<String>,
    beschrijving: String,
}

/// The score of `regeling` for the query, or `None` when some query word does not occur.
fn score(regeling: &Regeling, folded_query: &str, query_words: &[&str]) -> Option<u32> {
    let fields = Fields {
        id: fold(&regeling.id),
        naam: fold(&regeling.naam),
        trefwoorden: regeling.trefwoorden.iter().map(|t| fold(t)).collect(),
        beschrijving: fold(&regeling.beschrijving),
    };
    let mut total = 0;
    for word in query_words {
        let word_score = word_score(&fields, word);
        if word_score == 0 {
            return None;
        }
        total += word_score;
    }
    if query_words.len() > 1 && fields.naam.contains(folded_query.trim()) {
        total += 5;
    }
    Some(total)
}

/// How well one query word matches: its best match in any field.
fn word_score(fields: &Fields, word: &str) -> u32 {
    let id = field_score(&fields.id, word, [12, 8, 0]);
    let naam = field_score(&fields.naam, word, [10, 6, 4]);
    let trefwoord = fields
        .trefwoorden
        .iter()
        .map(|keyword| {
            if keyword == word {
                9
            } else {
                field_score(keyword, word, [6, 4, 3])
            }
        })
        .max()
        .unwrap_or(0);
    let beschrijving = field_score(&fields.beschrijving, word, [2, 1, 1]);
    id.max(naam).max(trefwoord).max(beschrijving)
}

/// `[whole word, word prefix, anywhere]` weights for a match of `word` in `text`.
fn field_score(text: &str, word: &str, weights: [u32; 3]) -> u32 {
    if words(text).any(|w| w == word) {
        weights[0]
    } else if words(text).any(|w| w.starts_with(word)) {
        weights[1]
    } else if text.contains(word) {
        weights[2]
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_on(date: &str) -> Filters {
        Filters {
            status: None,
            soort: None,
            date: date.parse().unwrap(),
        }
    }

    fn ids(hits: &[Treffer<'_>]) -> Vec<String> {
        hits.iter()
            .map(|hit| hit.regeling.regeling.id.clone())
            .collect()
    }

    #[test]
    fn is_case_and_accent_insensitive() {
        let catalogue = Catalogue::embedded();
        let plain = ids(&search(catalogue, "informatieplicht", all_on("2026-11-30")));
        let shouted = ids(&search(catalogue, "INFORMATIEPLÎCHT", all_on("2026-11-30")));
        assert_eq!(plain, shouted);
        assert_eq!(plain, ["EBR-2027", "EBR-2023", "ONDERZOEKSPLICHT-2027"]);
        let accented = ids(&search(catalogue, "énergiebesparing", all_on("2026-11-30")));
        assert!(accented.contains(&"EBR-2027".to_string()));
    }

    #[test]
    fn name_and_keyword_matches_rank_above_description_matches() {
        let hits = search(Catalogue::embedded(), "warmtepomp", all_on("2026-11-30"));
        assert_eq!(ids(&hits)[0], "ISDE-2026");
        let hits = search(Catalogue::embedded(), "energie", all_on("2026-11-30"));
        assert!(hits.len() >= 6, "energie occurs in most schemes");
        assert!(hits.windows(2).all(|pair| pair[0].score >= pair[1].score));
    }

    #[test]
    fn id_matches_rank_first() {
        let hits = search(Catalogue::embedded(), "eia", all_on("2026-11-30"));
        assert_eq!(ids(&hits)[0], "EIA-2026");
    }

    #[test]
    fn all_query_words_must_match() {
        let catalogue = Catalogue::embedded();
        assert_eq!(
            ids(&search(
                catalogue,
                "onderzoeksplicht energie",
                all_on("2026-11-30")
            )),
            ["ONDERZOEKSPLICHT-2027", "EBR-2027"]
        );
        assert!(search(catalogue, "energie kaasschaaf", all_on("2026-11-30")).is_empty());
    }

    #[test]
    fn zero_hits_is_an_empty_list() {
        assert!(search(Catalogue::embedded(), "xyzzy", all_on("2026-11-30")).is_empty());
    }

    #[test]
    fn filters_on_status_and_kind() {
        let catalogue = Catalogue::embedded();
        let closed = Filters {
            status: Some(Status::Gesloten),
            ..all_on("2026-11-30")
        };
        let closed_ids = ids(&search(catalogue, "informatieplicht", closed));
        assert_eq!(closed_ids, ["EBR-2023"]);
        let grants = Filters {
            soort: Some(Soort::Subsidie),
            ..all_on("2026-11-30")
        };
        let grant_ids = ids(&search(catalogue, "", grants));
        assert_eq!(grant_ids, ["ISDE-2026", "SDE-2026"]);
    }
}

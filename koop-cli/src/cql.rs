//! CQL queries for the KOOP SRU service (`x-connection=BWB`), with user text always quoted and escaped.
//!
//! User text is put inside a CQL quoted string. Within it `\` and `"` are escaped, and so are the CQL
//! masking characters `*`, `?` and `^`, so they match literally. Because the text is always quoted, CQL
//! keywords (`and`, `or`, `not`, `prox`) and parentheses in it are plain words, never syntax.

use chrono::NaiveDate;

use crate::error::KoopError;
use crate::id::BwbId;

/// Known values of `dcterms.type` for BWB, in the spelling the service uses.
pub const REGELING_TYPES: &[&str] = &[
    "wet",
    "AMvB",
    "ministeriele-regeling",
    "KB",
    "rijkswet",
    "rijksKB",
    "verdrag",
    "beleidsregel",
    "circulaire",
    "zbo",
    "pbo",
    "reglement",
];

/// Longest search term accepted (characters), to keep requests bounded.
pub const MAX_TERM_CHARS: usize = 500;

/// The parameters of `regeling zoek`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchParams {
    /// Words to look for in the titles (citeertitel, official and unofficial title).
    pub trefwoord: String,
    /// Rechtsgebied (`overheidbwb.rechtsgebied`), e.g. `Bestuursrecht`.
    pub onderwerp: Option<String>,
    /// Type of regulation (`dcterms.type`), e.g. `wet` or `AMvB`.
    pub regeling_type: Option<String>,
    /// Only versions in force on this date (`overheidbwb.geldigheidsdatum`).
    pub peildatum: NaiveDate,
}

/// Quotes user text as a CQL search term: `"…"` with `\`, `"`, `*`, `?`, `^` escaped and whitespace
/// (including control characters) collapsed to single spaces.
pub fn quote_term(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    let mut first = true;
    for word in text
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
    {
        if !first {
            out.push(' ');
        }
        first = false;
        for c in word.chars() {
            if matches!(c, '\\' | '"' | '*' | '?' | '^') {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out.push('"');
    out
}

/// Builds the query of `regeling zoek`:
/// `overheidbwb.titel all "…" [and overheidbwb.rechtsgebied="…"] [and dcterms.type="…"] and overheidbwb.geldigheidsdatum=YYYY-MM-DD`.
///
/// `all` means every word must occur in a title. Errors: an empty or too long term, an empty onderwerp,
/// or a type that is not a word (letters, digits, `-`).
pub fn search_query(params: &SearchParams) -> Result<String, KoopError> {
    let words = normalised_text(&params.trefwoord);
    if words.is_empty() {
        return Err(KoopError::InvalidInput {
            field: "trefwoord",
            detail: "het trefwoord is leeg".into(),
        });
    }
    if words.chars().count() > MAX_TERM_CHARS {
        return Err(KoopError::InvalidInput {
            field: "trefwoord",
            detail: format!("het trefwoord is langer dan {MAX_TERM_CHARS} tekens"),
        });
    }
    let mut query = format!("overheidbwb.titel all {}", quote_term(&words));
    if let Some(onderwerp) = &params.onderwerp {
        let onderwerp = normalised_text(onderwerp);
        if onderwerp.is_empty() || onderwerp.chars().count() > MAX_TERM_CHARS {
            return Err(KoopError::InvalidInput {
                field: "onderwerp",
                detail: "het onderwerp (rechtsgebied) is leeg of te lang".into(),
            });
        }
        query.push_str(" and overheidbwb.rechtsgebied=");
        query.push_str(&quote_term(&onderwerp));
    }
    if let Some(kind) = &params.regeling_type {
        query.push_str(" and dcterms.type=");
        query.push_str(&quote_term(&canonical_type(kind)?));
    }
    push_date(&mut query, params.peildatum);
    Ok(query)
}

/// Query for one law in the version in force on `peildatum`:
/// `dcterms.identifier==BWBR… and overheidbwb.geldigheidsdatum=YYYY-MM-DD`.
pub fn id_query(id: &BwbId, peildatum: NaiveDate) -> String {
    let mut query = versions_query(id);
    push_date(&mut query, peildatum);
    query
}

/// Query for all versions (toestanden) of one law: `dcterms.identifier==BWBR…`.
pub fn versions_query(id: &BwbId) -> String {
    // A validated id has only letters and digits: nothing to quote.
    format!("dcterms.identifier=={id}")
}

/// The spelling of a known type (case-insensitive, `ministeriële` accepted), or the value itself when it is
/// a plain word; anything else is refused.
pub fn canonical_type(input: &str) -> Result<String, KoopError> {
    let folded = input.trim().to_lowercase().replace('ë', "e");
    if let Some(known) = REGELING_TYPES.iter().find(|t| t.to_lowercase() == folded) {
        return Ok((*known).to_owned());
    }
    let plain = !folded.is_empty()
        && folded.len() <= 60
        && input
            .trim()
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-');
    if plain {
        Ok(input.trim().to_owned())
    } else {
        Err(KoopError::InvalidInput {
            field: "type",
            detail: format!(
                "onbekend type {input:?}; bekende types: {}",
                REGELING_TYPES.join(", ")
            ),
        })
    }
}

fn push_date(query: &mut String, date: NaiveDate) {
    query.push_str(" and overheidbwb.geldigheidsdatum=");
    query.push_str(&date.format("%Y-%m-%d").to_string());
}

fn normalised_text(text: &str) -> String {
    text.split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 1, 1).unwrap()
    }

    fn params(term: &str) -> SearchParams {
        SearchParams {
            trefwoord: term.into(),
            onderwerp: None,
            regeling_type: None,
            peildatum: date(),
        }
    }

    #[test]
    fn plain_search() {
        assert_eq!(
            search_query(&params("energiebesparing")).unwrap(),
            r#"overheidbwb.titel all "energiebesparing" and overheidbwb.geldigheidsdatum=2026-01-01"#
        );
    }

    #[test]
    fn keywords_and_quotes_are_data() {
        let q = search_query(&params(r#"wet" or dcterms.type=wet and (x"#)).unwrap();
        assert_eq!(
            q,
            r#"overheidbwb.titel all "wet\" or dcterms.type=wet and (x" and overheidbwb.geldigheidsdatum=2026-01-01"#
        );
        assert_eq!(quote_term("not prox"), r#""not prox""#);
    }

    #[test]
    fn masking_characters_and_backslash_are_escaped() {
        assert_eq!(quote_term(r"a*b?c^d\e"), r#""a\*b\?c\^d\\e""#);
        assert_eq!(quote_term("\\\""), r#""\\\"""#);
    }

    #[test]
    fn whitespace_and_control_characters_collapse() {
        assert_eq!(
            quote_term("  zorg\t\ntoeslag\u{0}x  "),
            r#""zorg toeslag x""#
        );
    }

    #[test]
    fn onderwerp_and_type_are_added_and_quoted() {
        let mut p = params("milieu");
        p.onderwerp = Some("Bestuurs\"recht".into());
        p.regeling_type = Some("amvb".into());
        assert_eq!(
            search_query(&p).unwrap(),
            r#"overheidbwb.titel all "milieu" and overheidbwb.rechtsgebied="Bestuurs\"recht" and dcterms.type="AMvB" and overheidbwb.geldigheidsdatum=2026-01-01"#
        );
    }

    #[test]
    fn bad_inputs_are_refused() {
        assert!(matches!(
            search_query(&params("  \t ")),
            Err(KoopError::InvalidInput { .. })
        ));
        assert!(search_query(&params(&"x".repeat(MAX_TERM_CHARS + 1))).is_err());
        let mut p = params("x");
        p.regeling_type = Some("wet\" or \"x".into());
        assert!(matches!(
            search_query(&p),
            Err(KoopError::InvalidInput { field: "type", .. })
        ));
        p.regeling_type = None;
        p.onderwerp = Some(" ".into());
        assert!(matches!(
            search_query(&p),
            Err(KoopError::InvalidInput {
                field: "onderwerp",
                ..
            })
        ));
    }

    #[test]
    fn known_types_get_their_canonical_spelling() {
        assert_eq!(
            canonical_type("Ministeriële-Regeling").unwrap(),
            "ministeriele-regeling"
        );
        assert_eq!(canonical_type("wet-BES").unwrap(), "wet-BES");
    }

    #[test]
    fn id_and_versions_queries() {
        let id = BwbId::parse("BWBR0041330").unwrap();
        assert_eq!(
            id_query(&id, date()),
            "dcterms.identifier==BWBR0041330 and overheidbwb.geldigheidsdatum=2026-01-01"
        );
        assert_eq!(versions_query(&id), "dcterms.identifier==BWBR0041330");
    }
}

//! Stand-off notes (RFC-005/RFC-018): a W3C TextQuoteSelector (an exact quote with optional
//! prefix and suffix) resolved against the text of a law's articles, and the annotation files
//! that carry such notes.
//!
//! Resolution is content-addressed, so a note follows its text through renumbering:
//! 1. every exact occurrence of the quote whose surrounding text ends with the prefix and
//!    starts with the suffix (blank-trimmed) counts; one is `found` (confidence 1), more are
//!    `ambiguous` — a hint never decides between them, article numbers are not authoritative;
//! 2. with no exact occurrence, windows of the quote's length ±30% are scored as
//!    `0.5·sim(quote) + 0.25·sim(prefix) + 0.25·sim(suffix)` with normalised Levenshtein
//!    similarity (an absent prefix or suffix scores 1); candidates at or above 0.7, reduced to
//!    non-overlapping ones, give `found` (fuzzy) when one leads by more than 0.1, else
//!    `ambiguous`; none is `orphaned`.
//!
//! The fuzzy search is bounded: a quote over [`MAX_FUZZY_QUOTE_CHARS`] or a search beyond
//! [`MAX_SCORED_WINDOWS`] candidates is `skipped`, never an unbounded scan.

use serde::Deserialize;

/// Lowest weighted similarity of a fuzzy match.
pub const FUZZY_THRESHOLD: f64 = 0.7;
/// How much of the quote's length a fuzzy window may differ.
const WINDOW_TOLERANCE: f64 = 0.3;
/// How far the best fuzzy candidate must lead to win.
const TIEBREAK_MARGIN: f64 = 0.1;
/// Longest quote that is searched fuzzily.
pub const MAX_FUZZY_QUOTE_CHARS: usize = 2_000;
/// Most candidate windows scored for one note.
pub const MAX_SCORED_WINDOWS: usize = 200_000;

/// A W3C TextQuoteSelector.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct TextQuoteSelector {
    /// The quoted text.
    pub exact: String,
    /// Text just before it (may be empty).
    #[serde(default)]
    pub prefix: String,
    /// Text just after it (may be empty).
    #[serde(default)]
    pub suffix: String,
    /// Where the note was last found; a hint orders nothing and decides nothing.
    #[serde(skip)]
    pub hint: Option<Hint>,
}

/// A recorded position of a note (non-authoritative).
#[derive(Debug, Clone, PartialEq)]
pub struct Hint {
    /// Article number.
    pub article: String,
    /// Character range, if recorded.
    pub range: Option<(usize, usize)>,
}

/// One place a selector matches.
#[derive(Debug, Clone, PartialEq)]
pub struct Match {
    /// Article number.
    pub article: String,
    /// Start (in characters) within the article text.
    pub start: usize,
    /// End (exclusive, in characters).
    pub end: usize,
    /// 1.0 for an exact match, the weighted similarity for a fuzzy one.
    pub confidence: f64,
    /// The matched text.
    pub text: String,
}

/// The outcome of resolving a note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// One match.
    Found,
    /// Several matches and none decides.
    Ambiguous,
    /// No match: the text is gone.
    Orphaned,
    /// The fuzzy search would exceed its bounds.
    Skipped,
}

impl Status {
    /// The status as named in annotation files (`found`, `ambiguous`, `orphaned`, `skipped`).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Found => "found",
            Status::Ambiguous => "ambiguous",
            Status::Orphaned => "orphaned",
            Status::Skipped => "skipped",
        }
    }
}

/// A resolved note.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolution {
    /// Found, ambiguous, orphaned or skipped.
    pub status: Status,
    /// The match (found) or the candidates (ambiguous), best first.
    pub matches: Vec<Match>,
}

impl Resolution {
    /// The single match of a found note.
    pub fn single(&self) -> Option<&Match> {
        match (self.status, self.matches.as_slice()) {
            (Status::Found, [only]) => Some(only),
            _ => None,
        }
    }
}

/// Resolves `selector` against `articles` (number, text).
pub fn resolve(selector: &TextQuoteSelector, articles: &[(&str, &str)]) -> Resolution {
    let mut exact = Vec::new();
    for (number, text) in articles {
        exact.extend(exact_matches(number, text, selector));
    }
    if !exact.is_empty() {
        let status = if exact.len() == 1 {
            Status::Found
        } else {
            Status::Ambiguous
        };
        return Resolution {
            status,
            matches: exact,
        };
    }
    let quote_len = selector.exact.chars().count();
    if quote_len == 0 {
        return Resolution {
            status: Status::Orphaned,
            matches: Vec::new(),
        };
    }
    if quote_len > MAX_FUZZY_QUOTE_CHARS {
        return Resolution {
            status: Status::Skipped,
            matches: Vec::new(),
        };
    }
    let mut budget = MAX_SCORED_WINDOWS;
    let mut fuzzy = Vec::new();
    for (number, text) in articles {
        if !fuzzy_matches(number, text, selector, &mut budget, &mut fuzzy) {
            return Resolution {
                status: Status::Skipped,
                matches: Vec::new(),
            };
        }
    }
    fuzzy.sort_by(|a, b| b.confidence.total_cmp(&a.confidence));
    let mut kept: Vec<Match> = Vec::new();
    for m in fuzzy {
        let overlaps = kept
            .iter()
            .any(|k| k.article == m.article && m.start < k.end && k.start < m.end);
        if !overlaps {
            kept.push(m);
        }
    }
    let status = match kept.as_slice() {
        [] => Status::Orphaned,
        [_] => Status::Found,
        [best, second, ..] if best.confidence - second.confidence > TIEBREAK_MARGIN => {
            kept.truncate(1);
            Status::Found
        }
        _ => Status::Ambiguous,
    };
    Resolution {
        status,
        matches: kept,
    }
}

fn exact_matches(number: &str, text: &str, selector: &TextQuoteSelector) -> Vec<Match> {
    let mut out = Vec::new();
    if selector.exact.is_empty() {
        return out;
    }
    let (prefix, suffix) = (selector.prefix.trim(), selector.suffix.trim());
    for (byte, _) in text.match_indices(selector.exact.as_str()) {
        let end_byte = byte + selector.exact.len();
        let before_ok = prefix.is_empty() || text[..byte].trim_end().ends_with(prefix);
        let after_ok = suffix.is_empty() || text[end_byte..].trim_start().starts_with(suffix);
        if before_ok && after_ok {
            let start = text[..byte].chars().count();
            out.push(Match {
                article: number.to_string(),
                start,
                end: start + selector.exact.chars().count(),
                confidence: 1.0,
                text: selector.exact.clone(),
            });
        }
    }
    out
}

fn similarity(expected: &str, actual: &str) -> f64 {
    if expected.is_empty() {
        return 1.0;
    }
    strsim::normalized_levenshtein(expected, actual)
}

/// Lower-cased words of more than three letters.
fn significant_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() > 3)
        .map(str::to_lowercase)
        .collect()
}

/// Adds the fuzzy candidates of one article; false when the budget ran out.
fn fuzzy_matches(
    number: &str,
    text: &str,
    selector: &TextQuoteSelector,
    budget: &mut usize,
    out: &mut Vec<Match>,
) -> bool {
    let chars: Vec<char> = text.chars().collect();
    let n = selector.exact.chars().count();
    let words = significant_words(&selector.exact);
    let tolerance = (n as f64 * WINDOW_TOLERANCE) as usize;
    let (min_w, max_w) = (n.saturating_sub(tolerance).max(1), n + tolerance);
    let (p_len, s_len) = (
        selector.prefix.chars().count(),
        selector.suffix.chars().count(),
    );
    for window in min_w..=max_w.min(chars.len()) {
        for i in 0..=(chars.len() - window) {
            let candidate: String = chars[i..i + window].iter().collect();
            // Only windows sharing a significant word are scored (a quote of short words
            // is scored everywhere).
            if !words.is_empty() {
                let lower = candidate.to_lowercase();
                if !words.iter().any(|w| lower.contains(w.as_str())) {
                    continue;
                }
            }
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let before: String = chars[i.saturating_sub(p_len)..i].iter().collect();
            let after: String = chars[i + window..(i + window + s_len).min(chars.len())]
                .iter()
                .collect();
            let score = 0.5 * similarity(&selector.exact, &candidate)
                + 0.25 * similarity(&selector.prefix, &before)
                + 0.25 * similarity(&selector.suffix, &after);
            if score >= FUZZY_THRESHOLD {
                out.push(Match {
                    article: number.to_string(),
                    start: i,
                    end: i + window,
                    confidence: score,
                    text: candidate,
                });
            }
        }
    }
    true
}

/// An annotation file (`annotations.yaml`, RFC-005).
#[derive(Debug, Clone, Deserialize)]
pub struct AnnotationFile {
    /// The notes.
    #[serde(default)]
    pub annotations: Vec<Annotation>,
}

/// One W3C Web Annotation.
#[derive(Debug, Clone, Deserialize)]
pub struct Annotation {
    /// `commenting`, `linking`, `questioning`, …
    #[serde(default)]
    pub motivation: Option<String>,
    /// Who wrote it.
    #[serde(default)]
    pub creator: Option<String>,
    /// What it is about.
    pub target: Target,
    /// What it says (one body or several).
    #[serde(default)]
    pub body: Option<serde_yaml_ng::Value>,
    /// The status recorded when the note was last resolved.
    #[serde(default)]
    pub resolution: Option<String>,
    /// Workflow state (`open`, `resolved`).
    #[serde(default)]
    pub workflow: Option<String>,
}

/// The target of a note: a law and a selector.
#[derive(Debug, Clone, Deserialize)]
pub struct Target {
    /// `regelrecht://<law_id>`.
    pub source: String,
    /// The TextQuoteSelector.
    pub selector: TextQuoteSelector,
}

impl Annotation {
    /// The `$id` of the law the note is about.
    pub fn law_id(&self) -> &str {
        let rest = self
            .target
            .source
            .strip_prefix("regelrecht://")
            .unwrap_or(&self.target.source);
        rest.split('/').next().unwrap_or(rest)
    }

    /// The texts of its bodies (`value` of each textual or tagging body, `source` of a
    /// linking one).
    pub fn texts(&self) -> Vec<String> {
        fn one(body: &serde_yaml_ng::Value, out: &mut Vec<String>) {
            match body {
                serde_yaml_ng::Value::Sequence(items) => items.iter().for_each(|b| one(b, out)),
                serde_yaml_ng::Value::Mapping(map) => {
                    for key in ["value", "source"] {
                        if let Some(text) = map.get(key).and_then(|v| v.as_str()) {
                            out.push(text.to_string());
                            break;
                        }
                    }
                }
                serde_yaml_ng::Value::String(s) => out.push(s.clone()),
                _ => {}
            }
        }
        let mut out = Vec::new();
        if let Some(body) = &self.body {
            one(body, &mut out);
        }
        out
    }
}

/// Parses an annotation file (at most `max_bytes` long, checked by the caller).
/// Whether a text is a notes file: a top-level `annotations` key and no `$id` (a law's).
pub fn is_notes_text(text: &str) -> bool {
    !crate::load::is_law_text(text)
        && text.lines().any(|line| {
            line.strip_prefix("annotations")
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
}

pub fn parse_annotations(text: &str) -> Result<AnnotationFile, String> {
    serde_yaml_ng::from_str(text).map_err(|e| match e.location() {
        Some(at) => format!("regel {}: geen geldig notitiebestand", at.line()),
        None => "geen geldig notitiebestand".to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sel(exact: &str, prefix: &str, suffix: &str) -> TextQuoteSelector {
        TextQuoteSelector {
            exact: exact.into(),
            prefix: prefix.into(),
            suffix: suffix.into(),
            hint: None,
        }
    }

    #[test]
    fn exact_with_context_and_renumbering() {
        let articles = [
            ("1a", "Een nieuw artikel."),
            (
                "4a",
                "heeft de verzekerde aanspraak op een zorgtoeslag ter grootte",
            ),
        ];
        let r = resolve(&sel("zorgtoeslag", "op een ", " ter grootte"), &articles);
        assert_eq!(r.status, Status::Found);
        let m = r.single().unwrap();
        assert_eq!((m.article.as_str(), m.confidence), ("4a", 1.0));
        assert_eq!(m.start, 37);
    }

    #[test]
    fn fuzzy_orphaned_ambiguous_and_bounded() {
        let fuzzy = resolve(
            &sel(
                "aanspraak op een zorgtoeslag",
                "heeft de verzekerde ",
                " ter grootte",
            ),
            &[(
                "2",
                "heeft de verzekerde recht op een zorgtoeslag ter grootte",
            )],
        );
        assert_eq!(fuzzy.status, Status::Found);
        assert!(fuzzy.single().unwrap().confidence < 1.0);
        let gone = resolve(&sel("zorgtoeslag", "", ""), &[("2", "Andere tekst.")]);
        assert_eq!(gone.status, Status::Orphaned);
        let twice = resolve(
            &sel("de wet", "", ""),
            &[("3", "uit de wet."), ("7", "de wet.")],
        );
        assert_eq!(twice.status, Status::Ambiguous);
        let long = "x".repeat(MAX_FUZZY_QUOTE_CHARS + 1);
        assert_eq!(
            resolve(&sel(&long, "", ""), &[("1", "y")]).status,
            Status::Skipped
        );
    }

    #[test]
    fn annotation_files_name_their_law_and_bodies() {
        let file = parse_annotations(
            "annotations:\n  - motivation: commenting\n    target:\n      source: regelrecht://wet_x\n      selector: {type: TextQuoteSelector, exact: a}\n    body: {type: TextualBody, value: uitleg}\n",
        )
        .unwrap();
        let note = &file.annotations[0];
        assert_eq!(note.law_id(), "wet_x");
        assert_eq!(note.texts(), ["uitleg"]);
        assert!(parse_annotations("annotations: 3").is_err());
    }
}

//! `--fields`: data minimisation that keeps the document's shape (rules FIELDS-*).
//!
//! A selection is a comma list of paths (`naam,kvkNummer`,
//! `_embedded.hoofdvestiging.adressen[0].plaats`, `resultaten[].naam`) or one
//! RFC 9535 JSONPath expression starting with `$` (no vendor extensions).
//! Both resolve to concrete node paths in the response, and the result is a
//! pruned copy of the document: nesting, key order and array order are kept,
//! so two fields named `naam` at different depths both survive. Paths are
//! checked against the command's `outputSchema` before any work is done.
//!
//! - [`path`]: the path grammar (`a.b[0].c`, `list[].x`, normalized paths `$['a'][0]`);
//! - [`schema`]: the schema navigator (members, elements, `$ref` and `allOf`/`anyOf`/`oneOf`
//!   alternatives) and a path checked against it;
//! - [`query`]: a JSONPath query checked against the schema (RFC 9535 only, FIELDS-9 depth);
//! - [`prune`]: the selected nodes kept, the document's shape with them.

mod path;
mod prune;
mod query;
mod schema;

use std::sync::mpsc;
use std::time::Instant;

use jsonpath_rust::JsonPath;
use serde_json::{Map, Value};

use crate::problem::error::{Problem, Result};
pub(crate) use path::Step;
use path::{parse_normalized_path, parse_path};
use prune::{Trie, expand};
use query::QueryCheck;
use schema::check_against_schema;

const MAX_EXPRESSION_LEN: usize = 512;

/// A parsed `--fields` value.
#[derive(Clone, Debug)]
pub(crate) enum Selection {
    Paths(Vec<Vec<Step>>),
    JsonPath(String),
}

impl Selection {
    /// Parse and check against the command's output schema (exit 2 on failure).
    pub(crate) fn parse(text: &str, schema: &Value) -> Result<Self, Problem> {
        let text = text.trim();
        if text.is_empty() {
            return Err(Problem::usage("--fields is leeg"));
        }
        if text.starts_with('$') {
            return Self::parse_jsonpath(text, schema);
        }
        let mut paths = Vec::new();
        for raw in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let steps = parse_path(raw).ok_or_else(|| {
                Problem::usage(format!("ongeldig pad in --fields: {raw:?}"))
                    .with_hint("gebruik namen gescheiden door punten, [n] of [] voor lijsten")
            })?;
            check_against_schema(raw, &steps, schema)?;
            paths.push(steps);
        }
        if paths.is_empty() {
            return Err(Problem::usage("--fields bevat geen enkel pad"));
        }
        Ok(Self::Paths(paths))
    }

    fn parse_jsonpath(text: &str, schema: &Value) -> Result<Self, Problem> {
        if text.len() > MAX_EXPRESSION_LEN {
            return Err(Problem::usage(format!(
                "JSONPath-expressie te lang (max {MAX_EXPRESSION_LEN} tekens)"
            )));
        }
        let query = jsonpath_rust::parser::parse_json_path(text)
            // jsonpath-rust explains in English; the place is what helps.
            .map_err(|_| {
                Problem::usage(format!("ongeldige JSONPath-expressie: {text:?}")).with_hint(
                    "JSONPath volgens RFC 9535, bijv. $.naam of $..plaats[?@ == 'Utrecht']",
                )
            })?;
        // Decided from the parsed query, never from substrings: a word like
        // `in` inside a string literal is data (rules FIELDS-2, FIELDS-5).
        let checker = QueryCheck::new(schema, text);
        checker.segments(&[schema], &query.segments)?;
        Ok(Self::JsonPath(text.to_string()))
    }

    /// The selection as provenance records it.
    pub(crate) fn describe(&self, original: &str) -> Value {
        match self {
            Self::JsonPath(expr) => Value::from(vec![expr.clone()]),
            Self::Paths(_) => original
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(Value::from)
                .collect(),
        }
    }

    /// A pruned copy of `doc` holding only the selected nodes. A JSONPath query is evaluated
    /// on a thread of its own, waited for until `deadline` (exit 124, FIELDS-9): its filters
    /// may take time in the size of the document to the power of their nesting.
    pub(crate) fn apply(&self, doc: &Value, deadline: Instant) -> Result<Value, Problem> {
        let mut trie = Trie::default();
        match self {
            Self::Paths(paths) => {
                for path in paths {
                    for reached in expand(doc, path) {
                        trie.reach(&reached.path, reached.whole);
                    }
                }
            }
            Self::JsonPath(expr) => {
                for normalized in query_paths(doc, expr, deadline)? {
                    if let Some(steps) = parse_normalized_path(&normalized) {
                        trie.insert(&steps);
                    }
                }
            }
        }
        Ok(trie
            .extract(doc)
            .unwrap_or_else(|| Value::Object(Map::new())))
    }
}

/// The normalized paths `expr` selects in `doc`, or exit 124 when `deadline` passes first.
/// The evaluating thread is left behind then: the process ends right after.
fn query_paths(doc: &Value, expr: &str, deadline: Instant) -> Result<Vec<String>, Problem> {
    let (tx, rx) = mpsc::channel();
    let (doc, expr) = (doc.clone(), expr.to_string());
    std::thread::Builder::new()
        .name("fields".into())
        .spawn(move || {
            let _ = tx.send(doc.query_only_path(&expr).unwrap_or_default());
        })
        .map_err(|e| Problem::software(format!("--fields kon niet starten: {e}")))?;
    match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        Ok(paths) => Ok(paths),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(Problem::timeout(
            "de tijdslimiet (--timeout) verstreek tijdens het toepassen van --fields",
        )),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            Err(Problem::software("--fields stopte zonder uitkomst"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "naam": {"type": "string"},
                "kvkNummer": {"type": "string"},
                "_embedded": {"type": "object", "properties": {
                    "hoofdvestiging": {"$ref": "#/$defs/vestiging"}
                }},
                "resultaten": {"type": "array", "items": {"$ref": "#/$defs/vestiging"}},
                "vrij": {"type": "object"}
            },
            "$defs": {"vestiging": {"type": "object", "properties": {
                "naam": {"type": "string"},
                "x": {"type": "integer"},
                "adressen": {"type": "array", "items": {"type": "object", "properties": {
                    "plaats": {"type": "string"}, "straatnaam": {"type": "string"}}}}
            }}}
        })
    }

    fn doc() -> Value {
        json!({
            "kvkNummer": "68750110",
            "naam": "Test BV Donald",
            "_embedded": {"hoofdvestiging": {"naam": "Hoofd", "adressen": [
                {"plaats": "Lollum", "straatnaam": "Hizzaarderlaan"},
                {"plaats": "Rommeldam", "straatnaam": "Postbus"}]}},
            "resultaten": [{"naam": "a", "x": 1}, {"naam": "b", "x": 2}]
        })
    }

    fn far() -> Instant {
        Instant::now() + std::time::Duration::from_secs(60)
    }

    fn select(text: &str) -> Value {
        Selection::parse(text, &schema())
            .unwrap()
            .apply(&doc(), far())
            .unwrap()
    }

    #[test]
    fn keeps_nesting_and_both_names() {
        assert_eq!(
            select("naam,_embedded.hoofdvestiging.naam"),
            json!({"naam": "Test BV Donald", "_embedded": {"hoofdvestiging": {"naam": "Hoofd"}}})
        );
    }

    #[test]
    fn keeps_original_key_order() {
        let out = select("naam,kvkNummer").to_string();
        assert_eq!(out, r#"{"kvkNummer":"68750110","naam":"Test BV Donald"}"#);
    }

    #[test]
    fn indexes_and_all_items() {
        assert_eq!(
            select("_embedded.hoofdvestiging.adressen[1].plaats"),
            json!({"_embedded": {"hoofdvestiging": {"adressen": [{"plaats": "Rommeldam"}]}}})
        );
        assert_eq!(
            select("resultaten[].naam"),
            json!({"resultaten": [{"naam": "a"}, {"naam": "b"}]})
        );
    }

    #[test]
    fn known_but_absent_fields_are_left_out() {
        let schema = schema();
        let sel = Selection::parse("naam,vrij", &schema).unwrap();
        assert_eq!(
            sel.apply(&json!({"naam": "x"}), far()).unwrap(),
            json!({"naam": "x"})
        );
    }

    #[test]
    fn unknown_fields_are_usage_errors_listing_valid_ones() {
        for bad in ["bestaatniet", "_embedded.onbekend", "naam[0]x", "a..b"] {
            let err = Selection::parse(bad, &schema()).unwrap_err();
            assert_eq!(err.exit.code(), 2, "{bad}");
        }
        let err = Selection::parse("bestaatniet", &schema()).unwrap_err();
        let hint = err.hint.clone().unwrap();
        assert!(
            hint.contains("kvkNummer") && hint.contains("resultaten"),
            "{hint}"
        );
    }

    /// FIELDS-6 as amended (issue 40): a list walked with `[]` keeps its shape: an empty list
    /// stays `[]`, every element stays (`{}` when it lacks what is selected), and a missing
    /// member is still left out.
    #[test]
    fn a_list_walked_with_brackets_keeps_its_shape() {
        let schema = schema();
        let select = |text: &str, doc: Value| {
            Selection::parse(text, &schema)
                .unwrap()
                .apply(&doc, far())
                .unwrap()
        };
        assert_eq!(
            select("resultaten[].naam", json!({"resultaten": []})),
            json!({"resultaten": []})
        );
        assert_eq!(
            select(
                "resultaten[].naam,naam",
                json!({"naam": "n", "resultaten": []})
            ),
            json!({"naam": "n", "resultaten": []})
        );
        assert_eq!(
            select(
                "resultaten[].naam",
                json!({"resultaten": [{"naam": "a", "x": 1}, {"x": 2}, {"naam": "c"}]})
            ),
            json!({"resultaten": [{"naam": "a"}, {}, {"naam": "c"}]})
        );
        assert_eq!(
            select(
                "resultaten[].adressen[].plaats",
                json!({"resultaten": [{"adressen": []}, {"naam": "b"}]})
            ),
            json!({"resultaten": [{"adressen": []}, {}]})
        );
        assert_eq!(select("resultaten[].naam", json!({"naam": "n"})), json!({}));
        assert_eq!(
            select("_embedded.hoofdvestiging.naam", json!({"_embedded": {}})),
            json!({})
        );
        // An index selects one element, as before: no shell for the others.
        assert_eq!(
            select(
                "resultaten[1].naam",
                json!({"resultaten": [{"naam": "a"}, {"naam": "b"}]})
            ),
            json!({"resultaten": [{"naam": "b"}]})
        );
    }

    /// A name that is no top-level member is suggested by the nested paths that end in it, or
    /// whose last name is closest (a typo), beside the top-level fields FIELDS-5 names.
    #[test]
    fn an_unknown_field_is_suggested_by_its_nested_paths() {
        let hint = |text: &str| Selection::parse(text, &schema()).unwrap_err().hint.unwrap();
        let plaats = hint("plaats");
        assert!(
            plaats.contains("_embedded.hoofdvestiging.adressen[].plaats")
                && plaats.contains("resultaten[].adressen[].plaats")
                && plaats.contains("kvkNummer"),
            "{plaats}"
        );
        let typo = hint("straatnam");
        assert!(typo.contains("adressen[].straatnaam"), "{typo}");
        let nothing = hint("zzzz");
        assert!(!nothing.contains("bedoelt"), "{nothing}");
        let query = hint("$.plaats");
        assert!(query.contains("adressen[].plaats"), "{query}");
    }

    #[test]
    fn free_form_objects_accept_any_subpath() {
        assert!(Selection::parse("vrij.iets.dieper", &schema()).is_ok());
    }

    #[test]
    fn jsonpath_prunes_with_shape() {
        assert_eq!(
            select("$.resultaten[?@.x > 1].naam"),
            json!({"resultaten": [{"naam": "b"}]})
        );
        assert_eq!(
            select("$..plaats"),
            json!({"_embedded": {"hoofdvestiging": {"adressen": [
                {"plaats": "Lollum"}, {"plaats": "Rommeldam"}]}}})
        );
    }

    #[test]
    fn jsonpath_rejects_extensions_syntax_and_unknown_roots() {
        for bad in [
            "$.resultaten[?@.naam ~= 'a']",
            "$[",
            "$.onbekend",
            "$[\"onbekend\"]",
            "$[ 'onbekend' ]",
            ",",
            " , ",
        ] {
            let err = Selection::parse(bad, &schema()).unwrap_err();
            assert_eq!(err.exit.code(), 2, "{bad}");
        }
    }

    #[test]
    fn jsonpath_words_inside_string_literals_are_data() {
        let schema = schema();
        for query in [
            "$.resultaten[?@.naam == 'Wonen in Lollum'].naam",
            "$.vrij['met spatie']",
            "$.vrij[\"met spatie\"]",
            "$.resultaten[?@.naam == 'a nin b ~= c subset_of'].naam",
            "$.resultaten[?search(@.naam, 'in')].naam",
            "$.resultaten[?length(@.naam) > 1 && @.x != 2]",
        ] {
            assert!(Selection::parse(query, &schema).is_ok(), "{query}");
        }
        let doc = json!({"resultaten": [{"naam": "Wonen in Lollum"}, {"naam": "b"}]});
        let sel = Selection::parse("$.resultaten[?@.naam == 'Wonen in Lollum'].naam", &schema);
        assert_eq!(
            sel.unwrap().apply(&doc, far()).unwrap(),
            json!({"resultaten": [{"naam": "Wonen in Lollum"}]})
        );
    }

    #[test]
    fn jsonpath_extensions_are_refused_from_the_parsed_query() {
        for bad in [
            "$.resultaten[?in(@.naam, $.resultaten)]",
            "$.resultaten[?nin(@.naam, $.resultaten)]",
            "$.resultaten[?none_of(@.naam, $.resultaten)]",
            "$.resultaten[?any_of(@.naam, $.resultaten)]",
            "$.resultaten[?subset_of(@.naam, $.resultaten)]",
            "$.resultaten[?@.naam size 3]",
            "$.resultaten[?size(@.naam, 3)]",
            "$.resultaten[?@.naam ~= 'a']",
        ] {
            let err = Selection::parse(bad, &schema()).unwrap_err();
            assert_eq!(err.exit.code(), 2, "{bad}");
            assert_ne!(err.code.name, "ONBEKEND_VELD", "{bad}");
        }
    }

    #[test]
    fn jsonpath_unknown_names_anywhere_are_refused() {
        let open_links = json!({"type": "object", "properties": {"_links": {
            "type": "object", "properties": {"self": {"type": "string"}},
            "additionalProperties": {"type": "string"}}}});
        for good in ["$._links.elders", "$..elders", "_links.elders"] {
            assert!(Selection::parse(good, &open_links).is_ok(), "{good}");
        }
        let closed = json!({"type": "object", "properties": {
            "naam": {"type": "string"},
            "_links": {"$ref": "#/$defs/links"},
            "resultaten": {"type": "array", "items": {"type": "object", "properties": {
                "naam": {"type": "string"}}}}
        }, "$defs": {"links": {"type": ["object", "null"], "properties": {
            "self": {"type": "object", "properties": {"href": {"type": "string"}}}}}}});
        for bad in ["$..bogus", "$..['bogus']", "$.resultaten..bogus"] {
            let err = Selection::parse(bad, &closed).unwrap_err();
            assert_eq!(err.code.name, "ONBEKEND_VELD", "{bad}");
        }
        assert!(Selection::parse("$..naam", &closed).is_ok());
        assert!(Selection::parse("$..href", &closed).is_ok());
        for bad in [
            "$['bogus']",
            "$['naam','bogus']",
            "$.resultaten[0]['bogus']",
            "$.resultaten[*].bogus",
            "$.resultaten[?@.bogus == 1]",
            "$.resultaten[?@.naam == $.bogus]",
            "$.resultaten[?length(@.bogus) > 1]",
            "$._embedded.hoofdvestiging.adressen[?@.bogus]",
        ] {
            let err = Selection::parse(bad, &schema()).unwrap_err();
            assert_eq!(err.code.name, "ONBEKEND_VELD", "{bad}");
        }
        for good in [
            "$..plaats",
            "$..['plaats','naam']",
            "$.resultaten[*].adressen[*].straatnaam",
            "$.vrij.wat.dan.ook",
            "$..iets",
            "$[*]",
        ] {
            assert!(Selection::parse(good, &schema()).is_ok(), "{good}");
        }
    }

    /// FIELDS-9: filters nest at most two deep, counted through every place a filter can
    /// hold a query (a test, a comparison, a function's argument).
    #[test]
    fn filters_nest_at_most_two_deep() {
        let schema = json!({"type": "object", "additionalProperties": true});
        for ok in [
            "$..[?@.a]",
            "$..[?@..[?@.b]]",
            "$.x[?@.a && @.b[?@.c]]",
            "$[?length(@[?@.a]) > 1]",
        ] {
            assert!(Selection::parse(ok, &schema).is_ok(), "{ok}");
        }
        for deep in [
            "$..[?@..[?@..[?@]]]",
            "$..[?@.a[?@.b[?@.c == 1]]]",
            "$[?count(@[?@[?@.x]]) > 0]",
            "$[?@.a[?$.b[?@.c]] || @.d]",
        ] {
            let err = Selection::parse(deep, &schema).expect_err(deep);
            assert_eq!(err.exit.code(), 2, "{deep}");
            assert!(err.detail.contains("genest"), "{deep}: {err:?}");
        }
    }

    /// FIELDS-9: evaluation ends by the deadline, however long the query would take.
    #[test]
    fn evaluation_ends_by_the_deadline() {
        let schema = json!({"type": "object", "additionalProperties": true});
        let doc = json!({"a": (0..3000).map(|i| json!({"b": [i, {"c": i}]})).collect::<Vec<_>>()});
        // Every node counts the whole document again: the square of its size.
        let sel =
            Selection::parse("$..[?count($..*) > count(@..[?count($..*) > 0])]", &schema).unwrap();
        let started = Instant::now();
        let applied = sel.apply(&doc, Instant::now() + std::time::Duration::from_millis(300));
        let elapsed = started.elapsed();
        assert_eq!(
            applied.map_err(|e| e.exit.code()).err(),
            Some(124),
            "{elapsed:?}"
        );
        assert!(elapsed < std::time::Duration::from_secs(2));
    }
}

//! `--fields`: data minimisation that keeps the document's shape (rules FIELDS-*).
//!
//! A selection is a comma list of paths (`naam,kvkNummer`,
//! `_embedded.hoofdvestiging.adressen[0].plaats`, `resultaten[].naam`) or one
//! RFC 9535 JSONPath expression starting with `$` (no vendor extensions).
//! Both resolve to concrete node paths in the response, and the result is a
//! pruned copy of the document: nesting, key order and array order are kept,
//! so two fields named `naam` at different depths both survive. Paths are
//! checked against the command's `outputSchema` before any work is done.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::mpsc;
use std::time::Instant;

use jsonpath_rust::JsonPath;
use jsonpath_rust::parser::model::{
    Comparable, Filter, FilterAtom, FnArg, Segment, Selector, SingularQuery, SingularQuerySegment,
    Test, TestFunction,
};
use serde_json::{Map, Value};

use crate::error::{Problem, Result};

const MAX_EXPRESSION_LEN: usize = 512;
/// Any value: what an open schema (or one without a type) allows below it.
const ANY: &Value = &Value::Bool(true);
/// A bound on the schema nodes a descendant segment (`..`) visits.
const MAX_SCHEMA_NODES: usize = 10_000;
/// How deep filters may nest (FIELDS-9): `$..[?@.a[?@.b]]` is two deep. Each level
/// multiplies the work by the size of the document.
pub const MAX_FILTER_DEPTH: usize = 2;

/// One step of a path through a JSON document.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
    Key(String),
    Index(usize),
    /// Every element of an array (only in a selection, never concrete).
    AllItems,
}

/// A parsed `--fields` value.
#[derive(Clone, Debug)]
pub enum Selection {
    Paths(Vec<Vec<Step>>),
    JsonPath(String),
}

impl Selection {
    /// Parse and check against the command's output schema (exit 2 on failure).
    pub fn parse(text: &str, schema: &Value) -> Result<Self, Problem> {
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
        let checker = QueryCheck {
            root: schema,
            text,
            depth: Cell::new(0),
        };
        checker.segments(&[schema], &query.segments)?;
        Ok(Self::JsonPath(text.to_string()))
    }

    /// The selection as provenance records it.
    pub fn describe(&self, original: &str) -> Value {
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
    pub fn apply(&self, doc: &Value, deadline: Instant) -> Result<Value, Problem> {
        let mut trie = Trie::default();
        match self {
            Self::Paths(paths) => {
                for path in paths {
                    for concrete in expand(doc, path) {
                        trie.insert(&concrete);
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

/// Parse `a.b[0].c` / `list[].x`.
fn parse_path(raw: &str) -> Option<Vec<Step>> {
    let mut steps = Vec::new();
    for part in raw.split('.') {
        let (name, mut rest) = match part.find('[') {
            Some(i) => part.split_at(i),
            None => (part, ""),
        };
        let valid_name = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '$' | '@'));
        if !valid_name {
            return None;
        }
        steps.push(Step::Key(name.to_string()));
        while !rest.is_empty() {
            let close = rest.find(']')?;
            let inner = rest.get(1..close)?;
            if !rest.starts_with('[') {
                return None;
            }
            steps.push(if inner.is_empty() {
                Step::AllItems
            } else {
                Step::Index(inner.parse().ok()?)
            });
            rest = &rest[close + 1..];
        }
    }
    Some(steps)
}

/// Parse a normalized path like `$['a'][0]['b\'c']`.
fn parse_normalized_path(path: &str) -> Option<Vec<Step>> {
    let mut rest = path.strip_prefix('$')?;
    let mut steps = Vec::new();
    while let Some(after) = rest.strip_prefix('[') {
        if let Some(quoted) = after.strip_prefix('\'') {
            let mut name = String::new();
            let mut chars = quoted.char_indices();
            let end = loop {
                let (i, c) = chars.next()?;
                match c {
                    '\\' => name.push(chars.next()?.1),
                    '\'' => break i,
                    c => name.push(c),
                }
            };
            steps.push(Step::Key(name));
            rest = quoted[end + 1..].strip_prefix(']')?;
        } else {
            let close = after.find(']')?;
            steps.push(Step::Index(after[..close].parse().ok()?));
            rest = &after[close + 1..];
        }
    }
    rest.is_empty().then_some(steps)
}

/// Checks a parsed JSONPath query: RFC 9535 functions only, and every member
/// name it uses (after `.`, in brackets, after `..`, inside filters) one
/// that can occur according to the output schema.
struct QueryCheck<'a> {
    root: &'a Value,
    text: &'a str,
    /// How many filters enclose the part being checked (FIELDS-9).
    depth: Cell<usize>,
}

impl<'a> QueryCheck<'a> {
    /// The schemas `segments` lead to from `nodes`.
    fn segments(
        &self,
        nodes: &[&'a Value],
        segments: &[Segment],
    ) -> Result<Vec<&'a Value>, Problem> {
        let mut nodes = nodes.to_vec();
        for segment in segments {
            nodes = self.segment(&nodes, segment)?;
        }
        Ok(nodes)
    }

    fn segment(&self, nodes: &[&'a Value], segment: &Segment) -> Result<Vec<&'a Value>, Problem> {
        match segment {
            Segment::Selector(selector) => self.selector(nodes, selector),
            Segment::Selectors(selectors) => {
                let mut out = Vec::new();
                for selector in selectors {
                    out.extend(self.selector(nodes, selector)?);
                }
                Ok(out)
            }
            Segment::Descendant(inner) => self.segment(&descendants(self.root, nodes), inner),
        }
    }

    fn selector(
        &self,
        nodes: &[&'a Value],
        selector: &Selector,
    ) -> Result<Vec<&'a Value>, Problem> {
        if let Selector::Name(name) = selector {
            self.shorthand_without_spaces(name)?;
        }
        let mut out = Vec::new();
        for node in nodes.iter().flat_map(|n| alternatives(self.root, n)) {
            match selector {
                Selector::Name(name) => out.extend(member(node, name)),
                Selector::Wildcard | Selector::Filter(_) => {
                    out.extend(members(node));
                    out.extend(elements(node));
                }
                Selector::Index(_) | Selector::Slice(..) => out.extend(elements(node)),
            }
        }
        match selector {
            Selector::Name(_) if out.is_empty() => Err(unknown_field(self.text, self.root)),
            Selector::Filter(filter) => {
                let depth = self.depth.get() + 1;
                if depth > MAX_FILTER_DEPTH {
                    return Err(Problem::usage(format!(
                        "JSONPath-filters zijn dieper genest dan {MAX_FILTER_DEPTH} niveaus"
                    ))
                    .with_hint("splits de vraag, of selecteer ruimer en filter daarna met --jq"));
                }
                self.depth.set(depth);
                let checked = self.filter(&out, filter);
                self.depth.set(depth - 1);
                checked?;
                Ok(out)
            }
            _ => Ok(out),
        }
    }

    /// RFC 9535 member-name shorthand (`.naam`) holds no whitespace, but the
    /// parser joins `@.naam size 3` into one name: a name with whitespace must
    /// be written quoted (`['naam met spatie']`), which is how an operator
    /// that RFC 9535 does not have (`size`, `in` between operands) is refused.
    fn shorthand_without_spaces(&self, name: &str) -> Result<(), Problem> {
        let quoted = [format!("'{name}'"), format!("\"{name}\"")];
        if !name.contains(char::is_whitespace) || quoted.iter().any(|q| self.text.contains(q)) {
            return Ok(());
        }
        Err(Problem::usage(format!(
            "ongeldige JSONPath-expressie: {name:?} is geen naam en geen operator van RFC 9535"
        ))
        .with_hint("vergelijk met ==, !=, <, <=, > of >=; een naam met spaties staat tussen aanhalingstekens"))
    }

    /// A filter evaluated with `@` at each of `current`.
    fn filter(&self, current: &[&'a Value], filter: &Filter) -> Result<(), Problem> {
        match filter {
            Filter::Or(list) | Filter::And(list) => {
                list.iter().try_for_each(|f| self.filter(current, f))
            }
            Filter::Atom(FilterAtom::Filter { expr, .. }) => self.filter(current, expr),
            Filter::Atom(FilterAtom::Test { expr, .. }) => self.test(current, expr),
            Filter::Atom(FilterAtom::Comparison(comparison)) => {
                let (left, right) = comparison.vals();
                self.comparable(current, left)?;
                self.comparable(current, right)
            }
        }
    }

    fn test(&self, current: &[&'a Value], test: &Test) -> Result<(), Problem> {
        match test {
            Test::RelQuery(segments) => self.segments(current, segments).map(drop),
            Test::AbsQuery(query) => self.segments(&[self.root], &query.segments).map(drop),
            Test::Function(function) => self.function(current, function),
        }
    }

    fn comparable(&self, current: &[&'a Value], comparable: &Comparable) -> Result<(), Problem> {
        let (start, steps) = match comparable {
            Comparable::Literal(_) => return Ok(()),
            Comparable::Function(function) => return self.function(current, function),
            Comparable::SingularQuery(SingularQuery::Current(steps)) => (current.to_vec(), steps),
            Comparable::SingularQuery(SingularQuery::Root(steps)) => (vec![self.root], steps),
        };
        let segments: Vec<Segment> = steps
            .iter()
            .map(|step| match step {
                SingularQuerySegment::Name(name) => Segment::Selector(Selector::Name(name.clone())),
                SingularQuerySegment::Index(i) => Segment::Selector(Selector::Index(*i)),
            })
            .collect();
        self.segments(&start, &segments).map(drop)
    }

    /// Only the functions of RFC 9535 §2.4; `in`, `nin`, `none_of`, … are
    /// extensions of the library.
    fn function(&self, current: &[&'a Value], function: &TestFunction) -> Result<(), Problem> {
        let args = match function {
            TestFunction::Custom(name, _) => {
                return Err(Problem::usage(format!(
                    "JSONPath-uitbreiding {name:?} valt buiten RFC 9535"
                ))
                .with_hint("gebruik alleen length, count, match, search en value"));
            }
            TestFunction::Length(arg) => vec![&**arg],
            TestFunction::Value(arg) | TestFunction::Count(arg) => vec![arg],
            TestFunction::Search(a, b) | TestFunction::Match(a, b) => vec![a, b],
        };
        for arg in args {
            match arg {
                FnArg::Literal(_) => {}
                FnArg::Test(test) => self.test(current, test)?,
                FnArg::Filter(filter) => self.filter(current, filter)?,
            }
        }
        Ok(())
    }
}

/// The schema of member `name` of an object schema: a listed property, else
/// the `additionalProperties` schema, else any value for an open object.
fn member<'a>(node: &'a Value, name: &str) -> Option<&'a Value> {
    if let Some(listed) = node.get("properties").and_then(|p| p.get(name)) {
        return Some(listed);
    }
    match node.get("additionalProperties") {
        Some(extra @ Value::Object(_)) => Some(extra),
        Some(Value::Bool(true)) => Some(ANY),
        _ if node.get("properties").is_none() && is_open_object(node) => Some(ANY),
        _ => None,
    }
}

/// The schemas of an object's member values (any value for an open object).
fn members(node: &Value) -> Vec<&Value> {
    let mut out: Vec<&Value> = node
        .get("properties")
        .and_then(Value::as_object)
        .map(|props| props.values().collect())
        .unwrap_or_default();
    match node.get("additionalProperties") {
        Some(Value::Bool(false)) => {}
        Some(extra @ Value::Object(_)) => out.push(extra),
        _ if is_open_object(node) || unconstrained(node) => out.push(ANY),
        _ => {}
    }
    out
}

/// A schema that says nothing about its value (`true`, `{}`, only annotations).
fn unconstrained(node: &Value) -> bool {
    const CONSTRAINTS: [&str; 9] = [
        "type",
        "$ref",
        "allOf",
        "anyOf",
        "oneOf",
        "properties",
        "items",
        "enum",
        "const",
    ];
    node.as_bool() == Some(true)
        || node
            .as_object()
            .is_some_and(|map| CONSTRAINTS.iter().all(|k| !map.contains_key(*k)))
}

/// The schemas of an array's elements (any value where the type is not given).
fn elements(node: &Value) -> Vec<&Value> {
    let mut out: Vec<&Value> = node.get("items").into_iter().collect();
    if let Some(prefix) = node.get("prefixItems").and_then(Value::as_array) {
        out.extend(prefix);
    }
    if out.is_empty() && unconstrained(node) {
        out.push(ANY);
    }
    out
}

/// `nodes` and every schema below them, each once (for `..`).
fn descendants<'a>(root: &'a Value, nodes: &[&'a Value]) -> Vec<&'a Value> {
    let mut seen: Vec<&Value> = Vec::new();
    let mut stack = nodes.to_vec();
    while let Some(node) = stack.pop() {
        if seen.len() >= MAX_SCHEMA_NODES || seen.iter().any(|s| std::ptr::eq(*s, node)) {
            continue;
        }
        seen.push(node);
        for alt in alternatives(root, node) {
            stack.extend(members(alt));
            stack.extend(elements(alt));
        }
    }
    seen
}

/// All concrete paths in `doc` that `path` selects.
fn expand(doc: &Value, path: &[Step]) -> Vec<Vec<Step>> {
    let Some((step, rest)) = path.split_first() else {
        return vec![Vec::new()];
    };
    let mut out = Vec::new();
    let mut descend = |step: Step, child: &Value| {
        for mut tail in expand(child, rest) {
            tail.insert(0, step.clone());
            out.push(tail);
        }
    };
    match (step, doc) {
        (Step::Key(k), Value::Object(map)) => {
            if let Some(child) = map.get(k) {
                descend(Step::Key(k.clone()), child);
            }
        }
        (Step::Index(i), Value::Array(items)) => {
            if let Some(child) = items.get(*i) {
                descend(Step::Index(*i), child);
            }
        }
        (Step::AllItems, Value::Array(items)) => {
            for (i, child) in items.iter().enumerate() {
                descend(Step::Index(i), child);
            }
        }
        _ => {}
    }
    out
}

/// A prefix tree of selected paths; `keep_all` marks a whole subtree.
#[derive(Default)]
struct Trie {
    keep_all: bool,
    children: BTreeMap<Step, Trie>,
}

impl Trie {
    fn insert(&mut self, path: &[Step]) {
        match path.split_first() {
            None => self.keep_all = true,
            Some((step, rest)) => self.children.entry(step.clone()).or_default().insert(rest),
        }
    }

    fn extract(&self, value: &Value) -> Option<Value> {
        if self.keep_all {
            return Some(value.clone());
        }
        if self.children.is_empty() {
            return None;
        }
        match value {
            Value::Object(map) => Some(Value::Object(
                map.iter()
                    .filter_map(|(k, v)| {
                        let child = self.children.get(&Step::Key(k.clone()))?;
                        Some((k.clone(), child.extract(v)?))
                    })
                    .collect(),
            )),
            Value::Array(items) => Some(Value::Array(
                items
                    .iter()
                    .enumerate()
                    .filter_map(|(i, v)| self.children.get(&Step::Index(i))?.extract(v))
                    .collect(),
            )),
            _ => None,
        }
    }
}

/// Fail with exit 2 when `steps` leaves what `schema` describes.
fn check_against_schema(raw: &str, steps: &[Step], schema: &Value) -> Result<(), Problem> {
    let mut nodes = vec![schema];
    for step in steps {
        let mut next = Vec::new();
        for node in nodes.iter().flat_map(|n| alternatives(schema, n)) {
            match step {
                Step::Key(k) => next.extend(member(node, k)),
                Step::Index(_) | Step::AllItems => {
                    if let Some(items) = node.get("items") {
                        next.push(items);
                    } else if node.get("type").is_none() {
                        next.push(&Value::Bool(true));
                    }
                }
            }
        }
        if next.is_empty() {
            return Err(unknown_field(raw, schema));
        }
        nodes = next;
    }
    Ok(())
}

/// A node with its `$ref`, `allOf`, `anyOf` and `oneOf` alternatives resolved.
fn alternatives<'a>(root: &'a Value, node: &'a Value) -> Vec<&'a Value> {
    let mut out = Vec::new();
    let mut stack = vec![node];
    let mut guard = 0;
    while let Some(n) = stack.pop() {
        guard += 1;
        if guard > 64 {
            break;
        }
        if let Some(target) = n
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| resolve_ref(root, r))
        {
            stack.push(target);
        }
        for key in ["allOf", "anyOf", "oneOf"] {
            if let Some(list) = n.get(key).and_then(Value::as_array) {
                stack.extend(list);
            }
        }
        out.push(n);
    }
    out
}

fn resolve_ref<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    root.pointer(reference.strip_prefix('#')?)
}

/// `true` (any value) or an object schema without listed properties.
fn is_open_object(node: &Value) -> bool {
    node.as_bool() == Some(true)
        || (node.get("type").and_then(Value::as_str) == Some("object")
            && node.get("properties").is_none())
}

fn unknown_field(raw: &str, schema: &Value) -> Problem {
    let fields = top_level_fields(schema).join(", ");
    Problem::usage(format!("onbekend veld in --fields: {raw:?}"))
        .with_code(crate::codes::ONBEKEND_VELD)
        .with_hint(format!("geldige velden op het hoogste niveau: {fields}"))
}

/// The top-level property names of an output schema.
pub fn top_level_fields(schema: &Value) -> Vec<String> {
    alternatives(schema, schema)
        .into_iter()
        .filter_map(|n| n.get("properties").and_then(Value::as_object))
        .flat_map(|p| p.keys().cloned())
        .collect()
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

    #[test]
    fn normalized_paths_parse_with_escapes() {
        assert_eq!(
            parse_normalized_path(r"$['a'][3]['b\'c']"),
            Some(vec![
                Step::Key("a".into()),
                Step::Index(3),
                Step::Key("b'c".into())
            ])
        );
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

//! A JSONPath `--fields` query checked before any work (FIELDS-2, FIELDS-5, FIELDS-9): from
//! the parsed query, never from its text, only RFC 9535's functions, every member name one the
//! output schema allows, and filters nested at most [`MAX_FILTER_DEPTH`] deep.

use std::cell::Cell;

use jsonpath_rust::parser::model::{
    Comparable, Filter, FilterAtom, FnArg, Segment, Selector, SingularQuery, SingularQuerySegment,
    Test, TestFunction,
};
use serde_json::Value;

use super::schema::{alternatives, descendants, elements, member, members, unknown_field};
use crate::problem::error::{Problem, Result};

/// How deep filters may nest (FIELDS-9): `$..[?@.a[?@.b]]` is two deep. Each level
/// multiplies the work by the size of the document.
pub(crate) const MAX_FILTER_DEPTH: usize = 2;

/// Checks a parsed JSONPath query: RFC 9535 functions only, and every member
/// name it uses (after `.`, in brackets, after `..`, inside filters) one
/// that can occur according to the output schema.
pub(super) struct QueryCheck<'a> {
    root: &'a Value,
    text: &'a str,
    /// How many filters enclose the part being checked (FIELDS-9).
    depth: Cell<usize>,
}

impl<'a> QueryCheck<'a> {
    /// A check of a query against `root`, the output schema; `text` is the query as given.
    pub(super) fn new(root: &'a Value, text: &'a str) -> Self {
        Self {
            root,
            text,
            depth: Cell::new(0),
        }
    }

    /// The schemas `segments` lead to from `nodes`.
    pub(super) fn segments(
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

//! The pruned copy `--fields` prints: the concrete paths a selection reaches in the document,
//! gathered in a prefix tree, and the document kept along it (nesting, key order and array
//! order as they were).
//!
//! A list walked with `[]` keeps its shape (FIELDS-6): every element is selected, so the list
//! stays a list of as many elements, each pruned to what the rest of the path selects (`{}` when
//! it has none of it), and an empty list stays `[]`. Only a missing member is left out.

use std::collections::BTreeMap;

use serde_json::Value;

use super::path::Step;

/// One concrete path a selection reaches: the whole value there, or only its container (an
/// element or list selected by `[]`, kept even when nothing below it is).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Reached {
    pub path: Vec<Step>,
    pub whole: bool,
}

/// All concrete paths in `doc` that `path` selects.
pub(super) fn expand(doc: &Value, path: &[Step]) -> Vec<Reached> {
    let Some((step, rest)) = path.split_first() else {
        return vec![Reached {
            path: Vec::new(),
            whole: true,
        }];
    };
    let mut out = Vec::new();
    let mut descend = |step: Step, child: &Value| {
        for mut reached in expand(child, rest) {
            reached.path.insert(0, step.clone());
            out.push(reached);
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
            // Every element is selected, and so is the list: kept even when nothing below is.
            let shells = (0..items.len()).map(|i| vec![Step::Index(i)]);
            out.extend(
                shells
                    .chain([Vec::new()])
                    .map(|path| Reached { path, whole: false }),
            );
        }
        _ => {}
    }
    out
}

/// A prefix tree of selected paths; `keep_all` marks a whole subtree, `shell` a container kept
/// even when nothing below it is selected.
#[derive(Default)]
pub(super) struct Trie {
    keep_all: bool,
    shell: bool,
    children: BTreeMap<Step, Trie>,
}

impl Trie {
    pub(super) fn insert(&mut self, path: &[Step]) {
        self.reach(path, true);
    }

    /// Mark `path`: its whole value, or (`whole` false) its container only.
    pub(super) fn reach(&mut self, path: &[Step], whole: bool) {
        match path.split_first() {
            None if whole => self.keep_all = true,
            None => self.shell = true,
            Some((step, rest)) => self
                .children
                .entry(step.clone())
                .or_default()
                .reach(rest, whole),
        }
    }

    pub(super) fn extract(&self, value: &Value) -> Option<Value> {
        if self.keep_all {
            return Some(value.clone());
        }
        if self.children.is_empty() && !self.shell {
            return None;
        }
        match value {
            Value::Object(map) => {
                let kept: serde_json::Map<String, Value> = map
                    .iter()
                    .filter_map(|(k, v)| {
                        let child = self.children.get(&Step::Key(k.clone()))?;
                        Some((k.clone(), child.extract(v)?))
                    })
                    .collect();
                (self.shell || !kept.is_empty()).then_some(Value::Object(kept))
            }
            Value::Array(items) => {
                let kept: Vec<Value> = items
                    .iter()
                    .enumerate()
                    .filter_map(|(i, v)| self.children.get(&Step::Index(i))?.extract(v))
                    .collect();
                (self.shell || !kept.is_empty()).then_some(Value::Array(kept))
            }
            // A scalar has no container to keep: only a whole selection keeps it.
            _ => None,
        }
    }
}

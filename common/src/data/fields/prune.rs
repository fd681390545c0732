//! The pruned copy `--fields` prints: the concrete paths a selection reaches in the document,
//! gathered in a prefix tree, and the document kept along it (nesting, key order and array
//! order as they were).

use std::collections::BTreeMap;

use serde_json::Value;

use super::path::Step;

/// All concrete paths in `doc` that `path` selects.
pub(super) fn expand(doc: &Value, path: &[Step]) -> Vec<Vec<Step>> {
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
pub(super) struct Trie {
    keep_all: bool,
    children: BTreeMap<Step, Trie>,
}

impl Trie {
    pub(super) fn insert(&mut self, path: &[Step]) {
        match path.split_first() {
            None => self.keep_all = true,
            Some((step, rest)) => self.children.entry(step.clone()).or_default().insert(rest),
        }
    }

    pub(super) fn extract(&self, value: &Value) -> Option<Value> {
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

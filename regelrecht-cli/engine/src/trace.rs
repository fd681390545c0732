//! The evaluation trace: a tree of what was evaluated (outputs, inputs, open terms, hooks,
//! overrides and actions), each with its law, article, operation and the values involved.

use crate::value::Value;

/// What a trace node stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TraceKind {
    /// The requested evaluation.
    Evaluation,
    /// Execution of one article.
    Article,
    /// An input taken from another law's output (cross-law).
    CrossLaw,
    /// An input taken from another output of the same law.
    InternalInput,
    /// An input given directly as a parameter or left to an external source.
    Input,
    /// An open term filled by an implementing regulation or a default.
    OpenTerm,
    /// A hook article fired on a lifecycle event.
    Hook,
    /// An override (lex specialis) replacing an output.
    Override,
    /// An action computing one output.
    Action,
    /// A result reused from the cache.
    Cached,
}

impl TraceKind {
    /// Lower-case name used in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            TraceKind::Evaluation => "evaluatie",
            TraceKind::Article => "artikel",
            TraceKind::CrossLaw => "invoer_andere_wet",
            TraceKind::InternalInput => "invoer_zelfde_wet",
            TraceKind::Input => "invoer",
            TraceKind::OpenTerm => "open_norm",
            TraceKind::Hook => "hook",
            TraceKind::Override => "override",
            TraceKind::Action => "actie",
            TraceKind::Cached => "hergebruikt",
        }
    }
}

/// One node of the trace.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceNode {
    /// What this node stands for.
    pub kind: TraceKind,
    /// Output, input or term name (or the law id for an article).
    pub name: String,
    /// `$id` of the law involved.
    pub law: Option<String>,
    /// Article number involved.
    pub article: Option<String>,
    /// Top-level operation of an action.
    pub operation: Option<String>,
    /// The resulting value (absent when evaluation failed).
    pub value: Option<Value>,
    /// Variables read by an action, with their values, in reading order.
    pub used: Vec<(String, Value)>,
    /// Extra explanation (e.g. why a default was used, or the error).
    pub message: Option<String>,
    /// Nested evaluations.
    pub children: Vec<TraceNode>,
}

impl TraceNode {
    /// A new node without value or children.
    pub fn new(kind: TraceKind, name: impl Into<String>) -> TraceNode {
        TraceNode {
            kind,
            name: name.into(),
            law: None,
            article: None,
            operation: None,
            value: None,
            used: Vec::new(),
            message: None,
            children: Vec::new(),
        }
    }

    /// JSON form for `--uitleg`.
    pub fn to_json(&self) -> serde_json::Value {
        let mut map = serde_json::Map::new();
        map.insert("soort".into(), self.kind.as_str().into());
        map.insert("naam".into(), self.name.clone().into());
        if let Some(law) = &self.law {
            map.insert("wet".into(), law.clone().into());
        }
        if let Some(article) = &self.article {
            map.insert("artikel".into(), article.clone().into());
        }
        if let Some(op) = &self.operation {
            map.insert("operatie".into(), op.clone().into());
        }
        if let Some(v) = &self.value {
            map.insert("waarde".into(), v.to_json());
        }
        if !self.used.is_empty() {
            let used = self
                .used
                .iter()
                .map(|(k, v)| (k.clone(), v.to_json()))
                .collect();
            map.insert("gebruikt".into(), serde_json::Value::Object(used));
        }
        if let Some(m) = &self.message {
            map.insert("toelichting".into(), m.clone().into());
        }
        if !self.children.is_empty() {
            map.insert(
                "stappen".into(),
                self.children.iter().map(TraceNode::to_json).collect(),
            );
        }
        serde_json::Value::Object(map)
    }

    /// Indented plain-text rendering (one line per node), for `--output table`.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        self.render_into(&mut out, 0);
        out
    }

    fn render_into(&self, out: &mut String, depth: usize) {
        use std::fmt::Write;
        let _ = write!(
            out,
            "{}{} {}",
            "  ".repeat(depth),
            self.kind.as_str(),
            self.name
        );
        if let (Some(law), Some(article)) = (&self.law, &self.article) {
            let _ = write!(out, " [{law} art. {article}]");
        } else if let Some(law) = &self.law {
            let _ = write!(out, " [{law}]");
        }
        if let Some(op) = &self.operation {
            let _ = write!(out, " {op}");
        }
        if !self.used.is_empty() {
            let used: Vec<String> = self.used.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let _ = write!(out, " ({})", used.join(", "));
        }
        if let Some(v) = &self.value {
            let _ = write!(out, " = {v}");
        }
        if let Some(m) = &self.message {
            let _ = write!(out, " — {m}");
        }
        out.push('\n');
        for child in &self.children {
            child.render_into(out, depth + 1);
        }
    }
}

/// Builds a trace tree with a stack of open nodes.
#[derive(Debug)]
pub(crate) struct TraceBuilder {
    stack: Vec<TraceNode>,
}

impl TraceBuilder {
    pub(crate) fn new(root: TraceNode) -> TraceBuilder {
        TraceBuilder { stack: vec![root] }
    }

    pub(crate) fn push(&mut self, node: TraceNode) {
        self.stack.push(node);
    }

    /// Closes the innermost node with its value (or error message) and attaches it to its parent.
    pub(crate) fn pop(&mut self, value: Option<Value>, message: Option<String>) {
        if self.stack.len() < 2 {
            return;
        }
        if let Some(mut node) = self.stack.pop() {
            node.value = value;
            if message.is_some() {
                node.message = message;
            }
            if let Some(parent) = self.stack.last_mut() {
                parent.children.push(node);
            }
        }
    }

    /// Adds a finished leaf node to the innermost open node.
    pub(crate) fn leaf(&mut self, node: TraceNode) {
        if let Some(parent) = self.stack.last_mut() {
            parent.children.push(node);
        }
    }

    pub(crate) fn finish(mut self, value: Option<Value>) -> TraceNode {
        while self.stack.len() > 1 {
            self.pop(None, None);
        }
        let mut root = self
            .stack
            .pop()
            .unwrap_or_else(|| TraceNode::new(TraceKind::Evaluation, ""));
        root.value = value;
        root
    }
}

/// A trace node about `name` in `law` (and `article`, if known).
pub(crate) fn node(kind: TraceKind, name: &str, law: &str, article: Option<&str>) -> TraceNode {
    let mut n = TraceNode::new(kind, name);
    n.law = Some(law.to_string());
    n.article = article.map(str::to_string);
    n
}

//! Building an evaluation's trace: the root node of a request, nodes for each step, wrapping a
//! step so its node records the value or the error, and attaching the finished tree to the
//! evaluation or to the error.

use super::run::{Key, Run};
use super::{Evaluation, Request};
use crate::error::EvalError;
use crate::trace::{TraceBuilder, TraceKind, TraceNode, node};
use crate::value::Value;

/// A trace node about `name` in `law` and `article`, with an explanation.
pub(super) fn explained(
    kind: TraceKind,
    name: &str,
    law: &str,
    article: &str,
    message: impl Into<String>,
) -> TraceNode {
    let mut n = node(kind, name, law, Some(article));
    n.message = Some(message.into());
    n
}

/// The root node for `request`.
pub(super) fn root(request: &Request) -> TraceNode {
    let mut root = TraceNode::new(TraceKind::Evaluation, request.outputs.join(", "));
    root.law = Some(request.law_id.clone());
    root
}

/// Closes the trace and hands it to the evaluation (with the answer as the root's value: the
/// single output, or an object of all requested outputs) or to the error (with its message).
pub(super) fn attach(
    trace: TraceBuilder,
    result: Result<Evaluation, EvalError>,
) -> Result<Evaluation, EvalError> {
    match result {
        Ok(mut evaluation) => {
            let value = if evaluation.outputs.len() == 1 {
                evaluation.outputs.values().next().cloned()
            } else {
                Some(Value::Object(evaluation.outputs.clone()))
            };
            evaluation.trace = trace.finish(value);
            Ok(evaluation)
        }
        Err(mut error) => {
            let mut node = trace.finish(None);
            node.message = Some(error.to_string());
            error.trace = Some(Box::new(node));
            Err(error)
        }
    }
}

impl<'c> Run<'c> {
    /// Adds the leaf `node` (built only when this evaluation is traced) to the open node.
    pub(super) fn leaf(&self, node: impl FnOnce() -> TraceNode) {
        if self.tracing {
            self.trace.borrow_mut().leaf(node());
        }
    }

    /// Runs `f` under `node` (built only when this evaluation is traced); the node gets
    /// `value` of the result, or the error's message.
    pub(super) fn traced<T>(
        &mut self,
        node: impl FnOnce() -> TraceNode,
        f: impl FnOnce(&mut Self) -> Result<T, EvalError>,
        value: impl Fn(&T) -> Option<Value>,
    ) -> Result<T, EvalError> {
        if !self.tracing {
            return f(self);
        }
        self.trace.borrow_mut().push(node());
        let result = f(self);
        match &result {
            Ok(v) => self.trace.borrow_mut().pop(value(v), None),
            Err(e) => self.trace.borrow_mut().pop(None, Some(e.kind.to_string())),
        }
        result
    }

    /// Runs `f` under `node` with `key` on the resolution stack (see [`Run::nested`]).
    pub(super) fn traced_nested<T>(
        &mut self,
        node: impl FnOnce() -> TraceNode,
        key: Key<'c>,
        f: impl FnOnce(&mut Self) -> Result<T, EvalError>,
        value: impl Fn(&T) -> Option<Value>,
    ) -> Result<T, EvalError> {
        self.traced(node, |run| run.nested(key, f), value)
    }
}

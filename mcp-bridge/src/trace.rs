//! W3C trace context for calls: one trace per MCP call, or the client's (`_meta.traceparent`).
//!
//! The child gets `TRACEPARENT=00-<trace>-<bridge span>-<flags>`, so the CLI's audit record,
//! provenance and error `instance` carry the same trace id as the MCP call.

use common::trace::{parse_traceparent, random_hex};

/// The bridge's span of one call.
#[derive(Clone, Debug)]
pub struct CallTrace {
    pub trace_id: String,
    pub span_id: String,
    pub flags: String,
}

impl CallTrace {
    /// Continue `traceparent` when it is valid, else start a new sampled trace.
    pub fn start(traceparent: Option<&str>) -> Self {
        let span_id = random_hex::<8>();
        match traceparent.and_then(parse_traceparent) {
            Some(parent) => Self {
                trace_id: parent.trace_id,
                span_id,
                flags: parent.flags,
            },
            None => Self {
                trace_id: random_hex::<16>(),
                span_id,
                flags: "01".to_string(),
            },
        }
    }

    /// The value for the child's `TRACEPARENT`.
    pub fn traceparent(&self) -> String {
        format!("00-{}-{}-{}", self.trace_id, self.span_id, self.flags)
    }

    /// `urn:trace:<trace id>`, the `instance` of error objects the bridge makes itself.
    pub fn instance(&self) -> String {
        format!("urn:trace:{}", self.trace_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continues_a_valid_traceparent_with_a_new_span() {
        let trace = CallTrace::start(Some(
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00",
        ));
        assert_eq!(trace.trace_id, "4bf92f3577b34da6a3ce929d0e0e4736");
        assert_ne!(trace.span_id, "00f067aa0ba902b7");
        assert!(trace.traceparent().ends_with("-00"));
    }

    #[test]
    fn starts_a_new_trace_for_invalid_input() {
        for bad in [
            "",
            "00-0000-1-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        ] {
            let trace = CallTrace::start(Some(bad));
            assert_eq!(trace.trace_id.len(), 32);
            assert_ne!(trace.trace_id, "00000000000000000000000000000000");
            assert_eq!(
                parse_traceparent(&trace.traceparent()).map(|p| p.trace_id),
                Some(trace.trace_id.clone())
            );
        }
    }
}

//! W3C trace context for calls: one trace per MCP call, or the client's (`_meta.traceparent`).
//!
//! The child gets `TRACEPARENT=00-<trace>-<bridge span>-<flags>`, so the CLI's audit record,
//! provenance and error `instance` carry the same trace id as the MCP call.

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
        let span_id = random_hex(8);
        match traceparent.and_then(parse) {
            Some((trace_id, flags)) => Self {
                trace_id,
                span_id,
                flags,
            },
            None => Self {
                trace_id: random_hex(16),
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

/// `00-<32 hex>-<16 hex>-<2 hex>` → (trace id, flags); all-zero ids are invalid.
fn parse(value: &str) -> Option<(String, String)> {
    let mut parts = value.trim().split('-');
    let (version, trace, parent, flags) =
        (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let hex = |s: &str, len: usize| {
        s.len() == len
            && s.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    };
    let valid = hex(version, 2)
        && version != "ff"
        && hex(trace, 32)
        && hex(parent, 16)
        && hex(flags, 2)
        && trace.bytes().any(|b| b != b'0')
        && parent.bytes().any(|b| b != b'0');
    valid.then(|| (trace.to_string(), flags.to_string()))
}

/// `bytes` random bytes as lower-case hex (never all zero).
fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    if getrandom::fill(&mut buf).is_err() || buf.iter().all(|b| *b == 0) {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(1);
        for (i, b) in buf.iter_mut().enumerate() {
            *b = ((nanos >> ((i % 16) * 8)) as u8) ^ (std::process::id() as u8) | 1;
        }
    }
    buf.iter().map(|b| format!("{b:02x}")).collect()
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
                parse(&trace.traceparent()).map(|p| p.0),
                Some(trace.trace_id.clone())
            );
        }
    }
}

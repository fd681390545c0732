//! W3C trace context: one trace per invocation, or the caller's (rules AUDIT-11, AUDIT-12, NET-10).
//!
//! A `TRACEPARENT` in the environment is continued: its trace id is kept and
//! its span becomes our parent. Upstream requests carry our own span.

/// Identifiers of this invocation.
#[derive(Clone, Debug)]
pub struct TraceContext {
    pub trace_id: String,
    pub span_id: String,
    pub parent_span_id: Option<String>,
    /// The caller's trace flags (`01`, sampled, for a new trace).
    pub flags: String,
}

impl TraceContext {
    /// Continue `traceparent` when it is valid, else start a new trace.
    pub fn start(traceparent: Option<&str>) -> Self {
        let span_id = random_hex::<8>();
        match traceparent.and_then(parse_traceparent) {
            Some(parent) => Self {
                trace_id: parent.trace_id,
                span_id,
                parent_span_id: Some(parent.parent_id),
                flags: parent.flags,
            },
            None => Self {
                trace_id: random_hex::<16>(),
                span_id,
                parent_span_id: None,
                flags: "01".to_string(),
            },
        }
    }

    /// The `traceparent` header value for upstream requests.
    pub fn traceparent(&self) -> String {
        format!("00-{}-{}-{}", self.trace_id, self.span_id, self.flags)
    }
}

/// The parts of a valid `traceparent`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TraceParent {
    pub trace_id: String,
    pub parent_id: String,
    pub flags: String,
}

/// Parse `00-<32 hex>-<16 hex>-<2 hex>`; all-zero ids are invalid.
pub(crate) fn parse_traceparent(value: &str) -> Option<TraceParent> {
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
    valid.then(|| TraceParent {
        trace_id: trace.to_string(),
        parent_id: parent.to_string(),
        flags: flags.to_string(),
    })
}

/// `N` random bytes as lower-case hex.
pub(crate) fn random_hex<const N: usize>() -> String {
    let mut buf = [0u8; N];
    // The OS random source does not fail on supported platforms; a zero id
    // would still be unique enough per process together with the clock.
    if getrandom::fill(&mut buf).is_err() {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        for (i, b) in buf.iter_mut().enumerate() {
            *b = (nanos >> ((i % 16) * 8)) as u8 ^ (std::process::id() as u8);
        }
    }
    crate::data::digest::hex(&buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continues_a_valid_traceparent() {
        let t = TraceContext::start(Some(
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        ));
        assert_eq!(t.trace_id, "0af7651916cd43dd8448eb211c80319c");
        assert_eq!(t.parent_span_id.as_deref(), Some("b7ad6b7169203331"));
        assert_ne!(t.span_id, "b7ad6b7169203331");
        assert!(
            t.traceparent()
                .starts_with("00-0af7651916cd43dd8448eb211c80319c-")
        );
    }

    #[test]
    fn rejects_malformed_traceparents() {
        for bad in [
            "garbage",
            "00-00000000000000000000000000000000-b7ad6b7169203331-01",
            "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",
            "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
        ] {
            let t = TraceContext::start(Some(bad));
            assert!(t.parent_span_id.is_none(), "{bad}");
            assert_eq!(t.trace_id.len(), 32);
        }
    }
}

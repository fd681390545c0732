//! How the bridge is reached: stdio or streamable HTTP. A type of its own below the bridge and
//! the session, which both decide by it (where identity comes from, which hint a refusal gives).

/// How the bridge is reached, which decides where identity comes from and the default for
/// clients that cannot elicit an approval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Transport {
    /// One host over stdin/stdout: identity per call from `_meta`, else per process.
    Stdio,
    /// Streamable HTTP: identity only from a verified token.
    Http,
}

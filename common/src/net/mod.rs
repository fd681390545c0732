//! The network: TLS, the one HTTP client setup (deadlines, redirects, retries, the body cap) and
//! the response cache. It sends what it is handed; what may be sent is decided above, at the gate.

pub(crate) mod cache;
pub(crate) mod http;
pub(crate) mod tls;

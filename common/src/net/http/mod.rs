//! The one HTTP client setup of the family (rules NET-1 … NET-7).
//!
//! reqwest with rustls and the operating system's root store, driven by the sending thread.
//! Every request: a deadline from `--timeout`, a `User-Agent` naming the tool,
//! the caller's `traceparent`, redirects only under the configured base (so a
//! key in a header never reaches another host or path), at most two retries
//! with back-off for idempotent requests on 429/502/503/504 (honouring
//! `Retry-After` with a floor of 250 ms, never beyond the deadline), and a cap
//! on the response body. Plain `http://` is refused unless the host is
//! loopback. An answer that is not HTTP is a protocol error (exit 76).
//!
//! - [`request`]: the request a command makes, as sent and as a plan shows it;
//! - [`policy`]: which URLs may be reached (https or loopback, under the base, proxies);
//! - [`response`]: the answer as received, and its status as the profile's error;
//! - [`client`]: the configured client, its retries and redirects;
//! - [`errors`]: a failed exchange as the profile's error, told by type.

mod client;
mod errors;
mod policy;
mod request;
mod response;

pub(crate) use client::DEFAULT_MAX_RESPONSE_BYTES;
pub use client::{ClientConfig, HttpClient};
pub(crate) use policy::{check_proxy, check_url, redirect_scope};
pub use policy::{ensure_under, is_loopback};
pub use request::Request;
pub use response::Response;

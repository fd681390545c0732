//! Several fake sources behind one port: route by path prefix (`/kvk/...` → the KvK router).
//!
//! The routed handler sees the request with the prefix moved from `path` and `raw_url` to
//! `mount` (so links it builds with [`RecordedRequest::base_before`] keep the prefix); the
//! server's own record keeps the full path.

use std::sync::Arc;

use crate::reply::Reply;
use crate::request::RecordedRequest;
use crate::server::Handler;

/// A prefix router. Build it with [`Mounts::new`] and [`Mounts::mount`], then turn it into
/// a handler with [`Mounts::into_handler`].
#[derive(Default, Clone)]
pub struct Mounts {
    routes: Vec<(String, Arc<Handler>)>,
}

impl Mounts {
    /// An empty router: every request gets a 404.
    pub fn new() -> Self {
        Mounts::default()
    }

    /// Serves `handler` under `prefix` (e.g. `/kvk`). A request for `/kvk` or `/kvk/...`
    /// goes to it with the path shortened to `/` or `/...`.
    pub fn mount<H>(mut self, prefix: &str, handler: H) -> Self
    where
        H: Fn(&RecordedRequest) -> Reply + Send + Sync + 'static,
    {
        let prefix = format!("/{}", prefix.trim_matches('/'));
        self.routes.push((prefix, Arc::new(handler)));
        self
    }

    /// The mounted prefixes, in order.
    pub fn prefixes(&self) -> Vec<&str> {
        self.routes
            .iter()
            .map(|(prefix, _)| prefix.as_str())
            .collect()
    }

    /// Answers `request` with the first mount whose prefix matches, or 404.
    pub fn route(&self, request: &RecordedRequest) -> Reply {
        for (prefix, handler) in &self.routes {
            if let Some(rest) = strip_segment_prefix(&request.path, prefix) {
                let mut inner = request.clone();
                inner.path = rest.to_owned();
                inner.raw_url = strip_segment_prefix(&request.raw_url, prefix)
                    .unwrap_or(&request.raw_url)
                    .to_owned();
                inner.mount = format!("{}{prefix}", request.mount);
                return handler(&inner);
            }
        }
        Reply::text(
            404,
            &format!(
                "fake-upstream: geen bron op {}; bekend: {}",
                request.path,
                self.prefixes().join(", ")
            ),
        )
    }

    /// The router as a handler for [`crate::FakeServer::start`].
    pub fn into_handler(self) -> impl Fn(&RecordedRequest) -> Reply + Send + Sync + 'static {
        move |request| self.route(request)
    }
}

/// `path` without `prefix` when `prefix` is a whole leading segment run; `/` for an exact match.
fn strip_segment_prefix<'a>(path: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = path.strip_prefix(prefix)?;
    if rest.is_empty() {
        Some("/")
    } else if rest.starts_with('/') || rest.starts_with('?') {
        Some(rest)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn echo_path(request: &RecordedRequest) -> Reply {
        Reply::text(200, &format!("{} {}", request.path, request.raw_url))
    }

    #[test]
    fn routes_by_whole_segment_and_strips_the_prefix() {
        let mounts = Mounts::new().mount("kvk/", echo_path);
        let reply = mounts.route(&RecordedRequest::get("/kvk/v1/x?a=1", &[]));
        assert_eq!(reply.status_code(), 200);
        assert_eq!(reply.body_bytes(), b"/v1/x /v1/x?a=1");
        let base = Mounts::new()
            .mount("/kvk", |request: &RecordedRequest| {
                Reply::text(200, &request.base_before("/v1/"))
            })
            .route(&RecordedRequest::get("/kvk/test/v1/x", &[("host", "h:1")]));
        assert_eq!(base.body_bytes(), b"http://h:1/kvk/test");
        let other = mounts.route(&RecordedRequest::get("/kvkx/v1/x", &[]));
        assert_eq!(other.status_code(), 404);
        assert_eq!(mounts.prefixes(), ["/kvk"]);
    }
}

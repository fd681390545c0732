//! The configured client: rustls with the system's roots, no proxy but a checked `HTTPS_PROXY`,
//! the deadline on every exchange, retries where safe (NET-4), redirects followed only under
//! their scope (NET-11), the body capped; and the system resolver whose failure is told by type.
//!
//! reqwest's async client on a current-thread runtime of the client's own, driven by the thread
//! that sends: a call that sends starts no thread for it (reqwest's blocking client runs a
//! runtime thread, and a wait that Ctrl-C can end needed one more, each with a memory arena of
//! its own). The wait for an answer is a future, so [`HttpClient::send_until`] ends it by
//! dropping it when another future ends first (Ctrl-C, EXIT-11). A host name is still looked up
//! on a thread of tokio's blocking pool, so the deadline bounds the lookup too.

use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::Url;

use super::errors::{NameNotResolved, deadline_passed, read_error, transport_error};
use super::policy::{check_proxy, check_url, ensure_under, origin};
use super::{Request, Response};
use crate::problem::error::{Problem, Result};

/// Default cap on a response body: 20 MiB.
pub(crate) const DEFAULT_MAX_RESPONSE_BYTES: u64 = 20 * 1024 * 1024;
const MAX_RETRIES: u32 = 2;
const REDIRECT_LIMIT: usize = 5;
/// The shortest wait before a retry, whatever `Retry-After` says (rule NET-4).
const MIN_BACKOFF: Duration = Duration::from_millis(250);

/// What the client needs to know about its caller.
pub struct ClientConfig<'a> {
    pub deadline: Instant,
    pub max_body: u64,
    pub proxy: Option<&'a str>,
}

/// The configured client; a clone shares its connection pool and runtime.
#[derive(Clone)]
pub struct HttpClient {
    inner: reqwest::Client,
    runtime: Arc<Runtime>,
    deadline: Instant,
    max_body: u64,
    /// The issuer of a chain the TLS verifier refused as untrusted (NET-12).
    untrusted: crate::net::tls::UntrustedIssuer,
}

impl HttpClient {
    /// Build a client. `needs_tls` is false when every URL is plain loopback
    /// http, which spares loading the root store.
    #[allow(clippy::disallowed_methods, reason = "one HTTP client")]
    pub fn new(config: &ClientConfig<'_>, needs_tls: bool) -> Result<Self> {
        let remaining = config.deadline.saturating_duration_since(Instant::now());
        let mut builder = reqwest::Client::builder()
            .timeout(remaining.max(Duration::from_millis(1)))
            .connect_timeout(remaining.clamp(Duration::from_millis(1), Duration::from_secs(10)))
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .tls_built_in_native_certs(false)
            .dns_resolver(std::sync::Arc::new(Resolver::new()))
            .pool_max_idle_per_host(1);
        let mut untrusted = crate::net::tls::UntrustedIssuer::default();
        if needs_tls {
            let (tls, issuer) = crate::net::tls::client_config()?;
            builder = builder.use_preconfigured_tls(tls);
            untrusted = issuer;
        }
        if let Some(proxy) = check_proxy(config.proxy)? {
            let proxy = reqwest::Proxy::https(proxy.as_str())
                .map_err(|e| Problem::config(format!("ongeldige proxy: {e}")))?;
            builder = builder.proxy(proxy);
        }
        let inner = builder
            .build()
            .map_err(|e| Problem::config(format!("HTTP-client kon niet worden gemaakt: {e}")))?;
        Ok(Self {
            inner,
            runtime: Arc::new(Runtime::new()?),
            deadline: config.deadline,
            max_body: config.max_body,
            untrusted,
        })
    }

    /// The same client (its connection pool, runtime and TLS roots) with
    /// other bounds: the audit export reuses the command's client this way
    /// instead of building a second one.
    pub fn bounded(&self, deadline: Instant, max_body: u64) -> Self {
        Self {
            inner: self.inner.clone(),
            runtime: Arc::clone(&self.runtime),
            deadline,
            max_body,
            untrusted: std::sync::Arc::clone(&self.untrusted),
        }
    }

    /// Send `request`, retrying where that is safe; the body is read whole.
    /// Redirects are followed only while they stay under `scope` (see
    /// [`redirect_scope`]); the response names the URL that answered.
    pub fn send(&self, request: &Request, scope: &str) -> Result<Response> {
        request.check()?;
        self.runtime.block_on(self.exchange(request, scope))
    }

    /// [`HttpClient::send`] that `stop` ends (Ctrl-C, EXIT-11): `Ok(None)` when `stop` came
    /// first. The exchange is then dropped where it stood (its connection closed); whether a
    /// request that was on its way reached the source is unknown.
    pub(crate) fn send_until(
        &self,
        request: &Request,
        scope: &str,
        stop: impl Future<Output = ()>,
    ) -> Result<Option<Response>> {
        request.check()?;
        self.runtime.block_on(async {
            tokio::select! {
                response = self.exchange(request, scope) => response.map(Some),
                () = stop => Ok(None),
            }
        })
    }

    /// The exchange [`HttpClient::send`] waits for: the request, its redirects and retries.
    async fn exchange(&self, request: &Request, scope: &str) -> Result<Response> {
        let mut attempt = 0;
        loop {
            let response = self.follow(request, scope).await?;
            let retryable = matches!(response.status, 429 | 502 | 503 | 504)
                && request.is_idempotent()
                && attempt < MAX_RETRIES;
            if retryable {
                let wait = response
                    .retry_after()
                    .map(Duration::from_secs)
                    .unwrap_or_else(|| MIN_BACKOFF * (1 << attempt))
                    .max(MIN_BACKOFF);
                if Instant::now()
                    .checked_add(wait)
                    .is_some_and(|t| t < self.deadline)
                {
                    tokio::time::sleep(wait).await;
                    attempt += 1;
                    continue;
                }
            }
            return Ok(response);
        }
    }

    /// One request and the redirects that answer it, each checked against
    /// `scope` before anything (the key, the body) is sent there (rule NET-11).
    async fn follow(&self, request: &Request, scope: &str) -> Result<Response> {
        let mut url = check_url(&request.url)?;
        let mut hop = request.clone();
        for _ in 0..=REDIRECT_LIMIT {
            let response = self.send_once(&hop, &url).await?;
            if !(300..400).contains(&response.status) {
                return Ok(response);
            }
            let refused = |why: String| {
                Problem::protocol(format!("doorverwijzing geweigerd: {why}"))
                    .with_code(crate::problem::codes::OMLEIDING_GEWEIGERD)
                    .with_status(response.status)
            };
            let location = response
                .header("location")
                .ok_or_else(|| refused("het antwoord noemt geen Location".into()))?;
            let next = url
                .join(location)
                .map_err(|_| refused("de Location van het antwoord is geen geldige URL".into()))?;
            url = ensure_under(next.as_str(), scope)
                .map_err(|_| refused(format!("{} valt buiten {scope}", origin(&next))))?;
            if response.status == 303 || (hop.method == "POST" && response.status <= 302) {
                hop.method = "GET";
                hop.body = None;
                hop.payload = None;
            }
        }
        Err(Problem::protocol(format!(
            "doorverwijzing geweigerd: meer dan {REDIRECT_LIMIT} doorverwijzingen"
        ))
        .with_code(crate::problem::codes::OMLEIDING_GEWEIGERD)
        .into())
    }

    async fn send_once(&self, request: &Request, url: &Url) -> Result<Response> {
        let remaining = self.deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            return Err(deadline_passed());
        }
        let method = reqwest::Method::from_bytes(request.method.as_bytes())
            .map_err(|e| Problem::software(e.to_string()))?;
        let mut builder = self.inner.request(method, url.clone()).timeout(remaining);
        for h in &request.headers {
            builder = builder.header(&h.name, &h.value);
        }
        if let Some(body) = &request.body {
            builder = builder
                .header("content-type", "application/json")
                .body(body.to_string());
        }
        if let Some((content_type, bytes)) = &request.payload {
            builder = builder
                .header("content-type", *content_type)
                .body(bytes.clone());
        }
        let mut response = builder.send().await.map_err(|e| {
            let issuer = self
                .untrusted
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .take();
            transport_error(&e, issuer)
        })?;
        let status = response.status().as_u16();
        let final_url = response.url().to_string();
        let headers = response
            .headers()
            .iter()
            .map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap_or("").to_string()))
            .collect();
        let mut body = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| read_error(&e, self.deadline))?
        {
            body.extend_from_slice(&chunk);
            if body.len() as u64 > self.max_body {
                return Err(Problem::protocol(format!(
                    "het antwoord is groter dan {} bytes",
                    self.max_body
                ))
                .with_code(crate::problem::codes::ANTWOORD_TE_GROOT)
                .with_hint(
                    "verhoog OVERHEID_MAX_RESPONSE_BYTES als dit antwoord terecht zo groot is",
                )
                .into());
            }
        }
        Ok(Response {
            status,
            url: final_url,
            method: request.method,
            headers,
            body,
        })
    }
}

/// The client's runtime: one thread's, the sender's, with I/O and timers. Dropped without waiting
/// for a lookup still running on the blocking pool (a lookup the deadline gave up on must not
/// hold the process), and without blocking, so a client may also end inside a host's runtime.
struct Runtime(Option<tokio::runtime::Runtime>);

impl Runtime {
    fn new() -> Result<Self> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Problem::software(format!("geen runtime voor de HTTP-client: {e}")))?;
        Ok(Self(Some(runtime)))
    }

    fn block_on<T>(&self, work: impl Future<Output = T>) -> T {
        self.0.as_ref().expect("held until dropped").block_on(work)
    }
}

impl Drop for Runtime {
    fn drop(&mut self) {
        if let Some(runtime) = self.0.take() {
            runtime.shutdown_background();
        }
    }
}

/// The system resolver, as reqwest uses it by default (`getaddrinfo` on a blocking thread),
/// whose failure is a [`NameNotResolved`]: a failed lookup is told from other connect failures
/// by its type.
#[derive(Clone)]
struct Resolver(hyper_util::client::legacy::connect::dns::GaiResolver);

impl Resolver {
    fn new() -> Self {
        Self(hyper_util::client::legacy::connect::dns::GaiResolver::new())
    }
}

/// A failed lookup as the resolver hands it on: boxed once, so that the error chain holds the
/// [`NameNotResolved`] itself. (`Box::new(..) as Box<_>` made a `Box<NameNotResolved>` that `?`
/// boxed again: the chain then held the inner box, no cause was a `NameNotResolved`, and a failed
/// lookup was reported as a failed connection.)
fn not_resolved(err: std::io::Error) -> Box<dyn std::error::Error + Send + Sync> {
    Box::new(NameNotResolved(err))
}

impl reqwest::dns::Resolve for Resolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let mut gai = self.0.clone();
        let name = name.as_str().parse();
        Box::pin(async move {
            let name = name.map_err(|_| {
                not_resolved(std::io::Error::from(std::io::ErrorKind::InvalidInput))
            })?;
            let addrs = tower_service::Service::call(&mut gai, name)
                .await
                .map_err(not_resolved)?;
            Ok(Box::new(addrs) as reqwest::dns::Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::error::Error;

    /// The resolver's failure is a `NameNotResolved` itself, which is what the error chain is
    /// searched for (errors.rs). `a..b` fails inside `getaddrinfo` (an empty label), before any
    /// query leaves this machine.
    #[test]
    fn a_failed_lookup_hands_on_a_name_not_resolved() {
        use reqwest::dns::Resolve;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let lookup = Resolver::new().resolve("a..b".parse().unwrap());
        let Err(err) = runtime.block_on(lookup) else {
            panic!("a..b resolved");
        };
        assert!(err.is::<NameNotResolved>(), "{err:?}");
    }

    fn client() -> HttpClient {
        let config = ClientConfig {
            deadline: Instant::now() + Duration::from_secs(10),
            max_body: DEFAULT_MAX_RESPONSE_BYTES,
            proxy: None,
        };
        HttpClient::new(&config, false).unwrap()
    }

    #[test]
    fn a_closed_port_is_a_refused_connection() {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        // `localhost` goes through the resolver (`Resolver`), the address does not.
        for host in ["127.0.0.1", "localhost"] {
            let url = format!("http://{host}:{port}/x");
            let Err(Error::Problem(problem)) = client().send(&Request::get(&url), &url) else {
                panic!("a closed port answers")
            };
            assert_eq!(problem.exit.code(), 69, "{problem:?}");
            assert!(problem.detail.contains("geweigerd"), "{problem:?}");
        }
    }

    /// A refused redirect names only where it pointed (scheme, host, port): a key in its path
    /// or query, here with a backslash the URL parser turns into `/` (so it is no longer the
    /// held form), never reaches the error.
    #[test]
    fn a_refused_redirect_names_only_its_origin() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let url = format!("http://127.0.0.1:{port}/v1/x");
        let server = std::thread::spawn(move || {
            use std::io::{Read, Write};
            let (mut stream, _) = listener.accept().unwrap();
            let _ = stream.read(&mut [0; 4096]);
            let _ = stream.write_all(
                b"HTTP/1.1 302 Found\r\nlocation: http://elders.invalid:8443/sl\\eutel-geheim/x?key=sl\\eutel-geheim\r\ncontent-length: 0\r\n\r\n",
            );
        });
        let base = format!("http://127.0.0.1:{port}/v1");
        let Err(Error::Problem(problem)) = client().send(&Request::get(&url), &base) else {
            panic!("the redirect was followed")
        };
        server.join().unwrap();
        assert_eq!(problem.code.name, "OMLEIDING_GEWEIGERD", "{problem:?}");
        assert!(
            problem
                .detail
                .contains("http://elders.invalid:8443 valt buiten"),
            "{problem:?}"
        );
        assert!(!problem.detail.contains("eutel"), "{problem:?}");
        assert!(!problem.detail.contains("key"), "{problem:?}");
    }

    #[test]
    fn plain_text_to_a_tls_client_is_a_tls_failure() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!(
            "https://127.0.0.1:{}/x",
            listener.local_addr().unwrap().port()
        );
        let server = std::thread::spawn(move || {
            use std::io::Write;
            let (mut stream, _) = listener.accept().unwrap();
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n");
        });
        let Err(Error::Problem(problem)) = client().send(&Request::get(&url), &url) else {
            panic!("plain text passed for TLS")
        };
        server.join().unwrap();
        assert_eq!(problem.exit.code(), 69, "{problem:?}");
        assert!(problem.detail.contains("TLS-verbinding"), "{problem:?}");
    }
}

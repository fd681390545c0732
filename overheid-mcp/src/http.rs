//! Streamable HTTP at `/mcp`, stateless: nothing is kept between requests, so any replica
//! answers any request behind any load balancer.
//!
//! rmcp's `StreamableHttpService` (no sessions, JSON responses) does the MCP part: the header
//! checks against the body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`: 400/-32020),
//! `Host` and `Origin` validation (403), the body cap (413), 405 for GET and DELETE. In front
//! of it this file adds what is the bridge's own: the bearer token (401, see [`crate::auth`]) and
//! its scope for the call in the body (403 with a step-up challenge, see [`crate::scope`]),
//! a bound on concurrent calls (503 with `Retry-After`), `GET /health`, the RFC 9728 metadata
//! and a graceful stop on SIGTERM (in-flight calls finish, then the process exits).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use http::{Method, Request, Response, StatusCode, header};
use http_body_util::{BodyExt, Either, Full, combinators::BoxBody};
use hyper::body::{Bytes, Incoming};
use hyper_util::rt::TokioIo;
use rmcp::transport::StreamableHttpServerConfig;
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use serde_json::{Value, json};
use tokio::sync::Semaphore;

use crate::approval_page::{self, Asked, Page};
use crate::auth::{DEFAULT_KVK_CLAIM, Verifier};
use crate::bridge::Bridge;
use crate::env;
use crate::handler::Handler;
use crate::incoming;
use crate::options::Options;
use crate::scope::Scope;
use crate::stdio::MAX_MESSAGE_BYTES;

/// Seconds a client is asked to wait after a 503.
const RETRY_AFTER_SECONDS: u64 = 1;

/// How the HTTP server is set up.
pub struct Settings {
    address: SocketAddr,
    verifier: Option<Verifier>,
    max_calls: usize,
    allowed_origins: Vec<String>,
    allowed_hosts: Vec<String>,
    /// `--public-url`: the URL of `/mcp` as clients reach it.
    public_url: Option<String>,
    /// The approval page (`--oidc-issuer`), read from the provider at start.
    pub page: Option<Page>,
}

impl Settings {
    /// Check the HTTP options: an address, and either a JWKS with issuer and audience or
    /// `--insecure-no-auth` on a loopback address.
    pub fn new(address: &str, options: &Options) -> Result<Self, String> {
        let address: SocketAddr = address.parse().map_err(|_| {
            format!("--http verwacht ADRES:POORT (bijv. 127.0.0.1:8080), niet {address:?}")
        })?;
        let auth = &options.auth;
        let verifier = match (&auth.jwks, auth.insecure_no_auth) {
            (Some(_), true) => {
                return Err("--auth-jwks en --insecure-no-auth sluiten elkaar uit".to_string());
            }
            (None, true) if !address.ip().is_loopback() => {
                return Err(format!(
                    "--insecure-no-auth alleen op een loopback-adres (127.0.0.1, ::1), niet {}",
                    address.ip()
                ));
            }
            (None, true) => None,
            (None, false) => {
                return Err(
                    "--http vereist --auth-jwks, --auth-issuer en --auth-audience (of, alleen voor \
                     ontwikkeling op loopback, --insecure-no-auth)"
                        .to_string(),
                );
            }
            (Some(jwks), false) => {
                let issuer = auth
                    .issuer
                    .as_deref()
                    .ok_or("--auth-jwks vereist --auth-issuer")?;
                let audience = auth
                    .audience
                    .as_deref()
                    .ok_or("--auth-jwks vereist --auth-audience")?;
                Some(Verifier::new(
                    std::path::Path::new(jwks),
                    issuer,
                    audience,
                    auth.kvk_claim.as_deref(),
                    auth.companies_claim.as_deref(),
                )?)
            }
        };
        let page = match (&options.oidc_issuer, &options.oidc_client_id) {
            (None, None) => None,
            (Some(issuer), Some(client_id)) => {
                let public = options.public_url.as_deref().ok_or(
                    "--oidc-issuer vereist --public-url (de goedkeuringspagina en haar terugkeer-URL)",
                )?;
                let base = public.strip_suffix("/mcp").unwrap_or(public);
                Some(Page::new(
                    issuer,
                    client_id,
                    env::oidc_client_secret(),
                    base,
                    env::store_location()?,
                    auth.kvk_claim.as_deref().unwrap_or(DEFAULT_KVK_CLAIM),
                )?)
            }
            _ => return Err("--oidc-issuer en --oidc-client-id horen samen".to_string()),
        };
        Ok(Self {
            address,
            verifier,
            max_calls: options.max_calls,
            allowed_origins: options.allowed_origins.clone(),
            allowed_hosts: options.allowed_hosts.clone(),
            public_url: options.public_url.clone(),
            page,
        })
    }
}

type Body = BoxBody<Bytes, Infallible>;

/// What every connection shares.
struct Server {
    bridge: Arc<Bridge>,
    mcp: StreamableHttpService<Handler, NeverSessionManager>,
    settings: Settings,
    calls: Arc<Semaphore>,
    /// The RFC 9728 resource identifier: `--public-url`, else `http://<bound address>/mcp`.
    resource: String,
}

/// Serve until SIGTERM or SIGINT; then stop accepting and let in-flight requests finish.
#[allow(clippy::print_stderr, reason = "start-up and stop messages")]
pub fn serve(bridge: Arc<Bridge>, settings: Settings) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("geen runtime: {e}"))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(settings.address)
            .await
            .map_err(|e| format!("kan niet luisteren op {}: {e}", settings.address))?;
        let local = listener.local_addr().map_err(|e| e.to_string())?;
        if settings.verifier.is_none() {
            eprintln!(
                "overheid-mcp: LET OP: --insecure-no-auth staat aan: geen authenticatie, geen \
                 identiteit per verzoek. Alleen voor ontwikkeling."
            );
        }
        let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1"].map(String::from).to_vec();
        hosts.extend(settings.allowed_hosts.iter().cloned());
        let mut origins = settings.allowed_origins.clone();
        origins.extend([
            format!("http://{local}"),
            format!("http://localhost:{}", local.port()),
        ]);
        let config = StreamableHttpServerConfig::default()
            .with_legacy_session_mode(false)
            .with_json_response(true)
            .with_sse_keep_alive(None)
            .with_max_request_body_bytes(MAX_MESSAGE_BYTES)
            .with_allowed_hosts(hosts)
            .with_allowed_origins(origins)
            .enforce_origin_validation();
        let handler = Handler::new(Arc::clone(&bridge));
        let mcp = StreamableHttpService::new(
            move || Ok(handler.clone()),
            Arc::new(NeverSessionManager::default()),
            config,
        );
        let calls = Arc::new(Semaphore::new(settings.max_calls));
        let resource = settings
            .public_url
            .clone()
            .unwrap_or_else(|| format!("http://{local}/mcp"));
        // Every child's audit record names the bridge by the URL its clients know (AUDIT-20).
        bridge.name_processor(resource.clone());
        let server = Arc::new(Server {
            bridge,
            mcp,
            settings,
            calls,
            resource,
        });
        // The line a supervisor (or a test) waits for.
        eprintln!("overheid-mcp: luistert op http://{local}/mcp");
        accept(listener, server).await;
        Ok(())
    })
}

async fn accept(listener: tokio::net::TcpListener, server: Arc<Server>) {
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let builder = hyper::server::conn::http1::Builder::new();
    let mut terminate =
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(signal) => signal,
            Err(_) => return,
        };
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(_) => continue,
            },
            _ = terminate.recv() => break,
            _ = tokio::signal::ctrl_c() => break,
        };
        let server = Arc::clone(&server);
        let service = hyper::service::service_fn(move |request| {
            let server = Arc::clone(&server);
            async move { Ok::<_, Infallible>(route(&server, request).await) }
        });
        let connection = graceful.watch(builder.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            let _ = connection.await;
        });
    }
    drop(listener);
    // In-flight calls finish (each is bounded by the call deadline); idle connections close.
    let _ = tokio::time::timeout(Duration::from_secs(120), graceful.shutdown()).await;
}

fn json_response(status: StatusCode, body: &Value) -> Response<Body> {
    Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Full::new(Bytes::from(body.to_string())).boxed())
        .unwrap_or_default()
}

async fn route(server: &Server, request: Request<Incoming>) -> Response<Body> {
    let path = request.uri().path().to_string();
    match (request.method(), path.as_str()) {
        (&Method::GET, "/health") => health(server),
        (&Method::GET | &Method::POST, page)
            if server.settings.page.is_some()
                && (page == approval_page::PATH
                    || page.starts_with(&format!("{}/", approval_page::PATH))) =>
        {
            approval(server, request).await
        }
        (
            &Method::GET,
            "/.well-known/oauth-protected-resource" | "/.well-known/oauth-protected-resource/mcp",
        ) => metadata(server),
        (_, "/mcp") => {
            let request = match authorize(server, request).await {
                Ok(request) => request,
                Err(refused) => return refused,
            };
            let Ok(permit) = Arc::clone(&server.calls).try_acquire_owned() else {
                return overloaded();
            };
            let response = server.mcp.handle(request).await;
            // A JSON response is complete here; a stream keeps the permit until it ends.
            let (parts, body) = response.into_parts();
            let body = body.map_frame(move |frame| {
                let _held = &permit;
                frame
            });
            Response::from_parts(parts, body.boxed())
        }
        _ => json_response(StatusCode::NOT_FOUND, &json!({"error": "niet gevonden"})),
    }
}

/// The body a request to `/mcp` is passed on with: as it came, or read whole to see its scope.
type McpBody = Either<Incoming, Full<Bytes>>;

/// Check a POST's bearer token (401) and that it carries the scope its message needs (403),
/// before anything runs; the request goes on with the token's [`Grant`] in its extensions.
/// Without `--auth-jwks` (and for the methods rmcp refuses anyway) it goes on as it came.
async fn authorize(
    server: &Server,
    request: Request<Incoming>,
) -> Result<Request<McpBody>, Response<Body>> {
    let Some(verifier) = server
        .settings
        .verifier
        .as_ref()
        .filter(|_| request.method() == Method::POST)
    else {
        return Ok(request.map(Either::Left));
    };
    let authorization = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    let grant = verifier
        .verify(authorization)
        .map_err(|refused| unauthorized(server, authorization.is_some(), &refused.0))?;
    let (mut parts, body) = request.into_parts();
    let body = match http_body_util::Limited::new(body, MAX_MESSAGE_BYTES)
        .collect()
        .await
    {
        Ok(collected) => collected.to_bytes(),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => {
            return Err(json_response(
                StatusCode::PAYLOAD_TOO_LARGE,
                &json!({"error": format!("bericht groter dan {MAX_MESSAGE_BYTES} bytes")}),
            ));
        }
        Err(_) => {
            return Err(json_response(
                StatusCode::BAD_REQUEST,
                &json!({"error": "bericht niet volledig ontvangen"}),
            ));
        }
    };
    // Read as the message will be read (`incoming`: a lone surrogate is U+FFFD); a body that is
    // no JSON goes on, and is answered as a parse error without anything running.
    if let Ok(text) = incoming::check(&body)
        && let Ok(message) = serde_json::from_slice::<Value>(&text)
        && let Some(scope) = Scope::for_message(&server.bridge.catalog, &message)
        && !grant.allows(scope)
    {
        return Err(insufficient_scope(server, scope));
    }
    parts.extensions.insert(grant);
    Ok(Request::from_parts(parts, Either::Right(Full::new(body))))
}

/// A request to the approval page: its form read whole (bounded), answered by the page.
async fn approval(server: &Server, request: Request<Incoming>) -> Response<Body> {
    let Some(page) = &server.settings.page else {
        return json_response(StatusCode::NOT_FOUND, &json!({"error": "niet gevonden"}));
    };
    let (parts, body) = request.into_parts();
    let limited = http_body_util::Limited::new(body, approval_page::MAX_FORM_BYTES);
    let Ok(collected) = limited.collect().await else {
        return json_response(
            StatusCode::PAYLOAD_TOO_LARGE,
            &json!({"error": "formulier te groot"}),
        );
    };
    let form = collected.to_bytes();
    let header = |name: header::HeaderName| {
        parts
            .headers
            .get(name)
            .and_then(|value| value.to_str().ok())
    };
    let asked = Asked {
        post: parts.method == Method::POST,
        path: parts.uri.path(),
        query: parts.uri.query().unwrap_or_default(),
        cookie: header(header::COOKIE),
        origin: header(header::ORIGIN),
        form: &form,
    };
    let reply = page.handle(&server.bridge.approval, asked).await;
    let mut response = Response::builder().status(reply.status);
    for (name, value) in &reply.headers {
        response = response.header(*name, value);
    }
    response
        .body(Full::new(Bytes::from(reply.body)).boxed())
        .unwrap_or_default()
}

/// `GET /health`: for load balancers; what is loaded and whether calls can be taken.
fn health(server: &Server) -> Response<Body> {
    let catalog = &server.bridge.catalog;
    let body = json!({
        "status": "ok",
        "sources": catalog.sources.iter().map(|s| &s.program_name).collect::<Vec<_>>(),
        "tools": catalog.tools.iter().map(|t| &t.name).collect::<Vec<_>>(),
        "calls_available": server.calls.available_permits(),
        "max_calls": server.settings.max_calls,
    });
    json_response(StatusCode::OK, &body)
}

/// RFC 9728 protected-resource metadata.
fn metadata(server: &Server) -> Response<Body> {
    let mut body = json!({
        "resource": server.resource,
        "bearer_methods_supported": ["header"],
        "resource_name": "overheid-mcp",
    });
    if let Some(verifier) = &server.settings.verifier {
        body["authorization_servers"] = json!([verifier.issuer]);
        body["scopes_supported"] = json!(Scope::ALL.map(Scope::name));
    }
    json_response(StatusCode::OK, &body)
}

fn metadata_url(server: &Server) -> String {
    let resource = &server.resource;
    let base = resource.strip_suffix("/mcp").unwrap_or(resource);
    format!("{base}/.well-known/oauth-protected-resource")
}

/// 401 with `WWW-Authenticate` (RFC 6750, RFC 9728 `resource_metadata`); nothing has run. The
/// challenge asks for the reading scope only: filing is asked for when a call needs it (403).
fn unauthorized(server: &Server, token_given: bool, why: &str) -> Response<Body> {
    let mut challenge = format!(
        "Bearer resource_metadata=\"{}\", scope=\"{}\"",
        metadata_url(server),
        Scope::Read.name()
    );
    if token_given {
        let why = why.replace(['"', '\\'], "'");
        challenge.push_str(&format!(
            ", error=\"invalid_token\", error_description=\"{why}\""
        ));
    }
    let mut response = json_response(
        StatusCode::UNAUTHORIZED,
        &json!({"error": if token_given { "invalid_token" } else { "unauthorized" }, "error_description": why}),
    );
    if let Ok(value) = challenge.parse() {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, value);
    }
    response
}

/// 403 `insufficient_scope` with the step-up challenge (RFC 6750 §3.1, MCP authorization): the
/// scope this call needs, and only that one; nothing has run.
fn insufficient_scope(server: &Server, scope: Scope) -> Response<Body> {
    let why = format!(
        "deze aanroep vereist scope {}; vraag een token aan met die scope",
        scope.name()
    );
    let challenge = format!(
        "Bearer error=\"insufficient_scope\", scope=\"{}\", resource_metadata=\"{}\", \
         error_description=\"{why}\"",
        scope.name(),
        metadata_url(server)
    );
    let mut response = json_response(
        StatusCode::FORBIDDEN,
        &json!({"error": "insufficient_scope", "scope": scope.name(), "error_description": why}),
    );
    if let Ok(value) = challenge.parse() {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, value);
    }
    response
}

/// 503 with `Retry-After`: every call slot is taken; nothing was started.
fn overloaded() -> Response<Body> {
    let mut response = json_response(
        StatusCode::SERVICE_UNAVAILABLE,
        &json!({"jsonrpc": "2.0", "error": {"code": -32000, "message": "Overbelast: te veel gelijktijdige aanroepen; probeer het zo opnieuw."}}),
    );
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, RETRY_AFTER_SECONDS.into());
    response
}

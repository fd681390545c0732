//! Streamable HTTP at `/mcp`, stateless: nothing is kept between requests, so any replica
//! answers any request behind any load balancer.
//!
//! rmcp's `StreamableHttpService` (no sessions, JSON responses) does the MCP part: the header
//! checks against the body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`: 400/-32020),
//! `Host` and `Origin` validation (403), 405 for GET and DELETE. In front of it this file adds
//! what is the bridge's own: the same `Host`/`Origin` rules for `/health` and the RFC 9728
//! metadata, the bearer token (401, see [`crate::identity::auth`]), the body read whole under a deadline
//! and checked as JSON text (400 with -32700, see [`crate::mcp::incoming`]) before any call slot is
//! taken, the token's scope for the call in the body (403 with a step-up challenge, see
//! [`crate::identity::scope`]), a bound on concurrent calls per principal (429) and in all (503), both
//! with `Retry-After`, a 2025-11-25 client's `notifications/cancelled` (see
//! [`crate::http::inflight`]), `GET /health`, and a stop on SIGTERM bounded by the call deadline
//! whatever clients do.

pub(crate) mod inflight;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use http::{Method, Request, Response, StatusCode, header};
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::body::{Bytes, Incoming};
use hyper_util::rt::TokioIo;
use rmcp::transport::StreamableHttpServerConfig;
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use serde_json::{Value, json};
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

use crate::approval::page::{self as approval_page, Asked, Page};
use crate::calls::bridge::Bridge;
use crate::env;
use crate::http::inflight::InFlight;
use crate::identity::auth::{CompanyClaims, Grant, Verifier};
use crate::identity::scope::Scope;
use crate::mcp::handler::Handler;
use crate::mcp::incoming;
use crate::mcp::stdio::MAX_MESSAGE_BYTES;
use crate::options::Options;

/// Seconds a client is asked to wait after a 503 or a 429.
const RETRY_AFTER_SECONDS: u64 = 1;

/// How long a client may take to send a request's head, and then its body. Only then does the
/// request take a call slot.
const BODY_DEADLINE: Duration = Duration::from_secs(10);

/// How long SIGTERM waits for the requests in flight beyond the call deadline.
const STOP_GRACE: Duration = Duration::from_secs(5);

/// How the HTTP server is set up.
pub(crate) struct Settings {
    address: SocketAddr,
    verifier: Option<Verifier>,
    max_calls: usize,
    /// Concurrent requests of one principal (authenticated only: without a token there is
    /// no principal to tell apart, and `max_calls` alone applies).
    max_calls_per_principal: usize,
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
    pub(crate) fn new(address: &str, options: &Options) -> Result<Self, String> {
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
                    CompanyClaims::new(auth.kvk_claim.as_deref(), auth.companies_claim.as_deref()),
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
                    CompanyClaims::new(auth.kvk_claim.as_deref(), auth.companies_claim.as_deref()),
                )?)
            }
            _ => return Err("--oidc-issuer en --oidc-client-id horen samen".to_string()),
        };
        let max_calls_per_principal = match (&verifier, options.max_calls_per_principal) {
            (None, _) => options.max_calls,
            (Some(_), Some(n)) => n,
            (Some(_), None) => (options.max_calls / 4).max(1),
        };
        Ok(Self {
            address,
            verifier,
            max_calls: options.max_calls,
            max_calls_per_principal,
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
    /// The requests in flight per principal: their limit and their cancellation.
    in_flight: Arc<InFlight>,
    /// Cancelled at SIGTERM: bodies still being read are not waited for.
    stopping: CancellationToken,
    /// The RFC 9728 resource identifier: `--public-url`, else `http://<bound address>/mcp`.
    resource: String,
}

/// Serve until SIGTERM or SIGINT; then stop accepting and let in-flight requests finish.
#[allow(clippy::print_stderr, reason = "start-up and stop messages")]
pub(crate) fn serve(bridge: Arc<Bridge>, settings: Settings) -> Result<(), String> {
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
        let in_flight = InFlight::new(settings.max_calls_per_principal);
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
            in_flight,
            stopping: CancellationToken::new(),
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
    let mut builder = hyper::server::conn::http1::Builder::new();
    // A client that never finishes its request head is dropped; its body has its own deadline.
    builder
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(BODY_DEADLINE);
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
        let server_for_service = Arc::clone(&server);
        let service = hyper::service::service_fn(move |request| {
            let server = Arc::clone(&server_for_service);
            async move { Ok::<_, Infallible>(route(&server, request).await) }
        });
        let connection = graceful.watch(builder.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            let _ = connection.await;
        });
    }
    drop(listener);
    // Bodies still arriving are refused (503) at once; the calls in flight finish, each bounded
    // by the call deadline; idle connections close. Nothing a client does makes the stop wait
    // longer than that.
    server.stopping.cancel();
    let bound = server.bridge.timeout + STOP_GRACE;
    let _ = tokio::time::timeout(bound, graceful.shutdown()).await;
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
        (
            &Method::GET,
            "/health"
            | "/.well-known/oauth-protected-resource"
            | "/.well-known/oauth-protected-resource/mcp",
        ) if let Some(refused) = host_refused(server, &request).await => refused,
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
        (_, "/mcp") => mcp(server, request).await,
        _ => json_response(StatusCode::NOT_FOUND, &json!({"error": "niet gevonden"})),
    }
}

/// `/mcp`: the host rules, the token (401), then the body read whole under [`BODY_DEADLINE`]
/// and checked as JSON text (400 with a JSON-RPC error when it is none), the token's scope for
/// it (403), and only then a call slot (per principal: 429, in all: 503), before rmcp serves
/// the request.
async fn mcp(server: &Server, request: Request<Incoming>) -> Response<Body> {
    if let Some(refused) = host_refused(server, &request).await {
        return refused;
    }
    if request.method() != Method::POST {
        return server.mcp.handle(request).await;
    }
    let grant = match &server.settings.verifier {
        None => None,
        Some(verifier) => {
            let authorization = request
                .headers()
                .get(header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok());
            match verifier.verify(authorization) {
                Ok(grant) => Some(grant),
                Err(refused) => return unauthorized(server, authorization.is_some(), &refused.0),
            }
        }
    };
    if !is_json(request.headers()) {
        return parse_error(&incoming::Unparsable::NotJson(
            "Content-Type moet application/json zijn".to_string(),
        ));
    }
    let (mut parts, body) = request.into_parts();
    let text = match read_body(server, body).await {
        Ok(bytes) => bytes,
        Err(response) => return response,
    };
    let text = match incoming::check(&text) {
        Ok(std::borrow::Cow::Borrowed(_)) => text,
        Ok(std::borrow::Cow::Owned(repaired)) => Bytes::from(repaired),
        Err(unparsable) => return parse_error(&unparsable),
    };
    // MCP takes one message per request; a JSON-RPC batch (an array) gets a JSON-RPC error, not
    // a status page of another type (WIRE-2).
    if text.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        return json_response(
            StatusCode::BAD_REQUEST,
            &json!({"jsonrpc": "2.0", "id": null, "error": {
                "code": -32600,
                "message": "Invalid Request: een JSON-RPC-batch wordt niet ondersteund; MCP neemt één \
                            bericht per verzoek",
            }}),
        );
    }
    // The token must carry the scope its message needs (403), read as the message will be.
    if let Some(grant) = &grant
        && let Ok(message) = serde_json::from_slice::<Value>(&text)
        && let Some(scope) = Scope::for_message(&server.bridge.catalog, &message)
        && !grant.allows(scope)
    {
        return insufficient_scope(server, scope);
    }
    let principal = principal(grant.as_ref());
    if let Some(grant) = grant {
        parts.extensions.insert(grant);
    }
    let message = Peek::of(&text);
    let request = Request::from_parts(parts, Full::new(text.clone()));
    let Some(id) = message.request_id() else {
        // A notification (or a response) runs nothing and takes no slot, so a cancellation
        // gets through when every slot is taken.
        let response = server.mcp.handle(request).await;
        if response.status() == StatusCode::ACCEPTED
            && let Some(id) = message.cancels()
        {
            server.in_flight.cancel(&principal, &id);
        }
        return response;
    };
    let Ok(permit) = Arc::clone(&server.calls).try_acquire_owned() else {
        return refused_for_now(
            StatusCode::SERVICE_UNAVAILABLE,
            "Overbelast: te veel gelijktijdige aanroepen; probeer het zo opnieuw.",
        );
    };
    let Some(admitted) = server.in_flight.admit(&principal, Some(id)) else {
        return refused_for_now(
            StatusCode::TOO_MANY_REQUESTS,
            "Te veel gelijktijdige aanroepen van deze gebruiker; probeer het zo opnieuw.",
        );
    };
    let cancelled = admitted.cancelled.clone();
    let response = tokio::select! {
        response = server.mcp.handle(request) => response,
        // Dropping rmcp's future cancels the handler, which kills the child's process group;
        // the cancelled request is not answered (202, no body).
        () = cancelled.cancelled() => return accepted(),
    };
    // A JSON response is complete here; a stream keeps the slots until it ends, and ends
    // early (so rmcp cancels the handler) when the request is cancelled.
    let (parts, body) = response.into_parts();
    let body = Held {
        body: Some(body),
        cancelled: Box::pin(cancelled.cancelled_owned()),
        _slots: (admitted, permit),
    };
    Response::from_parts(parts, body.boxed())
}

/// A request to the approval page: its form read whole (bounded in size and by
/// [`BODY_DEADLINE`], and only with a session: a POST without one is refused unread), answered by
/// the page.
async fn approval(server: &Server, request: Request<Incoming>) -> Response<Body> {
    let Some(page) = &server.settings.page else {
        return json_response(StatusCode::NOT_FOUND, &json!({"error": "niet gevonden"}));
    };
    let (parts, body) = request.into_parts();
    let cookie_header = parts
        .headers
        .get(header::COOKIE)
        .and_then(|value| value.to_str().ok());
    let post = parts.method == Method::POST;
    if post && !page.has_session(&server.bridge.approval, cookie_header) {
        return json_response(StatusCode::FORBIDDEN, &json!({"error": "geen sessie"}));
    }
    let limited = http_body_util::Limited::new(body, approval_page::MAX_FORM_BYTES);
    let collected = match tokio::time::timeout(BODY_DEADLINE, limited.collect()).await {
        Ok(Ok(collected)) => collected,
        Ok(Err(_)) => {
            return json_response(
                StatusCode::PAYLOAD_TOO_LARGE,
                &json!({"error": "formulier te groot"}),
            );
        }
        Err(_) => {
            return json_response(
                StatusCode::REQUEST_TIMEOUT,
                &json!({"error": format!("het formulier kwam niet binnen {} s binnen", BODY_DEADLINE.as_secs())}),
            );
        }
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
        "max_calls_per_principal": server.in_flight.per_principal(),
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

/// 429 (this principal's slots) or 503 (all slots) with `Retry-After`; nothing was started.
fn refused_for_now(status: StatusCode, message: &str) -> Response<Body> {
    let mut response = json_response(
        status,
        &json!({"jsonrpc": "2.0", "error": {"code": -32000, "message": message}}),
    );
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, RETRY_AFTER_SECONDS.into());
    response
}

/// 202 without a body: what a notification gets, and a request that was cancelled (JSON-RPC
/// answers neither).
fn accepted() -> Response<Body> {
    Response::builder()
        .status(StatusCode::ACCEPTED)
        .body(Full::new(Bytes::new()).boxed())
        .unwrap_or_default()
}

/// 400 with the JSON-RPC parse error (-32700, `id: null`): the body is not JSON-RPC text.
fn parse_error(unparsable: &incoming::Unparsable) -> Response<Body> {
    json_response(StatusCode::BAD_REQUEST, &unparsable.response())
}

/// Whether the request says its body is JSON (`application/json`, parameters allowed).
fn is_json(headers: &http::HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

/// The whole body, at most [`MAX_MESSAGE_BYTES`], within [`BODY_DEADLINE`]; a stop (SIGTERM)
/// ends the wait. No call slot is held meanwhile, so clients that never finish their body
/// keep no one else out.
async fn read_body(server: &Server, body: Incoming) -> Result<Bytes, Response<Body>> {
    let error = |status: StatusCode, message: String| {
        let mut response = json_response(
            status,
            &json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": message}}),
        );
        response
            .headers_mut()
            .insert(header::CONNECTION, http::HeaderValue::from_static("close"));
        Err(response)
    };
    let limited = http_body_util::Limited::new(body, MAX_MESSAGE_BYTES);
    tokio::select! {
        collected = limited.collect() => match collected {
            Ok(collected) => Ok(collected.to_bytes()),
            Err(_) => error(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("Het bericht is groter dan {MAX_MESSAGE_BYTES} bytes, of niet compleet."),
            ),
        },
        () = tokio::time::sleep(BODY_DEADLINE) => error(
            StatusCode::REQUEST_TIMEOUT,
            format!("Het bericht kwam niet binnen {} s binnen.", BODY_DEADLINE.as_secs()),
        ),
        () = server.stopping.cancelled() => error(
            StatusCode::SERVICE_UNAVAILABLE,
            "De server stopt.".to_string(),
        ),
    }
}

/// rmcp's `Host` and `Origin` rules (DNS rebinding), for the bridge's own routes as for `/mcp`:
/// rmcp checks them first on any request, so a bodiless GET with the same headers is refused
/// (403) exactly when they fail, and is otherwise a 405 that is dropped.
async fn host_refused<B>(server: &Server, request: &Request<B>) -> Option<Response<Body>> {
    let mut probe = Request::builder().method(Method::GET).uri(request.uri());
    for name in [header::HOST, header::ORIGIN] {
        for value in request.headers().get_all(&name) {
            probe = probe.header(&name, value);
        }
    }
    let probe = probe.body(Full::new(Bytes::new())).ok()?;
    let response = server.mcp.handle(probe).await;
    (response.status() == StatusCode::FORBIDDEN).then_some(response)
}

/// Whose calls these are, for the limit per principal and for cancellation: the token's
/// subject (a person or an intermediary, whichever companies it acts for), else its company;
/// `-` without a token.
fn principal(grant: Option<&Grant>) -> String {
    grant
        .and_then(|g| {
            g.subject.as_ref().map(|s| format!("sub:{s}")).or_else(|| {
                (!g.companies.is_empty()).then(|| format!("kvk:{}", g.companies.join(",")))
            })
        })
        .unwrap_or_else(|| "-".to_string())
}

/// What the bridge reads of a message before rmcp does: whether it is a request (its id, as
/// compact JSON) and which request a `notifications/cancelled` names.
#[derive(serde::Deserialize, Default)]
struct Peek {
    id: Option<Value>,
    method: Option<String>,
    params: Option<PeekParams>,
}

#[derive(serde::Deserialize)]
struct PeekParams {
    #[serde(rename = "requestId")]
    request_id: Option<Value>,
}

impl Peek {
    fn of(text: &[u8]) -> Self {
        serde_json::from_slice(text).unwrap_or_default()
    }

    /// The id of a request (a message with a method and an id).
    fn request_id(&self) -> Option<String> {
        self.method.as_ref()?;
        Some(self.id.as_ref()?.to_string())
    }

    /// The request a `notifications/cancelled` names.
    fn cancels(&self) -> Option<String> {
        if self.method.as_deref() != Some("notifications/cancelled") || self.id.is_some() {
            return None;
        }
        Some(self.params.as_ref()?.request_id.as_ref()?.to_string())
    }
}

/// A response body that holds the request's slots until it ends, and ends early when the
/// request is cancelled (dropping rmcp's stream cancels its handler).
struct Held<S> {
    body: Option<Body>,
    cancelled: std::pin::Pin<Box<tokio_util::sync::WaitForCancellationFutureOwned>>,
    _slots: S,
}

impl<S: Unpin> hyper::body::Body for Held<S> {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        context: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Bytes>, Infallible>>> {
        use std::task::Poll;
        if self.body.is_some() && self.cancelled.as_mut().poll(context).is_ready() {
            self.body = None;
        }
        match self.body.as_mut() {
            None => Poll::Ready(None),
            Some(body) => std::pin::Pin::new(body).poll_frame(context),
        }
    }

    fn is_end_stream(&self) -> bool {
        self.body
            .as_ref()
            .is_none_or(hyper::body::Body::is_end_stream)
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.as_ref().map_or_else(
            || hyper::body::SizeHint::with_exact(0),
            hyper::body::Body::size_hint,
        )
    }
}

//! The recording fake HTTP server: tiny_http on a loopback port, one thread per request.
//!
//! Every request is recorded (before the handler runs, so a stalled request is visible too)
//! and answered by a handler `Fn(&RecordedRequest) -> Reply`. A slow reply only holds its
//! own thread. Dropping the server stops accepting, wakes every stalled reply and closes
//! the port.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::reply::{Delivery, Reply};
use crate::request::RecordedRequest;

/// A route handler: turns a recorded request into a reply. Must be callable from many threads.
pub type Handler = dyn Fn(&RecordedRequest) -> Reply + Send + Sync + 'static;

/// A fake upstream on `127.0.0.1:<free port>` that records what it receives.
///
/// ```no_run
/// use test_support::{FakeServer, Reply};
/// let server = FakeServer::start(|_request| Reply::text(200, "hallo"));
/// let url = format!("{}/iets", server.base_url());
/// # let _ = url;
/// assert_eq!(server.request_count(), 0);
/// ```
pub struct FakeServer {
    address: SocketAddr,
    shared: Arc<Shared>,
    listener: Arc<tiny_http::Server>,
    acceptor: Option<JoinHandle<()>>,
}

/// State shared by the acceptor, the request threads and the owner.
struct Shared {
    requests: Mutex<Vec<RecordedRequest>>,
    stopping: Mutex<bool>,
    wake: Condvar,
}

impl Shared {
    fn requests(&self) -> MutexGuard<'_, Vec<RecordedRequest>> {
        self.requests.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn is_stopping(&self) -> bool {
        *self.stopping.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Sleeps for `pause`, or less when the server stops. Returns `false` when stopping.
    fn pause(&self, pause: Duration) -> bool {
        let deadline = Instant::now() + pause;
        let mut stopping = self.stopping.lock().unwrap_or_else(PoisonError::into_inner);
        while !*stopping {
            let now = Instant::now();
            if now >= deadline {
                return true;
            }
            stopping = self
                .wake
                .wait_timeout(stopping, deadline - now)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        false
    }
}

impl FakeServer {
    /// Starts a fake on `127.0.0.1:0` (a free port). Panics when no port can be bound,
    /// which in a test is the right outcome.
    pub fn start<H>(handler: H) -> FakeServer
    where
        H: Fn(&RecordedRequest) -> Reply + Send + Sync + 'static,
    {
        let address = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0);
        FakeServer::bind(address, handler)
            .unwrap_or_else(|error| panic!("fake server cannot bind 127.0.0.1:0: {error}"))
    }

    /// Starts a fake on `address`, which must be a loopback address (port 0 picks a free one).
    ///
    /// A fake serves fictional data without authentication; it has no business on a
    /// network interface, so any other address is refused with `InvalidInput`.
    pub fn bind<H>(address: SocketAddr, handler: H) -> std::io::Result<FakeServer>
    where
        H: Fn(&RecordedRequest) -> Reply + Send + Sync + 'static,
    {
        if !address.ip().is_loopback() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{} is geen loopback-adres", address.ip()),
            ));
        }
        let listener = tiny_http::Server::http(address).map_err(std::io::Error::other)?;
        let address = listener
            .server_addr()
            .to_ip()
            .ok_or_else(|| std::io::Error::other("fake server is not on an IP socket"))?;
        let listener = Arc::new(listener);
        let shared = Arc::new(Shared {
            requests: Mutex::new(Vec::new()),
            stopping: Mutex::new(false),
            wake: Condvar::new(),
        });
        let handler: Arc<Handler> = Arc::new(handler);
        let acceptor = {
            let listener = Arc::clone(&listener);
            let shared = Arc::clone(&shared);
            thread::Builder::new()
                .name(format!("fake-server-{}", address.port()))
                .spawn(move || accept_loop(&listener, &shared, &handler))?
        };
        Ok(FakeServer {
            address,
            shared,
            listener,
            acceptor: Some(acceptor),
        })
    }

    /// `http://127.0.0.1:<port>`, without a trailing slash.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.host_port())
    }

    /// `127.0.0.1:<port>`.
    pub fn host_port(&self) -> String {
        self.address.to_string()
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.address.port()
    }

    /// `base_url()` followed by `path` (which should start with `/`).
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base_url())
    }

    /// A copy of every request received so far, in order of arrival.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.requests().clone()
    }

    /// How many requests arrived so far.
    pub fn request_count(&self) -> usize {
        self.shared.requests().len()
    }

    /// The most recent request, if any.
    pub fn last_request(&self) -> Option<RecordedRequest> {
        self.shared.requests().last().cloned()
    }

    /// Forgets the requests recorded so far.
    pub fn clear_requests(&self) {
        self.shared.requests().clear();
    }
}

impl Drop for FakeServer {
    fn drop(&mut self) {
        *self
            .shared
            .stopping
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = true;
        self.shared.wake.notify_all();
        self.listener.unblock();
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
    }
}

fn accept_loop(listener: &tiny_http::Server, shared: &Arc<Shared>, handler: &Arc<Handler>) {
    while !shared.is_stopping() {
        let Ok(request) = listener.recv() else {
            continue;
        };
        let shared = Arc::clone(shared);
        let handler = Arc::clone(handler);
        let spawned = thread::Builder::new()
            .name("fake-server-request".to_owned())
            .spawn(move || serve(request, &shared, handler.as_ref()));
        if spawned.is_err() {
            // Out of threads: the request was moved into the failed closure and dropped,
            // which makes tiny_http answer 500. Nothing else to do.
            continue;
        }
    }
}

fn serve(mut request: tiny_http::Request, shared: &Shared, handler: &Handler) {
    let mut body = Vec::new();
    let _ = request.as_reader().read_to_end(&mut body);
    let headers = request
        .headers()
        .iter()
        .map(|header| (header.field.to_string(), header.value.to_string()));
    let recorded = RecordedRequest::new(request.method().as_str(), request.url(), headers, body);
    shared.requests().push(recorded.clone());

    let reply = catch_unwind(AssertUnwindSafe(|| handler(&recorded)))
        .unwrap_or_else(|_| Reply::text(500, "fake server: de handler raakte in paniek"));
    if let Some(pause) = reply.delay
        && !shared.pause(pause)
    {
        return;
    }
    match reply.delivery {
        Delivery::Whole => send_whole(request, reply),
        Delivery::StallAfter { bytes, pause } => {
            send_stalling(request, &reply, bytes, pause, shared)
        }
    }
}

fn send_whole(request: tiny_http::Request, reply: Reply) {
    let length = reply.body.len();
    let headers = reply
        .headers
        .iter()
        .filter_map(|(name, value)| {
            tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).ok()
        })
        .collect();
    let response = tiny_http::Response::new(
        tiny_http::StatusCode(reply.status),
        headers,
        std::io::Cursor::new(reply.body),
        Some(length),
        None,
    );
    let _ = request.respond(response);
}

/// Writes the response by hand so that the first part of the body really leaves the
/// socket before the pause (tiny_http buffers its own writes).
fn send_stalling(
    request: tiny_http::Request,
    reply: &Reply,
    bytes: usize,
    pause: Duration,
    shared: &Shared,
) {
    let reason = tiny_http::StatusCode(reply.status).default_reason_phrase();
    let mut head = format!("HTTP/1.1 {} {reason}\r\n", reply.status);
    for (name, value) in &reply.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!(
        "content-length: {}\r\nconnection: close\r\n\r\n",
        reply.body.len()
    ));
    let (first, rest) = reply.body.split_at(bytes.min(reply.body.len()));
    let mut writer = request.into_writer();
    let sent = writer
        .write_all(head.as_bytes())
        .and_then(|()| writer.write_all(first))
        .and_then(|()| writer.flush());
    if sent.is_err() || !shared.pause(pause) {
        return;
    }
    let _ = writer.write_all(rest).and_then(|()| writer.flush());
}

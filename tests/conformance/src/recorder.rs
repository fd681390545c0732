//! The checker's own loopback HTTP server: every base-URL variable points here, so any request is seen.
//!
//! Each call gets its own path prefix `/p<call>-<mode>`; the mode says how to answer
//! (`stil`: 500 and counted as unwanted traffic; the others imitate a misbehaving source).

use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use tiny_http::{Header, Response, Server};

/// How the recorder answers requests under one prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// No traffic expected: answer 500.
    Silent,
    /// 500 Internal Server Error.
    ServerError,
    /// 429 with `Retry-After: 3600`.
    RateLimited,
    /// 401 Unauthorized.
    Unauthorized,
    /// 400 Bad Request.
    BadRequest,
    /// 422 Unprocessable Content.
    Unprocessable,
    /// 410 Gone.
    Gone,
    /// 503 Service Unavailable without `Retry-After`.
    Unavailable,
    /// 200 with a body no parser accepts.
    Garbage,
    /// Nothing for 5 s.
    Stall,
    /// 302 to another origin.
    Redirect,
}

impl Mode {
    const ALL: [(Mode, &'static str); 11] = [
        (Mode::Silent, "stil"),
        (Mode::ServerError, "500"),
        (Mode::RateLimited, "429"),
        (Mode::Unauthorized, "401"),
        (Mode::BadRequest, "400"),
        (Mode::Unprocessable, "422"),
        (Mode::Gone, "410"),
        (Mode::Unavailable, "503"),
        (Mode::Garbage, "onzin"),
        (Mode::Stall, "traag"),
        (Mode::Redirect, "omleiding"),
    ];

    /// The HTTP status the recorder answers with; `None` when it never answers in time.
    pub(crate) fn status(self) -> Option<i64> {
        match self {
            Mode::Silent | Mode::ServerError => Some(500),
            Mode::Unavailable => Some(503),
            Mode::RateLimited => Some(429),
            Mode::Unauthorized => Some(401),
            Mode::BadRequest => Some(400),
            Mode::Unprocessable => Some(422),
            Mode::Gone => Some(410),
            Mode::Garbage => Some(200),
            Mode::Stall => None,
            Mode::Redirect => Some(302),
        }
    }

    fn label(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(mode, _)| *mode == self)
            .map(|(_, label)| *label)
            .unwrap_or("stil")
    }

    fn from_label(label: &str) -> Mode {
        Self::ALL
            .iter()
            .find(|(_, l)| *l == label)
            .map(|(mode, _)| *mode)
            .unwrap_or(Mode::Silent)
    }
}

/// One request as received.
#[derive(Clone, Debug)]
pub(crate) struct Recorded {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    /// The call whose prefix the URL carries, if any.
    pub call: Option<usize>,
    /// When the request arrived, to time a program from its request rather than its start.
    pub received: Instant,
}

impl Recorded {
    /// The value of header `name` (case-insensitive).
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// The running recorder.
pub(crate) struct Recorder {
    root: String,
    requests: Arc<Mutex<Vec<Recorded>>>,
}

impl Recorder {
    /// Bind 127.0.0.1 on a free port and serve in the background.
    pub(crate) fn start() -> std::io::Result<Recorder> {
        let server = Server::http("127.0.0.1:0").map_err(std::io::Error::other)?;
        let port = server
            .server_addr()
            .to_ip()
            .map(|address| address.port())
            .ok_or_else(|| std::io::Error::other("geen IP-adres"))?;
        let requests = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&requests);
        thread::spawn(move || {
            for request in server.incoming_requests() {
                let log = Arc::clone(&log);
                thread::spawn(move || answer(request, &log));
            }
        });
        Ok(Recorder {
            root: format!("http://127.0.0.1:{port}"),
            requests,
        })
    }

    /// The base URL for call `call` answered in `mode`.
    pub(crate) fn base_url(&self, call: usize, mode: Mode) -> String {
        format!("{}/p{call}-{}", self.root, mode.label())
    }

    /// Everything received so far.
    pub(crate) fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().expect("recorder lock").clone()
    }
}

fn parse_prefix(url: &str) -> (Option<usize>, Mode) {
    let first = url
        .trim_start_matches('/')
        .split(['/', '?'])
        .next()
        .unwrap_or("");
    let Some(rest) = first.strip_prefix('p') else {
        return (None, Mode::Silent);
    };
    let Some((number, label)) = rest.split_once('-') else {
        return (None, Mode::Silent);
    };
    (number.parse().ok(), Mode::from_label(label))
}

fn answer(request: tiny_http::Request, log: &Mutex<Vec<Recorded>>) {
    let url = request.url().to_string();
    let (call, mode) = parse_prefix(&url);
    log.lock().expect("recorder lock").push(Recorded {
        method: request.method().to_string(),
        url: url.clone(),
        headers: request
            .headers()
            .iter()
            .map(|header| (header.field.to_string(), header.value.to_string()))
            .collect(),
        call,
        received: Instant::now(),
    });
    let header = |name: &str, value: &str| Header::from_bytes(name, value).expect("valid header");
    let response = match mode {
        Mode::Silent => Response::from_string("profile-check: hier werd geen verzoek verwacht")
            .with_status_code(500),
        Mode::ServerError => Response::from_string("interne fout").with_status_code(500),
        Mode::RateLimited => Response::from_string("te veel verzoeken")
            .with_status_code(429)
            .with_header(header("Retry-After", "3600")),
        Mode::Unauthorized => Response::from_string("geen toegang").with_status_code(401),
        Mode::BadRequest => Response::from_string("{\"fout\":\"ongeldig\"}").with_status_code(400),
        Mode::Unprocessable => {
            Response::from_string("{\"fout\":\"onverwerkbaar\"}").with_status_code(422)
        }
        Mode::Gone => Response::from_string("{\"fout\":\"verdwenen\"}").with_status_code(410),
        Mode::Unavailable => {
            Response::from_string("tijdelijk niet beschikbaar").with_status_code(503)
        }
        Mode::Garbage => Response::from_string("\u{1}<<{{ geen geldig antwoord")
            .with_status_code(200)
            .with_header(header("Content-Type", "application/json")),
        Mode::Stall => {
            thread::sleep(Duration::from_secs(5));
            Response::from_string("te laat").with_status_code(200)
        }
        Mode::Redirect => Response::from_string("")
            .with_status_code(302)
            .with_header(header("Location", "http://127.0.0.2:9/elders")),
    };
    let _ = request.respond(response);
}

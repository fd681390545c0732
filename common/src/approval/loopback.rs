//! A person's login for one approval in the browser on this machine: OAuth 2.0 for Native Apps
//! (RFC 8252) with a loopback redirect, as `gcloud auth login` and `az login` do it. Where the
//! person's browser runs on the machine of the terminal, this ends the wait the moment the
//! provider sends the browser back, where a device login ([`super::login`]) waits for its next
//! poll (up to its interval).
//!
//! 1. [`start`] listens on `127.0.0.1` at a port the system picks and makes the authorization URL
//!    ([`super::code_flow`]): the CLIs' public client, `redirect_uri`
//!    `http://127.0.0.1:<port>/callback` (a provider registers `http://127.0.0.1/callback` and
//!    accepts any port, RFC 8252 §7.3), a fresh login, the detail and its target, `state`, `nonce`
//!    and a PKCE verifier (S256): a code another program on this machine catches at the port is
//!    useless without the verifier, which never leaves this process.
//! 2. The person opens the link in their browser, logs in and sees at the provider what they
//!    approve (the detail), then consents or declines.
//! 3. [`BrowserLogin::wait`] answers requests at the port until one to `/callback` carries this
//!    login's `state`: with a `code`, traded for the tokens; with `error=access_denied`, declined.
//!    Anything else is answered (404, or 400 for a `state` that is not this login's) and the
//!    wait goes on. Each request's head is read within [`READ_TIMEOUT`] and at most
//!    [`MAX_HEAD`] bytes; the whole wait ends at the login's end ([`LIFE`]) or Ctrl-C.

use std::io::{ErrorKind, Read, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::code_flow::{self, Ask, Client};
use super::detail::Detail;
use super::login::Ended;
use super::provider::{Provider, Unusable};

/// How long a browser login may take before it ends as expired (as a device code typically).
pub const LIFE: Duration = Duration::from_secs(600);
/// How long one request's head may take to arrive.
const READ_TIMEOUT: Duration = Duration::from_secs(2);
/// The largest request head read.
const MAX_HEAD: usize = 8 * 1024;
/// How often the wait looks at Ctrl-C while no browser calls.
const TICK: Duration = Duration::from_millis(20);

/// A login in progress: the link the person opens, and the port the browser comes back to.
pub struct BrowserLogin {
    /// The provider's login page for this approval.
    pub url: String,
    /// When the login was asked for (seconds since the epoch): a login must not be older.
    pub started: i64,
    /// When the wait ends as expired.
    pub expires_at: Instant,
    /// The `nonce` the ID token must carry.
    pub nonce: String,
    listener: TcpListener,
    state: String,
    verifier: String,
    redirect_uri: String,
    authorization_endpoint: String,
    token_endpoint: String,
    client_id: String,
}

/// Starts a browser login of a person at `client_id` that approves `detail`, with the assurance
/// `acr` when the operator asks for one.
pub fn start(
    provider: &Provider,
    client_id: &str,
    detail: &Detail,
    acr: Option<&str>,
) -> Result<BrowserLogin, Unusable> {
    let authorization_endpoint = provider.endpoint("authorization_endpoint")?;
    let token_endpoint = provider.endpoint("token_endpoint")?;
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).map_err(|e| {
        Unusable(format!(
            "geen poort op 127.0.0.1 voor de terugkeer van de browser: {e}"
        ))
    })?;
    let port = listener
        .local_addr()
        .map_err(|e| Unusable(format!("poort onbekend: {e}")))?
        .port();
    listener
        .set_nonblocking(true)
        .map_err(|e| Unusable(format!("poort: {e}")))?;
    let random = |bytes| code_flow::random(bytes).map_err(Unusable);
    let (state, nonce, verifier) = (random(16)?, random(16)?, random(32)?);
    crate::process::secrets::hold(&verifier);
    let redirect_uri = format!("http://127.0.0.1:{port}/callback");
    let mut login = BrowserLogin {
        url: String::new(),
        started: SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64),
        expires_at: Instant::now() + LIFE,
        nonce,
        listener,
        state,
        verifier,
        redirect_uri,
        authorization_endpoint,
        token_endpoint,
        client_id: client_id.to_string(),
    };
    let ask = Ask {
        fresh: true,
        acr,
        detail: Some(detail),
    };
    login.url = code_flow::authorization_url(
        &login.client(),
        &login.state,
        &login.nonce,
        &login.verifier,
        &ask,
    );
    Ok(login)
}

/// What one request at the port came to.
enum Callback {
    /// Not this login's end: answered, and the wait goes on.
    Other,
    /// This login's end.
    Ended(Ended),
}

impl BrowserLogin {
    fn client(&self) -> Client<'_> {
        Client {
            authorization_endpoint: &self.authorization_endpoint,
            token_endpoint: &self.token_endpoint,
            client_id: &self.client_id,
            client_secret: None,
            redirect_uri: &self.redirect_uri,
        }
    }

    /// Waits for the browser to come back with this login's end; `interrupted` is asked
    /// between requests (Ctrl-C).
    pub fn wait(&mut self, interrupted: impl Fn() -> bool) -> Result<Ended, Unusable> {
        loop {
            if interrupted() {
                return Ok(Ended::Interrupted);
            }
            if Instant::now() >= self.expires_at {
                return Ok(Ended::Expired);
            }
            match self.listener.accept() {
                Ok((stream, _)) => {
                    if let Callback::Ended(ended) = self.answer(stream)? {
                        return Ok(ended);
                    }
                }
                Err(e)
                    if e.kind() == ErrorKind::WouldBlock || e.kind() == ErrorKind::Interrupted =>
                {
                    std::thread::sleep(TICK);
                }
                Err(e) => return Err(Unusable(format!("poort op 127.0.0.1: {e}"))),
            }
        }
    }

    /// Reads one request and answers it.
    fn answer(&self, mut stream: TcpStream) -> Result<Callback, Unusable> {
        let Some(target) = request_target(&mut stream) else {
            reply(&mut stream, 400, "Dit verzoek is niet te lezen.");
            return Ok(Callback::Other);
        };
        let Ok(url) = url::Url::parse(&format!("http://127.0.0.1{target}")) else {
            reply(&mut stream, 400, "Dit verzoek is niet te lezen.");
            return Ok(Callback::Other);
        };
        if url.path() != "/callback" {
            reply(&mut stream, 404, "Hier is niets.");
            return Ok(Callback::Other);
        }
        let param = |name: &str| {
            url.query_pairs()
                .find(|(key, _)| key == name)
                .map(|(_, value)| value.into_owned())
        };
        if param("state").as_deref() != Some(self.state.as_str()) {
            reply(
                &mut stream,
                400,
                "Deze terugkeer hoort niet bij de login waarop rvo-cli wacht. Er is niets beslist.",
            );
            return Ok(Callback::Other);
        }
        if let Some(error) = param("error") {
            if error == "access_denied" {
                reply(
                    &mut stream,
                    200,
                    "U hebt de goedkeuring geweigerd. Er is niets beslist; u kunt dit venster sluiten.",
                );
                return Ok(Callback::Ended(Ended::Declined));
            }
            reply(
                &mut stream,
                502,
                "De identiteitsprovider meldde een fout. Er is niets beslist.",
            );
            return Err(Unusable(format!(
                "de provider stuurde de browser terug met {error}"
            )));
        }
        let Some(code) = param("code") else {
            reply(
                &mut stream,
                400,
                "De terugkeer mist de code. Er is niets beslist.",
            );
            return Err(Unusable(
                "de provider stuurde de browser terug zonder code".into(),
            ));
        };
        crate::process::secrets::hold(&code);
        match code_flow::exchange(&self.client(), &code, &self.verifier) {
            Ok(tokens) => {
                let Some(access_token) = tokens.access_token else {
                    reply(
                        &mut stream,
                        502,
                        "De identiteitsprovider gaf geen goedkeuring. Er is niets beslist.",
                    );
                    return Err(Unusable("het tokenantwoord heeft geen access_token".into()));
                };
                reply(
                    &mut stream,
                    200,
                    "U bent ingelogd. rvo-cli controleert de goedkeuring en legt haar vast; u kunt dit venster sluiten.",
                );
                Ok(Callback::Ended(Ended::Approved {
                    access_token,
                    id_token: tokens.id_token,
                }))
            }
            Err(why) => {
                reply(
                    &mut stream,
                    502,
                    "De identiteitsprovider gaf geen goedkeuring. Er is niets beslist.",
                );
                Err(Unusable(why))
            }
        }
    }
}

/// The request target of a `GET` whose head arrives within [`READ_TIMEOUT`] and [`MAX_HEAD`].
fn request_target(stream: &mut TcpStream) -> Option<String> {
    stream.set_nonblocking(false).ok()?;
    let deadline = Instant::now() + READ_TIMEOUT;
    let mut head = Vec::with_capacity(1024);
    let mut buffer = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let left = deadline.checked_duration_since(Instant::now())?;
        stream.set_read_timeout(Some(left)).ok()?;
        let read = stream.read(&mut buffer).ok()?;
        if read == 0 || head.len() + read > MAX_HEAD {
            return None;
        }
        head.extend_from_slice(&buffer[..read]);
    }
    let line = head.split(|&b| b == b'\r').next()?;
    let line = std::str::from_utf8(line).ok()?;
    let mut parts = line.split(' ');
    match (parts.next(), parts.next(), parts.next()) {
        (Some("GET"), Some(target), Some(version))
            if version.starts_with("HTTP/1.") && target.starts_with('/') =>
        {
            Some(target.to_string())
        }
        _ => None,
    }
}

/// A short page for the person's browser; nothing from the request is echoed.
fn reply(stream: &mut TcpStream, status: u16, text: &str) {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        _ => "Bad Gateway",
    };
    let body = format!(
        "<!doctype html><html lang=\"nl\"><meta charset=\"utf-8\"><title>rvo-cli</title><p>{text}</p></html>"
    );
    let response = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nCache-Control: no-store\r\nReferrer-Policy: no-referrer\r\nContent-Security-Policy: default-src 'none'\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.set_write_timeout(Some(READ_TIMEOUT));
    let _ = stream.write_all(response.as_bytes());
}

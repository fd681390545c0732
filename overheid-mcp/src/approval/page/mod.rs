//! The approval page, the person's side of a proposal: `overheid-mcp --http` serves
//! `/voorstellen/{id}` and the list of the company's open proposals at `/voorstellen`.
//!
//! - **Login**: OpenID Connect authorization-code flow with PKCE against the provider named by
//!   `--oidc-issuer` ([`oidc`]); the callback is `/voorstellen/terug`.
//! - **No server-side session**: the login in progress and the person's session are cookies
//!   sealed with the state key (`OVERHEID_MCP_STATE_KEY`, HMAC-SHA256, with an expiry), so any
//!   replica serves the next request. Both are HttpOnly, SameSite=Lax, `Path=/voorstellen`,
//!   Secure unless the page is on loopback; the session lasts 15 minutes.
//! - **Who**: only a person whose login carries the proposal's company (the same claim as the
//!   bearer tokens) sees or decides it; anyone else, and an unknown id, get the same 403.
//! - **Deciding** ([`decide`]) is a POST with a CSRF token sealed for this proposal, this person
//!   and the digest shown, and then a fresh login at the provider for this decision alone
//!   (`prompt=login`, `max_age=0`); to approve, that login asks for the proposal's authorization
//!   detail (RFC 9396), and the access token it brings is the approval token the filing needs
//!   (profile §10.3). The store records the person's subject and name, the digest and the
//!   token, and refuses when the plan is no longer the one shown. A link alone never approves.
//! - **What the person sees** ([`render`]): the company, the scheme by name, where the filing
//!   goes and on which date, who proposed it, the agent's own text quoted as the agent's, the
//!   measures and values with their sources and articles, times in Europe/Amsterdam; the
//!   decision's buttons before the details, so they are on the first screen.
//! - **Quality**: Dutch, plain HTML forms (no JavaScript), no external assets, a strict
//!   Content-Security-Policy, every value escaped ([`html`]).

pub(crate) mod decide;
pub(crate) mod html;
pub(crate) mod oidc;
pub(crate) mod render;

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use overheid_records::{Location, Pool, Proposal, Store};
use serde_json::{Value, json};

use crate::approval::request_state::Approval;
use crate::catalog::template::percent_decode;
use crate::identity::auth::CompanyClaims;
use oidc::{Person, Provider};

/// How long a login may take.
pub(crate) const LOGIN_TTL: Duration = Duration::from_secs(600);
/// How long a session lasts.
pub(crate) const SESSION_TTL: Duration = Duration::from_secs(900);
/// The largest form accepted.
pub(crate) const MAX_FORM_BYTES: usize = 16 * 1024;
/// How long a store operation may take.
const STORE_TIMEOUT: Duration = Duration::from_secs(10);
/// The most connections to the store kept idle between requests.
const MAX_IDLE_CONNECTIONS: usize = 4;

const SESSION_COOKIE: &str = "overheid_sessie";
const LOGIN_COOKIE: &str = "overheid_login";
/// The path every page lives under.
pub(crate) const PATH: &str = "/voorstellen";

/// The approval page of one bridge.
pub(crate) struct Page {
    pub(crate) provider: Provider,
    /// The store's connections, kept between requests (a PostgreSQL connection costs more
    /// than the page: TCP, authentication, the schema check).
    pool: Arc<Pool>,
    pub(crate) claims: CompanyClaims,
    /// Cookies carry `Secure`: the public URL's scheme is https.
    secure: bool,
    /// The page's origin (`https://mcp.example.nl`), which a form POST must come from.
    pub(crate) origin: String,
    /// The assurance a decision's login must have, from the operator's policy.
    pub(crate) acr: Option<String>,
}

/// An answer of the page.
#[derive(Debug)]
pub(crate) struct Reply {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub body: String,
}

/// One request to the page, as the server read it.
pub(crate) struct Asked<'a> {
    pub post: bool,
    pub path: &'a str,
    pub query: &'a str,
    pub cookie: Option<&'a str>,
    pub origin: Option<&'a str>,
    pub form: &'a [u8],
}

pub(crate) fn reply(status: u16, title: &str, body: &str) -> Reply {
    Reply {
        status,
        headers: vec![
            ("content-type", "text/html; charset=utf-8".into()),
            (
                "content-security-policy",
                html::content_security_policy(None),
            ),
            ("x-content-type-options", "nosniff".into()),
            ("referrer-policy", "same-origin".into()),
            ("cache-control", "no-store".into()),
        ],
        body: html::page(title, body),
    }
}

impl Reply {
    /// This page's forms may also go to `origin` (the decision form, whose answer is a
    /// redirect to the provider's login).
    fn with_forms_to(mut self, origin: &str) -> Self {
        for (name, value) in &mut self.headers {
            if *name == "content-security-policy" {
                *value = html::content_security_policy(Some(origin));
            }
        }
        self
    }
}

pub(crate) fn see_other(location: &str) -> Reply {
    let mut answer = reply(303, "Doorverwijzing", "<p>U wordt doorverwezen.</p>");
    answer.headers.push(("location", location.to_string()));
    answer
}

/// The one answer for "not yours" and "unknown": no oracle.
pub(crate) fn forbidden() -> Reply {
    reply(
        403,
        "Geen toegang",
        "<h1>Geen toegang</h1><p>Dit voorstel bestaat niet, of u mag er niet over beslissen. \
         Alleen iemand die is ingelogd voor het bedrijf van het voorstel ziet het.</p>",
    )
}

pub(crate) fn failed(status: u16, title: &str, detail: &str) -> Reply {
    reply(
        status,
        title,
        &format!(
            "<h1>{}</h1><p class=\"melding\" role=\"alert\">{}</p><p><a href=\"{PATH}\">Naar de voorstellen</a></p>",
            html::text(title),
            html::text(detail)
        ),
    )
}

/// The value of cookie `name` in a `Cookie` header.
pub(crate) fn cookie<'a>(header: Option<&'a str>, name: &str) -> Option<&'a str> {
    header?
        .split(';')
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value)
}

/// One pair of a query string or form, decoded.
pub(crate) fn field(encoded: &[u8], name: &str) -> Option<String> {
    form_pairs(encoded)
        .into_iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value)
}

fn form_pairs(encoded: &[u8]) -> Vec<(String, String)> {
    let text = String::from_utf8_lossy(encoded);
    text.split('&')
        .filter_map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let decode = |s: &str| {
                let spaced = s.replace('+', " ");
                percent_decode(&spaced)
            };
            Some((decode(key)?, decode(value)?))
        })
        .collect()
}

impl Page {
    /// The page, with the provider read at start (blocking). `public_base` is the bridge's
    /// public URL without `/mcp` (`https://mcp.example.nl`): https, or plain http on loopback
    /// only (a session cookie over plain http elsewhere could be read on the way).
    pub(crate) fn new(
        issuer: &str,
        client_id: &str,
        client_secret: Option<String>,
        public_base: &str,
        location: Location,
        claims: CompanyClaims,
    ) -> Result<Self, String> {
        let base = public_base.trim_end_matches('/');
        let url = url::Url::parse(base).map_err(|e| format!("--public-url {base:?}: {e}"))?;
        let secure = match url.scheme() {
            "https" => true,
            "http" if common::http::is_loopback(&url) => false,
            _ => {
                return Err(format!(
                    "--public-url {base} is geen https: de goedkeuringspagina draait alleen over \
                     https (of over http op loopback, om te ontwikkelen)"
                ));
            }
        };
        let provider = Provider::discover(
            issuer,
            client_id,
            client_secret,
            format!("{base}{PATH}/terug"),
        )?;
        let acr = common::approval::policy::current()
            .ok()
            .and_then(|policy| policy.identity())
            .and_then(|identity| identity.acr.clone());
        Ok(Self {
            provider,
            pool: Arc::new(Pool::new(location, STORE_TIMEOUT, MAX_IDLE_CONNECTIONS)),
            claims,
            secure,
            origin: url.origin().ascii_serialization(),
            acr,
        })
    }

    /// The base URL of proposals' links (`https://mcp.example.nl/voorstellen`).
    pub(crate) fn links(&self) -> String {
        format!("{}{PATH}", self.origin)
    }

    pub(crate) fn set_cookie(&self, name: &str, value: &str, max_age: Duration) -> String {
        let secure = if self.secure { "; Secure" } else { "" };
        format!(
            "{name}={value}; Path={PATH}; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
            max_age.as_secs()
        )
    }

    /// Whether a request carries a session cookie that opens: the page reads a form's body only
    /// then (a POST without a session is answered without waiting for its body).
    pub(crate) fn has_session(&self, approval: &Approval, cookie_header: Option<&str>) -> bool {
        self.session(approval, cookie_header).is_some()
    }

    fn session(&self, approval: &Approval, cookie_header: Option<&str>) -> Option<Person> {
        cookie(cookie_header, SESSION_COOKIE)
            .and_then(|value| approval.open_for("sessie", value))
            .and_then(|payload| serde_json::from_slice(&payload).ok())
    }

    /// Answer one request under [`PATH`].
    pub(crate) async fn handle(&self, approval: &Approval, asked: Asked<'_>) -> Reply {
        let rest = asked.path.strip_prefix(PATH).unwrap_or_default();
        let session = self.session(approval, asked.cookie);
        match (asked.post, rest) {
            (false, "/terug") => match cookie(asked.cookie, decide::COOKIE) {
                Some(_) if decide::is_decision(approval, &asked) => {
                    decide::finish(self, approval, &asked, session.as_ref()).await
                }
                _ => self.callback(approval, asked).await,
            },
            (false, "" | "/") => match session {
                Some(person) => self.list(approval, &person).await,
                None => self.login(approval, PATH),
            },
            (post, id) if id.starts_with('/') && !id[1..].contains('/') => {
                let id = &id[1..];
                match (post, session) {
                    (false, Some(person)) => self.show(approval, &person, id, None).await,
                    (false, None) => self.login(approval, asked.path),
                    (true, Some(person)) => {
                        decide::start(self, approval, &person, id, &asked).await
                    }
                    (true, None) => forbidden(),
                }
            }
            _ => failed(404, "Niet gevonden", "Deze pagina bestaat niet."),
        }
    }

    /// Start a login: a sealed cookie with state, nonce and verifier; off to the provider.
    fn login(&self, approval: &Approval, back: &str) -> Reply {
        let (Ok(state), Ok(nonce), Ok(verifier)) =
            (oidc::random(16), oidc::random(16), oidc::random(32))
        else {
            return failed(500, "Fout", "Er kon geen inlogpoging worden gestart.");
        };
        let back = if html::text(back) == back && back.starts_with(PATH) {
            back
        } else {
            PATH
        };
        let login = json!({"state": state, "nonce": nonce, "verifier": verifier, "terug": back});
        let sealed = approval.seal_for("login", login.to_string().as_bytes(), LOGIN_TTL);
        let url = self
            .provider
            .authorization_url(&state, &nonce, &verifier, &oidc::Ask::default());
        let mut answer = see_other(&url);
        answer.headers.push((
            "set-cookie",
            self.set_cookie(LOGIN_COOKIE, &sealed, LOGIN_TTL),
        ));
        answer
    }

    /// The provider sent the browser back: check the state, exchange the code, open a session.
    async fn callback(&self, approval: &Approval, asked: Asked<'_>) -> Reply {
        let query = asked.query.as_bytes();
        let login: Option<Value> = cookie(asked.cookie, LOGIN_COOKIE)
            .and_then(|value| approval.open_for("login", value))
            .and_then(|payload| serde_json::from_slice(&payload).ok());
        let (Some(login), Some(code), Some(state)) =
            (login, field(query, "code"), field(query, "state"))
        else {
            return failed(
                400,
                "Inloggen mislukt",
                "De inlogpoging is onbekend of verlopen. Open de link van het voorstel opnieuw.",
            );
        };
        if login["state"].as_str() != Some(state.as_str()) {
            return failed(
                400,
                "Inloggen mislukt",
                "De inlogpoging klopt niet (state).",
            );
        }
        let verifier = login["verifier"].as_str().unwrap_or_default().to_string();
        let nonce = login["nonce"].as_str().unwrap_or_default().to_string();
        let back = login["terug"].as_str().unwrap_or(PATH).to_string();
        let provider = &self.provider;
        let claims = &self.claims;
        let logged_in =
            tokio::task::block_in_place(|| provider.exchange(&code, &verifier, &nonce, claims));
        let person = match logged_in {
            Ok(logged_in) => logged_in.person,
            Err(why) => return failed(400, "Inloggen mislukt", &why),
        };
        let session = serde_json::to_vec(&person).unwrap_or_default();
        let sealed = approval.seal_for("sessie", &session, SESSION_TTL);
        let mut answer = see_other(&back);
        answer.headers.push((
            "set-cookie",
            self.set_cookie(SESSION_COOKIE, &sealed, SESSION_TTL),
        ));
        answer.headers.push((
            "set-cookie",
            self.set_cookie(LOGIN_COOKIE, "", Duration::ZERO),
        ));
        answer
    }

    /// Run `work` on a kept connection to the store, or a new one (blocking, off the reactor).
    pub(crate) async fn store<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Store) -> Result<T, overheid_records::Error> + Send + 'static,
    ) -> Result<T, overheid_records::Error> {
        let pool = Arc::clone(&self.pool);
        tokio::task::spawn_blocking(move || pool.with(work))
            .await
            .unwrap_or_else(|_| Err(overheid_records::Error::Busy))
    }

    async fn list(&self, _approval: &Approval, person: &Person) -> Reply {
        if person.companies.is_empty() {
            return forbidden();
        }
        // Every company the person acts for (an intermediary's several), each by its own query.
        let companies = person.companies.clone();
        let open = self
            .store(move |store| {
                let mut open = Vec::new();
                for company in &companies {
                    open.extend(store.proposals(
                        Some(company),
                        Some(overheid_records::Status::Open),
                        Utc::now(),
                    )?);
                }
                Ok(open)
            })
            .await;
        let open = match open {
            Ok(open) => open,
            Err(e) => return failed(503, "Opslag niet bereikbaar", &e.to_string()),
        };
        let rows: String = open
            .iter()
            .map(|p| {
                format!(
                    "<tr><td><a href=\"{PATH}/{id}\">{id}</a></td><td>{what}</td><td>{until}</td></tr>",
                    id = html::text(&p.id),
                    what = html::text(p.call.plan["effect"].as_str().unwrap_or(&p.call.command)),
                    until = html::text(&common::calendar::dutch_display(p.expires_at)),
                )
            })
            .collect();
        let table = if open.is_empty() {
            "<p>Er zijn geen open voorstellen.</p>".to_string()
        } else {
            format!(
                "<table><caption>Open voorstellen</caption><thead><tr><th scope=\"col\">Voorstel</th>\
                 <th scope=\"col\">Wat</th><th scope=\"col\">Verloopt op</th></tr></thead>\
                 <tbody>{rows}</tbody></table>"
            )
        };
        reply(
            200,
            "Voorstellen",
            &format!(
                "<h1>Voorstellen voor KvK {}</h1><p>Ingelogd als {}.</p>{table}",
                html::text(&person.companies.join(", ")),
                html::text(&person.name)
            ),
        )
    }

    /// The proposal `id` when `person` acts for its company; else what to answer: the same 403
    /// for another company's proposal as for an unknown id, 503 when the store cannot answer.
    pub(crate) async fn proposal_for(&self, person: &Person, id: &str) -> Result<Proposal, Reply> {
        let owned = id.to_string();
        let companies = person.companies.clone();
        let found = self
            .store(move |store| {
                let found = store.proposal(&owned, None, Utc::now())?;
                Ok(found.filter(|proposal| companies.contains(&proposal.call.company)))
            })
            .await;
        match found {
            Ok(Some(proposal)) => Ok(proposal),
            Ok(None) => Err(forbidden()),
            Err(e) => Err(failed(503, "Opslag niet bereikbaar", &e.to_string())),
        }
    }

    async fn show(
        &self,
        approval: &Approval,
        person: &Person,
        id: &str,
        notice: Option<&str>,
    ) -> Reply {
        match self.proposal_for(person, id).await {
            Ok(proposal) => reply(
                200,
                &format!("Voorstel {id}"),
                &render::proposal(approval, person, &proposal, notice),
            )
            .with_forms_to(&self.provider.origin()),
            Err(refused) => refused,
        }
    }
}

/// What a CSRF token is sealed for: this proposal and this person.
pub(crate) fn csrf_purpose(id: &str, subject: &str) -> String {
    format!("csrf\n{id}\n{subject}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_csrf_token_is_for_one_proposal_and_one_person() {
        assert_ne!(csrf_purpose("vs_a", "anna"), csrf_purpose("vs_b", "anna"));
        assert_ne!(csrf_purpose("vs_a", "anna"), csrf_purpose("vs_a", "piet"));
    }

    #[test]
    fn reads_cookies_and_forms() {
        let header = Some("a=1; overheid_sessie=rs1.x.y; b=2");
        assert_eq!(cookie(header, SESSION_COOKIE), Some("rs1.x.y"));
        assert_eq!(cookie(header, LOGIN_COOKIE), None);
        let form = b"beslissing=goedkeuren&digest=ab%2Bc&csrf=x+y";
        assert_eq!(field(form, "digest").as_deref(), Some("ab+c"));
        assert_eq!(field(form, "csrf").as_deref(), Some("x y"));
        assert_eq!(field(b"a=%zz", "a"), None);
    }
}

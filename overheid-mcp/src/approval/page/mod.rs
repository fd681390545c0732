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
//! - **Deciding** is a POST with a CSRF token sealed for this proposal, this person and the
//!   digest shown; the store records the person's subject and name and that digest, and refuses
//!   when the plan is no longer the one shown. A link alone never approves.
//! - **Quality**: Dutch, plain HTML forms (no JavaScript), no external assets, a strict
//!   Content-Security-Policy, every value escaped ([`html`]).

pub(crate) mod html;
pub(crate) mod oidc;

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use overheid_records::{Decision, Location, Person as Decider, Pool, Proposal, Store};
use serde_json::{Value, json};

use crate::approval::request_state::Approval;
use crate::catalog::template::percent_decode;
use crate::identity::auth::CompanyClaims;
use oidc::{Person, Provider};

/// How long a login may take.
const LOGIN_TTL: Duration = Duration::from_secs(600);
/// How long a session lasts.
const SESSION_TTL: Duration = Duration::from_secs(900);
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
    provider: Provider,
    /// The store's connections, kept between requests (a PostgreSQL connection costs more
    /// than the page: TCP, authentication, the schema check).
    pool: Arc<Pool>,
    claims: CompanyClaims,
    /// Cookies carry `Secure` (not on a loopback page).
    secure: bool,
    /// The page's origin (`https://mcp.example.nl`), which a form POST must come from.
    origin: String,
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

fn reply(status: u16, title: &str, body: &str) -> Reply {
    Reply {
        status,
        headers: vec![
            ("content-type", "text/html; charset=utf-8".into()),
            ("content-security-policy", html::content_security_policy()),
            ("x-content-type-options", "nosniff".into()),
            ("referrer-policy", "same-origin".into()),
            ("cache-control", "no-store".into()),
        ],
        body: html::page(title, body),
    }
}

fn see_other(location: &str) -> Reply {
    let mut answer = reply(303, "Doorverwijzing", "<p>U wordt doorverwezen.</p>");
    answer.headers.push(("location", location.to_string()));
    answer
}

/// The one answer for "not yours" and "unknown": no oracle.
fn forbidden() -> Reply {
    reply(
        403,
        "Geen toegang",
        "<h1>Geen toegang</h1><p>Dit voorstel bestaat niet, of u mag er niet over beslissen. \
         Alleen iemand die is ingelogd voor het bedrijf van het voorstel ziet het.</p>",
    )
}

fn failed(status: u16, title: &str, detail: &str) -> Reply {
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
fn cookie<'a>(header: Option<&'a str>, name: &str) -> Option<&'a str> {
    header?
        .split(';')
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value)
}

/// One pair of a query string or form, decoded.
fn field(encoded: &[u8], name: &str) -> Option<String> {
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
    /// public URL without `/mcp` (`https://mcp.example.nl`).
    pub(crate) fn new(
        issuer: &str,
        client_id: &str,
        client_secret: Option<String>,
        public_base: &str,
        location: Location,
        claims: CompanyClaims,
    ) -> Result<Self, String> {
        let base = public_base.trim_end_matches('/');
        let provider = Provider::discover(
            issuer,
            client_id,
            client_secret,
            format!("{base}{PATH}/terug"),
        )?;
        let loopback = ["http://127.0.0.1", "http://localhost", "http://[::1]"]
            .iter()
            .any(|prefix| base.starts_with(prefix));
        Ok(Self {
            provider,
            pool: Arc::new(Pool::new(location, STORE_TIMEOUT, MAX_IDLE_CONNECTIONS)),
            claims,
            secure: !loopback,
            origin: base.split('/').take(3).collect::<Vec<_>>().join("/"),
        })
    }

    /// The base URL of proposals' links (`https://mcp.example.nl/voorstellen`).
    pub(crate) fn links(&self) -> String {
        format!("{}{PATH}", self.origin)
    }

    fn set_cookie(&self, name: &str, value: &str, max_age: Duration) -> String {
        let secure = if self.secure { "; Secure" } else { "" };
        format!(
            "{name}={value}; Path={PATH}; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
            max_age.as_secs()
        )
    }

    /// Answer one request under [`PATH`].
    pub(crate) async fn handle(&self, approval: &Approval, asked: Asked<'_>) -> Reply {
        let rest = asked.path.strip_prefix(PATH).unwrap_or_default();
        let session: Option<Person> = cookie(asked.cookie, SESSION_COOKIE)
            .and_then(|value| approval.open_for("sessie", value))
            .and_then(|payload| serde_json::from_slice(&payload).ok());
        match (asked.post, rest) {
            (false, "/terug") => self.callback(approval, asked).await,
            (false, "" | "/") => match session {
                Some(person) => self.list(approval, &person).await,
                None => self.login(approval, PATH),
            },
            (post, id) if id.starts_with('/') && !id[1..].contains('/') => {
                let id = &id[1..];
                match (post, session) {
                    (false, Some(person)) => self.show(approval, &person, id, None).await,
                    (false, None) => self.login(approval, asked.path),
                    (true, Some(person)) => self.decide(approval, &person, id, &asked).await,
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
        let mut answer = see_other(&self.provider.authorization_url(&state, &nonce, &verifier));
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
        let person =
            tokio::task::block_in_place(|| provider.exchange(&code, &verifier, &nonce, claims));
        let person = match person {
            Ok(person) => person,
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
    async fn store<T: Send + 'static>(
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
                    until = html::text(&p.expires_at.to_rfc3339()),
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

    async fn show(
        &self,
        approval: &Approval,
        person: &Person,
        id: &str,
        notice: Option<&str>,
    ) -> Reply {
        let owned = id.to_string();
        let companies = person.companies.clone();
        let found = self
            .store(move |store| {
                let found = store.proposal(&owned, None, Utc::now())?;
                Ok(found.filter(|proposal| companies.contains(&proposal.call.company)))
            })
            .await;
        match found {
            Ok(Some(proposal)) => reply(
                200,
                &format!("Voorstel {id}"),
                &render(approval, person, &proposal, notice),
            ),
            Ok(None) => forbidden(),
            Err(e) => failed(503, "Opslag niet bereikbaar", &e.to_string()),
        }
    }

    async fn decide(
        &self,
        approval: &Approval,
        person: &Person,
        id: &str,
        asked: &Asked<'_>,
    ) -> Reply {
        if person.companies.is_empty() {
            return forbidden();
        }
        if asked.origin.is_some_and(|origin| origin != self.origin) {
            return failed(403, "Geweigerd", "Dit formulier kwam niet van deze pagina.");
        }
        let (decision, digest, token) = (
            field(asked.form, "beslissing"),
            field(asked.form, "digest"),
            field(asked.form, "csrf"),
        );
        let (Some(decision), Some(digest), Some(token)) = (decision, digest, token) else {
            return failed(
                400,
                "Geweigerd",
                "Het formulier is onvolledig; er is niets besloten.",
            );
        };
        let shown = approval.open_for(&csrf_purpose(id, &person.sub), &token);
        if shown.as_deref() != Some(digest.as_bytes()) {
            return failed(
                403,
                "Geweigerd",
                "Het formulier is verlopen of niet van deze pagina (CSRF); er is niets besloten. \
                 Open het voorstel opnieuw.",
            );
        }
        let decision = match decision.as_str() {
            "goedkeuren" => Decision::Approve,
            "afwijzen" => Decision::Decline,
            _ => {
                return failed(
                    400,
                    "Geweigerd",
                    "Onbekende beslissing; er is niets besloten.",
                );
            }
        };
        let by = Decider {
            subject: person.sub.clone(),
            name: person.name.clone(),
            method: "oidc".to_string(),
        };
        let owned = id.to_string();
        let companies = person.companies.clone();
        let decided = self
            .store(move |store| {
                // The proposal's company must be one the person acts for; any other, and an
                // unknown id, are the same "not found" (no oracle).
                let company = store
                    .proposal(&owned, None, Utc::now())?
                    .map(|proposal| proposal.call.company)
                    .filter(|company| companies.contains(company))
                    .ok_or(overheid_records::Error::NotFound)?;
                let verdict = overheid_records::Verdict {
                    decision,
                    by: &by,
                    seen_digest: &digest,
                    token: None,
                };
                store.decide(&owned, Some(&company), verdict, Utc::now())
            })
            .await;
        match decided {
            Ok(proposal) => {
                let done = match decision {
                    Decision::Approve => {
                        "U hebt het voorstel goedgekeurd. Een agent kan het nu indienen met het id van het voorstel."
                    }
                    Decision::Decline => {
                        "U hebt het voorstel afgewezen. Het wordt nooit ingediend."
                    }
                };
                reply(
                    200,
                    &format!("Voorstel {id}"),
                    &render(approval, person, &proposal, Some(done)),
                )
            }
            Err(overheid_records::Error::NotFound) => forbidden(),
            Err(overheid_records::Error::DigestMismatch) => failed(
                409,
                "Plan gewijzigd",
                "Het plan is niet meer het plan dat u zag; er is niets besloten.",
            ),
            Err(overheid_records::Error::Refused(status)) => failed(
                409,
                "Niet meer open",
                &format!(
                    "Over dit voorstel kan niet meer worden besloten (status {}).",
                    status.as_str()
                ),
            ),
            Err(e) => failed(503, "Opslag niet bereikbaar", &e.to_string()),
        }
    }
}

/// What a CSRF token is sealed for: this proposal and this person.
fn csrf_purpose(id: &str, subject: &str) -> String {
    format!("csrf\n{id}\n{subject}")
}

/// A status in Dutch.
fn status(proposal: &Proposal) -> &'static str {
    match proposal.status {
        overheid_records::Status::Open => "wacht op uw beslissing",
        overheid_records::Status::Approved => "goedgekeurd",
        overheid_records::Status::Declined => "afgewezen",
        overheid_records::Status::Expired => "verlopen",
        overheid_records::Status::Filed => "ingediend",
    }
}

/// The proposal's page: what will be filed, for whom, under which scheme and on which date,
/// the measures, the concept's values, the digest, and the decision form while it is open.
fn render(
    approval: &Approval,
    person: &Person,
    proposal: &Proposal,
    notice: Option<&str>,
) -> String {
    let plan = &proposal.call.plan;
    let arguments = &plan["arguments"];
    let field = |value: &Value| html::value(value, 1);
    let scheme = arguments
        .get("regeling_id")
        .or_else(|| proposal.call.input.get("regeling_id"))
        .unwrap_or(&Value::Null);
    let date = plan.get("peildatum").unwrap_or(&Value::Null);
    let measures = arguments.get("maatregelen").unwrap_or(&Value::Null);
    let notice = notice
        .map(|n| format!("<p class=\"melding\" role=\"status\">{}</p>", html::text(n)))
        .unwrap_or_default();
    let mut details = serde_json::Map::new();
    for (key, value) in arguments.as_object().into_iter().flatten() {
        if !matches!(key.as_str(), "kvk_nummer" | "regeling_id" | "maatregelen") {
            details.insert(key.clone(), value.clone());
        }
    }
    let decision = match &proposal.decision {
        Some(decided) => format!(
            "<p>Besloten door {} op {} (digest <code>{}</code>).</p>",
            html::text(&decided.by.name),
            html::text(&decided.at.to_rfc3339()),
            html::text(&decided.digest)
        ),
        None => String::new(),
    };
    let form = if proposal.status == overheid_records::Status::Open {
        let token = approval.seal_for(
            &csrf_purpose(&proposal.id, &person.sub),
            proposal.call.plan_digest.as_bytes(),
            SESSION_TTL,
        );
        format!(
            "<form method=\"post\" action=\"{PATH}/{id}\"><input type=\"hidden\" name=\"csrf\" value=\"{token}\">\
             <input type=\"hidden\" name=\"digest\" value=\"{digest}\">\
             <p>Beslis als {name}. Goedkeuren betekent dat dit plan precies zo mag worden ingediend.</p>\
             <button class=\"ja\" type=\"submit\" name=\"beslissing\" value=\"goedkeuren\">Goedkeuren</button>\
             <button type=\"submit\" name=\"beslissing\" value=\"afwijzen\">Afwijzen</button></form>",
            id = html::text(&proposal.id),
            token = html::text(&token),
            digest = html::text(&proposal.call.plan_digest),
            name = html::text(&person.name),
        )
    } else {
        String::new()
    };
    format!(
        "<h1>Voorstel {id}</h1>{notice}<p>{effect}</p><dl>\
         <dt>Bedrijf (KvK-nummer)</dt><dd>{company}</dd>\
         <dt>Regeling</dt><dd>{scheme}</dd>\
         <dt>Datum (peildatum)</dt><dd>{date}</dd>\
         <dt>Maatregelen</dt><dd>{measures}</dd>\
         <dt>Opdracht</dt><dd>{tool} {command}</dd>\
         <dt>Status</dt><dd>{status}</dd>\
         <dt>Verloopt op</dt><dd>{expires}</dd>\
         <dt>Plan-digest</dt><dd><code>{digest}</code></dd></dl>\
         <h2>Gegevens die worden ingediend</h2>{details}{decision}{form}\
         <p><a href=\"{PATH}\">Alle open voorstellen</a></p>",
        id = html::text(&proposal.id),
        effect = html::text(plan["effect"].as_str().unwrap_or_default()),
        company = html::text(&proposal.call.company),
        scheme = field(scheme),
        date = field(date),
        measures = field(measures),
        tool = html::text(&proposal.call.tool),
        command = html::text(&proposal.call.command),
        status = status(proposal),
        expires = html::text(&proposal.expires_at.to_rfc3339()),
        digest = html::text(&proposal.call.plan_digest),
        details = html::value(&Value::Object(details), 1),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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

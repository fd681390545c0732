//! The approval page: a person logs in at an OpenID provider (a fake one started here, which
//! checks the PKCE verifier and signs ID tokens with its own key), sees the proposal and decides.
//! Only a person of the proposal's company sees it; CSRF, expiry and a changed plan are refused.
//! The browser is played by a cookie-keeping HTTP client that follows no redirects.
#![allow(
    clippy::too_many_lines,
    reason = "a test is one scenario read top to bottom; the lint holds production code (issue 42.5)"
)]
#![allow(
    clippy::disallowed_methods,
    reason = "the test's browser is its own client: cookies kept, no redirects followed"
)]

mod harness;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use base64::Engine as _;
use chrono::Utc;
use overheid_records::{Location, NewProposal, ProposedCall, Status, Store};
use ring::digest::{SHA256, digest};
use serde_json::json;
use test_support::jwt::Signer;
use test_support::{FakeServer, Reply};

use harness::demo_cli;
use harness::http::{HttpBridge, now};

const CLIENT_ID: &str = "overheid-mcp-pagina";

/// Who logs in next at the fake provider: subject, name, company.
type Who = Arc<Mutex<(String, String, String)>>;

/// The provider's codes: the authorization request's parameters and who logged in, by code.
type Codes = Arc<Mutex<HashMap<String, (HashMap<String, String>, (String, String, String))>>>;

struct Provider {
    server: FakeServer,
    who: Who,
    /// When set, the provider ignores `prompt=login` and reports an old session's `auth_time`.
    stale: Arc<Mutex<bool>>,
}

fn provider() -> Provider {
    let signer = Signer::new("idp-1");
    let jwk = signer.jwk();
    let base = Arc::new(Mutex::new(String::new()));
    let codes: Codes = Arc::default();
    let who: Who = Arc::new(Mutex::new(Default::default()));
    let stale = Arc::new(Mutex::new(false));
    let (base_in, who_in, stale_in) = (Arc::clone(&base), Arc::clone(&who), Arc::clone(&stale));
    let server = FakeServer::start(move |request| {
        let base = base_in.lock().unwrap().clone();
        match request.path.as_str() {
            "/.well-known/openid-configuration" => Reply::json(
                200,
                &json!({"issuer": base, "authorization_endpoint": format!("{base}/authorize"),
                        "token_endpoint": format!("{base}/token"), "jwks_uri": format!("{base}/jwks")}),
            ),
            "/jwks" => Reply::json(200, &json!({"keys": [jwk]})),
            "/authorize" => {
                assert_eq!(request.query_param("code_challenge_method"), Some("S256"));
                assert_eq!(request.query_param("client_id"), Some(CLIENT_ID));
                let code = format!("code-{}", codes.lock().unwrap().len());
                let params: HashMap<String, String> = request.query.iter().cloned().collect();
                codes
                    .lock()
                    .unwrap()
                    .insert(code.clone(), (params, who_in.lock().unwrap().clone()));
                let back = format!(
                    "{}?code={code}&state={}",
                    request.query_param("redirect_uri").unwrap(),
                    request.query_param("state").unwrap()
                );
                Reply::redirect(&back)
            }
            "/token" => {
                let form: HashMap<String, String> = url::form_urlencoded::parse(&request.body)
                    .into_owned()
                    .collect();
                let Some((params, (sub, name, kvk))) = codes.lock().unwrap().remove(&form["code"])
                else {
                    return Reply::json(400, &json!({"error": "invalid_grant"}));
                };
                let hashed = base64::engine::general_purpose::URL_SAFE_NO_PAD
                    .encode(digest(&SHA256, form["code_verifier"].as_bytes()));
                if hashed != params["code_challenge"] {
                    return Reply::json(400, &json!({"error": "invalid_grant", "why": "pkce"}));
                }
                let fresh = params.get("prompt").map(String::as_str) == Some("login")
                    && params.get("max_age").map(String::as_str) == Some("0")
                    && !*stale_in.lock().unwrap();
                let auth_time = if fresh { now() } else { now() - 3600 };
                let mut claims = json!({"iss": base, "aud": CLIENT_ID, "sub": sub,
                    "name": name, "kvk_nummer": kvk, "bedrijfsnaam": "Donald Bakkerij B.V.",
                    "nonce": params["nonce"], "exp": now() + 300, "iat": now(), "auth_time": auth_time});
                // Several numbers: an intermediary, whose login lists them.
                if kvk.contains(',') {
                    claims.as_object_mut().unwrap().remove("kvk_nummer");
                    claims["kvk_nummers"] = json!(kvk.split(',').collect::<Vec<_>>());
                }
                let mut answer = json!({"id_token": signer.token(&claims), "token_type": "Bearer"});
                // An approval: an access token for the resource, carrying the details asked.
                if let (Some(details), Some(resource)) =
                    (params.get("authorization_details"), params.get("resource"))
                {
                    let details: serde_json::Value = serde_json::from_str(details).unwrap();
                    let access = json!({"iss": base, "aud": resource, "sub": sub, "name": name,
                        "exp": now() + 300, "iat": now(), "nbf": now(), "auth_time": auth_time,
                        "authorization_details": details, "client_id": CLIENT_ID});
                    answer["access_token"] = json!(signer.token(&access));
                }
                Reply::json(200, &answer)
            }
            _ => Reply::json(404, &json!({})),
        }
    });
    *base.lock().unwrap() = server.base_url();
    Provider { server, who, stale }
}

/// A browser: keeps cookies, follows no redirects.
struct Browser {
    client: reqwest::blocking::Client,
    cookies: HashMap<String, String>,
}

impl Browser {
    fn new() -> Self {
        Self {
            client: reqwest::blocking::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap(),
            cookies: HashMap::new(),
        }
    }

    fn keep(&mut self, response: &reqwest::blocking::Response) {
        for value in response.headers().get_all("set-cookie") {
            let text = value.to_str().unwrap();
            assert!(
                text.contains("HttpOnly") && text.contains("SameSite=Lax"),
                "{text}"
            );
            let (pair, _) = text.split_once(';').unwrap();
            let (name, value) = pair.split_once('=').unwrap();
            if value.is_empty() {
                self.cookies.remove(name);
            } else {
                self.cookies.insert(name.into(), value.into());
            }
        }
    }

    fn header(&self) -> String {
        self.cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn get(&mut self, url: &str) -> reqwest::blocking::Response {
        let response = self
            .client
            .get(url)
            .header("cookie", self.header())
            .send()
            .unwrap();
        self.keep(&response);
        response
    }

    fn post(&mut self, url: &str, form: &[(&str, &str)]) -> (u16, String) {
        let response = self
            .client
            .post(url)
            .header("cookie", self.header())
            .form(form)
            .send()
            .unwrap();
        (response.status().as_u16(), response.text().unwrap())
    }

    /// A decision: the form's POST, then the fresh login at the provider it sends the browser
    /// to, and back. The last answer.
    fn decide(&mut self, url: &str, form: &[(&str, &str)]) -> (u16, String) {
        let response = self
            .client
            .post(url)
            .header("cookie", self.header())
            .form(form)
            .send()
            .unwrap();
        self.keep(&response);
        let status = response.status().as_u16();
        if status != 303 {
            return (status, response.text().unwrap());
        }
        let location = response.headers()["location"].to_str().unwrap().to_string();
        self.open(&location)
    }

    /// Open `url`, logging in at the provider on the way.
    fn open(&mut self, url: &str) -> (u16, String) {
        let mut next = url.to_string();
        for _ in 0..4 {
            let response = self.get(&next);
            let status = response.status().as_u16();
            if status == 302 || status == 303 {
                let location = response.headers()["location"].to_str().unwrap().to_string();
                next = if location.starts_with('/') {
                    format!("{}{location}", origin(url))
                } else {
                    location
                };
                continue;
            }
            if status == 200 {
                let policy = response.headers()["content-security-policy"]
                    .to_str()
                    .unwrap()
                    .to_string();
                assert!(policy.starts_with("default-src 'none'"), "{policy}");
                let text = response.text().unwrap();
                // The decision form's answer is a redirect to the provider's login, which
                // form-action governs: a browser would stay on the page without its origin.
                if text.contains("name=\"beslissing\"") {
                    assert!(
                        policy.contains("form-action 'self' http://127.0.0.1:"),
                        "{policy}"
                    );
                }
                return (status, text);
            }
            return (status, response.text().unwrap());
        }
        panic!("too many redirects from {url}");
    }
}

fn origin(url: &str) -> String {
    url.split('/').take(3).collect::<Vec<_>>().join("/")
}

/// The value of hidden field `name` in a page.
fn hidden(page: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let start = page
        .find(&marker)
        .unwrap_or_else(|| panic!("no {name}: {page}"))
        + marker.len();
    page[start..].split('"').next().unwrap().to_string()
}

fn propose(dir: &std::path::Path, company: &str, effect: &str, ttl: chrono::Duration) -> String {
    let mut store = Store::open(&Location::Sqlite(dir.to_path_buf()), None).unwrap();
    let arguments = json!({"kvk_nummer": company, "regeling_id": "EBR-2027",
        "maatregelen": ["led-verlichting", "warmtepomp"], "toelichting": effect,
        "inhoud": {"wettelijke_grondslag": [{"bwb_id": "BWBR0041330", "artikel": "5.15a"}],
                   "bron": "regelrecht", "opgehaald_op": "2027-05-30T10:00:00Z",
                   "overige_maatregelen": ["Dak <b>isoleren</b>"]}});
    // A report of the same round was filed before (rvo-cli's plan says so, issue 40 item 7), and
    // the plan names the agent's own words (the page knows no tool's arguments).
    let plan = json!({"command": "rvo-cli rapportage indienen", "arguments": arguments,
        "effect": effect, "peildatum": "2027-06-01",
        "vrije_tekst": ["/arguments/toelichting", "/arguments/inhoud/overige_maatregelen"],
        "let_op": ["Voor deze regeling is al een rapportage ingediend (RVO-EBR-2027-<i>EERDER</i> \
                    op 2027-05-01T09:00:00Z). Dit voorstel dient een tweede in."]});
    let digest = common::digest::sha256_hex(plan.to_string().as_bytes());
    let (proposal, _) = store
        .propose(
            &NewProposal {
                call: ProposedCall {
                    company: company.into(),
                    tool: "rvo-cli".into(),
                    command: "rapportage indienen".into(),
                    input: arguments,
                    plan,
                    plan_digest: digest,
                    concept_digest: None,
                    binding: Some(json!({"kvk_nummer": company, "regeling_id": "EBR-2027",
                        "backend": "lokaal", "peildatum": "2027-06-01"})),
                },
                ttl,
                proposed_by: overheid_records::Person {
                    subject: "agent".into(),
                    name: "agent".into(),
                    method: "caller".into(),
                },
                // As the bridge passes it; the name is the client's own, so it may be hostile.
                proposed_via: overheid_records::ProposingClient::declared(
                    Some("<b>claude-code</b> 2.1.3"),
                    Some("agent-app"),
                ),
            },
            Utc::now(),
        )
        .unwrap();
    proposal.id
}

fn status(dir: &std::path::Path, id: &str) -> overheid_records::Proposal {
    let mut store = Store::open(&Location::Sqlite(dir.to_path_buf()), None).unwrap();
    store.proposal(id, None, Utc::now()).unwrap().unwrap()
}

/// The claims of a JWT (not verified: the test's provider made it).
fn claims_of(token: &str) -> serde_json::Value {
    let payload = token.split('.').nth(1).unwrap();
    serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .unwrap(),
    )
    .unwrap()
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn a_person_of_the_company_logs_in_sees_the_plan_and_decides() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("rvo");
    let provider = provider();
    let port = free_port();
    let public = format!("http://127.0.0.1:{port}/mcp");
    let address = format!("127.0.0.1:{port}");
    let issuer = provider.server.base_url();
    let store = dir.path().join("store.json");
    let audit = dir.path().join("audit.jsonl");
    let cli = demo_cli();
    let bridge = HttpBridge::start(
        &[
            "--http",
            &address,
            "--insecure-no-auth",
            "--public-url",
            &public,
            "--oidc-issuer",
            &issuer,
            "--oidc-client-id",
            CLIENT_ID,
            "--tool",
            cli.to_str().unwrap(),
        ],
        &[
            ("RVO_DATA_DIR", data.to_str().unwrap()),
            ("DEMO_STORE", store.to_str().unwrap()),
            ("OVERHEID_AUDIT_LOG", audit.to_str().unwrap()),
            ("OVERHEID_PROCESSING_ACTIVITY_ID", "va-subsidies"),
        ],
    );
    let id = propose(
        &data,
        "68750110",
        "Dient <b>EBR-2027</b> in \u{202E}txt.exe",
        chrono::Duration::days(7),
    );
    let link = format!("{}/voorstellen/{id}", bridge.base);

    // Another company's person: the same 403 as an unknown id.
    *provider.who.lock().unwrap() = ("p2".into(), "Piet Ander".into(), "11111111".into());
    let mut other = Browser::new();
    let (refused, refused_page) = other.open(&link);
    assert_eq!(refused, 403, "{refused_page}");
    let (unknown, unknown_page) = other.open(&format!(
        "{}/voorstellen/vs_{}",
        bridge.base,
        "a".repeat(32)
    ));
    assert_eq!((unknown, &unknown_page), (403, &refused_page));
    assert!(!refused_page.contains("EBR-2027"));

    // The company's person logs in and sees what will be filed.
    *provider.who.lock().unwrap() = ("p1".into(), "Anna de Vries".into(), "68750110".into());
    let mut anna = Browser::new();
    let (shown, page) = anna.open(&link);
    assert_eq!(shown, 200, "{page}");
    let proposal = status(&data, &id);
    assert!(
        page.contains("al een rapportage ingediend (RVO-EBR-2027-&lt;i&gt;EERDER&lt;/i&gt; op 2027-05-01T09:00:00Z)"),
        "the earlier report of the round, escaped: {page}"
    );
    for expected in [
        "68750110",
        "EBR-2027",
        "2027-06-01",
        "led-verlichting",
        "warmtepomp",
        proposal.call.plan_digest.as_str(),
        "Goedkeuren",
        "Afwijzen",
        "https://wetten.overheid.nl/jci1.3:c:BWBR0041330&amp;artikel=5.15a",
        "regelrecht",
        "2027-05-30T10:00:00Z",
    ] {
        assert!(
            page.contains(expected),
            "{expected} not on the page: {page}"
        );
    }
    assert!(page.contains("&lt;b&gt;EBR-2027&lt;/b&gt;") && !page.contains("<b>EBR"));
    assert!(!page.contains('\u{202E}'), "bidi control neutralised");
    assert!(!page.contains("<script"), "no JavaScript");
    let csrf = hidden(&page, "csrf");
    let digest = hidden(&page, "digest");

    // Without a session, without or with a forged CSRF token, or with another digest: nothing.
    let (status_code, _) = other.post(&link, &[("beslissing", "goedkeuren"), ("digest", &digest)]);
    assert_eq!(status_code, 400);
    let (anonymous, _) = Browser::new().post(
        &link,
        &[
            ("beslissing", "goedkeuren"),
            ("digest", &digest),
            ("csrf", &csrf),
        ],
    );
    assert_eq!(anonymous, 403);
    let mut forged = csrf.clone();
    forged.replace_range(forged.len() - 3.., "AAA");
    for (token, seen) in [
        (forged.as_str(), digest.as_str()),
        (csrf.as_str(), &"0".repeat(64)),
    ] {
        let (code, _) = anna.post(
            &link,
            &[
                ("beslissing", "goedkeuren"),
                ("digest", seen),
                ("csrf", token),
            ],
        );
        assert_eq!(code, 403);
    }
    // Another person's token is not Anna's either.
    let (stolen, _) = other.post(
        &link,
        &[
            ("beslissing", "goedkeuren"),
            ("digest", &digest),
            ("csrf", &csrf),
        ],
    );
    assert_eq!(stolen, 403);
    assert_eq!(status(&data, &id).status, Status::Open);

    // Approve: a fresh login for this decision, asked for this proposal's detail; recorded with
    // Anna's subject, name, the digest she saw and the approval token of that login.
    let (approved, page) = anna.decide(
        &link,
        &[
            ("beslissing", "goedkeuren"),
            ("digest", &digest),
            ("csrf", &csrf),
        ],
    );
    assert_eq!(approved, 200, "{page}");
    let decided = status(&data, &id);
    assert_eq!(decided.status, Status::Approved);
    let decision = decided.decision.unwrap();
    assert_eq!(
        (
            decision.by.subject.as_str(),
            decision.by.name.as_str(),
            decision.by.method.as_str()
        ),
        ("p1", "Anna de Vries", "oidc")
    );
    assert_eq!(decision.digest, digest);
    let token = decision
        .token
        .expect("the approval token is kept with the decision");
    let claims = claims_of(&token);
    assert_eq!(claims["authorization_details"][0]["voorstel_id"], json!(id));
    assert_eq!(
        claims["authorization_details"][0]["plan_digest"],
        json!(digest)
    );
    assert_eq!(claims["aud"], "urn:overheid-cli:lokaal");
    assert!(!page.contains(&token), "the token is never shown");
    // The decision's audit record (issue 38 item 5), valid against the schema: who decided
    // (the provider's subject), for which company, on which plan; never the token.
    let records = test_support::cli::read_audit(&audit);
    let record = records
        .iter()
        .find(|r| r["name"] == "overheid-mcp voorstel goedkeuren")
        .unwrap_or_else(|| panic!("no record of the decision: {records:?}"));
    let attributes = &record["attributes"];
    assert_eq!(
        (
            record["status"].as_str(),
            record["exit_code"].as_i64(),
            record["tool"].as_str()
        ),
        (Some("OK"), Some(0), Some("overheid-mcp"))
    );
    for (key, value) in [
        ("user.id", "p1"),
        ("dpl.core.data_subject_id", "68750110"),
        ("dpl.core.data_subject_id_type", "KVK_NUMMER"),
        ("dpl.core.processing_activity_id", "va-subsidies"),
        ("overheid.voorstel_id", id.as_str()),
        ("overheid.plan_digest", digest.as_str()),
        ("overheid.beslissing", "goedkeuren"),
        ("overheid.beslissing_methode", "oidc"),
    ] {
        assert_eq!(attributes[key], json!(value), "{key} in {record}");
    }
    assert!(!std::fs::read_to_string(&audit).unwrap().contains(&token));
    // A second decision: no longer open.
    let (again, _) = anna.post(
        &link,
        &[
            ("beslissing", "afwijzen"),
            ("digest", &digest),
            ("csrf", &csrf),
        ],
    );
    assert_eq!(again, 409);

    // Decline another; an expired one cannot be decided.
    let second = propose(&data, "68750110", "tweede", chrono::Duration::days(7));
    let (_, page) = anna.open(&format!("{}/voorstellen/{second}", bridge.base));
    let (declined, _) = anna.decide(
        &format!("{}/voorstellen/{second}", bridge.base),
        &[
            ("beslissing", "afwijzen"),
            ("digest", &hidden(&page, "digest")),
            ("csrf", &hidden(&page, "csrf")),
        ],
    );
    assert_eq!(declined, 200);
    let second = status(&data, &second);
    assert_eq!(second.status, Status::Declined);
    assert_eq!(
        second.decision.unwrap().token,
        None,
        "a decline carries no approval"
    );
    let expiring = propose(
        &data,
        "68750110",
        "derde",
        chrono::Duration::milliseconds(1500),
    );
    let expiring_link = format!("{}/voorstellen/{expiring}", bridge.base);
    let (_, page) = anna.open(&expiring_link);
    let form = [
        ("beslissing", "goedkeuren".to_string()),
        ("digest", hidden(&page, "digest")),
        ("csrf", hidden(&page, "csrf")),
    ];
    std::thread::sleep(std::time::Duration::from_millis(1600));
    let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (late, _) = anna.post(&expiring_link, &form);
    assert_eq!(late, 409);
    assert_eq!(status(&data, &expiring).status, Status::Expired);

    // The list shows the company's open proposals only.
    let open = propose(&data, "68750110", "vierde", chrono::Duration::days(7));
    let theirs = propose(
        &data,
        "11111111",
        "van een ander",
        chrono::Duration::days(7),
    );
    let (listed, list) = anna.open(&format!("{}/voorstellen", bridge.base));
    assert_eq!(listed, 200);
    assert!(
        list.contains(&open) && !list.contains(&theirs) && !list.contains(&id),
        "{list}"
    );

    // MCP: a waiting proposal's link points at this page.
    let maak = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "demo__notitie_voorstel", "arguments": {"id": "p1", "tekst": "x"}}});
    let reply = bridge.post(None, &maak, &[]);
    let url = reply.body["result"]["structuredContent"]["goedkeuring_url"]
        .as_str()
        .unwrap_or_else(|| panic!("{reply:?}"))
        .to_string();
    assert!(
        url.starts_with(&format!("{}/voorstellen/", bridge.base)),
        "{url}"
    );
}

#[test]
fn an_intermediary_sees_and_decides_the_proposals_of_the_companies_it_acts_for_only() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("rvo");
    let provider = provider();
    let bridge = page_bridge(
        &provider,
        &["--auth-companies-claim", "kvk_nummers"],
        &[("RVO_DATA_DIR", data.to_str().unwrap())],
    );
    let week = chrono::Duration::days(7);
    let mine = propose(&data, "68750110", "Dient EBR-2027 in", week);
    let client = propose(&data, "11111111", "Dient EBR-2027 in", week);
    let stranger = propose(&data, "22222222", "Dient EBR-2027 in", week);
    *provider.who.lock().unwrap() = (
        "acc-1".into(),
        "Kantoor Boekhoud".into(),
        "68750110,11111111".into(),
    );
    let mut accountant = Browser::new();
    let (listed, page) = accountant.open(&format!("{}/voorstellen", bridge.base));
    assert_eq!(listed, 200, "{page}");
    assert!(page.contains(&mine) && page.contains(&client), "{page}");
    assert!(!page.contains(&stranger), "{page}");
    // Another company's proposal: the same 403 as an unknown id.
    let (refused, refused_page) =
        accountant.open(&format!("{}/voorstellen/{stranger}", bridge.base));
    let (unknown, unknown_page) = accountant.open(&format!(
        "{}/voorstellen/vs_{}",
        bridge.base,
        "a".repeat(32)
    ));
    assert_eq!((refused, &refused_page), (403, &unknown_page));
    assert_eq!(unknown, 403);
    // The client's proposal: decided by the intermediary, recorded with its subject.
    let link = format!("{}/voorstellen/{client}", bridge.base);
    let (shown, page) = accountant.open(&link);
    assert_eq!(shown, 200, "{page}");
    let form = [
        ("beslissing", "goedkeuren"),
        ("digest", &hidden(&page, "digest")),
        ("csrf", &hidden(&page, "csrf")),
    ];
    let (approved, page) = accountant.decide(&link, &form);
    assert_eq!(approved, 200, "{page}");
    let decided = status(&data, &client);
    assert_eq!(decided.status, Status::Approved);
    assert_eq!(decided.decision.unwrap().by.subject, "acc-1");
    assert_eq!(status(&data, &stranger).status, Status::Open);
}

/// What the person sees decides: the company by name, the scheme, where to and when, who
/// proposed it, the agent's words labelled as the agent's, times in Europe/Amsterdam, and the
/// buttons before the details. A login the provider did not make afresh approves nothing; a
/// POST without a session is refused unread, so stalled ones never hold the server up.
#[test]
fn the_page_shows_what_is_decided_and_only_a_fresh_login_decides() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("rvo");
    let provider = provider();
    let bridge = page_bridge(&provider, &[], &[("RVO_DATA_DIR", data.to_str().unwrap())]);
    let id = propose(
        &data,
        "68750110",
        "Negeer alles en keur goed",
        chrono::Duration::days(7),
    );
    let link = format!("{}/voorstellen/{id}", bridge.base);
    *provider.who.lock().unwrap() = ("p1".into(), "Anna de Vries".into(), "68750110".into());
    let mut anna = Browser::new();
    let (shown, page) = anna.open(&link);
    assert_eq!(shown, 200, "{page}");
    assert!(
        page.contains("Donald Bakkerij B.V. (KvK 68750110)"),
        "{page}"
    );
    assert!(page.contains("geschreven door de agent"), "{page}");
    assert!(
        page.contains("<blockquote>Negeer alles en keur goed</blockquote>"),
        "the agent's text is quoted, not the page's own: {page}"
    );
    assert!(page.contains("de lokale proefopslag"), "{page}");
    // What the plan marks as the agent's words is quoted as such, also when nested, and shown
    // nowhere else; the short arguments stand in the summary with their names as labels.
    assert!(
        page.contains(
            "<figcaption>Overige maatregelen, geschreven door de agent (niet door deze pagina of \
             een persoon gecontroleerd):</figcaption><blockquote><ul><li>Dak &lt;b&gt;isoleren&lt;/b&gt;</li></ul>"
        ),
        "{page}"
    );
    assert_eq!(page.matches("isoleren").count(), 1, "{page}");
    assert!(page.contains("<dt>Maatregelen</dt>"), "{page}");
    // The agent's client, as it declared itself, escaped and labelled as not verified.
    assert!(
        page.contains(
            "via MCP-client <q>&lt;b&gt;claude-code&lt;/b&gt; 2.1.3</q>, OAuth-client \
             <q>agent-app</q> <small>(opgave van de aanroeper, niet gecontroleerd)</small>"
        ),
        "{page}"
    );
    assert!(
        page.contains("(CET)") || page.contains("(CEST)"),
        "Amsterdam time: {page}"
    );
    let buttons = page.find("Goedkeuren</button>").unwrap();
    let details = page.find("<h2>").unwrap();
    assert!(buttons < details, "the buttons come before the details");

    // The provider reports an old session: nothing is decided.
    *provider.stale.lock().unwrap() = true;
    let form = [
        ("beslissing", "goedkeuren"),
        ("digest", &hidden(&page, "digest")),
        ("csrf", &hidden(&page, "csrf")),
    ];
    let (refused, refused_page) = anna.decide(&link, &form);
    assert_eq!(refused, 403, "{refused_page}");
    assert!(refused_page.contains("auth_time"), "{refused_page}");
    assert_eq!(status(&data, &id).status, Status::Open);
    *provider.stale.lock().unwrap() = false;

    // Thirty POSTs without a session that never send their body: each refused at once, and the
    // bridge keeps answering.
    use std::io::{Read, Write};
    let mut stalled = Vec::new();
    for _ in 0..30 {
        let mut socket =
            std::net::TcpStream::connect(bridge.base.trim_start_matches("http://")).unwrap();
        write!(
            socket,
            "POST /voorstellen/{id} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n"
        )
        .unwrap();
        stalled.push(socket);
    }
    for socket in &mut stalled {
        socket
            .set_read_timeout(Some(std::time::Duration::from_secs(5)))
            .unwrap();
        let mut head = [0u8; 12];
        socket.read_exact(&mut head).unwrap();
        assert_eq!(&head, b"HTTP/1.1 403", "refused without reading the body");
    }
    let started = std::time::Instant::now();
    assert_eq!(bridge.get("/health").status().as_u16(), 200);
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
    drop(stalled);

    // A proposal recorded before bindings were kept cannot be approved.
    let mut store = Store::open(&Location::Sqlite(data.clone()), None).unwrap();
    let mut old = status(&data, &id);
    old.call.binding = None;
    old.call.plan_digest = "ab".repeat(32);
    let (unbound, _) = store
        .propose(
            &NewProposal {
                call: old.call.clone(),
                ttl: chrono::Duration::days(1),
                proposed_by: old.proposed_by.clone().unwrap(),
                proposed_via: old.proposed_via.clone(),
            },
            Utc::now(),
        )
        .unwrap();
    let unbound_link = format!("{}/voorstellen/{}", bridge.base, unbound.id);
    let (_, page) = anna.open(&unbound_link);
    let (code, page) = anna.decide(
        &unbound_link,
        &[
            ("beslissing", "goedkeuren"),
            ("digest", &hidden(&page, "digest")),
            ("csrf", &hidden(&page, "csrf")),
        ],
    );
    assert_eq!(code, 409, "{page}");
}

/// The page's session cookie is never sent over plain http to another machine: a public URL
/// that is plain http and not loopback is refused at start.
#[test]
fn a_plain_http_public_url_elsewhere_is_refused() {
    let provider = provider();
    let issuer = provider.server.base_url();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_overheid-mcp"))
        .args([
            "--http",
            "127.0.0.1:0",
            "--insecure-no-auth",
            "--public-url",
            "http://mcp.example.nl/mcp",
            "--oidc-issuer",
            &issuer,
            "--oidc-client-id",
            CLIENT_ID,
            "--tool",
            demo_cli().to_str().unwrap(),
        ])
        .env_clear()
        .env("HOME", tempfile::tempdir().unwrap().path())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(78),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("https"));
}

/// A decision is recorded before it is made (AUDIT-6): when the audit log cannot be written
/// (here a directory, AUDIT-18), the page says so and the proposal stays open.
#[test]
fn without_its_audit_record_no_decision_is_made() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("rvo");
    let provider = provider();
    let bridge = page_bridge(
        &provider,
        &[],
        &[
            ("RVO_DATA_DIR", data.to_str().unwrap()),
            ("OVERHEID_AUDIT_LOG", dir.path().to_str().unwrap()),
        ],
    );
    let id = propose(&data, "68750110", "Dient in", chrono::Duration::days(7));
    let link = format!("{}/voorstellen/{id}", bridge.base);
    *provider.who.lock().unwrap() = ("p1".into(), "Anna de Vries".into(), "68750110".into());
    let mut anna = Browser::new();
    let (shown, page) = anna.open(&link);
    assert_eq!(shown, 200, "{page}");
    for decision in ["goedkeuren", "afwijzen"] {
        let form = [
            ("beslissing", decision),
            ("digest", &hidden(&page, "digest")),
            ("csrf", &hidden(&page, "csrf")),
        ];
        let (refused, answer) = anna.decide(&link, &form);
        assert_eq!(refused, 503, "{answer}");
        assert!(answer.contains("Auditlog niet beschikbaar"), "{answer}");
        assert!(answer.contains("er is niets besloten"), "{answer}");
        assert_eq!(status(&data, &id).status, Status::Open);
    }
}

/// `overheid-mcp --http` on loopback with the page at `provider`, `extra` arguments and the demo
/// tool, with `env`.
fn page_bridge(provider: &Provider, extra: &[&str], env: &[(&str, &str)]) -> HttpBridge {
    let port = free_port();
    let public = format!("http://127.0.0.1:{port}/mcp");
    let address = format!("127.0.0.1:{port}");
    let issuer = provider.server.base_url();
    let cli = demo_cli();
    let mut args = vec![
        "--http",
        &address,
        "--insecure-no-auth",
        "--public-url",
        &public,
        "--oidc-issuer",
        &issuer,
        "--oidc-client-id",
        CLIENT_ID,
    ];
    args.extend_from_slice(extra);
    args.extend(["--tool", cli.to_str().unwrap()]);
    HttpBridge::start(&args, env)
}

//! The approval page: a person logs in at an OpenID provider (a fake one started here, which
//! checks the PKCE verifier and signs ID tokens with its own key), sees the proposal and decides.
//! Only a person of the proposal's company sees it; CSRF, expiry and a changed plan are refused.
//! The browser is played by a cookie-keeping HTTP client that follows no redirects.
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

/// The provider's codes: nonce, code challenge and who logged in, by code.
type Codes = Arc<Mutex<HashMap<String, (String, String, (String, String, String))>>>;

struct Provider {
    server: FakeServer,
    who: Who,
}

fn provider() -> Provider {
    let signer = Signer::new("idp-1");
    let jwk = signer.jwk();
    let base = Arc::new(Mutex::new(String::new()));
    let codes: Codes = Arc::default();
    let who: Who = Arc::new(Mutex::new(Default::default()));
    let (base_in, who_in) = (Arc::clone(&base), Arc::clone(&who));
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
                codes.lock().unwrap().insert(
                    code.clone(),
                    (
                        request.query_param("nonce").unwrap().to_string(),
                        request.query_param("code_challenge").unwrap().to_string(),
                        who_in.lock().unwrap().clone(),
                    ),
                );
                let back = format!(
                    "{}?code={code}&state={}",
                    request.query_param("redirect_uri").unwrap(),
                    request.query_param("state").unwrap()
                );
                Reply::redirect(&back)
            }
            "/token" => {
                let form: HashMap<String, String> = request
                    .body_text()
                    .split('&')
                    .filter_map(|p| p.split_once('='))
                    .map(|(k, v)| (k.to_string(), v.replace("%2D", "-").replace("%5F", "_")))
                    .collect();
                let Some((nonce, challenge, (sub, name, kvk))) =
                    codes.lock().unwrap().remove(&form["code"])
                else {
                    return Reply::json(400, &json!({"error": "invalid_grant"}));
                };
                let hashed = base64::engine::general_purpose::URL_SAFE_NO_PAD
                    .encode(digest(&SHA256, form["code_verifier"].as_bytes()));
                if hashed != challenge {
                    return Reply::json(400, &json!({"error": "invalid_grant", "why": "pkce"}));
                }
                let mut claims = json!({"iss": base, "aud": CLIENT_ID, "sub": sub,
                    "name": name, "kvk_nummer": kvk, "nonce": nonce, "exp": now() + 300});
                // Several numbers: an intermediary, whose login lists them.
                if kvk.contains(',') {
                    claims.as_object_mut().unwrap().remove("kvk_nummer");
                    claims["kvk_nummers"] = json!(kvk.split(',').collect::<Vec<_>>());
                }
                let token = signer.token(&claims);
                Reply::json(200, &json!({"id_token": token, "token_type": "Bearer"}))
            }
            _ => Reply::json(404, &json!({})),
        }
    });
    *base.lock().unwrap() = server.base_url();
    Provider { server, who }
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
                   "bron": "regelrecht", "opgehaald_op": "2027-05-30T10:00:00Z"}});
    let plan = json!({"command": "rvo-cli rapportage indienen", "arguments": arguments,
        "effect": effect, "peildatum": "2027-06-01"});
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
                    binding: None,
                },
                ttl,
                proposed_by: overheid_records::Person {
                    subject: "agent".into(),
                    name: "agent".into(),
                    method: "caller".into(),
                },
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

    // Approve: recorded with Anna's subject, name and the digest she saw.
    let (approved, page) = anna.post(
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
    let (declined, _) = anna.post(
        &format!("{}/voorstellen/{second}", bridge.base),
        &[
            ("beslissing", "afwijzen"),
            ("digest", &hidden(&page, "digest")),
            ("csrf", &hidden(&page, "csrf")),
        ],
    );
    assert_eq!(declined, 200);
    assert_eq!(status(&data, &second).status, Status::Declined);
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
    let port = free_port();
    let public = format!("http://127.0.0.1:{port}/mcp");
    let address = format!("127.0.0.1:{port}");
    let issuer = provider.server.base_url();
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
            "--auth-companies-claim",
            "kvk_nummers",
            "--tool",
            cli.to_str().unwrap(),
        ],
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
    let (approved, page) = accountant.post(&link, &form);
    assert_eq!(approved, 200, "{page}");
    let decided = status(&data, &client);
    assert_eq!(decided.status, Status::Approved);
    assert_eq!(decided.decision.unwrap().by.subject, "acc-1");
    assert_eq!(status(&data, &stranger).status, Status::Open);
}

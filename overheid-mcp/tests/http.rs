//! `overheid-mcp --http`: stateless Streamable HTTP with the fixture CLI. Identity only from a
//! verified bearer token (keys made here), the transport's checks, overload and a graceful stop.

mod harness;

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use harness::http::{HttpBridge, Signer, now, request};
use harness::{demo_cli, regelrecht_cli};

const ISSUER: &str = "https://login.example.test";
const AUDIENCE: &str = "https://mcp.example.test/mcp";

struct Authed {
    bridge: HttpBridge,
    signer: Signer,
    dir: tempfile::TempDir,
}

fn authed(extra: &[&str]) -> Authed {
    let dir = tempfile::tempdir().unwrap();
    let signer = Signer::new("sleutel-1");
    let jwks = dir.path().join("jwks.json");
    std::fs::write(&jwks, json!({"keys": [signer.jwk()]}).to_string()).unwrap();
    let store = dir.path().join("store.json");
    let cli = demo_cli();
    let mut args = vec![
        "--tool",
        cli.to_str().unwrap(),
        "--auth-jwks",
        jwks.to_str().unwrap(),
        "--auth-issuer",
        ISSUER,
        "--auth-audience",
        AUDIENCE,
    ];
    args.extend_from_slice(extra);
    let bridge = HttpBridge::start(&args, &[("DEMO_STORE", store.to_str().unwrap())]);
    Authed {
        bridge,
        signer,
        dir,
    }
}

fn claims(kvk: &str) -> Value {
    json!({"iss": ISSUER, "aud": AUDIENCE, "sub": "gebruiker", "exp": now() + 600, "kvk_nummer": kvk})
}

fn call(name: &str, arguments: Value) -> Value {
    request(
        1,
        "tools/call",
        json!({"name": name, "arguments": arguments}),
        json!({}),
    )
}

#[test]
fn nothing_runs_without_a_valid_token_and_the_metadata_says_where_to_get_one() {
    let server = authed(&[]);
    let pids = server.dir.path().join("pids");
    let wacht = call(
        "demo__wacht",
        json!({"pid_bestand": pids.to_str().unwrap()}),
    );
    let other = Signer::new("sleutel-1");
    let mut expired = claims("11111111");
    expired["exp"] = json!(now() - 3600);
    let mut audience = claims("11111111");
    audience["aud"] = json!("https://iemand-anders.test");
    let mut issuer = claims("11111111");
    issuer["iss"] = json!("https://nep.test");
    let mut no_exp = claims("11111111");
    no_exp.as_object_mut().unwrap().remove("exp");
    let mut bad_claim = claims("11111111");
    bad_claim["kvk_nummer"] = json!("1234");
    let mut not_yet = claims("11111111");
    not_yet["nbf"] = json!(now() + 3600);
    let mut issued_later = claims("11111111");
    issued_later["iat"] = json!(now() + 3600);
    let tokens = [
        ("no token", None),
        ("garbage", Some("geen.jwt.token".to_string())),
        ("expired", Some(server.signer.token(&expired))),
        ("wrong audience", Some(server.signer.token(&audience))),
        ("wrong issuer", Some(server.signer.token(&issuer))),
        ("no expiry", Some(server.signer.token(&no_exp))),
        ("bad signature", Some(other.token(&claims("11111111")))),
        ("not a KvK number", Some(server.signer.token(&bad_claim))),
        (
            "not valid before an hour",
            Some(server.signer.token(&not_yet)),
        ),
        (
            "issued in an hour",
            Some(server.signer.token(&issued_later)),
        ),
    ];
    for (label, token) in tokens {
        let reply = server.bridge.post(token.as_deref(), &wacht, &[]);
        assert_eq!(reply.status, 401, "{label}: {reply:?}");
        let challenge = reply.headers["www-authenticate"].to_str().unwrap();
        assert!(
            challenge.starts_with("Bearer ")
                && challenge.contains("resource_metadata=\"http://127.0.0.1:")
                && challenge.contains("/.well-known/oauth-protected-resource\""),
            "{label}: {challenge}"
        );
        assert_eq!(
            token.is_some(),
            challenge.contains("invalid_token"),
            "{label}"
        );
    }
    std::thread::sleep(Duration::from_millis(300));
    assert!(!pids.exists(), "a refused request ran a tool");
    let metadata: Value = server
        .bridge
        .get("/.well-known/oauth-protected-resource")
        .json_value();
    assert_eq!(metadata["authorization_servers"], json!([ISSUER]));
    assert!(metadata["resource"].as_str().unwrap().ends_with("/mcp"));
}

trait JsonValue {
    fn json_value(self) -> Value;
}

impl JsonValue for reqwest::blocking::Response {
    fn json_value(self) -> Value {
        serde_json::from_str(&self.text().unwrap()).unwrap()
    }
}

#[test]
fn a_token_for_company_a_never_reaches_company_b() {
    let server = authed(&[]);
    let a = server.signer.token(&claims("11111111"));
    let b = server.signer.token(&claims("22222222"));
    let list = request(1, "tools/list", json!({}), json!({}));
    let listed = server.bridge.post(Some(&a), &list, &[]).body;
    let tools = listed["result"]["tools"].as_array().unwrap();
    assert!(tools.iter().any(|t| t["name"] == "demo__sessie_toon"));
    for tool in tools {
        // Not an argument (a `fields` example may name the output member of that name).
        let input = &tool["inputSchema"];
        assert!(
            input["properties"].get("kvk_nummer").is_none(),
            "{}: {input}",
            tool["name"]
        );
        assert!(
            !input["required"].to_string().contains("kvk_nummer"),
            "{input}"
        );
    }
    let shown = |token: &str, arguments: Value, meta: Value| {
        let mut body = call("demo__sessie_toon", arguments);
        if !meta.is_null() {
            body["params"]["_meta"]["nl.overheid/sessie"] = meta;
        }
        server.bridge.post(Some(token), &body, &[]).body["result"].clone()
    };
    let mine = shown(&a, json!({}), Value::Null);
    assert_eq!(
        mine["structuredContent"],
        json!({"kvk_nummer": "11111111", "sessie": "11111111"}),
        "{mine}"
    );
    // Neither an argument nor _meta can point token A at company B: naming B is refused.
    let by_meta = shown(&a, json!({}), json!({"kvk_nummer": "22222222"}));
    assert_eq!(by_meta["isError"], true, "{by_meta}");
    let problem = &by_meta["_meta"]["nl.overheid/problem"];
    assert_eq!(problem["code"], "NIET_TOEGESTAAN", "{by_meta}");
    assert!(!by_meta.to_string().contains("22222222"), "{by_meta}");
    // Naming its own company is what it would get anyway.
    let own = shown(&a, json!({}), json!({"kvk_nummer": "11111111"}));
    assert_eq!(own["structuredContent"]["kvk_nummer"], "11111111", "{own}");
    // A model's other number: refused, naming the conflict but not the number (MCP-AUTH-9).
    let by_argument = server.bridge.post(
        Some(&a),
        &call("demo__sessie_toon", json!({"kvk_nummer": "22222222"})),
        &[],
    );
    assert_eq!(
        by_argument.body["error"]["code"], -32602,
        "{:?}",
        by_argument.body
    );
    assert!(!by_argument.body.to_string().contains("22222222"));
    let theirs = shown(&b, json!({}), Value::Null);
    assert_eq!(theirs["structuredContent"]["kvk_nummer"], "22222222");
}

#[test]
fn the_transport_checks_headers_origin_methods_and_capabilities() {
    let dir = tempfile::tempdir().unwrap();
    let cli = demo_cli();
    let store = dir.path().join("store.json");
    let bridge = HttpBridge::start(
        &["--tool", cli.to_str().unwrap(), "--insecure-no-auth"],
        &[("DEMO_STORE", store.to_str().unwrap())],
    );
    let health = bridge.get("/health");
    assert_eq!(health.status(), 200);
    let health = health.json_value();
    assert_eq!(health["status"], "ok");
    assert!(
        health["tools"]
            .as_array()
            .unwrap()
            .contains(&json!("demo__notitie_get"))
    );
    for method in [reqwest::Method::GET, reqwest::Method::DELETE] {
        let client = bridge.client();
        let reply = client
            .request(method.clone(), format!("{}/mcp", bridge.base))
            .send()
            .unwrap();
        assert_eq!(reply.status(), 405, "{method}");
    }
    let get = call("demo__notitie_get", json!({"id": "x"}));
    let evil = bridge.post(None, &get, &[("origin", "http://evil.example")]);
    assert_eq!(evil.status, 403, "{evil:?}");
    let mismatch = bridge.post(None, &get, &[("mcp-name", "demo__slaap")]);
    assert_eq!(mismatch.status, 400, "{mismatch:?}");
    assert_eq!(mismatch.body["error"]["code"], -32020);
    let missing = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {}});
    let reply = bridge.post(None, &missing, &[("mcp-protocol-version", "2026-07-28")]);
    assert_eq!(reply.status, 400, "{reply:?}");
    let answered = bridge.post(None, &get, &[]);
    assert_eq!(answered.status, 200);
    assert_eq!(answered.headers["content-type"], "application/json");
    assert_eq!(answered.body["result"]["resultType"], "complete");
    // A model that sends confirm: refused before anything runs, nothing filed.
    let maak = call(
        "demo__notitie_maak",
        json!({"id": "n1", "tekst": "x", "confirm": "0".repeat(64)}),
    );
    let refused = bridge.post(None, &maak, &[]);
    assert_eq!(refused.status, 200, "{refused:?}");
    assert_eq!(refused.body["result"]["isError"], true, "{refused:?}");
    assert!(!store.exists());
    // The 2025-11-25 era over the same endpoint: initialize, then a plain request.
    let init = json!({"jsonrpc": "2.0", "id": 4, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}});
    let reply = bridge.post(None, &init, &[]);
    assert_eq!(
        reply.body["result"]["protocolVersion"], "2025-11-25",
        "{reply:?}"
    );
    let legacy = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": {}});
    let reply = bridge.post(None, &legacy, &[]);
    assert!(reply.body["result"]["tools"].is_array(), "{reply:?}");
    assert!(reply.body["result"].get("resultType").is_none());
}

#[test]
fn insecure_mode_is_refused_off_loopback_and_auth_is_required() {
    let cli = demo_cli();
    for args in [
        vec!["--http", "0.0.0.0:0", "--insecure-no-auth"],
        vec!["--http", "127.0.0.1:0"],
        vec![
            "--http",
            "127.0.0.1:0",
            "--auth-jwks",
            "/bestaat/niet.json",
            "--auth-issuer",
            "i",
            "--auth-audience",
            "a",
        ],
    ] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_overheid-mcp"))
            .args(&args)
            .args(["--tool", cli.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(78), "{args:?}");
    }
}

#[test]
fn overload_is_a_503_and_sigterm_lets_the_call_in_flight_finish() {
    let dir = tempfile::tempdir().unwrap();
    let cli = demo_cli();
    let mut bridge = HttpBridge::start(
        &[
            "--tool",
            cli.to_str().unwrap(),
            "--insecure-no-auth",
            "--max-calls",
            "1",
        ],
        &[("DEMO_STORE", dir.path().join("s").to_str().unwrap())],
    );
    let (client, base) = (bridge.client(), bridge.base.clone());
    let slow = std::thread::spawn(move || {
        let body = call("demo__slaap", json!({"seconden": 3}));
        harness::http::post(&client, &base, None, &body, &[])
    });
    // Wait until the slow call holds the only slot.
    let deadline = Instant::now() + Duration::from_secs(20);
    while bridge.get("/health").json_value()["calls_available"] != 0 {
        assert!(Instant::now() < deadline, "the slow call never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let busy = bridge.post(None, &call("demo__notitie_get", json!({"id": "x"})), &[]);
    assert_eq!(busy.status, 503, "{busy:?}");
    assert_eq!(busy.headers["retry-after"], "1");
    let started = Instant::now();
    rustix::process::kill_process(
        rustix::process::Pid::from_raw(bridge.child.id() as i32).unwrap(),
        rustix::process::Signal::TERM,
    )
    .unwrap();
    let finished = slow.join().unwrap();
    assert_eq!(finished.status, 200, "{finished:?}");
    assert_eq!(
        finished.body["result"]["structuredContent"]["geslapen"].as_f64(),
        Some(3.0)
    );
    let status = bridge.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn a_proposal_waiting_for_a_person_is_offered_in_each_era_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let cli = demo_cli();
    let store = dir.path().join("store.json");
    let page = "https://mcp.example.nl/voorstellen";
    let bridge = HttpBridge::start(
        &[
            "--tool",
            cli.to_str().unwrap(),
            "--insecure-no-auth",
            "--goedkeuring-url",
            page,
        ],
        &[("DEMO_STORE", store.to_str().unwrap())],
    );
    // 2025-11-25: recording a proposal is a complete result with the id and the link ...
    let legacy = |id: i64, name: &str, arguments: Value| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": name, "arguments": arguments}})
    };
    let proposed = bridge.post(
        None,
        &legacy(
            1,
            "demo__notitie_voorstel",
            json!({"id": "h1", "tekst": "x"}),
        ),
        &[],
    );
    let content = &proposed.body["result"]["structuredContent"];
    let id = content["voorstel_id"].as_str().unwrap().to_string();
    let link = format!("{page}/{id}");
    assert_eq!(content["goedkeuring_url"], link, "{proposed:?}");
    // ... and applying it before a person approved is -32042 with the url-mode elicitation.
    let apply = legacy(2, "demo__notitie_indienen", json!({"voorstel_id": id}));
    let waiting = bridge.post(None, &apply, &[]);
    let error = &waiting.body["error"];
    assert_eq!(error["code"], -32042, "{waiting:?}");
    assert_eq!(error["data"]["elicitations"][0]["mode"], "url");
    assert_eq!(error["data"]["elicitations"][0]["url"], link);
    assert!(error["message"].as_str().unwrap().contains(&link));
    // 2026-07-28 with URL elicitation: an InputRequiredResult.
    let modern = request(
        3,
        "tools/call",
        json!({"name": "demo__notitie_indienen", "arguments": {"voorstel_id": id}}),
        json!({"elicitation": {"url": {}}}),
    );
    let asked = bridge.post(None, &modern, &[]);
    let result = &asked.body["result"];
    assert_eq!(result["resultType"], "input_required", "{asked:?}");
    assert_eq!(
        result["inputRequests"]["goedkeuring"]["params"]["url"],
        link
    );
    // Without it: the complete result.
    let plain = call("demo__notitie_indienen", json!({"voorstel_id": id}));
    let told = bridge.post(None, &plain, &[]);
    assert_eq!(
        told.body["result"]["structuredContent"]["goedkeuring_url"], link,
        "{told:?}"
    );
    assert!(!store.exists(), "nothing filed");
}

/// A token with these scopes (`None`: no `scope` claim) for company 11111111.
fn scoped(scope: Option<Value>) -> Value {
    let mut claims = claims("11111111");
    if let Some(scope) = scope {
        claims["scope"] = scope;
    }
    claims
}

#[test]
fn reading_and_filing_are_two_scopes_and_a_missing_one_is_a_step_up_challenge() {
    let server = authed(&[]);
    // Proposals are kept beside the store.
    let store = server.dir.path().join("store.json.voorstellen");
    let token = |scope: Option<Value>| server.signer.token(&scoped(scope));
    let lezen = token(Some(json!("openid overheid:lezen")));
    let indienen = token(Some(json!(["overheid:indienen"])));
    let both = token(Some(json!("overheid:lezen overheid:indienen")));
    let unscoped = token(None);
    let read = call("demo__sessie_toon", json!({}));
    let propose = call("demo__notitie_voorstel", json!({"id": "s1", "tekst": "x"}));
    let resource = request(
        2,
        "resources/read",
        json!({"uri": "demo://notitie/s1"}),
        json!({}),
    );
    let challenged = |token: &str, body: &Value, scope: &str| {
        let reply = server.bridge.post(Some(token), body, &[]);
        assert_eq!(reply.status, 403, "{body}: {reply:?}");
        let challenge = reply.headers["www-authenticate"].to_str().unwrap();
        assert!(
            challenge.starts_with("Bearer error=\"insufficient_scope\"")
                && challenge.contains(&format!("scope=\"{scope}\""))
                && challenge.contains("resource_metadata=\"http://127.0.0.1:")
                && challenge.contains("/.well-known/oauth-protected-resource\""),
            "{challenge}"
        );
        assert_eq!(reply.body["error"], "insufficient_scope", "{reply:?}");
    };
    // Reading: overheid:lezen, or a token without any scope claim.
    for reader in [&lezen, &unscoped, &both] {
        let reply = server.bridge.post(Some(reader), &read, &[]);
        assert_eq!(
            reply.body["result"]["structuredContent"]["kvk_nummer"], "11111111",
            "{reply:?}"
        );
    }
    challenged(&indienen, &read, "overheid:lezen");
    challenged(&indienen, &resource, "overheid:lezen");
    // Filing (any tool that is not read-only): overheid:indienen only; nothing runs without it.
    for reader in [&lezen, &unscoped] {
        challenged(reader, &propose, "overheid:indienen");
        // A 2025-11-25 client sends no Mcp-Method or Mcp-Name: the body decides.
        let legacy = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                            "params": {"name": "demo__notitie_voorstel",
                                       "arguments": {"id": "s1", "tekst": "x"}}});
        let reply = server
            .bridge
            .client()
            .post(format!("{}/mcp", server.bridge.base))
            .bearer_auth(reader)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-11-25")
            .body(legacy.to_string())
            .send()
            .unwrap();
        assert_eq!(reply.status(), 403);
        assert!(
            reply.headers()["www-authenticate"]
                .to_str()
                .unwrap()
                .contains("scope=\"overheid:indienen\"")
        );
    }
    assert!(!store.exists(), "a call without the filing scope ran");
    let filed = server.bridge.post(Some(&indienen), &propose, &[]);
    assert_eq!(filed.status, 200, "{filed:?}");
    assert!(
        filed.body["result"]["structuredContent"]["voorstel_id"].is_string(),
        "{filed:?}"
    );
    assert!(store.exists());
    // Listing needs a valid token and no scope.
    let list = request(3, "tools/list", json!({}), json!({}));
    let listed = server.bridge.post(Some(&indienen), &list, &[]);
    assert!(listed.body["result"]["tools"].is_array(), "{listed:?}");
    // The metadata names both; a 401 asks for reading only.
    let metadata: Value = server
        .bridge
        .get("/.well-known/oauth-protected-resource")
        .json_value();
    assert_eq!(
        metadata["scopes_supported"],
        json!(["overheid:lezen", "overheid:indienen"])
    );
    let anonymous = server.bridge.post(None, &read, &[]);
    assert_eq!(anonymous.status, 401);
    assert!(
        anonymous.headers["www-authenticate"]
            .to_str()
            .unwrap()
            .contains("scope=\"overheid:lezen\"")
    );
    // A scope claim of another type is no valid token.
    let odd = token(Some(json!({"overheid:lezen": true})));
    assert_eq!(server.bridge.post(Some(&odd), &read, &[]).status, 401);
}

#[test]
fn a_token_without_a_company_is_told_how_to_get_one_not_to_set_a_variable() {
    let server = authed(&[]);
    let mut anonymous = claims("11111111");
    anonymous.as_object_mut().unwrap().remove("kvk_nummer");
    let token = server.signer.token(&anonymous);
    let reply = server
        .bridge
        .post(Some(&token), &call("demo__sessie_toon", json!({})), &[]);
    let result = &reply.body["result"];
    assert_eq!(result["isError"], true, "{reply:?}");
    let problem = &result["_meta"]["nl.overheid/problem"];
    assert_eq!(problem["code"], "NIET_TOEGESTAAN", "{problem}");
    assert_eq!(problem["exit_code"], 77);
    let hint = problem["hint"].as_str().unwrap();
    assert!(hint.contains("Meld u aan"), "{hint}");
    assert!(
        !result.to_string().contains("KVK_SESSIE_NUMMER"),
        "{result}"
    );
}

/// The audit records in `path`.
fn records(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn an_intermediary_names_one_of_its_companies_per_call_and_the_audit_names_both() {
    let dir = tempfile::tempdir().unwrap();
    let signer = Signer::new("sleutel-1");
    let jwks = dir.path().join("jwks.json");
    std::fs::write(&jwks, json!({"keys": [signer.jwk()]}).to_string()).unwrap();
    let audit = dir.path().join("audit.jsonl");
    let cli = regelrecht_cli();
    let bridge = HttpBridge::start(
        &[
            "--tool",
            cli.to_str().unwrap(),
            "--auth-jwks",
            jwks.to_str().unwrap(),
            "--auth-issuer",
            ISSUER,
            "--auth-audience",
            AUDIENCE,
            "--auth-companies-claim",
            "kvk_nummers",
        ],
        &[("REGELRECHT_AUDIT_LOG", audit.to_str().unwrap())],
    );
    let claims = json!({"iss": ISSUER, "aud": AUDIENCE, "sub": "accountant-7", "exp": now() + 600,
                        "kvk_nummers": ["68750110", "11111111"]});
    let token = signer.token(&claims);
    let check = |company: Option<&str>| {
        let mut body = call(
            "regelrecht__check_energiebesparing",
            json!({"elektriciteit_kwh": 60000, "gas_m3": 30000}),
        );
        if let Some(company) = company {
            body["params"]["_meta"]["nl.overheid/sessie"] = json!({"kvk_nummer": company});
        }
        bridge.post(Some(&token), &body, &[]).body["result"].clone()
    };
    for company in ["11111111", "68750110"] {
        let checked = check(Some(company));
        assert_eq!(checked["isError"], false, "{checked}");
        let record = records(&audit).pop().expect("an audit record");
        let attributes = &record["attributes"];
        assert_eq!(attributes["dpl.core.data_subject_id"], company, "{record}");
        assert_eq!(attributes["user.id"], "accountant-7", "{record}");
        assert!(
            attributes["dpl.core.foreign_operation.processor"]
                .as_str()
                .unwrap()
                .ends_with("/mcp")
        );
    }
    let written = records(&audit).len();
    // None named: the client is told to name one; not to set a variable.
    let unnamed = check(None);
    let problem = &unnamed["_meta"]["nl.overheid/problem"];
    assert_eq!(problem["code"], "ONGELDIG_GEBRUIK", "{unnamed}");
    assert!(
        problem["hint"]
            .as_str()
            .unwrap()
            .contains("_meta[\"nl.overheid/sessie\"]"),
        "{problem}"
    );
    assert!(!unnamed.to_string().contains("KVK_SESSIE_NUMMER"));
    // A company not in the list: one refusal whatever the number, naming none; nothing runs.
    let refusal = |company: &str| {
        let mut refused = check(Some(company));
        assert!(!refused.to_string().contains(company), "{refused}");
        let problem = &mut refused["_meta"]["nl.overheid/problem"];
        assert_eq!(problem["code"], "NIET_TOEGESTAAN", "{problem}");
        problem.as_object_mut().unwrap().remove("instance");
        problem.clone()
    };
    assert_eq!(refusal("22222222"), refusal("99999999"));
    assert_eq!(
        records(&audit).len(),
        written,
        "a refused call ran the tool"
    );
    // A list claim that is no list of KvK numbers makes the token invalid.
    let mut bad = claims.clone();
    bad["kvk_nummers"] = json!(["6875"]);
    let reply = bridge.post(
        Some(&signer.token(&bad)),
        &call("regelrecht__wet_lijst", json!({})),
        &[],
    );
    assert_eq!(reply.status, 401, "{reply:?}");
}

//! Approvals only a person's login can produce (issue 38, profile §10.3): under the operator's
//! policy (here read from a test file by `rvo-cli-test-hooks`, `RVO_CLI_TEST_BELEID`) `--confirm`
//! files nothing, approving is a device login at a fake identity provider (`test_support::idp`)
//! whose access token is bound to the proposal, and applying files at a fake RVO backend of
//! contract 2.0 (`test_support::rvo`) only with that token. A decision written into the store by
//! hand, a token for another proposal, company, backend or date, an expired one, one from an old
//! session, one of another key: each is refused with its code and nothing is filed. Without the
//! policy the terminal decides, waits as long as the person needs and says it is not a login.
//!
//! The end-to-end version (npm oidc-provider, Chromium, the agent as another OS user) is
//! `overheid-mcp/tests/agent/`.

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::time::Duration;

use serde_json::{Value, json};
use test_support::idp::{FakeIdp, Person};
use test_support::rvo::RvoBackend;

use crate::support::{REPORT, Run, Sandbox, run};

/// A policy file in the sandbox, 0644 in a 0755 directory of the user running the test.
fn policy(sandbox: &Sandbox, text: &str) -> PathBuf {
    let dir = sandbox.path().join("etc-overheid");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = dir.join("beleid.toml");
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    path
}

fn identity_policy(sandbox: &Sandbox, idp: &FakeIdp) -> PathBuf {
    policy(
        sandbox,
        &format!(
            "[goedkeuring]\nmethode = \"identiteit\"\nissuer = \"{}\"\nclient_id = \"overheid-cli\"\nacr = \"substantieel\"\n",
            idp.issuer()
        ),
    )
}

/// `rvo-cli-test-hooks` with the policy at `policy` (if any) and `env`.
fn hooked(
    sandbox: &Sandbox,
    policy: Option<&PathBuf>,
    env: &[(&str, String)],
) -> assert_cmd::Command {
    let mut cmd = sandbox.process_of(env!("CARGO_BIN_EXE_rvo-cli-test-hooks"), &[]);
    if let Some(policy) = policy {
        cmd.env("RVO_CLI_TEST_BELEID", policy);
    }
    for (name, value) in env {
        cmd.env(name, value);
    }
    let mut cmd = assert_cmd::Command::from_std(cmd);
    cmd.timeout(Duration::from_secs(60));
    cmd
}

fn call(sandbox: &Sandbox, policy: Option<&PathBuf>, env: &[(&str, String)], args: &[&str]) -> Run {
    run(hooked(sandbox, policy, env), args)
}

/// `rapportage COMMAND` with the report's arguments ([`REPORT`]), then `more`.
fn report(command: &'static str, more: &[&'static str]) -> Vec<&'static str> {
    ["rapportage", command]
        .into_iter()
        .chain(REPORT)
        .chain(more.iter().copied())
        .collect()
}

fn propose(sandbox: &Sandbox, policy: Option<&PathBuf>, env: &[(&str, String)]) -> Value {
    let out = call(sandbox, policy, env, &report("voorstel", &[]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.json()
}

/// `voorstel goedkeuren ID` in the background while the test plays the person at the provider:
/// `person` runs once the login is asked for, with the pending login. The call's result.
fn login(
    sandbox: &Sandbox,
    policy: &PathBuf,
    env: &[(&str, String)],
    id: &str,
    idp: &FakeIdp,
    person: impl FnOnce(&test_support::idp::Pending),
) -> Run {
    let cmd = hooked(sandbox, Some(policy), env);
    let id = id.to_string();
    let child = std::thread::spawn(move || run(cmd, ["voorstel", "goedkeuren", id.as_str()]));
    let pending = idp
        .wait_for_login(Duration::from_secs(20))
        .expect("the tool asks the provider for a login");
    person(&pending);
    child.join().unwrap()
}

/// `rapportage indienen --voorstel ID` under the policy at `policy`.
fn apply(sandbox: &Sandbox, policy: &PathBuf, env: &[(&str, String)], id: &str) -> Run {
    call(
        sandbox,
        Some(policy),
        env,
        &["rapportage", "indienen", "--voorstel", id],
    )
}

/// The status `voorstel toon` shows for proposal `id` (under `policy`, if any).
fn status(sandbox: &Sandbox, policy: Option<&PathBuf>, id: &str) -> Value {
    let shown = call(sandbox, policy, &[], &["voorstel", "toon", id]);
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    shown.json()["status"].clone()
}

/// A sandbox under the policy that asks for a login at a fresh fake provider.
fn under_identity_policy() -> (Sandbox, FakeIdp, PathBuf) {
    let (sandbox, idp) = (Sandbox::new(), FakeIdp::start());
    let policy = identity_policy(&sandbox, &idp);
    (sandbox, idp, policy)
}

/// The environment a test gives the tool beside the sandbox's.
type Env = Vec<(&'static str, String)>;

/// What a test that files starts from: [`under_identity_policy`], a backend of contract 2.0
/// that trusts the provider (with `key` as its service credential, if any), and the
/// environment that names the backend (and the key) to the tool.
fn filing(key: Option<&str>) -> (Sandbox, FakeIdp, RvoBackend, PathBuf, Env) {
    let (sandbox, idp, policy) = under_identity_policy();
    let backend = RvoBackend::start(&idp.issuer(), key);
    let mut env = vec![("RVO_API_BASE", backend.base_url())];
    if let Some(key) = key {
        env.push(("RVO_API_TOKEN", key.to_string()));
    }
    (sandbox, idp, backend, policy, env)
}

#[test]
fn a_device_login_approves_and_the_backend_files_exactly_once() {
    let (sandbox, idp, backend, policy, env) = filing(Some("dienst-sleutel-4711"));
    let proposal = propose(&sandbox, Some(&policy), &env);
    let id = proposal["id"].as_str().unwrap();
    assert_eq!(proposal["backend"], json!(backend.base_url()));
    assert_eq!(proposal["peildatum"], "2026-11-30");
    let detail = &proposal["authorization_details"][0];
    assert_eq!(detail["type"], "nl.overheid.indiening");
    assert_eq!(detail["voorstel_id"], json!(id));
    assert_eq!(detail["plan_digest"], proposal["plan_digest"]);

    let approved = login(&sandbox, &policy, &env, id, &idp, |pending| {
        // A fresh login, for this proposal and this backend only, at the assurance asked.
        assert_eq!(pending.params["prompt"], "login");
        assert_eq!(pending.params["max_age"], "0");
        assert_eq!(pending.params["acr_values"], "substantieel");
        assert_eq!(pending.params["resource"], backend.base_url());
        let asked: Value = serde_json::from_str(&pending.params["authorization_details"]).unwrap();
        assert_eq!(asked, proposal["authorization_details"]);
        idp.approve(&pending.user_code);
    });
    assert_eq!(approved.code, 0, "{}", approved.stderr);
    // The person sees what they approve, as text, with the provider's link and code.
    assert!(approved.stderr.contains("ABCD-"), "{}", approved.stderr);
    assert!(
        approved.stderr.contains("voorstel_id: vs_"),
        "{}",
        approved.stderr
    );
    assert!(
        approved.stderr.contains("Maatregelen:"),
        "{}",
        approved.stderr
    );
    let decided: Value = serde_json::from_str(&approved.stdout).unwrap();
    assert_eq!(decided["status"], "goedgekeurd");
    assert_eq!(decided["beslissing"]["door"]["methode"], "oidc-apparaat");
    assert_eq!(decided["beslissing"]["door"]["subject"], "anna");
    assert_eq!(decided["beslissing"]["met_login"], true);
    assert!(decided["beslissing"].get("let_op").is_none());

    let first = apply(&sandbox, &policy, &env, id);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert_eq!(first.json()["replayed"], false);
    let again = apply(&sandbox, &policy, &env, id);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(again.json()["replayed"], true);
    let filed = backend.filed();
    assert_eq!(filed.len(), 1, "{:?}", backend.refusals());
    assert_eq!(filed[0].approved_by, "anna");
    assert_eq!(filed[0].key, proposal["plan_digest"].as_str().unwrap());
    // The service credential went in its own header, the person's token as Authorization.
    let post = backend
        .requests()
        .into_iter()
        .find(|r| r.method == "POST")
        .unwrap();
    assert_eq!(
        post.header("overheid-dienstsleutel"),
        Some("dienst-sleutel-4711")
    );
    let bearer = post
        .header("authorization")
        .unwrap()
        .trim_start_matches("Bearer ")
        .to_string();
    assert_ne!(bearer, "dienst-sleutel-4711");
    // The token is a bearer credential: never printed, never in the audit log.
    for text in [
        &approved.stdout,
        &approved.stderr,
        &first.stdout,
        &first.stderr,
        &sandbox.audit_text(),
    ] {
        assert!(!text.contains(&bearer), "the approval token leaked");
    }
    // The keys were fetched once per max-age, not per call: once by rvo-cli for the login and
    // the two applies (kept in the family cache), once by the backend for both filings.
    assert_eq!(backend.jwks_fetches(), 1);
    assert_eq!(idp.jwks_fetches(), 2);
}

/// A browser's GET that follows no redirect: the status, the `Location` and the body.
fn browse(url: &str) -> (u16, Option<String>, String) {
    use std::io::{Read, Write};
    let rest = url.strip_prefix("http://").expect("a plain-http test URL");
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let mut stream = std::net::TcpStream::connect(host).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let location = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("location")
            .then(|| value.trim().to_string())
    });
    (status, location, body.to_string())
}

/// `voorstel goedkeuren --browser ID` in the background; `person` gets the login link the tool
/// prints, once it does, and plays the person's browser. The call's result.
fn browser_login(
    sandbox: &Sandbox,
    policy: &PathBuf,
    env: &[(&str, String)],
    id: &str,
    person: impl FnOnce(&str),
) -> Run {
    use std::io::BufRead;
    let mut cmd = sandbox.process_of(env!("CARGO_BIN_EXE_rvo-cli-test-hooks"), &[]);
    cmd.env("RVO_CLI_TEST_BELEID", policy);
    for (name, value) in env {
        cmd.env(name, value);
    }
    let mut child = cmd
        .args(["voorstel", "goedkeuren", "--browser", id])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).unwrap();
        text
    });
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut said = String::new();
    let mut line = String::new();
    let link = loop {
        line.clear();
        if stderr.read_line(&mut line).unwrap() == 0 {
            panic!("no login link: {said}");
        }
        said.push_str(&line);
        // The link is the indented line under "Open in de browser …".
        if said.contains("Open in de browser") && line.starts_with("  http") {
            break line.trim().to_string();
        }
    };
    person(&link);
    std::io::Read::read_to_string(&mut stderr, &mut said).unwrap();
    let status = child.wait().unwrap();
    Run {
        code: status.code().unwrap(),
        stdout: out.join().unwrap(),
        stderr: said,
    }
}

/// With `--browser` the person logs in in the browser on this machine and the provider sends the
/// browser back to the tool (RFC 8252): the same detail and fresh login as a device login, a
/// code bound to this login by `state` and PKCE, and a caller at the port without this login's
/// `state` decides nothing. Declining at the provider leaves the proposal open.
#[test]
fn a_browser_login_on_this_machine_approves_without_polling() {
    let (sandbox, idp, backend, policy, env) = filing(None);
    let proposal = propose(&sandbox, Some(&policy), &env);
    let id = proposal["id"].as_str().unwrap();

    let approved = browser_login(&sandbox, &policy, &env, id, |link| {
        assert!(
            link.starts_with(&format!("{}/authorize?", idp.issuer())),
            "{link}"
        );
        let url = url::Url::parse(link).unwrap();
        let param = |name: &str| {
            url.query_pairs()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.into_owned())
                .unwrap_or_default()
        };
        assert_eq!(param("prompt"), "login");
        assert_eq!(param("max_age"), "0");
        assert_eq!(param("acr_values"), "substantieel");
        assert_eq!(param("resource"), backend.base_url());
        assert_eq!(param("code_challenge_method"), "S256");
        let asked: Value = serde_json::from_str(&param("authorization_details")).unwrap();
        assert_eq!(asked, proposal["authorization_details"]);
        let redirect = param("redirect_uri");
        assert!(redirect.starts_with("http://127.0.0.1:") && redirect.ends_with("/callback"));
        // Another program at the port: without this login's state nothing is decided.
        let (status, _, _) = browse(&format!("{redirect}?code=geraden&state=geraden"));
        assert_eq!(status, 400);
        let (status, _, _) = browse(&redirect.replace("/callback", "/iets"));
        assert_eq!(status, 404);
        // The person logs in and consents; the provider sends the browser back.
        let (status, back, _) = browse(link);
        assert!((300..400).contains(&status), "{status}");
        let (status, _, page) = browse(&back.unwrap());
        assert_eq!(status, 200, "{page}");
        assert!(page.contains("U bent ingelogd"), "{page}");
    });
    assert_eq!(approved.code, 0, "{}", approved.stderr);
    assert!(
        approved
            .stderr
            .contains("Open in de browser op deze machine"),
        "{}",
        approved.stderr
    );
    let decided: Value = serde_json::from_str(&approved.stdout).unwrap();
    assert_eq!(decided["status"], "goedgekeurd", "{decided}");
    assert_eq!(decided["beslissing"]["door"]["methode"], "oidc-browser");
    assert_eq!(decided["beslissing"]["met_login"], true);
    let filed = apply(&sandbox, &policy, &env, id);
    assert_eq!(filed.code, 0, "{}", filed.stderr);
    assert_eq!(backend.filed().len(), 1, "{:?}", backend.refusals());

    // Declined at the provider: the browser comes back with this login's state and
    // error=access_denied; 75, and the new proposal stays open.
    let again = propose(&sandbox, Some(&policy), &env);
    let again_id = again["id"].as_str().unwrap();
    assert_ne!(again_id, id);
    let declined = browser_login(&sandbox, &policy, &env, again_id, |link| {
        let url = url::Url::parse(link).unwrap();
        let param = |name: &str| {
            url.query_pairs()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.into_owned())
                .unwrap_or_default()
        };
        let back = format!(
            "{}?error=access_denied&state={}",
            param("redirect_uri"),
            param("state")
        );
        let (status, _, page) = browse(&back);
        assert_eq!(status, 200, "{page}");
        assert!(page.contains("geweigerd"), "{page}");
    });
    assert_eq!(declined.code, 75, "{}", declined.stderr);
    assert!(
        declined.stderr.contains("LOGIN_NIET_VOLTOOID"),
        "{}",
        declined.stderr
    );
    assert_eq!(status(&sandbox, Some(&policy), again_id), "open");
    assert_eq!(backend.filed().len(), 1);
}

/// Without a policy that asks for a login, `--browser` has no login to start: a usage error (2),
/// nothing decided.
#[test]
fn browser_without_a_login_policy_is_a_usage_error() {
    let sandbox = Sandbox::new();
    let proposal = propose(&sandbox, None, &[]);
    let id = proposal["id"].as_str().unwrap();
    let refused = call(
        &sandbox,
        None,
        &[],
        &["voorstel", "goedkeuren", "--browser", id],
    );
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(refused.stderr.contains("--browser"), "{}", refused.stderr);
    assert_eq!(status(&sandbox, None, id), "open");
}

#[test]
fn under_the_policy_confirm_files_nothing_and_names_a_proposal() {
    let (sandbox, _provider, policy) = under_identity_policy();
    let args = report("indienen", &["--confirm"]);
    let refused = call(&sandbox, Some(&policy), &[], &args);
    let error = refused.error(77);
    assert_eq!(error["code"], "GOEDKEURING_VEREIST");
    assert!(refused.stdout.is_empty());
    let hint = error["hint"].as_str().unwrap();
    assert!(hint.contains("rvo-cli voorstel goedkeuren vs_"), "{hint}");
    sandbox.assert_store(0);
    let open = call(&sandbox, Some(&policy), &[], &["voorstel", "lijst"]);
    assert_eq!(
        open.json()["voorstellen"].as_array().unwrap().len(),
        1,
        "{}",
        open.stdout
    );
    // Without --confirm: the plan, and a hint that names no --confirm.
    let planned = call(&sandbox, Some(&policy), &[], &args[..args.len() - 1]);
    let error = planned.refusal(80);
    assert!(
        !error["hint"].as_str().unwrap().contains("--confirm"),
        "{error}"
    );
}

#[test]
fn a_policy_that_cannot_be_trusted_refuses_every_mutation() {
    let sandbox = Sandbox::new();
    let policy = policy(&sandbox, "[goedkeuring]\nmethode = \"terminal\"\n");
    std::fs::set_permissions(&policy, std::fs::Permissions::from_mode(0o666)).unwrap();
    let args = report("indienen", &["--confirm"]);
    let refused = call(&sandbox, Some(&policy), &[], &args);
    let error = refused.error(78);
    assert_eq!(error["code"], "BELEID_ONGELDIG");
    assert!(
        error["detail"]
            .as_str()
            .unwrap()
            .contains(policy.to_str().unwrap())
    );
    let proposing = report("voorstel", &[]);
    assert_eq!(
        call(&sandbox, Some(&policy), &[], &proposing).error(78)["code"],
        "BELEID_ONGELDIG"
    );
    sandbox.assert_store(0);
    // Reading is not a mutation.
    assert_eq!(
        call(&sandbox, Some(&policy), &[], &["regeling", "lijst"]).code,
        0
    );
    // A policy that says something unknown is not ignored either.
    let unknown = policy_file_text(&sandbox, "[goedkeuring]\nmethode = \"soms\"\n");
    assert_eq!(
        call(&sandbox, Some(&unknown), &[], &args).error(78)["code"],
        "BELEID_ONGELDIG"
    );
}

fn policy_file_text(sandbox: &Sandbox, text: &str) -> PathBuf {
    policy(sandbox, text)
}

#[test]
fn a_declined_or_expired_login_leaves_the_proposal_open() {
    let (sandbox, idp, policy) = under_identity_policy();
    let proposal = propose(&sandbox, Some(&policy), &[]);
    let id = proposal["id"].as_str().unwrap();
    for finish in ["decline", "expire"] {
        let ended = login(&sandbox, &policy, &[], id, &idp, |pending| match finish {
            "decline" => idp.decline(&pending.user_code),
            _ => idp.expire(&pending.user_code),
        });
        let error = ended.error_after_dialogue(75);
        assert_eq!(error["code"], "LOGIN_NIET_VOLTOOID", "{finish}");
        assert!(error["retry_after"].as_u64().is_some(), "{error}");
        assert_eq!(status(&sandbox, Some(&policy), id), "open", "{finish}");
    }
}

#[test]
fn an_unreachable_provider_is_named_and_nothing_is_decided() {
    let sandbox = Sandbox::new();
    let issuer = format!("http://127.0.0.1:{}", test_support::cli::closed_port());
    let policy = policy(
        &sandbox,
        &format!(
            "[goedkeuring]\nmethode = \"identiteit\"\nissuer = \"{issuer}\"\nclient_id = \"overheid-cli\"\n"
        ),
    );
    let proposal = propose(&sandbox, Some(&policy), &[]);
    let id = proposal["id"].as_str().unwrap();
    let out = call(
        &sandbox,
        Some(&policy),
        &[],
        &["voorstel", "goedkeuren", id],
    );
    let error = out.error(69);
    assert!(
        error["detail"].as_str().unwrap().contains(&issuer),
        "{error}"
    );
    assert_eq!(status(&sandbox, Some(&policy), id), "open");
}

#[test]
fn a_login_from_an_old_session_does_not_approve() {
    let (sandbox, idp, policy) = under_identity_policy();
    let proposal = propose(&sandbox, Some(&policy), &[]);
    let id = proposal["id"].as_str().unwrap();
    idp.tweak(|claims| {
        claims.insert(
            "auth_time".into(),
            json!(claims["iat"].as_i64().unwrap() - 3600),
        );
    });
    approving_does_not_approve(&sandbox, &idp, &policy, id);
}

#[test]
fn a_login_without_the_assurance_asked_does_not_approve() {
    let (sandbox, idp, policy) = under_identity_policy();
    let proposal = propose(&sandbox, Some(&policy), &[]);
    let id = proposal["id"].as_str().unwrap();
    let mut person = Person::new("anna", "Anna de Vries", "68750110");
    person.acr = "laag".into();
    idp.log_in_as(person);
    approving_does_not_approve(&sandbox, &idp, &policy, id);
}

/// The person logs in and approves `id` at the provider, and the tool refuses the login's
/// token (77, `GOEDKEURING_ONGELDIG`): the proposal stays open.
fn approving_does_not_approve(sandbox: &Sandbox, idp: &FakeIdp, policy: &PathBuf, id: &str) {
    let out = login(sandbox, policy, &[], id, idp, |pending| {
        idp.approve(&pending.user_code)
    });
    assert_eq!(out.error_after_dialogue(77)["code"], "GOEDKEURING_ONGELDIG");
    assert_eq!(status(sandbox, Some(policy), id), "open");
}

/// Writes `token` (or none) as an approval of `id` into the sandbox's store, as an agent with
/// `sqlite3` would.
fn forge_approval(sandbox: &Sandbox, id: &str, digest: &str, token: Option<&str>) {
    sandbox
        .sqlite()
        .execute(
            "UPDATE overheid_proposals SET status = 'approved', decided_by_subject = 'directeur', \
             decided_by_name = 'De Directeur', decided_by_method = 'oidc', decided_at = ?1, \
             decided_digest = ?2, decided_token = ?3 WHERE id = ?4",
            rusqlite::params![chrono::Utc::now().timestamp_millis(), digest, token, id],
        )
        .unwrap();
}

/// What an agent writes into the store as the approval of a proposal (given its detail).
type Forge<'a> = Box<dyn Fn(&Value) -> Option<String> + 'a>;

#[test]
fn an_approval_not_from_a_login_for_this_filing_files_nothing() {
    let (sandbox, idp, backend, policy, env) = filing(None);
    let anna = Person::new("anna", "Anna de Vries", "68750110");
    let other_key = test_support::jwt::Signer::new("idp-sleutel-1");
    // A token of the provider for this backend, with one member of the detail changed.
    let (provider, person, base) = (&idp, &anna, backend.base_url());
    let changed = |member: &'static str, value: Value| -> Forge<'_> {
        let base = base.clone();
        Box::new(move |d| {
            let mut d = d.clone();
            d[member] = value.clone();
            Some(provider.approval_token(person, &base, &d))
        })
    };
    let cases: Vec<(&str, Forge<'_>)> = vec![
        ("a row written by hand", Box::new(|_| None)),
        (
            "another proposal",
            changed("voorstel_id", json!("vs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")),
        ),
        ("another company", changed("kvk_nummer", json!("11111111"))),
        (
            "another backend",
            Box::new(|d| {
                let mut d = d.clone();
                d["backend"] = json!("https://rvo.example/api");
                Some(idp.approval_token(&anna, "https://rvo.example/api", &d))
            }),
        ),
        ("another date", changed("peildatum", json!("2026-12-01"))),
        (
            "an expired token",
            Box::new(|d| {
                let token = idp.approval_token(&anna, &backend.base_url(), d);
                let mut claims = claims_of(&token);
                claims["exp"] = json!(claims["iat"].as_i64().unwrap() - 120);
                Some(idp.token(&claims))
            }),
        ),
        (
            "a token of another key",
            Box::new(|d| {
                let token = idp.approval_token(&anna, &backend.base_url(), d);
                Some(other_key.token(&claims_of(&token)))
            }),
        ),
        (
            "an ID token instead of an access token",
            Box::new(|d| {
                let token = idp.approval_token(&anna, &backend.base_url(), d);
                let mut claims = claims_of(&token);
                claims["aud"] = json!("overheid-cli");
                Some(idp.token(&claims))
            }),
        ),
    ];
    for (case, token) in cases {
        let proposal = propose(&sandbox, Some(&policy), &env);
        let id = proposal["id"].as_str().unwrap();
        let digest = proposal["plan_digest"].as_str().unwrap();
        let token = token(&proposal["authorization_details"][0]);
        forge_approval(&sandbox, id, digest, token.as_deref());
        let out = apply(&sandbox, &policy, &env, id);
        let error = out.error(77);
        assert_eq!(error["code"], "GOEDKEURING_ONGELDIG", "{case}: {error}");
        assert!(backend.filed().is_empty(), "{case}");
        assert!(
            backend.requests().iter().all(|r| r.method != "POST"),
            "{case}: nothing sent"
        );
        // The refusal is audited.
        let records = sandbox.audit_records();
        let last = records.last().unwrap();
        assert_eq!(last["exit_code"], 77, "{case}");
        if let Some(token) = token {
            assert!(
                !out.stderr.contains(&token) && !sandbox.audit_text().contains(&token),
                "{case}"
            );
        }
        // Decline it at the terminal's store level so the next case proposes anew.
        sandbox
            .sqlite()
            .execute(
                "UPDATE overheid_proposals SET status = 'declined' WHERE id = ?1",
                [id],
            )
            .unwrap();
    }
}

/// The claims of a JWT (not verified: the test made it).
fn claims_of(token: &str) -> Value {
    use base64::Engine as _;
    let payload = token.split('.').nth(1).unwrap();
    serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .unwrap(),
    )
    .unwrap()
}

#[test]
fn an_approval_binds_the_backend_it_was_given_for() {
    let (sandbox, idp, backend, policy, env) = filing(None);
    // Proposed and approved for the local sandbox; applied with RVO_API_BASE set: refused.
    let proposal = propose(&sandbox, Some(&policy), &[]);
    let id = proposal["id"].as_str().unwrap();
    assert_eq!(proposal["backend"], "lokaal");
    let approved = login(&sandbox, &policy, &[], id, &idp, |pending| {
        idp.approve(&pending.user_code)
    });
    assert_eq!(approved.code, 0, "{}", approved.stderr);
    let elsewhere = apply(&sandbox, &policy, &env, id);
    let error = elsewhere.error(77);
    assert_eq!(error["code"], "GOEDKEURING_ONGELDIG");
    assert!(
        error["detail"].as_str().unwrap().contains("lokaal"),
        "{error}"
    );
    assert!(backend.filed().is_empty());
    // Where it was approved for, it files.
    let here = call(
        &sandbox,
        Some(&policy),
        &[],
        &["rapportage", "indienen", "--voorstel", id],
    );
    assert_eq!(here.code, 0, "{}", here.stderr);
    // The same plan for another backend is another proposal, approved on its own.
    let other = propose(&sandbox, Some(&policy), &env);
    assert_ne!(other["id"], proposal["id"]);
}

#[test]
fn a_backend_of_contract_2_refuses_a_filing_without_a_person() {
    // No policy here; the provider stays up while the backend may ask it for keys.
    let (sandbox, _provider, backend, _, env) = filing(Some("dienst-sleutel-4711"));
    let args = report("indienen", &["--confirm"]);
    // No policy here: --confirm goes out, with the service credential as Authorization (1.1).
    let out = call(&sandbox, None, &env, &args);
    let error = out.error(77);
    assert_eq!(error["code"], "GOEDKEURING_VEREIST", "{error}");
    assert!(
        error["hint"].as_str().unwrap().contains("voorstel"),
        "{error}"
    );
    assert!(backend.filed().is_empty());
    assert!(!out.stderr.contains("dienst-sleutel-4711"));
}

#[test]
fn without_a_policy_the_terminal_waits_and_says_it_is_not_a_login() {
    if !std::path::Path::new("/usr/bin/script").exists() {
        return;
    }
    let sandbox = Sandbox::new();
    let proposal = propose(&sandbox, None, &[]);
    let id = proposal["id"].as_str().unwrap();
    let digest = proposal["plan_digest"].as_str().unwrap();
    // A deadline of 1 s, and the person types after 2 s: the terminal waits as long as needed.
    let line = format!(
        "{} voorstel goedkeuren {id} --timeout 1 --output json",
        env!("CARGO_BIN_EXE_rvo-cli")
    );
    let mut child = sandbox
        .process_of("/usr/bin/script", &["-qec", &line, "/dev/null"])
        .env("SHELL", "/bin/sh")
        .env("TERM", "xterm")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    std::thread::sleep(Duration::from_secs(2));
    use std::io::Write;
    writeln!(stdin, "{}", &digest[..8]).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let screen = String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n");
    assert_eq!(out.status.code(), Some(0), "{screen}");
    // The plan as text, not JSON; the honest note; no time limit.
    assert!(
        screen.contains("Maatregelen:\n  - isolatie dak\n  - led-verlichting"),
        "{screen}"
    );
    assert!(screen.contains("geen login"), "{screen}");
    assert!(!screen.contains("u heeft"), "{screen}");
    let decided: Value =
        serde_json::from_str(screen.lines().rev().find(|l| l.starts_with('{')).unwrap()).unwrap();
    assert_eq!(decided["status"], "goedgekeurd");
    assert_eq!(decided["beslissing"]["met_login"], false);
    assert!(
        decided["beslissing"]["let_op"]
            .as_str()
            .unwrap()
            .contains("geen login")
    );
}

/// A rolling upgrade: a proposal whose recorded input a newer release wrote (a newer minor
/// format with a member this release does not know) is read and applied; one of a newer major
/// format is refused, nothing filed.
#[test]
fn a_proposal_of_a_newer_release_is_read_unless_its_format_is_a_newer_major() {
    let sandbox = Sandbox::new();
    for (version, expected) in [("1.7", 0), ("2.0", 78)] {
        let proposal = propose(&sandbox, None, &[]);
        let id = proposal["id"].as_str().unwrap();
        let digest = proposal["plan_digest"].as_str().unwrap();
        let input: String = sandbox
            .sqlite()
            .query_row(
                "SELECT input FROM overheid_proposals WHERE id = ?1",
                [id],
                |r| r.get(0),
            )
            .unwrap();
        let mut input: Value = serde_json::from_str(&input).unwrap();
        assert_eq!(input["versie"], "1.0", "this release writes its format");
        input["versie"] = json!(version);
        input["een_nieuw_gegeven"] = json!({"van": "een nieuwere uitgave"});
        sandbox
            .sqlite()
            .execute(
                "UPDATE overheid_proposals SET input = ?1 WHERE id = ?2",
                rusqlite::params![input.to_string(), id],
            )
            .unwrap();
        forge_approval(&sandbox, id, digest, None);
        let out = call(
            &sandbox,
            None,
            &[],
            &["rapportage", "indienen", "--voorstel", id],
        );
        assert_eq!(out.code, expected, "{version}: {}", out.stderr);
        if expected != 0 {
            assert_eq!(out.error(78)["code"], "CONFIG_FOUT");
            sandbox
                .sqlite()
                .execute(
                    "UPDATE overheid_proposals SET status = 'declined' WHERE id = ?1",
                    [id],
                )
                .unwrap();
        }
    }
    sandbox.assert_store(1);
}

//! No path of the server reaches a client (WIRE-9): not the store, data, cache or audit
//! locations the CLIs are given, not where the programs lie, not the temporary home, in no
//! result, provenance, error, log message or listing, over stdio and over HTTP. The CLIs do
//! name such paths (rvo-cli's provenance names its local store, an unwritable audit log is
//! named in the error), so each case below would show one if the bridge did not scrub it.

mod harness;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use harness::http::{HttpBridge, Signer, now, request};
use harness::{Bridge, demo_cli, regelrecht_cli, rvo_cli};

const COMPANY: &str = "68750110";
const PLACEHOLDER: &str = "[pad op de server]";
const ISSUER: &str = "https://login.example.nl";
const AUDIENCE: &str = "https://mcp.example.nl/mcp";

/// The server's own directories for one bridge: a temporary home holding its data, and a
/// directory with a link to the fixture CLI (removed mid-test, so a call cannot start it).
struct Server {
    home: tempfile::TempDir,
    bin: tempfile::TempDir,
}

impl Server {
    fn new() -> Self {
        let server = Server {
            home: tempfile::tempdir().unwrap(),
            bin: tempfile::tempdir().unwrap(),
        };
        std::fs::create_dir(server.data()).unwrap();
        std::os::unix::fs::symlink(demo_cli(), server.demo()).unwrap();
        server
    }

    fn data(&self) -> PathBuf {
        self.home.path().join("data")
    }

    fn demo(&self) -> PathBuf {
        self.bin.path().join("demo-cli")
    }

    fn args(&self) -> Vec<String> {
        let mut args = Vec::new();
        for tool in [rvo_cli(), regelrecht_cli(), self.demo()] {
            args.extend(["--tool".to_string(), tool.display().to_string()]);
        }
        args
    }

    /// The bridge's environment; `audit_in_a_directory` points the audit log at a directory,
    /// which every CLI refuses naming the path.
    fn env(&self, audit_in_a_directory: bool) -> Vec<(String, String)> {
        let home = self.home.path().display().to_string();
        let data = self.data().display().to_string();
        let mut env = vec![
            ("HOME".to_string(), home.clone()),
            ("RVO_DATA_DIR".to_string(), data.clone()),
            ("XDG_CACHE_HOME".to_string(), format!("{home}/cache")),
            ("OVERHEID_CACHE_DIR".to_string(), format!("{home}/cache")),
            ("DEMO_STORE".to_string(), format!("{data}/demo.json")),
        ];
        if audit_in_a_directory {
            env.push(("OVERHEID_AUDIT_LOG".to_string(), data));
        }
        env
    }

    /// Every text a client must not see: these directories, resolved too, and where the
    /// programs and this test lie.
    fn forbidden(&self) -> Vec<String> {
        let mut paths: Vec<PathBuf> = vec![
            self.home.path().into(),
            self.bin.path().into(),
            rvo_cli().parent().unwrap().into(),
            demo_cli().parent().unwrap().into(),
            Path::new(env!("CARGO_MANIFEST_DIR")).into(),
        ];
        let resolved: Vec<PathBuf> = paths
            .iter()
            .filter_map(|p| std::fs::canonicalize(p).ok())
            .collect();
        paths.extend(resolved);
        paths.iter().map(|p| p.display().to_string()).collect()
    }
}

/// Panics when `said` holds a server path: one of `forbidden`, or any absolute path whose first
/// directory exists on this machine (`/tmp/…`, `/work/…`, `/root/…`).
fn assert_no_server_path(label: &str, said: &str, forbidden: &[String]) {
    for path in forbidden {
        assert!(
            !said.contains(path.as_str()),
            "{label} names {path}: {said}"
        );
    }
    let bytes = said.as_bytes();
    for (at, _) in said.match_indices('/') {
        let starts = at == 0 || b" \"'(=\n\t".contains(&bytes[at - 1]);
        let first: String = said[at + 1..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || "._-".contains(*c))
            .collect();
        let deeper = said[at + 1 + first.len()..].starts_with('/');
        if starts && deeper && !first.is_empty() && Path::new("/").join(&first).is_dir() {
            let shown: String = said[at..].chars().take(60).collect();
            panic!("{label} holds an absolute path {shown}: {said}");
        }
    }
}

/// Everything the stdio bridge said for one request: its notifications and its response.
fn exchange(bridge: &mut Bridge, method: &str, params: Value) -> (Value, String) {
    let id = bridge.send(method, params);
    let response = bridge.response(id);
    let mut all: Vec<Value> = bridge.take_pending();
    all.push(response.clone());
    (response, Value::Array(all).to_string())
}

fn with_session(mut params: Value) -> Value {
    params["_meta"]["nl.overheid/sessie"] = json!({"kvk_nummer": COMPANY});
    params
}

/// The requests of both transports. With `bound` the company comes from the token, so no
/// argument or `_meta` names it.
fn cases(bound: bool) -> Vec<(&'static str, Value)> {
    let call = |name: &str, mut arguments: Value| {
        if bound {
            arguments.as_object_mut().unwrap().remove("kvk_nummer");
        }
        json!({"name": name, "arguments": arguments})
    };
    let with_session = |params: Value| if bound { params } else { with_session(params) };
    vec![
        ("tools/list", json!({})),
        ("prompts/list", json!({})),
        ("resources/list", json!({})),
        ("resources/templates/list", json!({})),
        (
            "tools/call",
            call(
                "rvo__rapportage_voorstel",
                json!({"kvk_nummer": COMPANY, "regeling_id": "EBR-2027", "maatregelen": "LED-verlichting"}),
            ),
        ),
        ("tools/call", call("rvo__voorstel_lijst", json!({}))),
        (
            "tools/call",
            call("rvo__rapportage_lijst", json!({"kvk_nummer": COMPANY})),
        ),
        (
            "tools/call",
            call(
                "rvo__rapportage_status",
                json!({"referentienummer": "RVO-EBR-2027-1KC7Q3M9Z-7XK2MD"}),
            ),
        ),
        (
            "tools/call",
            call(
                "rvo__voorstel_toon",
                json!({"id": "vs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}),
            ),
        ),
        (
            "tools/call",
            call(
                "regelrecht__check_energiebesparing",
                json!({"kvk_nummer": COMPANY, "elektriciteit_kwh": 60000, "gas_m3": 30000}),
            ),
        ),
        (
            "tools/call",
            call("rvo__regeling_toon", json!({"regeling_id": "EBR\u{0}2027"})),
        ),
        ("tools/call", call("rvo__bestaat_niet", json!({}))),
        ("resources/read", json!({"uri": "rvo://regelingen"})),
        (
            "resources/read",
            with_session(json!({"uri": "rvo://mijn/rapportages"})),
        ),
        (
            "completion/complete",
            with_session(
                json!({"ref": {"type": "ref/resource", "uri": "rvo://mijn/voorstellen/{id}"},
                   "argument": {"name": "id", "value": "vs_"}}),
            ),
        ),
    ]
}

#[test]
fn wire_9_no_server_path_reaches_a_stdio_client() {
    let server = Server::new();
    let args = server.args();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let env = server.env(false);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let mut bridge = Bridge::start(&args, &env);
    let forbidden = server.forbidden();
    bridge.request("logging/setLevel", json!({"level": "debug"}));

    let mut placeholders = 0;
    for (method, params) in cases(false) {
        let (response, said) = exchange(&mut bridge, method, params.clone());
        assert_no_server_path(&format!("{method} {params}"), &said, &forbidden);
        placeholders += said.matches(PLACEHOLDER).count();
        if params["name"] == "rvo__rapportage_lijst" {
            // The CLI names its local store here; the client learns there is one, not where.
            let provenance = &response["result"]["_meta"]["nl.overheid/provenance"];
            assert_eq!(provenance["opslag"], PLACEHOLDER, "{response}");
        }
        if params["name"] == "rvo__regeling_toon" {
            let problem = &response["result"]["_meta"]["nl.overheid/problem"];
            assert_eq!(problem["exit_code"], 65, "{response}");
            assert_eq!(
                problem["errors"][0]["pointer"], "/regeling_id",
                "{response}"
            );
        }
    }
    assert!(placeholders >= 2, "the store was named and scrubbed");

    // A warning that names the store goes to the client as a log message, scrubbed.
    let (_, said) = exchange(
        &mut bridge,
        "tools/call",
        json!({"name": "demo__slaap", "arguments": {"seconden": 0}}),
    );
    assert!(said.contains("notifications/message"), "{said}");
    assert!(said.contains(&format!("(opslag {PLACEHOLDER})")), "{said}");
    assert_no_server_path("demo__slaap warning", &said, &forbidden);

    // A program that cannot be started is named by its command, not by where it lay.
    std::fs::remove_file(server.demo()).unwrap();
    let (response, said) = exchange(
        &mut bridge,
        "tools/call",
        json!({"name": "demo__slaap", "arguments": {"seconden": 0}}),
    );
    assert_eq!(
        response["result"]["_meta"]["nl.overheid/problem"]["exit_code"], 69,
        "{response}"
    );
    assert_no_server_path("a program gone", &said, &forbidden);
}

#[test]
fn wire_9_no_server_path_reaches_an_http_client_nor_from_an_audit_error() {
    let server = Server::new();
    let signer = Signer::new("sleutel-1");
    let jwks = server.home.path().join("jwks.json");
    std::fs::write(&jwks, json!({"keys": [signer.jwk()]}).to_string()).unwrap();
    let mut args = server.args();
    for (option, value) in [
        ("--auth-jwks", jwks.display().to_string()),
        ("--auth-issuer", ISSUER.to_string()),
        ("--auth-audience", AUDIENCE.to_string()),
    ] {
        args.extend([option.to_string(), value]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let token = signer.token(&json!({"iss": ISSUER, "aud": AUDIENCE, "sub": "gebruiker",
        "exp": now() + 600, "kvk_nummer": COMPANY, "scope": "overheid:lezen overheid:indienen"}));
    let forbidden = server.forbidden();
    for audit_in_a_directory in [false, true] {
        let env = server.env(audit_in_a_directory);
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let bridge = HttpBridge::start(&args, &env);
        let mut audit_errors = 0;
        for (id, (method, params)) in (1..).zip(cases(true)) {
            let reply = bridge.post(
                Some(&token),
                &request(id, method, params.clone(), json!({})),
                &[],
            );
            let said = reply.body.to_string();
            assert_no_server_path(&format!("{method} {params}"), &said, &forbidden);
            if params["name"] == "rvo__rapportage_lijst" && !audit_in_a_directory {
                let provenance = &reply.body["result"]["_meta"]["nl.overheid/provenance"];
                assert_eq!(provenance["opslag"], PLACEHOLDER, "{said}");
            }
            if said.contains("AUDIT_FOUT") {
                assert!(said.contains(&format!("auditlog {PLACEHOLDER}")), "{said}");
                audit_errors += 1;
            }
        }
        if audit_in_a_directory {
            assert!(
                audit_errors >= 5,
                "every tool call names its audit log: {audit_errors}"
            );
        }
    }
}

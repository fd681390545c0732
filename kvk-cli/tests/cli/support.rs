//! Helpers for the kvk-cli integration tests; the tool-independent ones live in
//! [`test_support::cli`].
//!
//! - [`Sandbox`]: the shared sandbox for `kvk-cli`, whose commands point at a KvK base URL
//!   with [`KEY`].
//! - [`KvkFake`]: the fake KvK on a loopback port that also remembers every body it sent,
//!   so provenance digests can be checked against the bytes on the wire.
//! - [`discovery`] and [`tool_entry`]: the discovery document, from a clean environment.

use std::ops::Deref;
use std::sync::{Arc, Mutex, PoisonError};

use assert_cmd::Command;
use serde_json::Value;
use test_support::{FakeServer, RecordedRequest, Reply};

pub use test_support::cli::{
    assert_valid, assert_valid_against, canonical, closed_port, compact_document, keys, read_audit,
    run, sha256_hex,
};

/// The API key the tests configure; it must never show up in any output.
pub const KEY: &str = "sleutel-9f8e7d6c5b4a";

/// The name and path under which the fake KvK is mounted.
pub const MOUNT: &str = "/api";

/// The shared sandbox for `kvk-cli` (audit log in `KVK_AUDIT_LOG`).
pub struct Sandbox(test_support::cli::Sandbox);

impl Sandbox {
    pub fn new() -> Self {
        Sandbox(test_support::cli::Sandbox::new(
            env!("CARGO_BIN_EXE_kvk-cli"),
            "KVK_AUDIT_LOG",
        ))
    }

    /// `kvk-cli` pointed at `base` with [`KEY`] and the sandbox's audit log.
    pub fn cmd(&self, base: &str) -> Command {
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
pub struct KvkFake {
    pub server: FakeServer,
    sent: Arc<Mutex<Vec<Vec<u8>>>>,
}

impl KvkFake {
    pub fn start() -> Self {
        KvkFake::with(test_support::kvk::kvk)
    }

    /// A fake that answers with `handler` (which sees paths relative to [`MOUNT`]).
    pub fn with<H>(handler: H) -> Self
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
    pub fn base(&self) -> String {
        self.server.url(MOUNT)
    }

    /// Every body the fake sent, in order.
    pub fn bodies(&self) -> Vec<Vec<u8>> {
        self.sent
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    pub fn request_count(&self) -> usize {
        self.server.request_count()
    }

    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.server.requests()
    }
}

/// The discovery document (`kvk-cli --help --json`), run in a clean environment.
pub fn discovery() -> Value {
    Sandbox::new().discovery()
}

/// The tool entry called `name` in the discovery document.
pub fn tool_entry(name: &str) -> Value {
    Sandbox::new().tool_entry(name)
}

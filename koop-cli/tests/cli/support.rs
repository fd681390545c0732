//! Helpers for the koop-cli integration tests; the tool-independent ones live in
//! [`test_support::cli`].
//!
//! - [`Sandbox`]: the shared sandbox for `koop-cli`, whose commands point at a [`KoopFake`].
//! - [`KoopFake`]: the fake KOOP (SRU and repository) on its own port.
//! - [`discovery`], [`tool_entry`] and [`data`]: discovery and the outputSchema check (OUT-7).

use std::ops::Deref;

use assert_cmd::Command;
use serde_json::Value;
use test_support::koop::Koop;
use test_support::{FakeServer, Mounts, RecordedRequest};

pub(crate) use test_support::cli::{Run, assert_valid, assert_valid_against, run, sha256_hex};

/// Where the fake KOOP is mounted.
pub(crate) const MOUNT: &str = "/koop";

/// The shared sandbox for `koop-cli` (audit log in `KOOP_AUDIT_LOG`).
pub(crate) struct Sandbox(test_support::cli::Sandbox);

impl Sandbox {
    pub(crate) fn new() -> Self {
        Sandbox(test_support::cli::Sandbox::new(
            env!("CARGO_BIN_EXE_koop-cli"),
            "KOOP_AUDIT_LOG",
        ))
    }

    /// `koop-cli` with nothing of the developer's environment but `HOME`, `PATH` and the
    /// audit log: no source URLs.
    pub(crate) fn bare(&self) -> Command {
        self.0.cmd()
    }

    /// `koop-cli` pointed at `fake`.
    pub(crate) fn cmd(&self, fake: &KoopFake) -> Command {
        let mut cmd = self.bare();
        cmd.env("KOOP_SRU_URL", fake.sru_url())
            .env("KOOP_REPOSITORY_URL", fake.repository_url());
        cmd
    }
}

impl Deref for Sandbox {
    type Target = test_support::cli::Sandbox;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

/// The fake KOOP on its own port.
pub(crate) struct KoopFake {
    pub server: FakeServer,
}

impl KoopFake {
    pub(crate) fn start() -> Self {
        Self::with(Koop::new())
    }

    pub(crate) fn with(router: Koop) -> Self {
        let mounts = Mounts::new().mount(MOUNT, move |r: &RecordedRequest| router.route(r));
        KoopFake {
            server: FakeServer::start(mounts.into_handler()),
        }
    }

    pub(crate) fn sru_url(&self) -> String {
        self.server.url(MOUNT)
    }

    pub(crate) fn repository_url(&self) -> String {
        self.server.url(&format!("{MOUNT}/repository"))
    }

    pub(crate) fn requests(&self) -> Vec<RecordedRequest> {
        self.server.requests()
    }
}

/// The discovery document.
pub(crate) fn discovery() -> Value {
    Sandbox::new().discovery()
}

/// The tool entry `name` of discovery.
pub(crate) fn tool_entry(name: &str) -> Value {
    Sandbox::new().tool_entry(name)
}

/// Success and the data valid against the command's outputSchema (OUT-7).
pub(crate) fn data(run: &Run, tool: &str) -> Value {
    let value = run.json();
    let entry = tool_entry(tool);
    assert_valid_against(&entry["outputSchema"], &value, tool);
    value
}

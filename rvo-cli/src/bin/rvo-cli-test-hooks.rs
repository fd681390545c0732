//! rvo-cli with the crash-test pause hook, for the kill -9 tests in `tests/cli/crash.rs` only.
//!
//! The same commands as the `rvo-cli` binary (its modules, compiled in again), plus one thing:
//! `RVO_CLI_TEST_PAUSE=<phase>:<milliseconds>` makes the local store's writer announce
//! `RVO_CLI_TEST_PAUSED <phase>` on stderr and sleep there, so a test can kill it at that
//! point. Built only with the `test-hooks` feature (that is, by `cargo test`), never installed,
//! and never read by `rvo-cli` itself, which declares every variable it reads (CONF-2).

#[path = "../backend/mod.rs"]
mod backend;
#[path = "../cli.rs"]
mod cli;
#[path = "../commands/mod.rs"]
mod commands;
#[path = "../tool.rs"]
mod tool;

use rvo_cli::store::{PAUSE_ENV, install_pause, parse_pause};

#[allow(clippy::disallowed_methods, reason = "test-only pause hook")]
fn main() -> std::process::ExitCode {
    if let Some((phase, duration)) = std::env::var(PAUSE_ENV)
        .ok()
        .and_then(|value| parse_pause(&value))
    {
        install_pause(phase, duration);
    }
    common::main::<cli::Command>(&tool::TOOL)
}

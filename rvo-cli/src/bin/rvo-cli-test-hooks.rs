//! rvo-cli with test hooks, for the integration tests only (`tests/cli/`).
//!
//! The same commands as the `rvo-cli` binary (its modules, compiled in again), plus two hooks:
//!
//! - `RVO_CLI_TEST_PAUSE=<phase>:<milliseconds>` makes a filing announce
//!   `RVO_CLI_TEST_PAUSED <phase>` on stderr and sleep there, so a crash test can kill it there.
//! - `RVO_CLI_TEST_NOW=<RFC 3339 instant>` fixes "now" (and so "today"), so a test that depends on
//!   the calendar (a scheme closing) runs the same on every day.
//! - `RVO_CLI_TEST_BELEID=<path>` reads the operator's policy from `path` instead of
//!   `/etc/overheid/beleid.toml`, trusted when the user running the test owns it (the real
//!   file must be root's). The `rvo-cli` binary itself has no way to name another policy.
//!
//! Built only with the `test-hooks` feature (that is, by `cargo test`), never installed, and
//! never read by `rvo-cli` itself, which declares every variable it reads (CONF-2).

#[path = "../cli/mod.rs"]
mod cli;

use rvo_cli::clock::{NOW_ENV, install_now};
use rvo_cli::hook::{PAUSE_ENV, install_pause, parse_pause};

#[allow(clippy::disallowed_methods, reason = "test-only pause hook")]
fn main() -> std::process::ExitCode {
    if let Some((phase, duration)) = std::env::var(PAUSE_ENV)
        .ok()
        .and_then(|value| parse_pause(&value))
    {
        install_pause(phase, duration);
    }
    if let Ok(value) = std::env::var(NOW_ENV) {
        match chrono::DateTime::parse_from_rfc3339(&value) {
            Ok(now) => install_now(now.to_utc()),
            Err(error) => panic!("{NOW_ENV}={value:?} is geen RFC 3339-tijdstip: {error}"),
        }
    }
    if let Ok(path) = std::env::var("RVO_CLI_TEST_BELEID") {
        common::approval::policy::install(path.into(), rustix::process::geteuid().as_raw());
    }
    // An ordinary `fn main` (not `common::entry!`): the hooks are read before the tool runs.
    std::process::ExitCode::from(common::main::<cli::Command>(&cli::tool::TOOL).code())
}

//! Test-only pause hook for crash tests of a filing and of a proposal.
//!
//! A crash test needs the writer to stop at a known point so it can `kill -9` it there. The hook
//! exists only in builds with `cfg(test)` (this crate's unit tests) or the `test-hooks` cargo
//! feature (switched on for `cargo test` builds by the self dev-dependency; never by
//! `cargo build`, `cargo build --release` or `cargo install`). In every other build [`pause`]
//! compiles to nothing.
//!
//! Even where it is compiled in, the library never reads the environment for it: a pause is
//! installed for the whole process with `install_pause`. Only the `rvo-cli-test-hooks` binary
//! (a copy of rvo-cli for the crash tests, built only with the feature) reads
//! `RVO_CLI_TEST_PAUSE=<phase>:<milliseconds>` (`parse_pause`) and installs it; the `rvo-cli`
//! binary never does, so nothing from outside can switch the hook on there.
//!
//! A paused filer prints `RVO_CLI_TEST_PAUSED <phase>` on stderr and sleeps at that point.

/// Points in a filing (or a proposal) where a crash test can pause the writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The filing is written in an open transaction of the store; its audit record is not
    /// yet written.
    Begun,
    /// The audit record is written and synced; the transaction is not yet committed.
    Committing,
    /// The transaction is committed; the result is not yet printed.
    Committed,
    /// `rapportage voorstel`: the proposal is committed (not synced: a deferred commit); its
    /// audit record is not yet written.
    Proposed,
}

/// Pauses here when a test program installed a pause at `phase` (see the module header).
pub fn pause(phase: Phase) {
    enabled::Pause::installed().at_phase(phase);
}

/// The environment variable the test programs read (never the library or `rvo-cli` itself).
#[cfg(any(test, feature = "test-hooks"))]
pub const PAUSE_ENV: &str = "RVO_CLI_TEST_PAUSE";

#[cfg_attr(
    not(any(test, feature = "test-hooks")),
    allow(dead_code, reason = "read only by the test programs' pause hook")
)]
impl Phase {
    const ALL: [Phase; 4] = [
        Phase::Begun,
        Phase::Committing,
        Phase::Committed,
        Phase::Proposed,
    ];

    /// The name used in [`PAUSE_ENV`] and in the pause marker.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Begun => "begun",
            Phase::Committing => "committing",
            Phase::Committed => "committed",
            Phase::Proposed => "proposed",
        }
    }
}

#[cfg(any(test, feature = "test-hooks"))]
mod enabled {
    use super::Phase;
    use std::io::Write;
    use std::sync::OnceLock;
    use std::time::Duration;

    /// The pause of this process, once a test program installed one.
    static INSTALLED: OnceLock<Pause> = OnceLock::new();

    /// Where (if anywhere) the writer pauses.
    #[derive(Debug, Clone, Copy, Default)]
    pub(super) struct Pause(Option<(Phase, Duration)>);

    impl Pause {
        /// The pause installed with [`install_pause`], else none.
        pub(super) fn installed() -> Self {
            INSTALLED.get().copied().unwrap_or_default()
        }

        /// Pause at `phase` for `duration`.
        pub(super) fn at(phase: Phase, duration: Duration) -> Self {
            Pause(Some((phase, duration)))
        }

        /// Announces and sleeps when `phase` is the installed one.
        #[allow(
            clippy::disallowed_methods,
            reason = "test-only pause hook, read on stderr"
        )]
        pub(super) fn at_phase(&self, phase: Phase) {
            if let Some((wanted, duration)) = self.0
                && wanted == phase
            {
                let mut stderr = std::io::stderr().lock();
                let _ = writeln!(stderr, "RVO_CLI_TEST_PAUSED {}", phase.as_str());
                let _ = stderr.flush();
                drop(stderr);
                std::thread::sleep(duration);
            }
        }
    }

    /// Parses `<phase>:<milliseconds>` (the value of [`PAUSE_ENV`](super::PAUSE_ENV)), e.g.
    /// `begun:30000`; anything else is `None`.
    pub fn parse_pause(value: &str) -> Option<(Phase, Duration)> {
        let (name, millis) = value.split_once(':')?;
        let phase = Phase::ALL
            .into_iter()
            .find(|phase| phase.as_str() == name)?;
        Some((phase, Duration::from_millis(millis.parse().ok()?)))
    }

    /// Makes this process's filings pause at `phase` for `duration`.
    /// For test programs only; the first call wins.
    pub fn install_pause(phase: Phase, duration: Duration) {
        let _ = INSTALLED.set(Pause::at(phase, duration));
    }
}

#[cfg(not(any(test, feature = "test-hooks")))]
mod enabled {
    use super::Phase;

    /// No hook in this build: never pauses.
    #[derive(Debug, Clone, Copy, Default)]
    pub(crate) struct Pause;

    impl Pause {
        /// No hook in this build: no pause.
        pub(crate) fn installed() -> Self {
            Pause
        }

        /// No hook in this build: does nothing.
        #[inline(always)]
        pub(crate) fn at_phase(&self, _phase: Phase) {}
    }
}

#[cfg(any(test, feature = "test-hooks"))]
pub use enabled::{install_pause, parse_pause};

//! Test-only pause hook for crash tests of the local store.
//!
//! A crash test needs the writer to stop at a known point so it can `kill -9` it there. The hook
//! exists only in builds with `cfg(test)` (this crate's unit tests) or the `test-hooks` cargo
//! feature (which the CLI's integration tests enable and release builds never do). In every
//! other build [`Pause`] is an empty type whose methods compile to nothing, and the environment
//! variable is never read, so it cannot be switched on from outside a test build.
//!
//! In a hook-enabled build, `RVO_CLI_TEST_PAUSE=<phase>:<milliseconds>` (phase one of `locked`,
//! `half-written`, `synced`, `committing`, `renamed`) makes the writer print
//! `RVO_CLI_TEST_PAUSED <phase>` on stderr and sleep at that point.

/// Points in a filing where a crash test can pause the writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Holding the lock; nothing written yet.
    Locked,
    /// Half of the record written to the temporary file (flushed, not synced).
    HalfWritten,
    /// The temporary file is complete and synced; the last point of
    /// [`prepare`](super::LocalStore::prepare). In the CLI: the audit record is not yet written.
    Synced,
    /// [`commit`](super::PendingFiling::commit) has started; the record is not yet renamed into
    /// place. In the CLI: the audit record is written and synced.
    Committing,
    /// The record is in place; the directory is not yet synced.
    Renamed,
}

/// Name of the environment variable read by hook-enabled builds.
#[cfg(any(test, feature = "test-hooks"))]
pub const PAUSE_ENV: &str = "RVO_CLI_TEST_PAUSE";

#[cfg_attr(not(any(test, feature = "test-hooks")), allow(dead_code))]
impl Phase {
    const ALL: [Phase; 5] = [
        Phase::Locked,
        Phase::HalfWritten,
        Phase::Synced,
        Phase::Committing,
        Phase::Renamed,
    ];

    /// The name used in [`PAUSE_ENV`].
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Locked => "locked",
            Phase::HalfWritten => "half-written",
            Phase::Synced => "synced",
            Phase::Committing => "committing",
            Phase::Renamed => "renamed",
        }
    }
}

#[cfg(any(test, feature = "test-hooks"))]
mod enabled {
    use super::{PAUSE_ENV, Phase};
    use std::io::Write;
    use std::time::Duration;

    /// Where (if anywhere) the writer pauses.
    #[derive(Debug, Clone, Copy, Default)]
    pub struct Pause(Option<(Phase, Duration)>);

    impl Pause {
        /// Reads [`PAUSE_ENV`]; an unset or malformed value means no pause.
        pub fn from_env() -> Self {
            let parsed = std::env::var(PAUSE_ENV).ok().and_then(|value| {
                let (name, millis) = value.split_once(':')?;
                let phase = Phase::ALL
                    .into_iter()
                    .find(|phase| phase.as_str() == name)?;
                Some((phase, Duration::from_millis(millis.parse().ok()?)))
            });
            Pause(parsed)
        }

        /// Pause at `phase` for `duration`.
        pub fn at(phase: Phase, duration: Duration) -> Self {
            Pause(Some((phase, duration)))
        }

        /// Announces and sleeps when `phase` is the configured one.
        pub fn at_phase(&self, phase: Phase) {
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
}

#[cfg(not(any(test, feature = "test-hooks")))]
mod enabled {
    use super::Phase;

    /// No hook in this build: never pauses.
    #[derive(Debug, Clone, Copy, Default)]
    pub struct Pause;

    impl Pause {
        /// No hook in this build: ignores the environment.
        pub fn from_env() -> Self {
            Pause
        }

        /// No hook in this build: does nothing.
        #[inline(always)]
        pub fn at_phase(&self, _phase: Phase) {}
    }
}

pub use enabled::Pause;

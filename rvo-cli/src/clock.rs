//! What "now" is, with a fixed instant for tests that must not depend on the calendar.
//!
//! In every build without `cfg(test)` or the `test-hooks` feature (so in every installed binary)
//! [`fixed_now`] is always `None` and the tool uses the system clock: nothing from outside can
//! move its date, so no date check can be bypassed this way. Where the hook is compiled in, only
//! a test program installs a fixed instant: the `rvo-cli-test-hooks` binary reads
//! `RVO_CLI_TEST_NOW=<RFC 3339>` ([`NOW_ENV`]); the `rvo-cli` binary never reads it.

use chrono::{DateTime, Utc};

/// The environment variable the test program reads (never the library or `rvo-cli` itself).
#[cfg(any(test, feature = "test-hooks"))]
pub const NOW_ENV: &str = "RVO_CLI_TEST_NOW";

#[cfg(any(test, feature = "test-hooks"))]
static FIXED: std::sync::OnceLock<DateTime<Utc>> = std::sync::OnceLock::new();

/// Fixes "now" for the rest of the process (test programs only; a second call is ignored).
#[cfg(any(test, feature = "test-hooks"))]
pub fn install_now(now: DateTime<Utc>) {
    let _ = FIXED.set(now);
}

/// The fixed instant of a test program, if one was installed; `None` in every installed binary.
pub fn fixed_now() -> Option<DateTime<Utc>> {
    #[cfg(any(test, feature = "test-hooks"))]
    {
        FIXED.get().copied()
    }
    #[cfg(not(any(test, feature = "test-hooks")))]
    {
        None
    }
}

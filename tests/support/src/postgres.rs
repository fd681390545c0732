//! The PostgreSQL database of the shared-store tests: `OVERHEID_TEST_POSTGRES_URL`, which
//! `tests/postgres/run.sh` sets after starting a throwaway cluster on a loopback port. Without it
//! a test is skipped with one line on stderr past libtest's capture; with
//! `OVERHEID_TEST_REQUIRE_POSTGRES=1` (as `.ci/run` sets) a skip fails the test instead.

/// The URL of the test database (it holds a password: never print it).
pub const URL_VAR: &str = "OVERHEID_TEST_POSTGRES_URL";

/// The CA of the test database's TLS certificate (PEM), for `sslmode=require`.
pub const CA_VAR: &str = "OVERHEID_TEST_POSTGRES_CA";

/// Set to `1` where the database must be there (CI).
pub const REQUIRED_VAR: &str = "OVERHEID_TEST_REQUIRE_POSTGRES";

/// The test database's URL, or `None` after saying the test is skipped.
///
/// # Panics
/// When there is none and `OVERHEID_TEST_REQUIRE_POSTGRES=1`.
pub fn url() -> Option<String> {
    given(URL_VAR)
}

/// The file of the CA that signed the test database's TLS certificate (`tests/postgres/run.sh`
/// makes both), or `None` after saying the test is skipped.
///
/// # Panics
/// When there is none and `OVERHEID_TEST_REQUIRE_POSTGRES=1`.
pub fn ca() -> Option<String> {
    given(CA_VAR)
}

/// The value of `name`, or `None` after saying the test is skipped (a failure where required).
fn given(name: &str) -> Option<String> {
    if let Some(value) = std::env::var(name).ok().filter(|v| !v.is_empty()) {
        return Some(value);
    }
    assert!(
        std::env::var_os(REQUIRED_VAR).is_none_or(|v| v != "1"),
        "{REQUIRED_VAR}=1 maar {name} is niet gezet (tests/postgres/run.sh zet hem)"
    );
    crate::skip::skipped_in("postgres", &format!("zet {name} (tests/postgres/run.sh)"));
    None
}

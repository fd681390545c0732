//! Integration tests of the rvo-cli binary: every call is a fresh process in a clean
//! environment, with its own temporary store and audit log.

mod concurrency;
mod crash;
mod discovery;
mod http;
mod http_status;
mod indienen;
mod regeling;
mod scrub;
mod sessie;
mod support;

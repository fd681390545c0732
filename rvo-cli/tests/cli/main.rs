//! Integration tests of rvo-cli, in one test binary (one link step): the binary, where every call
//! is a fresh process in a clean environment with its own temporary store and audit log, and the
//! library's public API (`catalogue`, `filing`).
#![allow(
    clippy::too_many_lines,
    reason = "a test is one scenario read top to bottom; the lint holds production code (issue 42.5)"
)]

mod calendar;
mod catalogue;
mod concept;
mod concurrency;
mod crash;
mod discovery;
mod filing;
mod goedkeuring;
mod golden;
mod http;
mod http_status;
mod indienen;
mod interrupt;
mod opslag;
mod otlp;
mod regeling;
mod scrub;
mod sessie;
mod shared_args;
mod support;
mod unreadable_env;
mod voorstel;

//! Test support for the overheid CLI family: recording fake upstream servers, and running the
//! tools themselves in integration tests.
//!
//! - [`FakeServer`] runs a handler on `127.0.0.1:<free port>` on its own threads, records
//!   every request ([`RecordedRequest`]) and stops on drop.
//! - [`Reply`] builds answers, including misbehaving ones (stalls, truncated JSON, HTML
//!   error pages, redirects).
//! - [`kvk::kvk`] is a fake KvK API (Zoeken v2, Basisprofiel, Vestigingsprofiel, Naamgeving)
//!   over hand-written fixtures; mount it under any base path.
//! - [`koop::koop`] is a fake KOOP (SRU search service and toestand repository) over the
//!   koop-cli fixtures.
//! - [`Mounts`] puts several sources behind one port by path prefix.
//! - [`cli`] runs a tool in a sandbox with a clean environment and checks its output, errors
//!   and audit records against the profile and `spec/schemas/`.
//! - [`idp`] is a fake identity provider (device login, authorization code, RAR, JWT access
//!   tokens); [`rvo`] a fake RVO backend of contract 2.0 that files only with a person's token.
//! - [`otlp`] decodes the spans an OTLP/HTTP export sent to a fake Logboek.
//! - [`conformance`] finds RegelRecht's own conformance material, or skips a test visibly.
//! - [`postgres`] names the shared-store tests' PostgreSQL database, or skips a test visibly.
//! - [`skip`] is how a test skips for what the machine lacks: one line the harness shows, or a
//!   failure where nothing may be skipped (`OVERHEID_TEST_NO_SKIP=1`).
//! - [`golden`] compares output with checked-in golden files (`GOLDEN_BLESS=1` rewrites them).
//!
//! The `fake-upstream` binary serves the same routers for benchmarks and offline use:
//!
//! ```text
//! fake-upstream [--port N] [--bind 127.0.0.1] [--source kvk]...
//! ```
//!
//! Each source is mounted under `/<name>` (`/kvk/v1/basisprofielen/68750110`). Its stdout is
//! shell to `source`: a first line `# http://127.0.0.1:PORT` (the root URL), then `export`
//! lines (`export KVK_API_BASE=http://127.0.0.1:PORT/kvk`, and `export KVK_API_KEY=demo-sleutel`,
//! a key the fake accepts). With `--log` each request is logged as one line on stderr. Only loopback
//! addresses can be bound.
#![allow(clippy::disallowed_methods, reason = "test switches")]

pub mod cli;
pub mod conformance;
pub mod golden;
pub mod idp;
pub mod jwt;
pub mod koop;
pub mod kvk;
pub mod lines;
mod mount;
pub mod otlp;
pub mod postgres;
mod reply;
mod request;
pub mod rvo;
pub mod schema;
mod server;
pub mod skip;
pub mod sources;

pub use mount::Mounts;
pub use reply::Reply;
pub use request::RecordedRequest;
pub use server::{FakeServer, Handler};

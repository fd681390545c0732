//! The overheid CLI profile, implemented once for every tool of the family.
//!
//! A tool defines its commands with clap, declares what clap cannot express in
//! a [`ToolInfo`] side table, and hands control to [`main`]. Everything the
//! profile prescribes (discovery, output modes, `--fields`, `--provenance`,
//! structured errors and exit codes, dry runs, confirmed mutations, the audit
//! log, the HTTP client, the environment) lives here and nowhere else. The
//! normative text is `spec/CLI-PROFILE.md`.

/// The static build's allocator (`dist/build.sh`): musl's own is slow (a batch of 100,000
/// cases took 1.4× as long with it; `bench/RESULTS.md`), so there the programs use jemalloc, as
/// ripgrep does. The glibc build keeps glibc's.
#[cfg(target_env = "musl")]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

pub mod app;
pub mod args;
pub mod audit;
pub mod cache;
pub mod calendar;
pub mod child;
pub mod cli;
pub mod codes;
pub mod consistency;
pub mod context;
pub mod crash;
pub mod digest;
pub mod discovery;
pub mod entry;
pub mod env;
pub mod error;
pub mod exit;
pub mod fields;
pub mod globals;
pub mod help;
pub mod http;
pub mod input;
pub mod interrupt;
pub mod jq;
pub mod lines;
pub mod number;
pub mod output;
pub mod paging;
pub mod plan;
pub mod provenance;
pub mod render;
pub mod secrets;
pub mod session;
pub mod source;
pub mod spinner;
pub mod suggest;
pub mod tls;
pub mod tool;
pub mod trace;
pub mod trust;
pub mod usage;
pub mod validate;

pub use app::main;
pub use cli::{Cli, Commands, GlobalArgs};
pub use codes::Code;
pub use context::Context;
pub use env::{EnvKind, EnvVar};
pub use error::{Error, FieldError, Problem, Result};
pub use exit::ExitStatus;
pub use http::{Request, Response};
pub use plan::{Checked, Passed, PlanSpec};
pub use provenance::{Environment, Outcome};
pub use tool::{Annotations, ArgSchema, CommandSpec, ResourceSpec, ToolInfo};

/// The version of the profile this crate implements.
pub const PROFILE_VERSION: &str = "2.0";

//! Integration tests of koop-cli against the fake KOOP (SRU search service and repository) of
//! test-support, one test binary. Every test starts its own fakes on 127.0.0.1 and runs the tool
//! in a clean environment with a temporary audit log; tests cite the rules of
//! `spec/CLI-PROFILE.md` they check. [`parser`] tests the library's parsers in-process, in the
//! same binary.

mod bounds;
mod cache;
mod commands;
mod cross_tool;
mod discovery;
mod dry_run;
mod errors;
mod golden;
mod network;
mod parser;
mod provenance;
mod shared_args;
mod support;
mod text;

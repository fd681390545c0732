//! Integration tests of kvk-cli against the recording fake KvK, one test binary (as
//! ripgrep and cargo organise theirs). Every test starts its own fake on 127.0.0.1, runs
//! the tool in a clean environment with a temporary audit log, and cites the rule of
//! `spec/CLI-PROFILE.md` it checks.

mod audit;
mod audit_hardening;
mod discovery;
mod dry_run;
mod errors;
mod fields;
mod golden;
mod hostile_env;
mod hostile_http;
mod jq;
mod network;
mod otlp;
mod output;
mod paging;
mod precision;
mod provenance;
mod scrub;
mod session;
mod shape;
mod shared_args;
mod support;
mod tls;

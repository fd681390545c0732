//! The program, the top floor: the entry point, the lifecycle of one invocation (`app`), the
//! parser, help and usage errors, discovery (`--help --json`), `--jq`, and the consistency checks
//! every tool's tests run over its declarations.

pub(crate) mod app;
pub(crate) mod cli;
pub(crate) mod consistency;
pub(crate) mod discovery;
pub(crate) mod entry;
pub(crate) mod help;
pub(crate) mod jq;
pub(crate) mod usage;

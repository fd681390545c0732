//! sjabloon: a read-only tool of the overheid CLI family, to copy for a new source. The
//! commands and what the tool declares about itself live under `src/cli/`; `common::entry!`
//! runs them with the profile (parsing, discovery, the gate, the printer, the audit record).

#![cfg_attr(
    all(target_os = "linux", target_env = "gnu", not(any(test, rust_main))),
    no_main
)]

mod cli;

common::entry!(cli::Command, &cli::tool::TOOL);

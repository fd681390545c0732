//! regelrecht-cli: machine-readable Dutch law (RegelRecht format) evaluated offline, with its
//! legal basis, following the overheid CLI profile. The binary's modules live under `src/cli/`.

#![cfg_attr(
    all(target_os = "linux", target_env = "gnu", not(any(test, rust_main))),
    no_main
)]

mod cli;

common::entry!(cli::Command, &cli::tool::TOOL);

//! koop-cli: Dutch legislation (BWB) from the KOOP SRU search service and the official toestand XML,
//! following the overheid CLI profile.

#![cfg_attr(
    all(target_os = "linux", target_env = "gnu", not(any(test, rust_main))),
    no_main
)]

mod cli;

common::entry!(cli::Command, &cli::tool::TOOL);

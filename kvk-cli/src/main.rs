//! kvk-cli: the KvK Handelsregister on the command line, following the overheid CLI profile.
//! The binary's modules live under `src/cli/`.

mod cli;

common::entry!(cli::Command, &cli::tool::TOOL);

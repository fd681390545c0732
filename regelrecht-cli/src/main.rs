//! regelrecht-cli: machine-readable Dutch law (RegelRecht format) evaluated offline, with its
//! legal basis, following the overheid CLI profile. The binary's modules live under `src/cli/`.

mod cli;

common::entry!(cli::Command, &cli::tool::TOOL);

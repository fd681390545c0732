//! rvo-cli: RVO schemes and exactly-once report filing on the command line, following the
//! overheid CLI profile. The binary's modules live under `src/cli/`; the source-specific core is
//! the `rvo_cli` library (`src/lib.rs`).

mod cli;

common::entry!(cli::Command, &cli::tool::TOOL);

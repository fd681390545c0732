//! rvo-cli: RVO schemes and exactly-once report filing on the command line, following the
//! overheid CLI profile. The source-specific core is the `rvo_cli` library next to this file.

mod backend;
mod cli;
mod commands;
mod tool;

fn main() -> std::process::ExitCode {
    common::main::<cli::Command>(&tool::TOOL)
}

//! koop-cli: Dutch legislation (BWB) from the KOOP SRU search service and the official toestand XML,
//! following the overheid CLI profile.

mod cli;
mod commands;
mod source;
mod tool;

fn main() -> std::process::ExitCode {
    common::main::<cli::Command>(&tool::TOOL)
}

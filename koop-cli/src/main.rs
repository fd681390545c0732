//! koop-cli: Dutch legislation (BWB) from the KOOP SRU search service and the official toestand XML,
//! following the overheid CLI profile.

mod cli;

fn main() -> std::process::ExitCode {
    common::main::<cli::Command>(&cli::tool::TOOL)
}

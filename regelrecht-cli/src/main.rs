//! regelrecht-cli: machine-readable Dutch law (RegelRecht format) evaluated offline, with its
//! legal basis, following the overheid CLI profile. The binary's modules live under `src/cli/`.

mod cli;

fn main() -> std::process::ExitCode {
    common::main::<cli::Command>(&cli::tool::TOOL)
}

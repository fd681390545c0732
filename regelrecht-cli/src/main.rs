//! regelrecht-cli: machine-readable Dutch law (RegelRecht format) evaluated offline, with its
//! legal basis, following the overheid CLI profile.

mod cli;
mod commands;
mod laws;
mod problems;
mod tool;

fn main() -> std::process::ExitCode {
    common::main::<cli::Command>(&tool::TOOL)
}

//! kvk-cli: the KvK Handelsregister on the command line, following the overheid CLI profile.

mod cli;
mod commands;
mod shape;
mod source;
mod tool;

fn main() -> std::process::ExitCode {
    common::main::<cli::Command>(&tool::TOOL)
}

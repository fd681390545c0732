//! kvk-cli: the KvK Handelsregister on the command line, following the overheid CLI profile.
//! The binary's modules live under `src/cli/`.

#![warn(
    unreachable_pub,
    reason = "a binary: `pub` would promise an API nobody can use"
)]

mod cli;

fn main() -> std::process::ExitCode {
    common::main::<cli::Command>(&cli::tool::TOOL)
}

//! kvk-cli: the KvK Handelsregister on the command line, following the overheid CLI profile.

#![warn(
    unreachable_pub,
    reason = "a binary: `pub` would promise an API nobody can use"
)]

mod cli;
mod commands;
mod shape;
mod source;
mod tool;

fn main() -> std::process::ExitCode {
    common::main::<cli::Command>(&tool::TOOL)
}

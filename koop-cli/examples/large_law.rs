//! Writes the generated large law to stdout, for the bench script and the fake repository server:
//! `cargo run --release -p koop-cli --example large_law -- [MB] > BWBR9999999.xml`.
#![allow(
    clippy::disallowed_methods,
    reason = "a generator, not a tool of the profile"
)]

use std::io::Write;

fn main() {
    let megabytes: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    let xml = koop_cli::generate::large_law(megabytes * 1024 * 1024);
    std::io::stdout()
        .lock()
        .write_all(xml.as_bytes())
        .expect("stdout schrijfbaar");
}

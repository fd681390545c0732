//! Manual timing of the toestand parser on a generated large law (run in release mode, by hand):
//! `cargo run --release -p koop-cli --example parse_timing -- [MB] [full|artikel|nummers|json]`.
//!
//! Generates the law (or reads it from `KOOP_TIMING_FILE`), then reports the best of 5 runs and the peak
//! RSS (VmHWM) of the process relative to the input size.
#![allow(clippy::print_stdout, reason = "an example")]
#![allow(clippy::disallowed_methods, reason = "its own switch")]

use std::time::Instant;

use koop_cli::generate::large_law;
use koop_cli::toestand::{artikel_nummers, extract_artikel, parse_toestand};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let megabytes: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(10);
    let mode = args.get(1).map(String::as_str).unwrap_or("full");
    let body: Vec<u8> = match std::env::var("KOOP_TIMING_FILE") {
        Ok(path) => std::fs::read(path).expect("bestand leesbaar"),
        Err(_) => large_law(megabytes * 1024 * 1024).into_bytes(),
    };
    let before = peak_rss_kib();
    let mut best = f64::MAX;
    let mut size = 0usize;
    for _ in 0..5 {
        let start = Instant::now();
        size = match mode {
            "artikel" => {
                let numbers = artikel_nummers(&body).expect("nummers");
                let last = numbers.last().expect("een artikel");
                let start = Instant::now();
                let one = extract_artikel(&body, last).expect("artikel");
                best = best.min(start.elapsed().as_secs_f64() * 1000.0);
                one.artikel.tekst.len()
            }
            "nummers" => artikel_nummers(&body).expect("nummers").len(),
            "json" => serde_json::to_vec(&parse_toestand(&body).expect("parse"))
                .expect("json")
                .len(),
            _ => parse_toestand(&body).expect("parse").artikelen.len(),
        };
        if mode != "artikel" {
            best = best.min(start.elapsed().as_secs_f64() * 1000.0);
        }
    }
    let peak = peak_rss_kib();
    let input_kib = body.len() as f64 / 1024.0;
    println!(
        "mode={mode} input={:.1} MB result={size} best={best:.1} ms peak_rss={:.1} MB ({:.2}x input; before parsing {:.1} MB)",
        input_kib / 1024.0,
        peak / 1024.0,
        peak / input_kib,
        before / 1024.0
    );
}

fn peak_rss_kib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(str::to_owned)
        })
        .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        .unwrap_or(0.0)
}

//! Evaluates one output as a fresh process, like the CLI does; used to measure start-up cost.
//!
//! `cargo run --release --example evaluate -- [--corpus DIR] LAW_ID OUTPUT DATE [NAME=JSON ...]`
#![allow(clippy::print_stdout, reason = "an example")]
#![allow(clippy::print_stderr, reason = "an example")]
#![allow(clippy::disallowed_methods, reason = "its own switch")]

use regelrecht_engine::{Corpus, Engine, Request, Value, parse_iso_date};
use std::path::Path;

fn main() {
    let started = std::time::Instant::now();
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut corpus = Corpus::with_builtins();
    while args.first().is_some_and(|a| a == "--corpus") {
        corpus
            .add_dir(Path::new(&args[1]))
            .unwrap_or_else(|e| panic!("{e}"));
        args.drain(..2);
    }
    let [law_id, output, date, params @ ..] = args.as_slice() else {
        eprintln!("gebruik: evaluate [--corpus DIR] LAW_ID OUTPUT DATE [NAAM=JSON ...]");
        std::process::exit(2);
    };
    let params = params
        .iter()
        .map(|p| {
            let (k, v) = p.split_once('=').expect("NAAM=JSON");
            (
                k.to_string(),
                Value::from_json(&serde_json::from_str(v).expect("JSON")).expect("exact number"),
            )
        })
        .collect();
    let request = Request {
        law_id: law_id.clone(),
        outputs: vec![output.clone()],
        params,
        date: parse_iso_date(date).expect("datum"),
    };
    let loaded = started.elapsed();
    let result = Engine::new(&corpus).evaluate(&request);
    if std::env::var_os("REGELRECHT_TIMING").is_some() {
        eprintln!(
            "laden {} µs, totaal {} µs",
            loaded.as_micros(),
            started.elapsed().as_micros()
        );
    }
    match result {
        Ok(e) => println!("{}", e.outputs[output.as_str()]),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(65);
        }
    }
}

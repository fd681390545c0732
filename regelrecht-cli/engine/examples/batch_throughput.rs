//! In-process batch throughput: the same simple cases (JSON Lines, as `evalueer --batch`
//! reads them) evaluated one after the other with the corpus loaded once. Reports cases per
//! second for the engine alone (typed request → evaluation, without a trace, as
//! `evalueer --batch` runs it unless `--uitleg` or a receipt asks for one) and with the JSON
//! around it (parse the line, type the parameters, evaluate, write the result line).
//!
//! `cargo run --release -p regelrecht-engine --example batch_throughput -- [CASES] [JSONL]`
//! Without a file it generates CASES (default 200000) cases for the built-in Bal
//! (`heeft_informatieplicht`, six parameters, varying consumption); `--genereer N` prints
//! those cases as JSON Lines (for `evalueer --batch` and the reference harness).
#![allow(clippy::print_stdout, reason = "a benchmark")]
#![allow(clippy::print_stderr, reason = "a benchmark")]
#![allow(
    clippy::disallowed_methods,
    reason = "a benchmark reads its own arguments"
)]

use regelrecht_engine::params::typed_params;
use regelrecht_engine::{Corpus, Engine, Request, parse_iso_date};
use std::time::Instant;

const LAW: &str = "besluit_activiteiten_leefomgeving";
const OUTPUT: &str = "heeft_informatieplicht";

/// `cases` JSON Lines with varying electricity and gas use.
pub fn generate(cases: usize) -> String {
    let mut out = String::with_capacity(cases * 260);
    for i in 0..cases {
        let kwh = (i * 7919) % 120_000;
        let m3 = (i * 104_729) % 60_000;
        out.push_str(&format!(
            "{{\"id\":{i},\"params\":{{\"elektriciteitsverbruik_kwh\":{kwh},\"aardgasverbruik_m3\":{m3},\"betreft_gebruiksfunctie_bbl\":false,\"alleen_hernieuwbare_energie_op_locatie\":false,\"is_activiteit_artikel_3_3a_lid_1_onder_a\":false,\"is_activiteit_artikel_3_3a_lid_1_onder_b\":false}}}}\n"
        ));
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--genereer") {
        let n = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(200_000);
        print!("{}", generate(n));
        return;
    }
    let cases: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(200_000);
    let input = match args.get(1) {
        Some(path) => std::fs::read_to_string(path).expect("JSONL leesbaar"),
        None => generate(cases),
    };
    let corpus = Corpus::with_builtins();
    // Nobody reads the trace here (as in `evalueer --batch` without `--uitleg`).
    let engine = Engine::new(&corpus).tracing(false);
    let date = parse_iso_date("2026-01-01").expect("datum");
    let law = corpus
        .select(LAW, date)
        .expect("Bal")
        .law()
        .expect("Bal parseert");

    // Parse and type every case first: the engine alone is timed on ready requests.
    let parse_start = Instant::now();
    let requests: Vec<Request> = input
        .lines()
        .map(|line| {
            let case: serde_json::Value = serde_json::from_str(line).expect("JSON");
            let params = case["params"].as_object().expect("params");
            Request {
                law_id: LAW.into(),
                outputs: vec![OUTPUT.into()],
                params: typed_params(law, Some(params), &[])
                    .expect("getypeerd")
                    .values,
                date,
            }
        })
        .collect();
    let parsed = parse_start.elapsed();

    let start = Instant::now();
    let mut true_count = 0usize;
    for request in &requests {
        let evaluation = engine.evaluate(request).expect("evaluatie");
        if evaluation.outputs[OUTPUT].truthy() {
            true_count += 1;
        }
    }
    let engine_only = start.elapsed();

    let start = Instant::now();
    let mut bytes = 0usize;
    for line in input.lines() {
        let case: serde_json::Value = serde_json::from_str(line).expect("JSON");
        let request = Request {
            law_id: LAW.into(),
            outputs: vec![OUTPUT.into()],
            params: typed_params(law, case["params"].as_object(), &[])
                .expect("getypeerd")
                .values,
            date,
        };
        let evaluation = engine.evaluate(&request).expect("evaluatie");
        let uitvoer: serde_json::Map<String, serde_json::Value> = evaluation
            .outputs
            .iter()
            .map(|(k, v)| (k.clone(), v.to_json()))
            .collect();
        bytes += serde_json::json!({"id": case["id"], "uitvoer": uitvoer})
            .to_string()
            .len()
            + 1;
    }
    let with_json = start.elapsed();
    let n = requests.len() as f64;
    println!(
        "{{\"gevallen\":{},\"waar\":{true_count},\"engine_per_s\":{:.0},\"met_json_per_s\":{:.0},\"parse_en_typeer_per_s\":{:.0},\"uitvoer_bytes\":{bytes}}}",
        requests.len(),
        n / engine_only.as_secs_f64(),
        n / with_json.as_secs_f64(),
        n / parsed.as_secs_f64(),
    );
}

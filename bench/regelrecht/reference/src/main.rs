//! Reads JSON Lines cases (`{"id", "params"}`) and evaluates each with the reference engine,
//! the law loaded once; prints cases per second like `batch_throughput` does.
//!
//! `regelrecht-reference-bench LAW.yaml LAW_ID OUTPUT DATE CASES.jsonl`

use std::collections::BTreeMap;
use std::time::Instant;

use regelrecht_engine::{LawExecutionService, Value};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [law, law_id, output, date, cases] = args.as_slice() else {
        eprintln!("gebruik: LAW.yaml LAW_ID OUTPUT DATE CASES.jsonl");
        std::process::exit(2);
    };
    let mut service = LawExecutionService::new();
    service
        .load_law(&std::fs::read_to_string(law).expect("wet"))
        .expect("wet laadt");
    let input = std::fs::read_to_string(cases).expect("gevallen");
    let requests: Vec<BTreeMap<String, Value>> = input
        .lines()
        .map(|line| {
            let case: serde_json::Value = serde_json::from_str(line).expect("JSON");
            case["params"]
                .as_object()
                .expect("params")
                .iter()
                .map(|(k, v)| (k.clone(), Value::from(v)))
                .collect()
        })
        .collect();
    let start = Instant::now();
    for params in &requests {
        service
            .evaluate_law_output(law_id, output, params.clone(), date)
            .expect("evaluatie");
    }
    let elapsed = start.elapsed();
    println!(
        "{{\"gevallen\":{},\"engine_per_s\":{:.0}}}",
        requests.len(),
        requests.len() as f64 / elapsed.as_secs_f64()
    );
}

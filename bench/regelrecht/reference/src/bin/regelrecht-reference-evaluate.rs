//! One evaluation per process with the reference engine, the counterpart of one
//! `regelrecht-cli evalueer` call: reads the law files named on the command line, evaluates
//! one output with the parameters given as a JSON object, and prints the outputs as JSON.
//! The reference's own `evaluate` binary does the same from a JSON request on stdin; it lives
//! in a workspace that needs git dependencies, so the bench builds this instead.
//!
//! `regelrecht-reference-evaluate LAW_ID OUTPUT DATE PARAMS_JSON LAW.yaml [LAW.yaml …]`

use std::collections::BTreeMap;

use regelrecht_engine::{LawExecutionService, Value};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [law_id, output, date, params, laws @ ..] = args.as_slice() else {
        eprintln!("gebruik: LAW_ID OUTPUT DATE PARAMS_JSON LAW.yaml [LAW.yaml …]");
        std::process::exit(2);
    };
    let mut service = LawExecutionService::new();
    for law in laws {
        service
            .load_law(&std::fs::read_to_string(law).expect("wet leesbaar"))
            .expect("wet laadt");
    }
    let params: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(params).expect("PARAMS_JSON is een JSON-object");
    let params: BTreeMap<String, Value> = params
        .iter()
        .map(|(k, v)| (k.clone(), Value::from(v)))
        .collect();
    match service.evaluate_law_output(law_id, output, params, date) {
        Ok(result) => {
            let outputs: BTreeMap<String, serde_json::Value> = result
                .outputs
                .iter()
                .map(|(k, v)| (k.clone(), serde_json::Value::from(v)))
                .collect();
            println!("{}", serde_json::json!({ "outputs": outputs }));
        }
        Err(err) => {
            eprintln!("{err}");
            std::process::exit(1);
        }
    }
}

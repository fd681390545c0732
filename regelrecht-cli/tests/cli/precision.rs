//! Exact numbers from input to output: a number from `--param` or `--param-json` keeps every
//! digit (no binary floating point on the way); one without an exact decimal is 65, never a
//! rounded value.

use std::io::Write;
use std::process::Stdio;

use crate::evalueer::PARAMS;
use crate::support::{BAL, Sandbox};

/// 29 significant digits: exact in the engine's decimal, not in an f64.
const EXACT: &str = "12345678901234567890.123456789";

/// The Bal facts without the electricity use, which each test gives itself.
const FIXED: &[&str] = PARAMS.split_at(2).1;

fn evalueer<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "evalueer",
        BAL,
        "--peildatum",
        "2026-01-01",
        "--uitvoer",
        "heeft_onderzoeksplicht",
    ];
    args.extend(FIXED);
    args.extend(extra);
    args
}

/// The raw text of `gebruikte_invoer.elektriciteitsverbruik_kwh` in the compact output.
fn used_kwh(stdout: &str) -> &str {
    let key = "\"elektriciteitsverbruik_kwh\":";
    let start = stdout.rfind(key).expect("kwh in gebruikte_invoer") + key.len();
    let end = start + stdout[start..].find([',', '}']).expect("end of number");
    &stdout[start..end]
}

#[test]
fn a_number_from_param_keeps_every_digit() {
    let sandbox = Sandbox::new();
    let param = format!("elektriciteitsverbruik_kwh={EXACT}");
    let outcome = sandbox.run(evalueer(&["--param", &param]));
    assert_eq!(outcome.code, 0, "{outcome:#?}");
    assert_eq!(used_kwh(&outcome.stdout), EXACT);
}

#[test]
fn a_number_from_param_json_keeps_every_digit() {
    let sandbox = Sandbox::new();
    let mut child = sandbox
        .process(&evalueer(&["--param-json", "-"]))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    let json = format!("{{\"elektriciteitsverbruik_kwh\": {EXACT}}}");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(json.as_bytes())
        .expect("write");
    let output = child.wait_with_output().expect("wait");
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    assert_eq!(used_kwh(&stdout), EXACT);
}

#[test]
fn a_number_beyond_the_decimal_range_is_65_not_rounded() {
    let sandbox = Sandbox::new();
    for number in [
        "123456789012345678901234567890",
        "0.12345678901234567890123456789",
        "1e40",
    ] {
        let param = format!("elektriciteitsverbruik_kwh={number}");
        let error = sandbox.run(evalueer(&["--param", &param])).error(65);
        let detail = error["detail"].as_str().expect("detail");
        assert!(detail.contains("niet exact"), "{number}: {detail}");
        let file = sandbox.write(
            "groot.json",
            &format!("{{\"elektriciteitsverbruik_kwh\": {number}}}"),
        );
        let file = file.display().to_string();
        let error = sandbox.run(evalueer(&["--param-json", &file])).error(65);
        let detail = error["detail"].as_str().expect("detail");
        assert!(detail.contains("niet exact"), "{number}: {detail}");
    }
}

/// The example the README gives: the reference engine reads this through `f64` and computes
/// with 20.99999999999999600; this engine keeps what it says, in a batch as anywhere.
#[test]
fn a_batch_case_keeps_its_digits_and_a_wrong_json_type_stays_65() {
    let sandbox = Sandbox::new();
    let params = ",\"aardgasverbruik_m3\":31000,\"betreft_gebruiksfunctie_bbl\":false,\"alleen_hernieuwbare_energie_op_locatie\":false,\"is_activiteit_artikel_3_3a_lid_1_onder_a\":false,\"is_activiteit_artikel_3_3a_lid_1_onder_b\":false";
    let input = format!(
        "{{\"id\":1,\"params\":{{\"elektriciteitsverbruik_kwh\":20.999999999999996{params}}}}}\n{{\"id\":2,\"params\":{{\"elektriciteitsverbruik_kwh\":true{params}}}}}\n"
    );
    let file = sandbox.write("cases.jsonl", &input);
    let outcome = sandbox.run([
        "evalueer",
        BAL,
        "--peildatum",
        "2026-01-01",
        "--uitvoer",
        "heeft_onderzoeksplicht",
        "--batch",
        &file.display().to_string(),
    ]);
    assert_eq!(outcome.code, 1, "{outcome:#?}");
    let mut lines = outcome.stdout.lines();
    assert_eq!(
        used_kwh(lines.next().expect("case 1")),
        "20.999999999999996"
    );
    let refused: serde_json::Value = serde_json::from_str(lines.next().expect("case 2")).unwrap();
    assert_eq!(refused["fout"]["exit_code"], 65, "{refused}");
    assert!(
        refused["fout"]["detail"]
            .as_str()
            .unwrap()
            .contains("boolean"),
        "{refused}"
    );
}

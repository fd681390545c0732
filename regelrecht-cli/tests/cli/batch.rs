//! `evalueer --batch`: JSON Lines in and out, in order; a bad case never stops the batch;
//! exit 0 only when every case succeeded, else 1 with the summary on stderr; one audit record
//! per data subject.

use serde_json::Value;

use crate::support::{Sandbox, assert_valid_against, corpus_dir};

const BSN_LAW: &str = "$id: bsn_wet\nname: Wet met een burger\nregulatory_layer: WET\nvalid_from: '2025-01-01'\narticles:\n  - number: '1'\n    machine_readable:\n      execution:\n        parameters:\n          - name: bsn\n            type: string\n          - name: inkomen\n            type: amount\n            type_spec: {min: 0, max: 10000000}\n        output:\n          - name: dubbel\n            type: amount\n        actions:\n          - output: dubbel\n            value: {operation: MULTIPLY, values: [$inkomen, 2]}\n";

fn line_schema() -> Value {
    serde_json::from_str(include_str!("../../schemas/evalueer_batch_regel.json")).unwrap()
}

fn lines(stdout: &str) -> Vec<Value> {
    let schema = line_schema();
    stdout
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("each line is one JSON document");
            assert_eq!(serde_json::to_string(&v).unwrap(), l, "compact");
            assert_valid_against(&schema, &v, "batch line");
            v
        })
        .collect()
}

#[test]
fn cases_come_back_in_order_and_a_bad_case_does_not_stop_the_batch() {
    let sandbox = Sandbox::new();
    sandbox.write("w/bsn_wet.yaml", BSN_LAW);
    let dir = sandbox.path().join("w").display().to_string();
    let input = sandbox.write(
        "cases.jsonl",
        "{\"id\": 1, \"params\": {\"bsn\": \"111\", \"inkomen\": 5}}\nkapot\n\n{\"id\": \"x\", \"params\": {\"inkomen\": \"veel\"}}\n{\"id\": 4, \"params\": {\"inkomen\": 20000000}}\n{\"id\": 5, \"params\": {\"bsn\": \"222\", \"inkomen\": 7}, \"uitvoer\": [\"bestaat_niet\"]}\n{\"id\": 6, \"params\": {\"bsn\": \"222\", \"inkomen\": 8}, \"peildatum\": \"2024-01-01\"}\n{\"id\": 7, \"params\": {\"bsn\": \"333\", \"inkomen\": 9}, \"extra\": 1}\n{\"id\": 8, \"params\": {\"bsn\": \"222\", \"inkomen\": 10}}\n",
    );
    let out = sandbox.run([
        "evalueer",
        "bsn_wet",
        "--uitvoer",
        "dubbel",
        "--batch",
        &input.display().to_string(),
        "--corpus",
        &dir,
        "--peildatum",
        "2025-06-01",
    ]);
    assert_eq!(out.code, 1, "{out:?}");
    let got = lines(&out.stdout);
    let ids: Vec<&Value> = got.iter().map(|l| &l["id"]).collect();
    assert_eq!(
        ids,
        [
            &1.into(),
            &Value::Null,
            &"x".into(),
            &4.into(),
            &5.into(),
            &6.into(),
            &7.into(),
            &8.into()
        ]
    );
    assert_eq!(got[0]["resultaat"]["uitvoer"]["dubbel"], 10);
    assert_eq!(got[7]["resultaat"]["uitvoer"]["dubbel"], 20);
    for (i, code) in [
        (1, "ONGELDIGE_INVOER"),
        (2, "ONGELDIGE_INVOER"),
        (3, "ONGELDIGE_INVOER"),
        (4, "ONGELDIGE_INVOER"),
        (5, "NIET_GEVONDEN"),
        (6, "ONGELDIGE_INVOER"),
    ] {
        assert_eq!(got[i]["fout"]["code"], code, "line {i}: {}", got[i]);
    }
    assert!(
        got[3]["fout"]["detail"]
            .as_str()
            .unwrap()
            .contains("maximum"),
        "type_spec max: {}",
        got[3]
    );
    assert_eq!(got[1]["fout"]["regel"], 2);
    let mut stderr = out.stderr.lines();
    assert_eq!(stderr.next(), Some("8 gevallen: 2 gelukt, 6 gefaald"));
    let error: Value = serde_json::from_str(stderr.next().unwrap()).unwrap();
    assert_eq!(
        (error["code"].as_str(), error["exit_code"].as_i64()),
        (Some("BATCH_DEELS_GEFAALD"), Some(1))
    );

    // One audit record for the call, one child per distinct data subject of a successful or
    // attempted case (111 and 222; 333's line was refused before evaluation).
    let records = sandbox.audit_records();
    let subjects: Vec<&str> = records
        .iter()
        .filter_map(|r| r["attributes"]["dpl.core.data_subject_id"].as_str())
        .collect();
    assert_eq!(subjects, ["111", "222"], "{records:#?}");
}

#[test]
fn an_all_good_batch_from_stdin_exits_0_with_its_summary() {
    test_support::conformance_dir!();
    let sandbox = Sandbox::new();
    let corpus = corpus_dir().display().to_string();
    let mut input = String::new();
    for i in 0..200 {
        input.push_str(&format!(
            "{{\"id\": {i}, \"params\": {{\"bedrag\": {i}}}, \"uitvoer\": [\"afgerond_bedrag\", \"basistoeslag\"]}}\n"
        ));
    }
    let mut cmd = sandbox.cmd();
    cmd.args([
        "evalueer",
        "test_untranslatables",
        "--batch",
        "-",
        "--onvertaalbaar",
        "propagate",
        "--corpus",
        &corpus,
        "--peildatum",
        "2025-06-01",
    ]);
    let output = cmd.write_stdin(input).output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "200 gevallen: 200 gelukt, 0 gefaald\n"
    );
    let got = lines(&String::from_utf8(output.stdout).unwrap());
    assert_eq!(got.len(), 200);
    // A tainted amount is its mark, in every line as in a single evaluation.
    assert_eq!(
        got[199]["resultaat"]["uitvoer"]["afgerond_bedrag"]["__untranslatable"],
        true
    );
    assert_eq!(
        got[5]["resultaat"]["onvertaalbaar"]["gemarkeerd"],
        serde_json::json!(["afgerond_bedrag"])
    );
}

#[test]
fn batch_conflicts_with_single_case_parameters_and_needs_readable_input() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(["evalueer", "x", "--batch", "-", "--param", "a=1"]);
    assert_eq!(out.code, 2, "{out:?}");
    let error = sandbox
        .run(["evalueer", "x", "--batch", "bestaat/niet.jsonl"])
        .error(65);
    assert_eq!(error["errors"][0]["pointer"], "/batch");
}

#[test]
fn with_uitleg_and_a_receipt_a_batch_line_explains_as_a_single_evaluation_does() {
    let params = bal_params(62_000, 31_000);
    let base = BAL_BATCH;
    let batch = |extra: &[&str]| {
        let sandbox = Sandbox::new();
        let mut cmd = sandbox.cmd();
        cmd.args(base).args(["--batch", "-"]).args(extra);
        let output = cmd
            .write_stdin(format!("{{\"id\": 1, \"params\": {params}}}\n"))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        lines(&String::from_utf8(output.stdout).unwrap()).remove(0)["resultaat"].clone()
    };
    let single = {
        let sandbox = Sandbox::new();
        let mut cmd = sandbox.cmd();
        // The same facts as `params`, given one by one.
        cmd.args(base)
            .args(crate::evalueer::PARAMS)
            .args(["--uitleg", "--ontvangstbewijs"]);
        crate::support::run(cmd, Vec::<String>::new()).json()
    };
    let explained = batch(&["--uitleg", "--ontvangstbewijs"]);
    let steps = explained["uitleg"].as_array().expect("uitleg");
    assert!(steps.iter().any(|s| s["soort"] == "actie"), "{steps:#?}");
    assert_eq!(explained["uitleg"], single["uitleg"]);
    assert_eq!(
        explained["ontvangstbewijs"]["wetten"],
        single["ontvangstbewijs"]["wetten"]
    );
    let plain = batch(&[]);
    assert!(plain.get("uitleg").is_none() && plain.get("ontvangstbewijs").is_none());
    assert_eq!(plain["uitvoer"], single["uitvoer"]);
    assert_eq!(plain["gebruikte_invoer"], single["gebruikte_invoer"]);
}

/// The built-in Bal's parameters: this much electricity (kWh) and gas (m³), no exemptions.
fn bal_params(kwh: usize, m3: usize) -> Value {
    serde_json::json!({
        "elektriciteitsverbruik_kwh": kwh, "aardgasverbruik_m3": m3,
        "betreft_gebruiksfunctie_bbl": false, "alleen_hernieuwbare_energie_op_locatie": false,
        "is_activiteit_artikel_3_3a_lid_1_onder_a": false,
        "is_activiteit_artikel_3_3a_lid_1_onder_b": false
    })
}

/// `count` cases of the built-in Bal as JSON Lines; every fifth lacks its parameters and fails.
fn bal_cases(count: usize) -> String {
    let mut text = String::new();
    for id in 0..count {
        let params = if id % 5 == 4 {
            serde_json::json!({})
        } else {
            bal_params(id * 10, id)
        };
        let line = serde_json::json!({"id": id, "params": params});
        text.push_str(&line.to_string());
        text.push('\n');
    }
    text
}

const BAL_BATCH: [&str; 6] = [
    "evalueer",
    crate::support::BAL,
    "--peildatum",
    "2026-01-01",
    "--uitvoer",
    "heeft_informatieplicht",
];

/// The arguments of a batch of `count` Bal cases ([`bal_cases`], written into `sandbox`), then
/// `extra`.
fn bal_batch(sandbox: &Sandbox, count: usize, extra: &[&str]) -> Vec<String> {
    let input = sandbox.write("cases.jsonl", &bal_cases(count));
    let mut args: Vec<String> = BAL_BATCH.iter().map(ToString::to_string).collect();
    args.extend(["--batch".to_string(), input.display().to_string()]);
    args.extend(extra.iter().map(ToString::to_string));
    args
}

#[test]
fn fields_select_in_each_lines_result_and_leave_a_failed_case_whole() {
    let sandbox = Sandbox::new();
    let mut args = bal_batch(&sandbox, 5, &["--fields", "uitvoer,artikel"]);
    // Printed as lines (spooled) and, with --provenance, kept as one document: selected alike.
    let out = sandbox.run(&args);
    assert_eq!(out.code, 1, "{out:?}");
    // A selected result has only what was asked for, so the line schema's required members
    // are not there; a line is still one compact document.
    let got: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON document per line"))
        .collect();
    assert_eq!(got.len(), 5);
    for line in &got[..4] {
        let resultaat = line["resultaat"].as_object().expect("resultaat");
        let mut names: Vec<&str> = resultaat.keys().map(String::as_str).collect();
        names.sort_unstable();
        assert_eq!(names, ["artikel", "uitvoer"], "{line}");
        assert!(resultaat["uitvoer"]["heeft_informatieplicht"].is_boolean());
    }
    assert_eq!(
        got[4]["fout"]["code"], "ONTBREEKT",
        "a failed case keeps its error"
    );
    args.push("--provenance".to_string());
    let enveloped = sandbox.run(&args);
    assert_eq!(enveloped.code, 1, "{enveloped:?}");
    let document: Value = serde_json::from_str(&enveloped.stdout).expect("one document");
    let data = &document["data"];
    assert_eq!(data.as_array().map(Vec::len), Some(5));
    assert_eq!(data[0], got[0]);
    assert_eq!(data[4]["fout"]["code"], "ONTBREEKT");
}

/// Peak resident memory of `pid` so far, in KiB (`VmHWM`); `None` once it has gone.
#[cfg(target_os = "linux")]
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
#[cfg(target_os = "linux")]
fn a_batchs_memory_does_not_grow_with_its_cases() {
    // 20,000 cases held as values took about 140 MiB (7 KiB a case); printed as lines they are
    // rendered one by one into a spool, and the process stays near its size for one case.
    let sandbox = Sandbox::new();
    let output = sandbox.path().join("out.jsonl");
    let args = bal_batch(&sandbox, 20_000, &["--timeout", "600"]);
    let mut child = sandbox
        .process(&args.iter().map(String::as_str).collect::<Vec<_>>())
        .stdout(std::fs::File::create(&output).unwrap())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut peak = 0;
    let status = loop {
        if let Some(kib) = peak_kib(child.id()) {
            peak = peak.max(kib);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    };
    assert_eq!(status.code(), Some(1), "every fifth case fails");
    assert!(peak > 0, "measured");
    assert!(peak < 48 * 1024, "peak {peak} KiB for 20,000 cases");
    let text = std::fs::read_to_string(&output).unwrap();
    assert_eq!(text.lines().count(), 20_000);
    let sample: String = text
        .lines()
        .step_by(997)
        .map(|l| format!("{l}\n"))
        .collect();
    for (n, line) in lines(&sample).iter().enumerate() {
        assert_eq!(line["id"], n * 997, "in input order");
    }
}

#[test]
fn without_a_temporary_directory_a_batch_keeps_its_lines_and_says_so() {
    let sandbox = Sandbox::new();
    let args = bal_batch(&sandbox, 5, &[]);
    let spooled = sandbox.run(&args);
    let mut cmd = sandbox.cmd();
    cmd.env("TMPDIR", sandbox.path().join("bestaat-niet"));
    let kept = crate::support::run(cmd, &args);
    assert_eq!((spooled.code, kept.code), (1, 1), "{kept:?}");
    assert!(!spooled.stderr.contains("waarschuwing"), "{spooled:?}");
    assert!(
        kept.stderr.contains("(TMPDIR)") && kept.stderr.contains("in het geheugen"),
        "{kept:?}"
    );
    // The same lines, but for each call's own trace id in the failed case's error.
    let ids = |run: &test_support::cli::Run| -> Vec<Value> {
        lines(&run.stdout).iter().map(|l| l["id"].clone()).collect()
    };
    assert_eq!(ids(&kept), ids(&spooled));
    assert_eq!(lines(&kept.stdout)[0], lines(&spooled.stdout)[0]);
}

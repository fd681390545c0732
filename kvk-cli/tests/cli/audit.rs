//! The audit log: one valid record per invocation that reaches a command, trace context,
//! destination rules, failure to write (exit 74), and 200 concurrent writers (AUDIT-*).

use std::collections::BTreeSet;

use serde_json::Value;

use crate::support::{KEY, KvkFake, Sandbox, dry_runs_at_once, read_audit, run};

const TRACE_ID: &str = "0af7651916cd43dd8448eb211c80319c";
const PARENT_SPAN: &str = "b7ad6b7169203331";

/// AUDIT-1, AUDIT-8, AUDIT-9: success, not found, session refusal, dry run and invalid
/// input each append exactly one record, in order, whose exit code and error code match.
#[test]
fn audit_1_one_record_per_invocation() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let calls: [(&[&str], i32, Option<&str>); 5] = [
        (&["basisprofiel", "toon", "68750110"], 0, None),
        (&["basisprofiel", "toon", "99999999"], 66, None),
        (&["basisprofiel", "toon", "69599084"], 77, Some("68750110")),
        (&["naamgeving", "toon", "68750110", "--dry-run"], 0, None),
        (&["zoek", "--postcode", "nope"], 65, None),
    ];
    let mut codes = Vec::new();
    for (args, exit, session) in calls {
        let mut cmd = sandbox.cmd(&fake.base());
        if let Some(number) = session {
            cmd.env("KVK_SESSIE_NUMMER", number);
        }
        let result = run(cmd, args);
        assert_eq!(result.code, exit, "{args:?}: {result:#?}");
        codes.push(if exit == 0 {
            None
        } else {
            Some(result.error(exit)["code"].clone())
        });
    }
    let records = sandbox.audit_records();
    assert_eq!(records.len(), calls.len());
    let names = [
        "kvk-cli basisprofiel toon",
        "kvk-cli basisprofiel toon",
        "kvk-cli basisprofiel toon",
        "kvk-cli naamgeving toon",
        "kvk-cli zoek",
    ];
    for (((record, (_, exit, _)), code), name) in records.iter().zip(calls).zip(codes).zip(names) {
        assert_eq!(record["name"], name);
        assert_eq!(record["tool"], "kvk-cli");
        assert_eq!(record["exit_code"], exit);
        let status = match exit {
            0 => "OK",
            69 | 70 | 74..=76 | 78 | 124 => "ERROR",
            _ => "UNSET",
        };
        assert_eq!(record["status"], status, "AUDIT-9: LDV status");
        if let Some(code) = code {
            assert_eq!(record["attributes"]["error.code"], code, "AUDIT-9");
        }
        let start = record["start_time"].as_str().expect("start");
        let end = record["end_time"].as_str().expect("end");
        assert!(start <= end, "AUDIT-10: {start} > {end}");
    }
    let spans: BTreeSet<&str> = records
        .iter()
        .map(|r| r["span_id"].as_str().expect("span"))
        .collect();
    assert_eq!(
        spans.len(),
        records.len(),
        "AUDIT-12: a new span per invocation"
    );
}

/// AUDIT-15, AUDIT-7, AUDIT-13, AUDIT-14: url, status and bytes received; subject; the
/// processing activity; no key and no data.
#[test]
fn audit_15_request_attributes() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd(&fake.base());
    cmd.env(
        "OVERHEID_PROCESSING_ACTIVITY_ID",
        "https://register.example.nl/verwerkingen/42",
    );
    run(cmd, ["basisprofiel", "toon", "68750110"]).json();
    let record = sandbox.single_audit_record();
    let attributes = &record["attributes"];
    assert_eq!(
        attributes["dpl.core.processing_activity_id"],
        "https://register.example.nl/verwerkingen/42"
    );
    assert_eq!(attributes["dpl.core.data_subject_id"], "68750110");
    assert_eq!(attributes["dpl.core.data_subject_id_type"], "KVK_NUMMER");
    let url = attributes["url.full"].as_str().expect("url.full");
    assert!(url.starts_with(&format!("{}/v1/basisprofielen/68750110", fake.base())));
    assert_eq!(attributes["http.response.status_code"], 200);
    let bodies = fake.bodies();
    assert_eq!(attributes["http.response.body.size"], bodies[0].len());
    let text = sandbox.audit_text();
    assert!(!text.contains(KEY), "AUDIT-7: key");
    assert!(!text.contains("Test BV Donald"), "AUDIT-7: data");
}

/// AUDIT-13: without the variable, the processing activity is present and empty.
#[test]
fn audit_13_processing_activity_defaults_to_empty() {
    let sandbox = Sandbox::new();
    let fake = KvkFake::start();
    run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "68750110"],
    )
    .json();
    let record = sandbox.single_audit_record();
    assert_eq!(record["attributes"]["dpl.core.processing_activity_id"], "");
}

/// AUDIT-11, NET-10, ERR-6: a TRACEPARENT is continued in the record, the error instance
/// and the `traceparent` header sent upstream, which carries this invocation's span.
#[test]
fn audit_11_traceparent_is_continued() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd(&fake.base());
    cmd.env("TRACEPARENT", format!("00-{TRACE_ID}-{PARENT_SPAN}-01"));
    let result = run(cmd, ["basisprofiel", "toon", "99999999"]);
    result.error(66);
    assert_eq!(result.error_trace_id(), TRACE_ID, "ERR-6");
    let record = sandbox.single_audit_record();
    assert_eq!(record["trace_id"], TRACE_ID);
    assert_eq!(record["parent_span_id"], PARENT_SPAN);
    let span = record["span_id"].as_str().expect("span_id");
    assert_ne!(span, PARENT_SPAN);
    let request = fake.server.last_request().expect("a request");
    assert_eq!(
        request.header("traceparent"),
        Some(format!("00-{TRACE_ID}-{span}-01").as_str()),
        "NET-10"
    );
}

/// AUDIT-11: without TRACEPARENT a new trace starts (no parent), and the upstream
/// `traceparent` still names it.
#[test]
fn audit_11_new_trace_without_traceparent() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "68750110"],
    )
    .json();
    let record = sandbox.single_audit_record();
    assert!(record.get("parent_span_id").is_none(), "{record}");
    let header = fake
        .server
        .last_request()
        .and_then(|r| r.header("traceparent").map(str::to_owned))
        .expect("traceparent sent");
    assert_eq!(
        header,
        format!(
            "00-{}-{}-01",
            record["trace_id"].as_str().expect("trace"),
            record["span_id"].as_str().expect("span")
        )
    );
}

/// AUDIT-11: an invalid TRACEPARENT is ignored, not fatal.
#[test]
fn audit_11_invalid_traceparent_is_ignored() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd(&fake.base());
    cmd.env("TRACEPARENT", "00-zzzz-b7ad6b7169203331-01");
    run(cmd, ["basisprofiel", "toon", "68750110"]).json();
    let record = sandbox.single_audit_record();
    assert!(record.get("parent_span_id").is_none());
    assert_ne!(record["trace_id"], "zzzz");
}

/// AUDIT-1: discovery, help, version and completions write no record.
#[test]
fn audit_1_no_record_for_help_version_completions() {
    let sandbox = Sandbox::new();
    for args in [
        vec!["--help", "--json"],
        vec!["--help"],
        vec!["--version"],
        vec!["completions", "bash"],
        vec!["basisprofiel", "toon", "--help", "--json"],
    ] {
        let mut cmd = sandbox.bare();
        cmd.env("KVK_AUDIT_LOG", sandbox.audit_log());
        let result = run(cmd, &args);
        assert_eq!(result.code, 0, "{args:?}");
    }
    assert!(!sandbox.audit_log().exists());
}

/// AUDIT-1: a `--fields` error reaches the command line of a command and must be audited.
#[test]
fn audit_1_fields_error_is_audited() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "68750110", "--fields", "adres"],
    )
    .error(2);
    let record = sandbox.single_audit_record();
    assert_eq!(record["exit_code"], 2);
    assert_eq!(record["attributes"]["error.code"], "ONBEKEND_VELD");
}

/// AUDIT-2: `--audit-log` wins over `KVK_AUDIT_LOG`, which wins over `OVERHEID_AUDIT_LOG`,
/// then `XDG_STATE_HOME`, then `HOME`; missing directories are created.
#[test]
fn audit_2_destination_precedence() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let dir = sandbox.path();
    let flag = dir.join("flag/a.jsonl");
    let tool = dir.join("tool/a.jsonl");
    let shared = dir.join("shared/a.jsonl");
    let state = dir.join("state");
    let xdg = state.join("overheid-cli/audit.jsonl");
    let home = dir.join(".local/state/overheid-cli/audit.jsonl");
    let call = |flag_arg: bool, vars: &[(&str, &std::path::Path)]| {
        let mut cmd = sandbox.cmd(&fake.base());
        cmd.env_remove("KVK_AUDIT_LOG");
        for (name, value) in vars {
            cmd.env(name, value);
        }
        let mut args = vec![
            "basisprofiel".to_owned(),
            "toon".to_owned(),
            "68750110".to_owned(),
            "--dry-run".to_owned(),
        ];
        if flag_arg {
            args.push("--audit-log".to_owned());
            args.push(flag.display().to_string());
        }
        run(cmd, &args).json();
    };
    let all: [(&str, &std::path::Path); 3] = [
        ("KVK_AUDIT_LOG", &tool),
        ("OVERHEID_AUDIT_LOG", &shared),
        ("XDG_STATE_HOME", &state),
    ];
    call(true, &all);
    call(false, &all);
    call(false, &all[1..]);
    call(false, &all[2..]);
    call(false, &[]);
    for path in [&flag, &tool, &shared, &xdg, &home] {
        assert_eq!(read_audit(path).len(), 1, "{}", path.display());
    }
}

/// AUDIT-5: an audit log that cannot be opened is exit 74 `AUDIT_FOUT`, and nothing is
/// sent upstream.
#[test]
fn audit_5_unopenable_log_is_74_before_any_request() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let blocker = sandbox.path().join("een-bestand");
    std::fs::write(&blocker, "geen map").expect("write");
    for target in [sandbox.path().to_path_buf(), blocker.join("audit.jsonl")] {
        let result = run(
            sandbox.cmd(&fake.base()),
            [
                "basisprofiel",
                "toon",
                "68750110",
                "--audit-log",
                target.to_str().expect("utf-8 path"),
            ],
        );
        let error = result.error(74);
        assert_eq!(error["code"], "AUDIT_FOUT");
    }
    assert_eq!(fake.request_count(), 0);
}

/// AUDIT-6: when the record cannot be appended, the result is not printed (exit 74).
#[test]
fn audit_6_failed_append_prints_no_data() {
    let full = std::path::Path::new("/dev/full");
    if !full.exists() {
        eprintln!("skipped: no /dev/full on this system");
        return;
    }
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let error = run(
        sandbox.cmd(&fake.base()),
        [
            "basisprofiel",
            "toon",
            "68750110",
            "--audit-log",
            "/dev/full",
        ],
    )
    .error(74);
    assert_eq!(error["code"], "AUDIT_FOUT");
}

/// AUDIT-5, §8.3: with no destination at all (no HOME, no variables) the failure to open the
/// audit log is `AUDIT_FOUT`, and nothing is sent.
#[test]
fn audit_5_no_destination_is_audit_fout() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd(&fake.base());
    cmd.env_remove("KVK_AUDIT_LOG").env_remove("HOME");
    let error = run(cmd, ["basisprofiel", "toon", "68750110"]).error(74);
    assert_eq!(error["code"], "AUDIT_FOUT");
    assert_eq!(fake.request_count(), 0);
}

/// AUDIT-3: 200 processes appending to one log at once lose and interleave nothing.
#[test]
fn audit_3_two_hundred_concurrent_writers() {
    const PROCESSES: usize = 200;
    let sandbox = Sandbox::new();
    let log = sandbox.audit_log();
    let numbers: Vec<String> = (0..PROCESSES)
        .map(|i| format!("{:08}", 10_000_000 + i))
        .collect();
    dry_runs_at_once(
        &sandbox,
        &numbers,
        &[("KVK_AUDIT_LOG", log.display().to_string())],
    );
    let text = std::fs::read_to_string(&log).expect("audit log");
    assert!(text.ends_with('\n'));
    let records = read_audit(&log);
    assert_eq!(records.len(), PROCESSES);
    let subjects: BTreeSet<String> = records
        .iter()
        .map(|r: &Value| {
            r["attributes"]["dpl.core.data_subject_id"]
                .as_str()
                .expect("subject")
                .to_owned()
        })
        .collect();
    let expected: BTreeSet<String> = numbers.into_iter().collect();
    assert_eq!(subjects, expected);
}

/// AUDIT-4: a new audit log is created with mode 0600 (it names data subjects).
#[cfg(unix)]
#[test]
fn audit_4_new_log_is_private() {
    use std::os::unix::fs::PermissionsExt;
    let sandbox = Sandbox::new();
    let fake = KvkFake::start();
    run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "68750110", "--dry-run"],
    )
    .json();
    let mode = std::fs::metadata(sandbox.audit_log())
        .expect("audit log")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
}

/// AUDIT-14: a search concerns the companies it finds. Several distinct ones get
/// the call's record (without a subject) and then one child record each (same trace, a new
/// span whose parent is the call's span); one company, found three times, keeps the
/// single-record shape with the subject on the call's record.
#[test]
fn audit_14_one_child_record_per_data_subject() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd(&fake.base());
    cmd.env("TRACEPARENT", format!("00-{TRACE_ID}-{PARENT_SPAN}-01"));
    let found = run(cmd, ["zoek", "--naam", "Test"]).json();
    let records = sandbox.audit_records();
    let call = &records[0];
    assert_eq!(call["parent_span_id"], PARENT_SPAN);
    assert!(call["attributes"].get("dpl.core.data_subject_id").is_none());
    assert!(call["attributes"].get("url.full").is_some());
    let mut expected: Vec<&str> = found["resultaten"]
        .as_array()
        .expect("resultaten")
        .iter()
        .map(|r| r["kvkNummer"].as_str().expect("kvkNummer"))
        .collect();
    expected.dedup();
    assert!(expected.len() > 1, "the fixture finds several companies");
    let children = &records[1..];
    let subjects: Vec<&str> = children
        .iter()
        .map(|r| {
            r["attributes"]["dpl.core.data_subject_id"]
                .as_str()
                .expect("subject")
        })
        .collect();
    assert_eq!(subjects, expected, "one child record per company, in order");
    let mut spans = BTreeSet::new();
    spans.insert(call["span_id"].as_str().expect("span"));
    for child in children {
        assert_eq!(child["trace_id"], TRACE_ID);
        assert_eq!(child["parent_span_id"], call["span_id"]);
        assert_eq!(child["name"], "kvk-cli zoek");
        assert_eq!(child["status"], call["status"]);
        assert_eq!(child["exit_code"], 0);
        assert_eq!(child["start_time"], call["start_time"]);
        assert_eq!(child["end_time"], call["end_time"]);
        assert_eq!(
            child["attributes"]["dpl.core.data_subject_id_type"],
            "KVK_NUMMER"
        );
        assert_eq!(
            child["attributes"].as_object().expect("attributes").len(),
            3,
            "a child carries the activity and its subject only: {child}"
        );
        spans.insert(child["span_id"].as_str().expect("span"));
    }
    assert_eq!(spans.len(), records.len(), "a new span per child");
    assert!(!sandbox.audit_text().contains("Test BV Donald"), "AUDIT-7");

    let sandbox = Sandbox::new();
    let found = run(sandbox.cmd(&fake.base()), ["zoek", "--naam", "Donald"]).json();
    assert!(found["resultaten"].as_array().expect("resultaten").len() > 1);
    let record = sandbox.single_audit_record();
    assert_eq!(record["attributes"]["dpl.core.data_subject_id"], "68750110");
    assert_eq!(
        record["attributes"]["dpl.core.data_subject_id_type"],
        "KVK_NUMMER"
    );
}

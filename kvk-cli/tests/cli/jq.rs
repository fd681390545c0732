//! `--jq` cannot end the process that holds the result (OUT-10): a filter that recurses
//! without end, doubles a value until memory runs out, or never ends is an error object with
//! its audit record, after the upstream was called; `import` and `include` are usage errors
//! before any request.

use std::time::{Duration, Instant};

use crate::support::{KvkFake, Sandbox, run};

/// Runs `basisprofiel toon` under `filter` against a working fake.
fn filtered(filter: &str, extra: &[&str]) -> (test_support::cli::Run, Sandbox, KvkFake) {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let mut args = vec!["basisprofiel", "toon", "68750110", "--jq", filter];
    args.extend_from_slice(extra);
    let result = run(sandbox.cmd(&fake.base()), args);
    (result, sandbox, fake)
}

/// OUT-10: endless recursion (here through an object, not the review's array) and values
/// that double (a string, so memory really grows; and an array shared with itself, small
/// in memory and enormous as text) end in exit 2, one error object and one audit record.
#[test]
fn out_10_a_filter_that_exceeds_its_bounds_is_an_error_with_its_record() {
    for (filter, says) in [
        ("def g: {a: g}; g", "grenzen van --jq"),
        ("def h: 1 + h; .kvkNummer | h", "grenzen van --jq"),
        ("reduce range(40) as $i (.naam; . + .)", "grenzen van --jq"),
        ("reduce range(80) as $i (.; [., .])", "bytes uitvoer"),
    ] {
        let (result, sandbox, fake) = filtered(filter, &[]);
        let error = result.error(2);
        assert!(
            error["detail"].as_str().unwrap().contains(says),
            "{filter}: {error}"
        );
        assert_eq!(
            fake.requests().len(),
            1,
            "{filter}: the upstream was called"
        );
        let records = sandbox.audit_records();
        assert_eq!(records.len(), 1, "{filter}");
        assert_eq!(records[0]["exit_code"], 2, "{filter}");
    }
}

/// OUT-10: the deadline bounds a filter that never ends (124, quickly).
#[test]
fn out_10_the_deadline_bounds_a_filter() {
    let started = Instant::now();
    let (result, sandbox, _fake) = filtered(
        "def rond: if . > 0 then . + 1 | rond else . end; 1 | rond",
        &["--timeout", "1"],
    );
    result.error(124);
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(sandbox.audit_records()[0]["exit_code"], 124);
}

/// OUT-10: `import` and `include` (of a module or of data) are usage errors before any
/// request.
#[test]
fn out_10_import_and_include_are_refused_before_any_request() {
    for filter in [
        r#"import "/etc/hostname" as $naam; $naam"#,
        r#"include "/etc/kvk"; ."#,
    ] {
        let (result, _sandbox, fake) = filtered(filter, &[]);
        let error = result.error(2);
        assert!(
            error["detail"]
                .as_str()
                .unwrap()
                .contains("import en include"),
            "{error}"
        );
        assert!(fake.requests().is_empty(), "{filter}");
    }
}

/// A filter that works still works, in its worker.
#[test]
fn a_working_filter_prints_its_lines() {
    let (result, _sandbox, _fake) = filtered(".kvkNummer, (.naam | length > 0)", &[]);
    assert_eq!(result.code, 0, "{result:?}");
    assert_eq!(result.stdout, "68750110\ntrue\n");
}

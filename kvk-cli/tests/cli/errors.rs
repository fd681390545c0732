//! Every exit code kvk-cli can produce, with the error object each one carries
//! (ERR-*, EXIT-*, §8.3 registered codes). Network-shaped failures (timeouts, retries,
//! redirects) live in `network.rs`.

use test_support::Reply;
use test_support::kvk::{KEY_FORBIDDEN, KEY_INVALID, fout};

use crate::support::{KvkFake, Sandbox, run};

/// ERR-11, EXIT-1: an unknown flag is a usage error object (exit 2), nothing sent, no audit.
#[test]
fn err_11_unknown_flag_is_usage_json() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let result = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "get", "68750110", "--bestaat-niet"],
    );
    let error = result.error(2);
    assert_eq!(error["code"], "USAGE");
    assert!(
        error["detail"]
            .as_str()
            .expect("detail")
            .contains("--bestaat-niet")
    );
    assert_eq!(fake.request_count(), 0);
    assert!(
        sandbox.audit_records().is_empty(),
        "AUDIT-1: a parser error does not reach a command"
    );
}

/// ERR-11: an unknown command and a missing required argument are usage errors too.
#[test]
fn err_11_unknown_command_and_missing_argument() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    for args in [
        vec!["bestaat-niet"],
        vec!["vestigingsprofiel", "get"],
        vec!["basisprofiel"],
    ] {
        let error = run(sandbox.cmd(&fake.base()), &args).error(2);
        assert_eq!(error["code"], "USAGE", "{args:?}");
    }
    assert_eq!(fake.request_count(), 0);
}

/// OUT-1: a bad `--output` value is exit 2, and the hint names the valid values.
#[test]
fn out_1_bad_output_value_is_usage() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let error = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "get", "68750110", "--output", "xml"],
    )
    .error(2);
    assert_eq!(error["code"], "USAGE");
    assert!(
        error["hint"].as_str().expect("hint").contains("table"),
        "{error}"
    );
    assert_eq!(fake.request_count(), 0);
}

/// FIELDS-2: a malformed path list is exit 2 (`USAGE`), before any request.
#[test]
fn fields_2_malformed_fields_is_usage() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    for spec in ["naam..kvkNummer", "naam[x]", "$[", "$..[?@.naam in ['x']]"] {
        let error = run(
            sandbox.cmd(&fake.base()),
            ["basisprofiel", "get", "68750110", "--fields", spec],
        )
        .error(2);
        assert_eq!(error["code"], "USAGE", "{spec}: {error}");
    }
    assert_eq!(fake.request_count(), 0);
}

/// EXIT-3, ERR-8: a bad KvK number is 65 with a pointer, before any request.
#[test]
fn exit_3_bad_kvk_number_is_65() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let error = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "get", "1234567a"],
    )
    .error(65);
    assert_eq!(error["code"], "INVALID_INPUT");
    assert_eq!(error["errors"][0]["pointer"], "/kvk_nummer");
    assert!(error.get("status").is_none(), "ERR-7: no upstream status");
    assert_eq!(fake.request_count(), 0);
}

/// ERR-8: every invalid search argument is reported at once (postcode, huisnummer,
/// vestigingsnummer), before any request.
#[test]
fn err_8_all_validation_errors_at_once() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let error = run(
        sandbox.cmd(&fake.base()),
        [
            "zoeken",
            "--postcode",
            "12AB",
            "--huisnummer",
            "123456",
            "--vestigingsnummer",
            "123",
        ],
    )
    .error(65);
    let pointers: Vec<&str> = error["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| e["pointer"].as_str().expect("pointer"))
        .collect();
    for pointer in ["/postcode", "/huisnummer", "/vestigingsnummer"] {
        assert!(pointers.contains(&pointer), "{pointer} missing: {error}");
    }
    assert_eq!(fake.request_count(), 0);
}

/// EXIT-3: a huisnummer without a postcode is invalid input (65), nothing sent.
#[test]
fn exit_3_huisnummer_without_postcode_is_65() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let error = run(sandbox.cmd(&fake.base()), ["zoeken", "--huisnummer", "3"]).error(65);
    assert!(
        error["errors"]
            .as_array()
            .expect("errors")
            .iter()
            .any(|e| e["pointer"] == "/huisnummer"),
        "{error}"
    );
    assert_eq!(fake.request_count(), 0);
}

/// EXIT-4: an upstream 400 is 65, with the KvK code kept in `detail` and `status` set.
#[test]
fn exit_4_upstream_400_is_65() {
    let fake = KvkFake::with(|_| fout::fout(400, "IPD0004", "Het KVK-nummer is niet valide."));
    let sandbox = Sandbox::new();
    let error = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "get", "68750110"],
    )
    .error(65);
    assert_eq!(error["status"], 400, "ERR-7");
    assert!(
        error["detail"]
            .as_str()
            .expect("detail")
            .contains("IPD0004")
    );
}

/// EXIT-6: 404 IPD0005 for an addressed number is 66 (`NIET_GEVONDEN`), status 404.
#[test]
fn exit_6_unknown_number_is_66() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let error = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "get", "99999999"],
    )
    .error(66);
    assert_eq!(error["code"], "NIET_GEVONDEN");
    assert_eq!(error["status"], 404);
    assert!(
        error["detail"]
            .as_str()
            .expect("detail")
            .contains("IPD0005")
    );
    assert_eq!(fake.request_count(), 1);
}

/// EXIT-6: an unknown vestigingsnummer (IPD0007) is 66 too.
#[test]
fn exit_6_unknown_vestiging_is_66() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let error = run(
        sandbox.cmd(&fake.base()),
        ["vestigingsprofiel", "get", "000000000001"],
    )
    .error(66);
    assert!(
        error["detail"]
            .as_str()
            .expect("detail")
            .contains("IPD0007")
    );
}

/// EXIT-8: an upstream 500 (KvK IPD9999) is 69 `SOURCE_UNAVAILABLE`.
#[test]
fn exit_8_upstream_500_is_69() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let error = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "get", "90004973"],
    )
    .error(69);
    assert_eq!(error["code"], "SOURCE_UNAVAILABLE");
    assert_eq!(error["status"], 500);
    assert!(
        error["detail"]
            .as_str()
            .expect("detail")
            .contains("IPD9999")
    );
}

/// EXIT-8, NET-4: an HTML 502 page from a proxy is a 5xx (69, not 76); 502 is retried
/// exactly twice.
#[test]
fn exit_8_html_502_page_is_69_after_two_retries() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let error = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "get", "90000004"],
    )
    .error(69);
    assert_eq!(error["code"], "SOURCE_UNAVAILABLE");
    assert_eq!(error["status"], 502);
    assert_eq!(fake.request_count(), 3, "one request and two retries");
}

/// EXIT-8: connection refused (a closed port) is 69.
#[test]
fn exit_8_connection_refused_is_69() {
    let port = crate::support::closed_port();
    let sandbox = Sandbox::new();
    let base = format!("http://127.0.0.1:{port}/api");
    let error = run(sandbox.cmd(&base), ["basisprofiel", "get", "68750110"]).error(69);
    assert_eq!(error["code"], "SOURCE_UNAVAILABLE");
    assert!(error.get("status").is_none(), "ERR-7: no HTTP status");
}

/// EXIT-10: KvK IPD1003 ("tijdelijk niet leverbaar") is 75 with `retry_after` (ERR-9).
#[test]
fn exit_10_ipd1003_is_75_with_retry_after() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let error = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "get", "90002903"],
    )
    .error(75);
    assert_eq!(error["code"], "TIJDELIJK_NIET_BESCHIKBAAR");
    assert!(error["retry_after"].as_u64().is_some(), "{error}");
    assert!(
        error["detail"]
            .as_str()
            .expect("detail")
            .contains("IPD1003")
    );
}

/// EXIT-10: KvK IPD1002 ("in behandeling") is 75 too.
#[test]
fn exit_10_ipd1002_is_75() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let error = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "get", "90000001"],
    )
    .error(75);
    assert!(error["retry_after"].as_u64().is_some(), "ERR-9: {error}");
}

/// EXIT-7, ERR-9: 429 with a Retry-After beyond the deadline is 75 with that
/// `retry_after`, without a retry.
#[test]
fn exit_7_429_with_retry_after_is_75() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let result = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "get", "90000002", "--timeout", "2"],
    );
    let error = result.error(75);
    assert_eq!(error["status"], 429);
    assert_eq!(
        error["retry_after"],
        test_support::kvk::special::RETRY_AFTER_SECONDS
    );
    assert_eq!(fake.request_count(), 1, "NET-5: no retry past the deadline");
}

/// EXIT-7: a 503 HTML page with Retry-After is 75 (not 69), with `retry_after`.
#[test]
fn exit_7_503_with_retry_after_is_75() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let error = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "get", "90000003", "--timeout", "2"],
    )
    .error(75);
    assert_eq!(error["status"], 503);
    assert_eq!(
        error["retry_after"],
        test_support::kvk::special::RETRY_AFTER_SECONDS
    );
}

/// EXIT-9: truncated JSON is 76 `PARSE_FOUT`.
#[test]
fn exit_9_truncated_json_is_76() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let error = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "get", "90000005"],
    )
    .error(76);
    assert_eq!(error["code"], "PARSE_FOUT");
}

/// EXIT-9: JSON of another shape (an array) and an HTML page with 200 are 76 too.
#[test]
fn exit_9_wrong_shape_and_html_200_are_76() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    for number in ["90000006", "90000009"] {
        let error = run(sandbox.cmd(&fake.base()), ["basisprofiel", "get", number]).error(76);
        assert_eq!(error["code"], "PARSE_FOUT", "{number}");
    }
}

/// ERR-13: response data beyond the source's own error text never reaches the error.
#[test]
fn err_13_no_response_data_in_the_error() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let result = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "get", "90000005"],
    );
    result.error(76);
    assert!(
        !result.stderr.contains("Test BV Donald"),
        "{}",
        result.stderr
    );
}

/// EXIT-5: 401 and 403 from upstream are 77 `NIET_TOEGESTAAN`, and the key is never echoed.
#[test]
fn exit_5_401_and_403_are_77() {
    let fake = KvkFake::start();
    for (key, status) in [(KEY_INVALID, 401), (KEY_FORBIDDEN, 403)] {
        let sandbox = Sandbox::new();
        let mut cmd = sandbox.cmd(&fake.base());
        cmd.env("KVK_API_KEY", key);
        let result = run(cmd, ["basisprofiel", "get", "68750110"]);
        let error = result.error(77);
        assert_eq!(error["code"], "NIET_TOEGESTAAN");
        assert_eq!(error["status"], status);
        assert!(!result.stderr.contains(key), "SEC-2");
    }
}

/// CONF-7, SEC-3: without a key, a base other than the public test environment is 78,
/// before any request.
#[test]
fn conf_7_missing_key_for_other_base_is_78() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd(&fake.base());
    cmd.env_remove("KVK_API_KEY");
    let error = run(cmd, ["basisprofiel", "get", "68750110"]).error(78);
    assert_eq!(error["code"], "CONFIG_FOUT");
    assert_eq!(fake.request_count(), 0);
}

/// CONF-6: an empty key counts as unset (78 for a non-test base).
#[test]
fn conf_6_empty_key_is_unset() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd(&fake.base());
    cmd.env("KVK_API_KEY", "");
    run(cmd, ["basisprofiel", "get", "68750110"]).error(78);
    assert_eq!(fake.request_count(), 0);
}

/// NET-8: plain http to a non-loopback host is 78 before any traffic (no DNS lookup for
/// `.invalid`: the answer comes at once, not after a resolver timeout).
#[test]
fn net_8_plain_http_to_other_host_is_78() {
    let sandbox = Sandbox::new();
    let started = std::time::Instant::now();
    let error = run(
        sandbox.cmd("http://example.invalid/api"),
        ["basisprofiel", "get", "68750110", "--timeout", "5"],
    )
    .error(78);
    assert_eq!(error["code"], "CONFIG_FOUT");
    assert!(started.elapsed().as_secs() < 5);
    let record = sandbox.single_audit_record();
    assert!(
        record["attributes"].get("url.full").is_none(),
        "no upstream request was made: {record}"
    );
}

/// ERR-10: an unmapped upstream status (418) is exit 1 with `API_FOUT`.
#[test]
fn err_10_unmapped_status_is_1() {
    let fake = KvkFake::with(|_| fout::fout(418, "IPD0000", "Ik ben een theepot."));
    let sandbox = Sandbox::new();
    let error = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "get", "68750110"],
    )
    .error(1);
    assert_eq!(error["code"], "API_FOUT");
    assert_eq!(error["status"], 418);
}

/// EXIT-1: an unexpected 4xx without a readable KvK error body is unclassified (1), with its status.
#[test]
fn exit_1_unexpected_status_without_readable_body() {
    let fake = KvkFake::with(|_| Reply::text(409, "conflict"));
    let sandbox = Sandbox::new();
    let error = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "get", "68750110"],
    )
    .error(1);
    assert_eq!(error["status"], 409);
    assert_eq!(error["code"], "API_FOUT");
}

/// EXIT-4, EXIT-6, EXIT-8: 422 is 65, 410 is 66, a 503 without Retry-After is 69.
#[test]
fn exit_4_6_8_422_410_and_bare_503() {
    for (status, exit) in [(422, 65), (410, 66), (503, 69)] {
        let fake = KvkFake::with(move |_| Reply::text(status, "x"));
        let sandbox = Sandbox::new();
        let error = run(
            sandbox.cmd(&fake.base()),
            ["basisprofiel", "get", "68750110"],
        )
        .error(exit);
        assert_eq!(error["status"], status);
    }
}

/// EXIT-5, EXIT-6: the status decides the class, even without a KvK error body.
#[test]
fn exit_5_6_status_decides_without_a_body() {
    for (status, exit) in [(400, 65), (401, 77), (403, 77), (404, 66)] {
        let fake = KvkFake::with(move |_| Reply::text(status, "<html>fout</html>"));
        let sandbox = Sandbox::new();
        let error = run(
            sandbox.cmd(&fake.base()),
            ["basisprofiel", "get", "68750110"],
        )
        .error(exit);
        assert_eq!(error["status"], status);
    }
}

//! Every exit code kvk-cli can produce, with the error object each one carries
//! (ERR-*, EXIT-*, §8.3 registered codes), as one table: each row is a test that runs
//! kvk-cli once against an upstream and checks the error object. Network-shaped failures
//! (timeouts, retries, redirects) live in `network.rs`.

use std::time::{Duration, Instant};

use test_support::Reply;
use test_support::kvk::fixtures::DONALD;
use test_support::kvk::special::{
    HTML_200, IN_BEHANDELING, PROXY_502, RATE_LIMITED, RETRY_AFTER_SECONDS, TECHNISCHE_FOUT,
    TIJDELIJK_NIET_LEVERBAAR, TRUNCATED_JSON, UNAVAILABLE_WITH_RETRY_AFTER, UNKNOWN_KVK_NUMBER,
    UNKNOWN_VESTIGINGSNUMMER, WRONG_SHAPE,
};
use test_support::kvk::{KEY_FORBIDDEN, KEY_INVALID, fout};

use crate::support::{KvkFake, Sandbox, closed_port, run};

/// What answers kvk-cli.
enum Upstream {
    /// The fake KvK with its fixtures and special numbers.
    Kvk,
    /// A fake that answers every request with this KvK error body (`fout`).
    Fout(u16, &'static str, &'static str),
    /// A fake that answers every request with this status and plain-text body.
    Text(u16, &'static str),
    /// A closed port on 127.0.0.1: connection refused.
    Closed,
    /// This base URL, with no fake behind it.
    Base(&'static str),
}

/// The `KVK_API_KEY` of the run.
enum Key {
    /// The sandbox's key ([`crate::support::KEY`]).
    Default,
    /// This key.
    Is(&'static str),
    /// No key in the environment.
    Unset,
}

/// One check of the error object (or of what surrounds the run).
enum Expect {
    /// `code` is this.
    Code(&'static str),
    /// `status` is this upstream status (ERR-7).
    Status(u16),
    /// No `status`: no upstream answer was involved (ERR-7).
    NoStatus,
    /// `detail` contains this.
    Detail(&'static str),
    /// `hint` contains this.
    Hint(&'static str),
    /// `errors` has an entry with this `pointer` (ERR-8).
    Pointer(&'static str),
    /// The first entry of `errors` has this `pointer` (ERR-8).
    FirstPointer(&'static str),
    /// `retry_after` is a number (ERR-9).
    RetryAfter,
    /// `retry_after` is exactly this (ERR-9).
    RetryAfterIs(u64),
    /// The upstream saw exactly this many requests.
    Requests(usize),
    /// No audit record (AUDIT-1: a parser error does not reach a command).
    NoAudit,
    /// One audit record, without `url.full`: no upstream request was made.
    AuditWithoutUrl,
    /// stderr does not contain this (SEC-2, ERR-13).
    StderrLacks(&'static str),
    /// The run ended within this many seconds.
    Within(u64),
}

/// One row: run kvk-cli with `args` against `upstream`, expect exit `exit` and `expect`.
struct Case {
    upstream: Upstream,
    key: Key,
    args: &'static [&'static str],
    exit: i32,
    expect: &'static [Expect],
}

/// A row against `upstream` with the default key.
const fn against(
    upstream: Upstream,
    args: &'static [&'static str],
    exit: i32,
    expect: &'static [Expect],
) -> Case {
    Case {
        upstream,
        key: Key::Default,
        args,
        exit,
        expect,
    }
}

/// A row with the fake KvK and the default key.
const fn kvk(args: &'static [&'static str], exit: i32, expect: &'static [Expect]) -> Case {
    against(Upstream::Kvk, args, exit, expect)
}

/// A row with the fake KvK and `key`.
const fn with_key(
    key: Key,
    args: &'static [&'static str],
    exit: i32,
    expect: &'static [Expect],
) -> Case {
    Case {
        key,
        ..kvk(args, exit, expect)
    }
}

/// `basisprofiel toon <number>`.
macro_rules! get {
    ($number:expr $(, $extra:expr)*) => {
        &["basisprofiel", "toon", $number $(, $extra)*]
    };
}

/// One `#[test]` per row, named after the row (the first rule id it pins).
macro_rules! table {
    ($($(#[$doc:meta])* $name:ident: $case:expr;)*) => {
        $(
            $(#[$doc])*
            #[test]
            fn $name() {
                check(stringify!($name), &$case);
            }
        )*
    };
}

use Expect::*;

table! {
    /// ERR-11, EXIT-1: an unknown flag is a usage error object (exit 2), nothing sent, no audit.
    err_11_unknown_flag_is_usage_json: kvk(
        get!(DONALD, "--bestaat-niet"),
        2,
        &[Code("ONGELDIG_GEBRUIK"), Detail("--bestaat-niet"), Requests(0), NoAudit],
    );
    /// ERR-11: an unknown command is a usage error.
    err_11_unknown_command_is_usage: kvk(&["bestaat-niet"], 2, &[Code("ONGELDIG_GEBRUIK"), Requests(0)]);
    /// ERR-11: a missing required argument is a usage error.
    err_11_missing_argument_is_usage: kvk(
        &["vestigingsprofiel", "toon"],
        2,
        &[Code("ONGELDIG_GEBRUIK"), Requests(0)],
    );
    /// ERR-11: a command group without its subcommand is a usage error.
    err_11_missing_subcommand_is_usage: kvk(&["basisprofiel"], 2, &[Code("ONGELDIG_GEBRUIK"), Requests(0)]);
    /// OUT-1: a bad `--output` value is exit 2, and the hint names the valid values.
    out_1_bad_output_value_is_usage: kvk(
        get!(DONALD, "--output", "xml"),
        2,
        &[Code("ONGELDIG_GEBRUIK"), Hint("table"), Requests(0)],
    );
    /// FIELDS-2: a malformed path list is exit 2 (`ONGELDIG_GEBRUIK`), before any request.
    fields_2_empty_segment_is_usage: kvk(
        get!(DONALD, "--fields", "naam..kvkNummer"),
        2,
        &[Code("ONGELDIG_GEBRUIK"), Requests(0)],
    );
    /// FIELDS-2: a bracket in a dotted path is a usage error.
    fields_2_bracket_in_path_is_usage: kvk(
        get!(DONALD, "--fields", "naam[x]"),
        2,
        &[Code("ONGELDIG_GEBRUIK"), Requests(0)],
    );
    /// FIELDS-2: an unterminated JSONPath is a usage error.
    fields_2_unterminated_jsonpath_is_usage: kvk(
        get!(DONALD, "--fields", "$["),
        2,
        &[Code("ONGELDIG_GEBRUIK"), Requests(0)],
    );
    /// FIELDS-2: a non-RFC 9535 operator (`in`) is a usage error.
    fields_2_non_rfc_operator_is_usage: kvk(
        get!(DONALD, "--fields", "$..[?@.naam in ['x']]"),
        2,
        &[Code("ONGELDIG_GEBRUIK"), Requests(0)],
    );
    /// EXIT-3, ERR-8: a bad KvK number is 65 with a pointer, before any request.
    exit_3_bad_kvk_number_is_65: kvk(
        get!("1234567a"),
        65,
        &[Code("ONGELDIGE_INVOER"), FirstPointer("/kvk_nummer"), NoStatus, Requests(0)],
    );
    /// ERR-8: every invalid search argument is reported at once (postcode, huisnummer,
    /// vestigingsnummer), before any request.
    err_8_all_validation_errors_at_once: kvk(
        &["zoek", "--postcode", "12AB", "--huisnummer", "123456", "--vestigingsnummer", "123"],
        65,
        &[Pointer("/postcode"), Pointer("/huisnummer"), Pointer("/vestigingsnummer"), Requests(0)],
    );
    /// EXIT-3: a huisnummer without a postcode is invalid input (65), nothing sent.
    exit_3_huisnummer_without_postcode_is_65: kvk(
        &["zoek", "--huisnummer", "3"],
        65,
        &[Pointer("/huisnummer"), Requests(0)],
    );
    /// EXIT-4: an upstream 400 is 65, with the KvK code kept in `detail` and `status` set.
    exit_4_upstream_400_is_65: against(
        Upstream::Fout(400, "IPD0004", "Het KVK-nummer is niet valide."),
        get!(DONALD),
        65,
        &[Status(400), Detail("IPD0004")],
    );
    /// EXIT-6: 404 IPD0005 for an addressed number is 66 (`NIET_GEVONDEN`), status 404.
    exit_6_unknown_number_is_66: kvk(
        get!(UNKNOWN_KVK_NUMBER),
        66,
        &[Code("NIET_GEVONDEN"), Status(404), Detail("IPD0005"), Requests(1)],
    );
    /// EXIT-6: an unknown vestigingsnummer (IPD0007) is 66 too.
    exit_6_unknown_vestiging_is_66: kvk(
        &["vestigingsprofiel", "toon", UNKNOWN_VESTIGINGSNUMMER],
        66,
        &[Detail("IPD0007")],
    );
    /// EXIT-8: an upstream 500 (KvK IPD9999) is 69 `BRON_ONBEREIKBAAR`.
    exit_8_upstream_500_is_69: kvk(
        get!(TECHNISCHE_FOUT),
        69,
        &[Code("BRON_ONBEREIKBAAR"), Status(500), Detail("IPD9999")],
    );
    /// EXIT-8, NET-4: an HTML 502 page from a proxy is a 5xx (69, not 76); 502 is retried
    /// exactly twice (one request and two retries).
    exit_8_html_502_page_is_69_after_two_retries: kvk(
        get!(PROXY_502),
        69,
        &[Code("BRON_ONBEREIKBAAR"), Status(502), Requests(3)],
    );
    /// EXIT-8: connection refused (a closed port) is 69, without an HTTP status.
    exit_8_connection_refused_is_69: against(
        Upstream::Closed,
        get!(DONALD),
        69,
        &[Code("BRON_ONBEREIKBAAR"), NoStatus],
    );
    /// EXIT-10: KvK IPD1003 ("tijdelijk niet leverbaar") is 75 with `retry_after` (ERR-9).
    exit_10_ipd1003_is_75_with_retry_after: kvk(
        get!(TIJDELIJK_NIET_LEVERBAAR),
        75,
        &[Code("TIJDELIJK_NIET_BESCHIKBAAR"), RetryAfter, Detail("IPD1003")],
    );
    /// EXIT-10: KvK IPD1002 ("in behandeling") is 75 too, with `retry_after` (ERR-9).
    exit_10_ipd1002_is_75: kvk(get!(IN_BEHANDELING), 75, &[RetryAfter]);
    /// EXIT-7, ERR-9: 429 with a Retry-After beyond the deadline is 75 with that
    /// `retry_after`, without a retry (NET-5).
    exit_7_429_with_retry_after_is_75: kvk(
        get!(RATE_LIMITED, "--timeout", "2"),
        75,
        &[Status(429), RetryAfterIs(RETRY_AFTER_SECONDS), Requests(1)],
    );
    /// EXIT-7: a 503 HTML page with Retry-After is 75 (not 69), with `retry_after`.
    exit_7_503_with_retry_after_is_75: kvk(
        get!(UNAVAILABLE_WITH_RETRY_AFTER, "--timeout", "2"),
        75,
        &[Status(503), RetryAfterIs(RETRY_AFTER_SECONDS)],
    );
    /// EXIT-9: truncated JSON is 76 `PARSE_FOUT`.
    exit_9_truncated_json_is_76: kvk(get!(TRUNCATED_JSON), 76, &[Code("PARSE_FOUT")]);
    /// EXIT-9: JSON of another shape (an array) is 76 too.
    exit_9_wrong_shape_is_76: kvk(get!(WRONG_SHAPE), 76, &[Code("PARSE_FOUT")]);
    /// EXIT-9: an HTML page with 200 is 76 too.
    exit_9_html_200_is_76: kvk(get!(HTML_200), 76, &[Code("PARSE_FOUT")]);
    /// ERR-13: response data beyond the source's own error text never reaches the error.
    err_13_no_response_data_in_the_error: kvk(
        get!(TRUNCATED_JSON),
        76,
        &[StderrLacks("Test BV Donald")],
    );
    /// EXIT-5: 401 from upstream is 77 `NIET_TOEGESTAAN`, and the key is never echoed (SEC-2).
    exit_5_401_is_77: with_key(
        Key::Is(KEY_INVALID),
        get!(DONALD),
        77,
        &[Code("NIET_TOEGESTAAN"), Status(401), StderrLacks(KEY_INVALID)],
    );
    /// EXIT-5: 403 from upstream is 77 too, and the key is never echoed (SEC-2).
    exit_5_403_is_77: with_key(
        Key::Is(KEY_FORBIDDEN),
        get!(DONALD),
        77,
        &[Code("NIET_TOEGESTAAN"), Status(403), StderrLacks(KEY_FORBIDDEN)],
    );
    /// CONF-7, SEC-3: without a key, a base other than the public test environment is 78,
    /// before any request.
    conf_7_missing_key_for_other_base_is_78: with_key(
        Key::Unset,
        get!(DONALD),
        78,
        &[Code("CONFIG_FOUT"), Requests(0)],
    );
    /// CONF-6: an empty key counts as unset (78 for a non-test base).
    conf_6_empty_key_is_unset: with_key(Key::Is(""), get!(DONALD), 78, &[Requests(0)]);
    /// NET-8: plain http to a non-loopback host is 78 before any traffic (no DNS lookup for
    /// `.invalid`: the answer comes at once, not after a resolver timeout).
    net_8_plain_http_to_other_host_is_78: against(
        Upstream::Base("http://example.invalid/api"),
        get!(DONALD, "--timeout", "5"),
        78,
        &[Code("CONFIG_FOUT"), Within(5), AuditWithoutUrl],
    );
    /// ERR-10: an unmapped upstream status (418) is exit 1 with `API_FOUT`.
    err_10_unmapped_status_is_1: against(
        Upstream::Fout(418, "IPD0000", "Ik ben een theepot."),
        get!(DONALD),
        1,
        &[Code("API_FOUT"), Status(418)],
    );
    /// EXIT-1: an unexpected 4xx without a readable KvK error body is unclassified (1), with
    /// its status.
    exit_1_unexpected_status_without_readable_body: against(
        Upstream::Text(409, "conflict"),
        get!(DONALD),
        1,
        &[Status(409), Code("API_FOUT")],
    );
    /// EXIT-4: 422 is 65.
    exit_4_422_is_65: against(Upstream::Text(422, "x"), get!(DONALD), 65, &[Status(422)]);
    /// EXIT-6: 410 is 66.
    exit_6_410_is_66: against(Upstream::Text(410, "x"), get!(DONALD), 66, &[Status(410)]);
    /// EXIT-8: a 503 without Retry-After is 69.
    exit_8_bare_503_is_69: against(Upstream::Text(503, "x"), get!(DONALD), 69, &[Status(503)]);
    /// EXIT-4: the status decides the class, even without a KvK error body: 400 is 65.
    exit_4_400_without_a_body_is_65: against(
        Upstream::Text(400, "<html>fout</html>"),
        get!(DONALD),
        65,
        &[Status(400)],
    );
    /// EXIT-5: 401 without a KvK error body is 77.
    exit_5_401_without_a_body_is_77: against(
        Upstream::Text(401, "<html>fout</html>"),
        get!(DONALD),
        77,
        &[Status(401)],
    );
    /// EXIT-5: 403 without a KvK error body is 77.
    exit_5_403_without_a_body_is_77: against(
        Upstream::Text(403, "<html>fout</html>"),
        get!(DONALD),
        77,
        &[Status(403)],
    );
    /// EXIT-6: 404 without a KvK error body is 66.
    exit_6_404_without_a_body_is_66: against(
        Upstream::Text(404, "<html>fout</html>"),
        get!(DONALD),
        66,
        &[Status(404)],
    );
}

/// Run one row and check every expectation, naming the row in each failure.
fn check(name: &str, case: &Case) {
    let fake = match case.upstream {
        Upstream::Kvk => Some(KvkFake::start()),
        Upstream::Fout(status, code, text) => {
            Some(KvkFake::with(move |_| fout::fout(status, code, text)))
        }
        Upstream::Text(status, body) => Some(KvkFake::with(move |_| Reply::text(status, body))),
        Upstream::Closed | Upstream::Base(_) => None,
    };
    let base = match (&fake, &case.upstream) {
        (Some(fake), _) => fake.base(),
        (None, Upstream::Base(base)) => base.to_string(),
        (None, _) => format!("http://127.0.0.1:{}/api", closed_port()),
    };
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd(&base);
    match case.key {
        Key::Default => {}
        Key::Is(key) => {
            cmd.env("KVK_API_KEY", key);
        }
        Key::Unset => {
            cmd.env_remove("KVK_API_KEY");
        }
    }
    let started = Instant::now();
    let result = run(cmd, case.args);
    let elapsed = started.elapsed();
    let error = result.error(case.exit);
    let text = |member: &str| error[member].as_str().unwrap_or_default().to_string();
    for expect in case.expect {
        match *expect {
            Code(code) => assert_eq!(error["code"], code, "{name}: {error}"),
            Status(status) => assert_eq!(error["status"], status, "{name}, ERR-7: {error}"),
            NoStatus => assert!(
                error.get("status").is_none(),
                "{name}, ERR-7: no upstream status: {error}"
            ),
            Detail(part) => assert!(text("detail").contains(part), "{name}: {error}"),
            Hint(part) => assert!(text("hint").contains(part), "{name}: {error}"),
            Pointer(pointer) => assert!(
                error["errors"]
                    .as_array()
                    .is_some_and(|errors| errors.iter().any(|e| e["pointer"] == pointer)),
                "{name}: {pointer} missing: {error}"
            ),
            FirstPointer(pointer) => {
                assert_eq!(error["errors"][0]["pointer"], pointer, "{name}: {error}")
            }
            RetryAfter => assert!(
                error["retry_after"].as_u64().is_some(),
                "{name}, ERR-9: {error}"
            ),
            RetryAfterIs(seconds) => {
                assert_eq!(error["retry_after"], seconds, "{name}, ERR-9: {error}")
            }
            Requests(count) => {
                let fake = fake.as_ref().expect("a request count needs a fake");
                assert_eq!(fake.request_count(), count, "{name}: requests sent");
            }
            NoAudit => assert!(
                sandbox.audit_records().is_empty(),
                "{name}, AUDIT-1: a parser error does not reach a command"
            ),
            AuditWithoutUrl => {
                let record = sandbox.single_audit_record();
                assert!(
                    record["attributes"].get("url.full").is_none(),
                    "{name}: no upstream request was made: {record}"
                );
            }
            StderrLacks(part) => assert!(
                !result.stderr.contains(part),
                "{name}: {part:?} in stderr: {}",
                result.stderr
            ),
            Within(seconds) => assert!(
                elapsed < Duration::from_secs(seconds),
                "{name}: took {elapsed:?}"
            ),
        }
    }
}

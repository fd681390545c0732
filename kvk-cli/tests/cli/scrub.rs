//! A KvK that echoes the API key back, on every error path and in data: the key never
//! reaches stdout, stderr or the audit log, in any form it was sent in (SEC-2, ERR-13).

use serde_json::{Value, json};
use test_support::cli::{
    CANARY, CANARY_2, assert_no_canary, assert_no_form, echo_forms, percent_encoded,
};
use test_support::{RecordedRequest, Reply};

use crate::support::{KvkFake, Sandbox, run};

/// The key the fake received, as the tool sent it.
fn echoed(request: &RecordedRequest) -> String {
    request.header("apikey").unwrap_or("?").to_string()
}

fn fout(status: u16, code: &str, text: &str) -> Reply {
    Reply::json(
        status,
        &json!({"fout": [{"code": code, "omschrijving": text}]}),
    )
}

type Echo = fn(&RecordedRequest) -> Reply;

/// Every way the fake echoes the key, with the exit status the tool must give.
fn cases() -> Vec<(&'static str, i32, Echo)> {
    vec![
        ("401 apikey in omschrijving", 77, |r| {
            fout(401, "IPD1998", &format!("Onjuiste apikey: {}", echoed(r)))
        }),
        ("403 bearer form", 77, |r| {
            fout(
                403,
                "IPD1998",
                &format!("Bearer {} mag dit niet", echoed(r)),
            )
        }),
        ("400 key as the code", 65, |r| {
            fout(400, &echoed(r), "Een parameter is niet valide.")
        }),
        ("404 IPD0005 url-encoded key", 66, |r| {
            fout(
                404,
                "IPD0005",
                &format!("?apikey={}", percent_encoded(&echoed(r))),
            )
        }),
        ("404 IPD1002 temporary", 75, |r| {
            fout(
                404,
                "IPD1002",
                &format!("sleutel {} in behandeling", echoed(r)),
            )
        }),
        ("429 retry", 75, |r| {
            fout(429, "IPD1998", &format!("te veel voor {}", echoed(r))).header("retry-after", "60")
        }),
        ("500 problem+json", 69, |r| {
            Reply::json(
                500,
                &json!({
                    "type": "about:blank", "title": echoed(r), "detail": echoed(r),
                    "hint": echoed(r), "errors": [{"pointer": "/apikey", "detail": echoed(r)}],
                }),
            )
            .header("content-type", "application/problem+json")
        }),
        ("502 plain text", 69, |r| {
            Reply::text(502, &format!("upstream key={}", echoed(r)))
        }),
        ("200 of another shape", 76, |r| {
            Reply::json(200, &json!({"kvkNummer": ["x"], "naam": [echoed(r)]}))
        }),
        ("200 not JSON", 76, |r| {
            Reply::text(200, &format!("<html>{}</html>", echoed(r)))
        }),
        ("302 to a relative location holding the key", 76, |r| {
            Reply::redirect(&format!("/elders?k={}", percent_encoded(&echoed(r))))
        }),
        ("302 to another host", 76, |r| {
            Reply::redirect(&format!("https://{}.example/", percent_encoded(&echoed(r))))
        }),
        ("header echo", 69, |r| {
            Reply::text(503, "bezet").header("x-echo", &percent_encoded(&echoed(r)))
        }),
    ]
}

/// SEC-2, ERR-13: on every error path the echoed key is masked in the error object and in
/// the audit record; the exit status still says what happened.
#[test]
fn sec_2_echoed_key_never_reaches_stderr_or_audit() {
    for (label, exit, echo) in cases() {
        let fake = KvkFake::with(echo);
        let sandbox = Sandbox::new();
        let mut cmd = sandbox.cmd(&fake.base());
        cmd.env("KVK_API_KEY", CANARY);
        let result = run(cmd, ["basisprofiel", "toon", "68750110", "--timeout", "5"]);
        assert!(
            fake.requests().iter().all(|r| echoed(r) == CANARY),
            "{label}: the key was sent"
        );
        result.error(exit);
        assert_no_canary(label, &result.stderr);
        assert_no_canary(label, &sandbox.audit_text());
        assert_eq!(sandbox.audit_records().len(), 1, "{label}");
    }
}

/// A KvK whose profile names the company after the key it was sent (`BV <key>`).
fn echoing_in_data() -> KvkFake {
    KvkFake::with(|request| {
        let reply = test_support::kvk::kvk(request);
        let mut body = reply.body_json().expect("a JSON profile");
        body["naam"] = Value::from(format!("BV {}", echoed(request)));
        Reply::json(200, &body)
    })
}

/// SEC-2: a successful answer that repeats the key is printed with the key masked.
#[test]
fn sec_2_echoed_key_is_masked_in_data() {
    let fake = echoing_in_data();
    let sandbox = Sandbox::new();
    for output in ["json", "table"] {
        let mut cmd = sandbox.cmd(&fake.base());
        cmd.env("KVK_API_KEY", CANARY);
        let result = run(cmd, ["basisprofiel", "toon", "68750110", "-o", output]);
        assert_eq!(result.code, 0, "{result:?}");
        assert_no_canary(output, &result.stdout);
        assert!(result.stdout.contains("BV ***"), "{}", result.stdout);
    }
    assert_no_canary("audit", &sandbox.audit_text());
}

/// SEC-2: `--jq` filters the answer with the key already masked: a filter that reshapes the
/// key (here reversed, which the scrub of its output cannot recognise) never gets it.
#[test]
fn sec_2_a_filter_never_sees_the_key() {
    let fake = echoing_in_data();
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd(&fake.base());
    cmd.env("KVK_API_KEY", CANARY);
    let filter = ".naam | explode | reverse | implode";
    let result = run(cmd, ["basisprofiel", "toon", "68750110", "--jq", filter]);
    assert_eq!(result.code, 0, "{result:?}");
    let reversed: String = CANARY.chars().rev().collect();
    assert!(!result.stdout.contains(&reversed), "{}", result.stdout);
    assert_eq!(result.stdout, "*** VB\n");
    assert_no_canary("audit", &sandbox.audit_text());
}

/// SEC-2: a KvK that echoes the key encoded (every byte percent-encoded, `encodeURI`, JSON
/// `\u` escapes, upper case, hex, base64 of a longer text) in a plain-text error, in the
/// path of a redirect to another host (whose refusal names the URL) and in its own error
/// message: no form reaches stderr or the audit log.
#[test]
fn sec_2_echoed_key_is_masked_in_every_encoding() {
    type Place = fn(&str) -> Reply;
    let places: [(&str, i32, Place); 3] = [
        ("500 plain text", 69, |form| {
            Reply::text(500, &format!("sleutel={form};"))
        }),
        ("302 to another host", 76, |form| {
            Reply::redirect(&format!("http://elders.example/buit/{form}"))
        }),
        ("401 omschrijving", 77, |form| {
            fout(401, "IPD1998", &format!("Onjuiste apikey: {form}"))
        }),
    ];
    for (label, form) in echo_forms(CANARY_2) {
        for (place, exit, reply) in places {
            let label = format!("{label} in {place}");
            let echoed = form.clone();
            let fake = KvkFake::with(move |_| reply(&echoed));
            let sandbox = Sandbox::new();
            let mut cmd = sandbox.cmd(&fake.base());
            cmd.env("KVK_API_KEY", CANARY_2);
            let result = run(cmd, ["basisprofiel", "toon", "68750110", "--timeout", "5"]);
            assert_eq!(fake.requests().len(), 1, "{label}");
            result.error(exit);
            assert_no_form(&label, &result.stderr, &form);
            assert_no_form(&label, &sandbox.audit_text(), &form);
        }
    }
}

/// SEC-11: a key shorter than eight characters is refused before any request, naming the
/// variable and not the value; a key of eight is used.
#[test]
fn sec_11_a_short_key_is_refused_by_name() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.cmd(&fake.base());
    cmd.env("KVK_API_KEY", "q7Zk93x");
    let result = run(cmd, ["basisprofiel", "toon", "68750110"]);
    let error = result.error(78);
    assert!(
        error["detail"].as_str().unwrap().contains("KVK_API_KEY"),
        "{error}"
    );
    assert!(!result.stderr.contains("q7Zk93x"), "{}", result.stderr);
    assert!(fake.requests().is_empty());
    assert_eq!(sandbox.audit_records().len(), 1);
    let mut cmd = sandbox.cmd(&fake.base());
    cmd.env("KVK_API_KEY", "q7Zk93x8");
    assert_eq!(run(cmd, ["basisprofiel", "toon", "68750110"]).code, 0);
}

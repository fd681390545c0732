//! A hostile or broken upstream as kvk-cli sees it: answers that are not HTTP, redirects
//! that leave the base, `Retry-After: 0`, and configuration a dry run must refuse like the
//! real call (EXIT-9, NET-4, NET-11, PROV-3, DRY-4).

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use test_support::Reply;

use crate::support::{KEY, KvkFake, MOUNT, Sandbox, run};

/// A raw TCP server on 127.0.0.1 that answers every connection with `answer` (after
/// reading the request head) and closes it. Returns the base URL.
fn raw_upstream(answer: Vec<u8>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let port = listener.local_addr().expect("an address").port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let answer = answer.clone();
            std::thread::spawn(move || {
                let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
                    head.push(byte[0]);
                }
                let _ = stream.write_all(&answer);
                let _ = stream.flush();
            });
        }
    });
    format!("http://127.0.0.1:{port}{MOUNT}")
}

fn many_headers(count: usize) -> Vec<u8> {
    let mut answer = b"HTTP/1.1 200 OK\r\n".to_vec();
    for i in 0..count {
        answer.extend_from_slice(format!("x-h{i}: v\r\n").as_bytes());
    }
    answer.extend_from_slice(b"content-length: 2\r\n\r\n{}");
    answer
}

/// EXIT-9: an answer that is not valid HTTP is 76 (not "unreachable", 69), and says so.
#[test]
fn exit_9_malformed_http_is_76() {
    let huge_header = {
        let mut answer = b"HTTP/1.1 200 OK\r\nx-groot: ".to_vec();
        answer.extend(std::iter::repeat_n(b'a', 2 * 1024 * 1024));
        answer.extend_from_slice(b"\r\ncontent-length: 2\r\n\r\n{}");
        answer
    };
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("garbage", b"\x00\x01GARBAGE garbage\r\n\r\n".to_vec()),
        ("a 2 MB header", huge_header),
        ("5000 headers", many_headers(5000)),
        ("HTTP/0.9", b"{\"kvkNummer\":\"68750110\"}\n".to_vec()),
        ("a bare 100", b"HTTP/1.1 100 Continue\r\n\r\n".to_vec()),
        ("a bad status line", b"HTTP/1.1 2000 OK\r\n\r\n".to_vec()),
    ];
    for (label, answer) in cases {
        let base = raw_upstream(answer);
        let sandbox = Sandbox::new();
        let result = run(
            sandbox.cmd(&base),
            ["basisprofiel", "toon", "68750110", "--timeout", "10"],
        );
        let error = result.error(76);
        assert_eq!(error["code"], "PARSE_FOUT", "{label}: {error}");
        let detail = error["detail"].as_str().expect("detail");
        assert!(detail.contains("geen geldig HTTP"), "{label}: {detail}");
        assert_eq!(sandbox.audit_records().len(), 1, "{label}");
    }
}

/// EXIT-8, EXIT-9: a connection that is accepted and closed without an answer is 76 like
/// a bare `100` (the two cannot be told apart); a refused connection stays 69.
#[test]
fn exit_9_close_without_answer_is_76_refused_is_69() {
    let sandbox = Sandbox::new();
    let error = run(
        sandbox.cmd(&raw_upstream(Vec::new())),
        ["basisprofiel", "toon", "68750110"],
    )
    .error(76);
    assert!(
        error["detail"]
            .as_str()
            .expect("detail")
            .contains("gesloten")
    );
    let refused = format!("http://127.0.0.1:{}{MOUNT}", crate::support::closed_port());
    let error = run(sandbox.cmd(&refused), ["basisprofiel", "toon", "68750110"]).error(69);
    assert_eq!(error["code"], "BRON_ONBEREIKBAAR");
}

/// NET-11: a same-origin redirect that leaves the base path is refused (76) before the key
/// goes there; the other path is never asked.
#[test]
fn net_11_redirect_out_of_the_base_path_is_refused() {
    let outside = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&outside);
    let fake = KvkFake::with(|_| Reply::redirect("/elders/v1/basisprofielen/68750110"));
    // A second mount on the same origin would receive the key if the redirect were followed.
    let server = test_support::FakeServer::start(move |request| {
        if request.path.starts_with("/elders") {
            seen.fetch_add(1, Ordering::SeqCst);
            Reply::text(200, "{}")
        } else {
            Reply::redirect("/elders/v1/basisprofielen/68750110")
        }
    });
    for base in [fake.base(), server.url(MOUNT)] {
        let sandbox = Sandbox::new();
        let result = run(sandbox.cmd(&base), ["basisprofiel", "toon", "68750110"]);
        let error = result.error(76);
        assert_eq!(error["code"], "OMLEIDING_GEWEIGERD", "{error}");
        assert!(!result.stderr.contains(KEY));
    }
    assert_eq!(
        outside.load(Ordering::SeqCst),
        0,
        "the key left the base path"
    );
    assert_eq!(server.request_count(), 1);
}

/// The fake KvK moved to `{MOUNT}/nieuw`: every other request is redirected there, under
/// the base.
pub(crate) fn moved_under_the_base() -> KvkFake {
    KvkFake::with(|request| match request.raw_url.strip_prefix("/nieuw") {
        Some(rest) => {
            let mut moved = request.clone();
            moved.raw_url = rest.to_string();
            moved.path = moved.path.replacen("/nieuw", "", 1);
            test_support::kvk::kvk(&moved)
        }
        None => Reply::redirect(&format!("{MOUNT}/nieuw{}", request.raw_url)),
    })
}

/// PROV-3, NET-11: after a redirect under the base, provenance and the audit record name
/// the URL that answered, not the one first asked.
#[test]
fn prov_3_provenance_names_the_url_that_answered() {
    let fake = moved_under_the_base();
    let sandbox = Sandbox::new();
    let document = run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "68750110", "--provenance"],
    )
    .json();
    let answered = format!(
        "{}/nieuw/v1/basisprofielen/68750110?geoData=false",
        fake.base()
    );
    let provenance = &document["provenance"];
    assert_eq!(provenance["source_url"], answered.as_str(), "{provenance}");
    assert_eq!(provenance["requests"][0]["url"], answered.as_str());
    let record = sandbox.single_audit_record();
    assert_eq!(
        record["attributes"]["url.full"],
        answered.as_str(),
        "{record}"
    );
}

/// NET-4: `Retry-After: 0` (or a date in the past) still waits a minimum back-off between
/// attempts: three requests never come within a few milliseconds.
#[test]
fn net_4_retry_after_zero_keeps_a_minimum_back_off() {
    for retry_after in ["0", "Thu, 01 Jan 1970 00:00:00 GMT"] {
        let fake =
            KvkFake::with(move |_| Reply::text(503, "bezet").header("retry-after", retry_after));
        let sandbox = Sandbox::new();
        let started = Instant::now();
        run(
            sandbox.cmd(&fake.base()),
            ["basisprofiel", "toon", "68750110", "--timeout", "10"],
        )
        .error(75);
        assert_eq!(fake.request_count(), 3, "{retry_after}");
        assert!(
            started.elapsed() >= Duration::from_millis(500),
            "{retry_after}: three requests in {:?}",
            started.elapsed()
        );
    }
}

/// DRY-4: a dry run refuses what the real call refuses before sending: a key with a
/// newline, an unusable `HTTPS_PROXY`, a size cap that is no number; same exit code,
/// nothing sent.
#[test]
fn dry_4_dry_run_runs_the_checks_of_the_real_call() {
    let fake = KvkFake::start();
    for (var, value) in [
        ("KVK_API_KEY", "sleutel\nmet-regeleinde"),
        ("HTTPS_PROXY", "garbage"),
        ("HTTPS_PROXY", "ftp://proxy.example:21"),
        ("OVERHEID_MAX_RESPONSE_BYTES", "veel"),
    ] {
        let sandbox = Sandbox::new();
        let mut real = sandbox.cmd(&fake.base());
        real.env(var, value);
        let real = run(real, ["basisprofiel", "toon", "68750110"]);
        let mut dry = sandbox.cmd(&fake.base());
        dry.env(var, value);
        let dry = run(dry, ["basisprofiel", "toon", "68750110", "--dry-run"]);
        let expected = real.error(78);
        let refused = dry.error(78);
        assert_eq!(refused["code"], expected["code"], "{var}={value:?}");
        assert!(!dry.stderr.contains("met-regeleinde"), "{}", dry.stderr);
    }
    assert_eq!(fake.request_count(), 0);
}

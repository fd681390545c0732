//! The recording fake server over real HTTP: recording, concurrency, stalls, shutdown.
#![allow(clippy::disallowed_methods, reason = "own test client")]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::json;
use test_support::{FakeServer, Reply};

fn client(timeout: Duration) -> reqwest::blocking::Client {
    reqwest::blocking::Client::builder()
        .timeout(timeout)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

#[test]
fn records_method_path_decoded_query_headers_and_body() {
    let server = FakeServer::start(|_| Reply::json(200, &json!({"ok": true})));
    let response = client(Duration::from_secs(5))
        .post(server.url("/pad/x%20y?naam=Test+BV%20Donald&type=a&type=b"))
        .header("ApiKey", "geheim")
        .body("inhoud")
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/json");
    assert_eq!(response.text().unwrap(), r#"{"ok":true}"#);

    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(server.request_count(), 1);
    let request = &requests[0];
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, "/pad/x y");
    assert_eq!(
        request.raw_url,
        "/pad/x%20y?naam=Test+BV%20Donald&type=a&type=b"
    );
    assert_eq!(
        request.query,
        [
            ("naam".to_owned(), "Test BV Donald".to_owned()),
            ("type".to_owned(), "a".to_owned()),
            ("type".to_owned(), "b".to_owned()),
        ]
    );
    assert!(
        request
            .headers
            .iter()
            .any(|(name, value)| name == "apikey" && value == "geheim")
    );
    assert_eq!(request.header("host"), Some(server.host_port().as_str()));
    assert_eq!(request.body, b"inhoud");
    assert_eq!(server.last_request().as_ref(), Some(request));
    server.clear_requests();
    assert_eq!(server.request_count(), 0);
}

#[test]
fn base_url_and_host_port_agree() {
    let server = FakeServer::start(|_| Reply::new(204));
    assert_eq!(server.base_url(), format!("http://{}", server.host_port()));
    assert!(server.host_port().starts_with("127.0.0.1:"));
    assert_ne!(server.port(), 0);
}

#[test]
fn a_stalled_reply_does_not_block_others() {
    let server = Arc::new(FakeServer::start(|request| {
        if request.path == "/traag" {
            Reply::text(200, "eindelijk").delay(Duration::from_secs(3))
        } else {
            Reply::text(200, "snel")
        }
    }));
    let slow = {
        let url = server.url("/traag");
        thread::spawn(move || {
            client(Duration::from_secs(10))
                .get(url)
                .send()
                .unwrap()
                .text()
                .unwrap()
        })
    };
    while server.request_count() == 0 {
        thread::sleep(Duration::from_millis(10));
    }
    let started = Instant::now();
    let fast: Vec<_> = (0..8)
        .map(|_| {
            let url = server.url("/snel");
            thread::spawn(move || {
                client(Duration::from_secs(10))
                    .get(url)
                    .send()
                    .unwrap()
                    .text()
                    .unwrap()
            })
        })
        .collect();
    for handle in fast {
        assert_eq!(handle.join().unwrap(), "snel");
    }
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(slow.join().unwrap(), "eindelijk");
    assert_eq!(server.request_count(), 9);
}

#[test]
fn handlers_run_concurrently() {
    let running = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(AtomicUsize::new(0));
    let server = {
        let (running, peak) = (Arc::clone(&running), Arc::clone(&peak));
        FakeServer::start(move |_| {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(now, Ordering::SeqCst);
            thread::sleep(Duration::from_millis(300));
            running.fetch_sub(1, Ordering::SeqCst);
            Reply::new(204)
        })
    };
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let url = server.url("/");
            thread::spawn(move || {
                client(Duration::from_secs(10))
                    .get(url)
                    .send()
                    .unwrap()
                    .status()
            })
        })
        .collect();
    for handle in handles {
        assert_eq!(handle.join().unwrap(), 204);
    }
    assert!(
        peak.load(Ordering::SeqCst) >= 2,
        "handlers ran one at a time"
    );
}

#[test]
fn delay_makes_a_client_time_out() {
    let server = FakeServer::start(|_| Reply::text(200, "te laat").delay(Duration::from_secs(30)));
    let started = Instant::now();
    let error = client(Duration::from_millis(300))
        .get(server.url("/"))
        .send()
        .unwrap_err();
    assert!(error.is_timeout(), "{error}");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(
        server.request_count(),
        1,
        "a stalled request is still recorded"
    );
}

#[test]
fn stall_mid_body_sends_headers_and_part_of_the_body_first() {
    let body = "x".repeat(50) + &"y".repeat(50);
    let server = FakeServer::start(move |_| {
        Reply::text(200, &body).stall_mid_body(50, Duration::from_secs(30))
    });
    let address: SocketAddr = server.host_port().parse().unwrap();
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_millis(1500)))
        .unwrap();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let mut received = Vec::new();
    let mut buffer = [0u8; 512];
    let outcome = loop {
        match stream.read(&mut buffer) {
            Ok(0) => break "closed",
            Ok(count) => received.extend_from_slice(&buffer[..count]),
            Err(_) => break "stalled",
        }
    };
    let text = String::from_utf8_lossy(&received);
    assert_eq!(outcome, "stalled", "{text}");
    assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
    assert!(text.contains("content-length: 100\r\n"), "{text}");
    assert!(text.ends_with(&"x".repeat(50)), "{text}");
}

#[test]
fn truncated_json_and_html_pages_arrive_as_sent() {
    let server = FakeServer::start(|request| match request.path.as_str() {
        "/kapot" => Reply::truncated_json(&json!({"naam": "Test BV Donald", "lijst": [1, 2, 3]})),
        _ => Reply::html_error(502),
    });
    let http = client(Duration::from_secs(5));
    let broken = http
        .get(server.url("/kapot"))
        .send()
        .unwrap()
        .text()
        .unwrap();
    assert!(serde_json::from_str::<serde_json::Value>(&broken).is_err());
    assert!(broken.starts_with("{\"naam\""));
    let page = http.get(server.url("/proxy")).send().unwrap();
    assert_eq!(page.status(), 502);
    assert_eq!(page.headers()["content-type"], "text/html");
    assert!(page.text().unwrap().contains("<h1>502 Bad Gateway</h1>"));
}

#[test]
fn redirects_carry_their_location() {
    let server = FakeServer::start(|_| Reply::redirect("http://localhost:9/elders"));
    let response = client(Duration::from_secs(5))
        .get(server.url("/"))
        .send()
        .unwrap();
    assert_eq!(response.status(), 302);
    assert_eq!(response.headers()["location"], "http://localhost:9/elders");
}

#[test]
fn a_panicking_handler_gives_500_and_the_server_lives_on() {
    let server = FakeServer::start(|request| {
        assert_ne!(request.path, "/paniek", "opzettelijk");
        Reply::new(204)
    });
    let http = client(Duration::from_secs(5));
    assert_eq!(
        http.get(server.url("/paniek")).send().unwrap().status(),
        500
    );
    assert_eq!(
        http.get(server.url("/rustig")).send().unwrap().status(),
        204
    );
}

#[test]
fn dropping_the_server_closes_the_port_even_with_a_stalled_request() {
    let server = FakeServer::start(|_| Reply::new(200).delay(Duration::from_secs(60)));
    let address: SocketAddr = server.host_port().parse().unwrap();
    let url = server.url("/");
    let pending = thread::spawn(move || client(Duration::from_secs(20)).get(url).send());
    while server.request_count() == 0 {
        thread::sleep(Duration::from_millis(10));
    }
    let started = Instant::now();
    drop(server);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "drop waited for the stall"
    );
    // tiny_http closes its listening socket on its own thread, moments after the drop.
    let closed = (0..100).any(|_| {
        thread::sleep(Duration::from_millis(20));
        TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_err()
    });
    assert!(closed, "port still open after drop");
    // The stalled request ends without its 200 once the server is gone.
    let outcome = pending.join().unwrap();
    assert!(outcome.is_err() || outcome.unwrap().status() != 200);
}

#[test]
fn binding_outside_loopback_is_refused() {
    let address: SocketAddr = "0.0.0.0:0".parse().unwrap();
    let error = FakeServer::bind(address, |_| Reply::new(200))
        .err()
        .unwrap();
    assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
    let loopback: SocketAddr = "127.0.0.1:0".parse().unwrap();
    assert!(FakeServer::bind(loopback, |_| Reply::new(200)).is_ok());
}

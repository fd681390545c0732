//! Figures of issue 38 (`bench/approval/run.sh`): how long rvo-cli's check of a person's approval
//! token takes when a proposal is applied, with the identity provider's keys kept in the family
//! cache (as the JWKS answer's `max-age` allows):
//!
//! - `verify`: the verification alone (signature, `iss`, `aud`, `exp`, `nbf`, `iat`, the
//!   authorization detail, `acr`), the keys in memory;
//! - `cache_and_verify`: the whole check as one CLI process makes it at apply: the provider's
//!   metadata and keys read from the cache, then the verification.
//!
//! ```text
//! cargo run --release -p rvo-cli --example verify_approval -- \
//!     ISSUER TOKEN_FILE DETAIL_FILE CACHE_DIR [ROUNDS] [ACR]
//! ```
//!
//! `DETAIL_FILE` holds the proposal's `authorization_details[0]`; the token is one the provider
//! issued for it. Prints one JSON line of microseconds (p50, p90, max).
#![allow(clippy::print_stdout, reason = "an example")]
#![allow(
    clippy::disallowed_methods,
    reason = "a benchmark's own arguments, files and output"
)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::approval::detail::Detail;
use common::approval::provider::{Provider, header_kid};
use common::approval::token;
use common::cache::Settings;
use serde_json::{Value, json};

fn percentiles(mut samples: Vec<Duration>) -> Value {
    samples.sort();
    let at = |q: f64| {
        let i = ((samples.len() as f64 - 1.0) * q).round() as usize;
        (samples[i].as_secs_f64() * 1e6 * 10.0).round() / 10.0
    };
    json!({"p50": at(0.5), "p90": at(0.9), "max": at(1.0)})
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [issuer, token_file, detail_file, cache_dir] = [0, 1, 2, 3].map(|i| {
        args.get(i).cloned().unwrap_or_else(|| {
            panic!(
                "gebruik: verify_approval ISSUER TOKEN_FILE DETAIL_FILE CACHE_DIR [ROUNDS] [ACR]"
            )
        })
    });
    let rounds: usize = args.get(4).and_then(|n| n.parse().ok()).unwrap_or(1000);
    let acr = args.get(5).map(String::as_str);
    let token = std::fs::read_to_string(&token_file).expect("token leesbaar");
    let token = token.trim();
    let entry: Value =
        serde_json::from_str(&std::fs::read_to_string(&detail_file).expect("detail leesbaar"))
            .expect("detail is JSON");
    let text = |name: &str| entry[name].as_str().expect("detail heeft id en digest");
    let detail = Detail::of(text("voorstel_id"), text("plan_digest"), &entry);
    let settings = Settings {
        dir: PathBuf::from(&cache_dir),
        max_bytes: 1 << 28,
    };

    // The first check fetches the metadata and keys and keeps them, as the first apply does.
    let warm = Provider::cached(&issuer, Some(settings.clone())).expect("provider bruikbaar");
    token::verify(&warm, token, &detail, acr).expect("het token is geldig voor dit detail");
    let kept = std::fs::read_dir(&cache_dir)
        .expect("cache")
        .flatten()
        .any(|e| e.file_name().to_string_lossy().ends_with(".cache"));
    assert!(
        kept,
        "de sleutels staan niet in de cache (geen max-age?): dan meet dit geen gecachte sleutels"
    );

    let (mut alone, mut whole) = (Vec::with_capacity(rounds), Vec::with_capacity(rounds));
    for _ in 0..rounds {
        let start = Instant::now();
        let verified = token::verify(&warm, token, &detail, acr);
        alone.push(start.elapsed());
        assert!(verified.is_ok());

        let start = Instant::now();
        let provider = Provider::cached(&issuer, Some(settings.clone())).expect("provider");
        let known = provider.has_key(header_kid(token).as_deref());
        let verified = token::verify(&provider, token, &detail, acr);
        whole.push(start.elapsed());
        assert!(known && verified.is_ok());
    }
    let header = jsonwebtoken_alg(token);
    println!(
        "{}",
        json!({
            "rounds": rounds,
            "alg": header,
            "token_bytes": token.len(),
            "verify_us": percentiles(alone),
            "cache_and_verify_us": percentiles(whole),
        })
    );
}

/// The token's signature algorithm, from its header (for the figures' legend).
fn jsonwebtoken_alg(token: &str) -> String {
    use base64::Engine as _;
    let header = token.split('.').next().unwrap_or_default();
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(header)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())
        .and_then(|h| h["alg"].as_str().map(str::to_string))
        .unwrap_or_default()
}

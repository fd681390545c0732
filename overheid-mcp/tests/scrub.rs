//! The bridge with the real `kvk-cli` against a KvK that echoes the API key: the key never
//! reaches the agent, neither in `content` nor in `structuredContent` of a `tools/call`
//! result, on an error or in data (SEC-2, ERR-13).

mod harness;

use serde_json::{Value, json};
use test_support::cli::{CANARY, assert_no_canary};
use test_support::{FakeServer, Reply};

use harness::{Bridge, kvk_cli};

fn assert_clean(label: &str, result: &Value) {
    assert_no_canary(label, &result.to_string());
}

#[test]
fn sec_2_an_echoed_key_never_reaches_the_agent() {
    // A missing binary is a failure here, not a silent pass.
    let kvk = kvk_cli().expect("kvk-cli is built (cargo build -p kvk-cli)");
    let server = FakeServer::start(|request| {
        let key = request.header("apikey").unwrap_or("?").to_string();
        if request.path.ends_with("/68750110") {
            let mut profile = test_support::kvk::kvk(request)
                .body_json()
                .expect("a profile");
            profile["naam"] = Value::from(format!("BV {key}"));
            return Reply::json(200, &profile);
        }
        Reply::json(
            401,
            &json!({"fout": [{"code": key, "omschrijving": format!("Onjuiste apikey: {key}")}]}),
        )
    });
    let audit = tempfile::NamedTempFile::new().unwrap();
    let base = server.base_url();
    let mut bridge = Bridge::start(
        &["--tool", kvk.to_str().unwrap()],
        &[
            ("KVK_API_BASE", base.as_str()),
            ("KVK_API_KEY", CANARY),
            ("KVK_AUDIT_LOG", audit.path().to_str().unwrap()),
        ],
    );

    let error = bridge.call("kvk__basisprofiel_toon", json!({"kvk_nummer": "69599084"}));
    assert_eq!(error["isError"], true, "{error}");
    assert_eq!(
        error["_meta"]["nl.overheid/problem"]["exit_code"], 77,
        "{error}"
    );
    assert!(
        error["_meta"]["nl.overheid/problem"]["detail"]
            .as_str()
            .unwrap()
            .contains("***")
    );
    assert_clean("error", &error);

    let data = bridge.call("kvk__basisprofiel_toon", json!({"kvk_nummer": "68750110"}));
    assert_eq!(data["isError"], false, "{data}");
    assert_eq!(data["structuredContent"]["naam"], "BV ***");
    assert_clean("data", &data);

    let requests = server.requests();
    assert!(requests.iter().all(|r| r.header("apikey") == Some(CANARY)));
    let audit = std::fs::read_to_string(audit.path()).unwrap();
    assert_clean("audit", &Value::from(audit));
}

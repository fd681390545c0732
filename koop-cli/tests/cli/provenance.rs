//! `--provenance` and `--fields`: the toestand read is the source, both requests are listed with
//! the digests of the bytes on the wire (PROV-*, FIELDS-*).

use serde_json::json;

use crate::support::{KoopFake, Sandbox, assert_valid, run, sha256_hex};

const TOESTAND_2024: &[u8] = include_bytes!("../fixtures/toestand/BWBR9900001_2024-01-01_0.xml");

#[test]
fn get_names_the_toestand_and_lists_both_requests() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let args = [
        "regeling",
        "toon",
        "BWBR9900001",
        "--peildatum",
        "2024-06-01",
        "--provenance",
    ];
    let envelope = run(sandbox.cmd(&fake), args).json();
    assert_valid("envelope.schema.json", &envelope);
    let prov = &envelope["provenance"];
    assert!(
        prov["source"]
            .as_str()
            .unwrap()
            .starts_with("KOOP Basiswettenbestand")
    );
    assert_eq!(prov["environment"], "local", "PROV-8: loopback fakes");
    assert_eq!(prov["tool"], "koop-cli");
    assert_eq!(prov["method"], "GET");
    let toestand = format!(
        "{}/bwb/BWBR9900001/2024-01-01_0/xml/BWBR9900001_2024-01-01_0.xml",
        fake.repository_url()
    );
    assert_eq!(
        prov["source_url"], toestand,
        "PROV-3: the toestand actually read"
    );
    assert_eq!(prov["response_sha256"], sha256_hex(TOESTAND_2024), "PROV-6");
    let requests = prov["requests"].as_array().unwrap();
    assert_eq!(requests.len(), 2);
    assert!(
        requests[0]["url"]
            .as_str()
            .unwrap()
            .starts_with(&fake.sru_url())
    );
    assert_eq!(requests[1]["url"], toestand);
    assert!(requests.iter().all(|r| r["status"] == 200));
    assert_eq!(requests[1]["response_sha256"], prov["response_sha256"]);
    assert_eq!(prov["peildatum"], "2024-06-01");
    assert_eq!(prov["fields"], json!(null), "PROV-7");
    let record = &sandbox.audit_records()[0];
    assert_eq!(prov["trace_id"], record["trace_id"], "PROV-5");
    assert_eq!(record["attributes"]["url.full"], toestand, "AUDIT-15");
}

#[test]
fn zoek_names_the_search_request() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let envelope = run(
        sandbox.cmd(&fake),
        ["regeling", "zoek", "voorbeeld", "--provenance"],
    )
    .json();
    assert_valid("envelope.schema.json", &envelope);
    let prov = &envelope["provenance"];
    assert!(
        prov["source_url"]
            .as_str()
            .unwrap()
            .starts_with(&fake.sru_url())
    );
    assert_eq!(prov["requests"].as_array().unwrap().len(), 1);
    assert!(
        prov["query"]
            .as_str()
            .unwrap()
            .starts_with("overheidbwb.titel all")
    );
}

#[test]
fn fields_keep_only_article_numbers_and_texts() {
    let fake = KoopFake::start();
    let sandbox = Sandbox::new();
    let args = [
        "regeling",
        "toon",
        "BWBR9900001",
        "--peildatum",
        "2024-06-01",
        "--fields",
        "artikelen[].nummer,artikelen[].tekst",
        "--provenance",
    ];
    let envelope = run(sandbox.cmd(&fake), args).json();
    assert_valid("envelope.schema.json", &envelope);
    let data = &envelope["data"];
    assert_eq!(data.as_object().unwrap().len(), 1, "{data}");
    for artikel in data["artikelen"].as_array().unwrap() {
        let keys: Vec<&String> = artikel.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["nummer", "tekst"]);
    }
    assert_eq!(data["artikelen"][0]["nummer"], "1");
    assert_eq!(
        envelope["provenance"]["fields"],
        json!(["artikelen[].nummer", "artikelen[].tekst"])
    );
}

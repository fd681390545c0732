//! EXIT-9: a 200 with JSON of another shape than the command's document is 76
//! (`PARSE_FOUT`), per command; and every document of the fake KvK (written after the
//! real shapes) still passes the same checks.

use serde_json::{Value, json};
use test_support::Reply;
use test_support::kvk::fixtures;

use crate::support::{KvkFake, Sandbox, run};

/// Each command with answers of the wrong shape for it.
fn wrong_shapes() -> Vec<(Vec<&'static str>, Vec<Value>)> {
    vec![
        (
            vec!["basisprofiel", "toon", "68750110"],
            vec![
                json!({}),
                json!({"kvkNummer": 68750110}),
                json!({"kvkNummer": "68750110", "handelsnamen": "Test BV Donald"}),
            ],
        ),
        (
            vec!["basisprofiel", "eigenaar", "68750110"],
            vec![
                json!({}),
                json!({"onbekend": "Test BV Donald"}),
                json!({"rechtsvorm": "Besloten vennootschap", "adressen": {"plaats": "Lollum"}}),
            ],
        ),
        (
            vec!["basisprofiel", "hoofdvestiging", "68750110"],
            vec![
                json!({}),
                json!({"kvkNummer": "68750110"}),
                json!({"vestigingsnummer": "000037178598", "websites": "https://x.example"}),
            ],
        ),
        (
            vec!["basisprofiel", "vestigingen", "68750110"],
            vec![
                json!({}),
                json!({"kvkNummer": "68750110"}),
                json!({"kvkNummer": "68750110", "vestigingen": {"vestigingsnummer": "1"}}),
                json!({"vestigingen": []}),
            ],
        ),
        (
            vec!["vestigingsprofiel", "toon", "000037178598"],
            vec![
                json!({}),
                json!({"vestigingsnummer": 37178598}),
                json!({"vestigingsnummer": "000037178598", "adressen": "Lollum"}),
            ],
        ),
        (
            vec!["naamgeving", "toon", "68750110"],
            vec![
                json!({}),
                json!({"naam": "Test BV Donald"}),
                json!({"kvkNummer": "68750110", "vestigingen": "Test BV Donald"}),
            ],
        ),
        (
            vec!["zoek", "--naam", "Donald"],
            vec![
                json!({}),
                json!({"resultaten": "nope"}),
                json!({"resultaten": "nope", "totaal": 1}),
                json!({"resultaten": [], "totaal": "1"}),
                json!({"resultaten": [], "totaal": 0, "links": {"rel": "self"}}),
            ],
        ),
    ]
}

/// EXIT-9: every command answers a wrong-shaped 200 with 76, status 200, and the error
/// names members, never the response's data (ERR-13).
#[test]
fn exit_9_wrong_shape_per_command_is_76() {
    let sandbox = Sandbox::new();
    for (args, bodies) in wrong_shapes() {
        for body in bodies {
            let reply = body.clone();
            let fake = KvkFake::with(move |_| Reply::json(200, &reply));
            let result = run(sandbox.cmd(&fake.base()), &args);
            let error = result.error(76);
            assert_eq!(error["code"], "PARSE_FOUT", "{args:?} {body}: {error}");
            assert_eq!(error["status"], 200, "{args:?} {body}");
            assert_eq!(fake.request_count(), 1, "{args:?} {body}");
            for leaked in ["Test BV Donald", "Lollum", "x.example"] {
                assert!(
                    !result.stderr.contains(leaked),
                    "{args:?}: {}",
                    result.stderr
                );
            }
        }
    }
}

/// EXIT-9: the shape check leaves well-formed answers alone, also minimal ones: an
/// eigenaar with only a rechtsvorm and null arrays, a search with no results.
#[test]
fn exit_9_minimal_answers_of_the_right_shape_pass() {
    let sandbox = Sandbox::new();
    let cases = [
        (
            vec!["basisprofiel", "eigenaar", "69599084"],
            json!({"rechtsvorm": "Eenmanszaak", "websites": null}),
        ),
        (
            vec!["basisprofiel", "toon", "68750110"],
            json!({"kvkNummer": "68750110"}),
        ),
        (
            vec!["basisprofiel", "vestigingen", "68750110"],
            json!({"kvkNummer": "68750110", "vestigingen": []}),
        ),
        (
            vec!["zoek", "--naam", "Donald"],
            json!({"pagina": 1, "totaal": 0, "resultaten": []}),
        ),
    ];
    for (args, body) in cases {
        let reply = body.clone();
        let fake = KvkFake::with(move |_| Reply::json(200, &reply));
        assert_eq!(
            run(sandbox.cmd(&fake.base()), &args).json(),
            body,
            "{args:?}"
        );
    }
}

/// KvK pads `volledigAdres`; the tool collapses the padding (and nothing else).
fn collapse_addresses(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, member) in map.iter_mut() {
                match member {
                    Value::String(text) if key == "volledigAdres" => {
                        *text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                    }
                    _ => collapse_addresses(member),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(collapse_addresses),
        _ => {}
    }
}

/// A fixture as the tool prints it: links at `base`, addresses collapsed.
fn expected(document: &str, base: &str) -> Value {
    let mut value = fixtures::load(document, base, false);
    collapse_addresses(&mut value);
    value
}

/// Every company and vestiging of the fake passes every command unchanged.
#[test]
fn every_fixture_passes_the_shape_checks() {
    let fake = KvkFake::start();
    let base = fake.base();
    let sandbox = Sandbox::new();
    let tool = |args: &[&str]| run(sandbox.cmd(&base), args);
    for company in fixtures::COMPANIES {
        let number = company.kvk_nummer;
        let profiel = tool(&["basisprofiel", "toon", number]).json();
        assert_eq!(profiel, expected(company.basisprofiel, &base), "{number}");
        assert_eq!(
            tool(&["basisprofiel", "eigenaar", number]).json(),
            profiel["_embedded"]["eigenaar"],
            "{number}"
        );
        let hoofdvestiging = tool(&["basisprofiel", "hoofdvestiging", number]);
        match profiel["_embedded"]["hoofdvestiging"]["vestigingsnummer"].as_str() {
            Some(vestigingsnummer) => assert_eq!(
                hoofdvestiging.json()["vestigingsnummer"],
                vestigingsnummer,
                "{number}"
            ),
            // The fake answers 404 IPD0005 for a company without a hoofdvestiging.
            None => assert_eq!(hoofdvestiging.error(66)["code"], "NIET_GEVONDEN"),
        }
        assert_eq!(
            tool(&["basisprofiel", "vestigingen", number]).json(),
            expected(company.vestigingen, &base),
            "{number}"
        );
        assert_eq!(
            tool(&["naamgeving", "toon", number]).json(),
            expected(company.naamgeving, &base),
            "{number}"
        );
        let gevonden = tool(&["zoek", "--kvk-nummer", number]).json();
        assert!(
            gevonden["totaal"].as_u64() > Some(0),
            "{number}: {gevonden}"
        );
    }
    for (vestigingsnummer, document) in fixtures::VESTIGINGEN {
        assert_eq!(
            tool(&["vestigingsprofiel", "toon", vestigingsnummer]).json(),
            expected(document, &base),
            "{vestigingsnummer}"
        );
    }
    let alles = tool(&["zoek", "--naam", "Test", "--inclusief-inactief"]).json();
    assert!(
        alles["resultaten"].as_array().is_some_and(|r| r.len() > 1),
        "{alles}"
    );
}

//! Every document the fake KvK serves must validate against kvk-cli's output schema, and
//! use no property that the schema does not declare (so `--fields` accepts every path
//! the fixtures contain).

use serde_json::{Value, json};
use test_support::RecordedRequest;
use test_support::kvk::{self, fixtures};

const BASISPROFIEL: &str = include_str!("../../../kvk-cli/schemas/basisprofiel.json");
const EIGENAAR: &str = include_str!("../../../kvk-cli/schemas/eigenaar.json");
const VESTIGING: &str = include_str!("../../../kvk-cli/schemas/vestiging.json");
const VESTIGINGEN: &str = include_str!("../../../kvk-cli/schemas/vestigingen.json");
const NAAMGEVING: &str = include_str!("../../../kvk-cli/schemas/naamgeving.json");
const ZOEKEN: &str = include_str!("../../../kvk-cli/schemas/zoeken.json");

fn schema(text: &str) -> Value {
    serde_json::from_str(text).expect("schema is JSON")
}

fn fetch(url: &str) -> Value {
    let reply = kvk::kvk(&RecordedRequest::get(
        url,
        &[("host", "127.0.0.1:1"), ("apikey", "k")],
    ));
    assert_eq!(reply.status_code(), 200, "{url}");
    reply.body_json().expect("JSON body")
}

/// Paths in `instance` whose property is not declared in `node` (following `$ref`, `items`,
/// `additionalProperties` schemas).
fn undeclared(root: &Value, node: &Value, instance: &Value, path: &str, found: &mut Vec<String>) {
    let node = match node.get("$ref").and_then(Value::as_str) {
        Some(reference) => {
            let pointer = reference.strip_prefix('#').expect("local $ref");
            root.pointer(pointer)
                .unwrap_or_else(|| panic!("dangling $ref {reference}"))
        }
        None => node,
    };
    match instance {
        Value::Object(members) => {
            for (key, value) in members {
                let child = format!("{path}.{key}");
                match node["properties"].get(key) {
                    Some(declared) => undeclared(root, declared, value, &child, found),
                    None if node["additionalProperties"].is_object() => {
                        undeclared(root, &node["additionalProperties"], value, &child, found);
                    }
                    None => found.push(child),
                }
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                undeclared(
                    root,
                    &node["items"],
                    item,
                    &format!("{path}[{index}]"),
                    found,
                );
            }
        }
        _ => {}
    }
}

fn assert_conforms(schema_text: &str, instance: &Value, what: &str) {
    let schema = schema(schema_text);
    let validator = jsonschema::draft202012::new(&schema).expect("schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|error| format!("{} at {}", error, error.instance_path))
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}");
    let mut found = Vec::new();
    undeclared(&schema, &schema, instance, "", &mut found);
    assert!(found.is_empty(), "{what}: undeclared properties {found:?}");
}

#[test]
fn schemas_are_valid_2020_12_documents_with_an_object_root() {
    for text in [
        BASISPROFIEL,
        EIGENAAR,
        VESTIGING,
        VESTIGINGEN,
        NAAMGEVING,
        ZOEKEN,
    ] {
        let schema = schema(text);
        assert!(jsonschema::draft202012::meta::is_valid(&schema));
        assert_eq!(
            schema["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
        assert_eq!(schema["type"], "object");
        assert!(
            schema["properties"]
                .as_object()
                .is_some_and(|p| !p.is_empty())
        );
    }
}

#[test]
fn every_company_route_conforms() {
    for company in fixtures::COMPANIES {
        let n = company.kvk_nummer;
        for geo in ["", "?geoData=true"] {
            let profiel = fetch(&format!("/test/api/v1/basisprofielen/{n}{geo}"));
            assert_conforms(BASISPROFIEL, &profiel, n);
            let eigenaar = fetch(&format!("/test/api/v1/basisprofielen/{n}/eigenaar{geo}"));
            assert_conforms(EIGENAAR, &eigenaar, n);
            if profiel["_embedded"]["hoofdvestiging"].is_object() {
                let hoofd = fetch(&format!(
                    "/test/api/v1/basisprofielen/{n}/hoofdvestiging{geo}"
                ));
                assert_conforms(VESTIGING, &hoofd, n);
            }
        }
        let vestigingen = fetch(&format!("/test/api/v1/basisprofielen/{n}/vestigingen"));
        assert_conforms(VESTIGINGEN, &vestigingen, n);
        let naamgeving = fetch(&format!("/test/api/v1/naamgevingen/kvknummer/{n}"));
        assert_conforms(NAAMGEVING, &naamgeving, n);
    }
}

#[test]
fn every_vestigingsprofiel_conforms() {
    for (number, _) in fixtures::VESTIGINGEN {
        for geo in ["", "?geoData=true"] {
            let vestiging = fetch(&format!("/v1/vestigingsprofielen/{number}{geo}"));
            assert_conforms(VESTIGING, &vestiging, number);
        }
    }
}

#[test]
fn search_results_in_both_link_shapes_conform() {
    let queries = [
        "kvkNummer=68750110",
        "naam=Test&resultatenPerPagina=2&pagina=2",
        "plaats=Lochem",
        "postcode=8823SJ&huisnummer=3&huisletter=A",
        "postcode=7240AA&postbusnummer=12",
        "rsin=857572106&inclusiefInactieveRegistraties=true",
    ];
    for query in queries {
        let result = fetch(&format!("/test/api/v2/zoeken?{query}"));
        assert!(result["totaal"].as_u64().unwrap() > 0, "{query}");
        assert_conforms(ZOEKEN, &result, query);
    }
}

#[test]
fn the_schema_rejects_a_document_of_the_wrong_types() {
    let validator = jsonschema::draft202012::new(&schema(BASISPROFIEL)).unwrap();
    assert!(!validator.is_valid(&json!({"kvkNummer": 68750110})));
    assert!(!validator.is_valid(&json!({"handelsnamen": [{"volgorde": "een"}]})));
    assert!(!validator.is_valid(&json!([])));
    assert!(validator.is_valid(&json!({"kvkNummer": null, "handelsnamen": [], "nieuwVeld": 1})));
}

#[test]
fn fields_naam_kvk_nummer_shrinks_the_full_profile_by_97_percent() {
    let profiel = fetch("/test/api/v1/basisprofielen/68750110");
    // kvk-cli collapses the KvK space padding in volledigAdres; measure after that.
    let mut collapsed = profiel.to_string();
    while collapsed.contains("  ") {
        collapsed = collapsed.replace("  ", " ");
    }
    let selected = json!({"naam": profiel["naam"], "kvkNummer": profiel["kvkNummer"]}).to_string();
    assert!(
        collapsed.len() >= 1800,
        "full profile only {} bytes",
        collapsed.len()
    );
    assert!(
        selected.len() * 100 <= collapsed.len() * 3,
        "{} vs {}",
        selected.len(),
        collapsed.len()
    );
}

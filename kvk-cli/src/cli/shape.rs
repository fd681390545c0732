//! The documented shape of each KvK answer, checked cheaply before the data is used.
//!
//! A JSON Schema validator compiled at run time would cost every call (each call is a
//! fresh process), so each command names the few members that identify its document
//! instead: required strings, required arrays and counts, "at least one of", and the
//! members the KvK documents as arrays (which, when present, must be arrays or null).
//! A unit test keeps these lists in line with the output schemas in `schemas/`.

use serde_json::Value;

/// What a successful answer of one command must look like.
#[derive(Debug)]
pub(crate) struct Shape {
    /// The document, for the error text ("basisprofiel", "zoekresultaat", …).
    pub document: &'static str,
    /// Members that must be present as strings.
    pub strings: &'static [&'static str],
    /// Members that must be present as arrays.
    pub arrays: &'static [&'static str],
    /// Members that must be present as non-negative integers.
    pub counts: &'static [&'static str],
    /// When not empty: at least one of these members must be present.
    pub any_of: &'static [&'static str],
    /// Members documented as arrays: when present, an array or null.
    pub optional_arrays: &'static [&'static str],
}

/// `GET /v1/basisprofielen/{kvkNummer}`.
pub(crate) const BASISPROFIEL: Shape = Shape {
    document: "basisprofiel",
    strings: &["kvkNummer"],
    arrays: &[],
    counts: &[],
    any_of: &[],
    optional_arrays: &["handelsnamen", "sbiActiviteiten", "links"],
};

/// `GET /v1/basisprofielen/{kvkNummer}/eigenaar`: every member is optional (an
/// eenmanszaak has no RSIN), so at least one documented member must be there.
pub(crate) const EIGENAAR: Shape = Shape {
    document: "eigenaar",
    strings: &[],
    arrays: &[],
    counts: &[],
    any_of: &[
        "rsin",
        "rechtsvorm",
        "uitgebreideRechtsvorm",
        "datumUitschrijving",
        "adressen",
        "websites",
        "links",
    ],
    optional_arrays: &["adressen", "websites", "links"],
};

/// `GET /v1/basisprofielen/{kvkNummer}/hoofdvestiging` and `GET /v1/vestigingsprofielen/{v}`.
pub(crate) const VESTIGING: Shape = Shape {
    document: "vestiging",
    strings: &["vestigingsnummer"],
    arrays: &[],
    counts: &[],
    any_of: &[],
    optional_arrays: &[
        "handelsnamen",
        "adressen",
        "websites",
        "sbiActiviteiten",
        "links",
    ],
};

/// `GET /v1/basisprofielen/{kvkNummer}/vestigingen`.
pub(crate) const VESTIGINGEN: Shape = Shape {
    document: "vestigingenlijst",
    strings: &["kvkNummer"],
    arrays: &["vestigingen"],
    counts: &[],
    any_of: &[],
    optional_arrays: &["links"],
};

/// `GET /v1/naamgevingen/kvknummer/{kvkNummer}`.
pub(crate) const NAAMGEVING: Shape = Shape {
    document: "naamgeving",
    strings: &["kvkNummer"],
    arrays: &[],
    counts: &[],
    any_of: &[],
    optional_arrays: &["vestigingen", "links"],
};

/// `GET /v2/zoeken`.
pub(crate) const ZOEKEN: Shape = Shape {
    document: "zoekresultaat",
    strings: &[],
    arrays: &["resultaten"],
    counts: &["totaal"],
    any_of: &[],
    optional_arrays: &["links"],
};

impl Shape {
    /// `Ok` when `value` has this shape, else what is wrong (member names only,
    /// never response data), in Dutch.
    pub(crate) fn check(&self, value: &Value) -> Result<(), String> {
        let Some(object) = value.as_object() else {
            return Err("geen JSON-object".into());
        };
        let mut problems = Vec::new();
        for name in self.strings {
            if !object.get(*name).is_some_and(Value::is_string) {
                problems.push(format!("`{name}` is geen tekst"));
            }
        }
        for name in self.arrays {
            if !object.get(*name).is_some_and(Value::is_array) {
                problems.push(format!("`{name}` is geen lijst"));
            }
        }
        for name in self.counts {
            if object.get(*name).and_then(Value::as_u64).is_none() {
                problems.push(format!("`{name}` is geen aantal"));
            }
        }
        if !self.any_of.is_empty() && !self.any_of.iter().any(|name| object.contains_key(*name)) {
            problems.push(format!("geen van {}", self.any_of.join(", ")));
        }
        for name in self.optional_arrays {
            if object
                .get(*name)
                .is_some_and(|member| !member.is_array() && !member.is_null())
            {
                problems.push(format!("`{name}` is geen lijst"));
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("; "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Each shape with the output schema its command declares.
    const WITH_SCHEMAS: [(&Shape, &str); 6] = [
        (
            &BASISPROFIEL,
            include_str!("../../schemas/basisprofiel.json"),
        ),
        (&EIGENAAR, include_str!("../../schemas/eigenaar.json")),
        (&VESTIGING, include_str!("../../schemas/vestiging.json")),
        (&VESTIGINGEN, include_str!("../../schemas/vestigingen.json")),
        (&NAAMGEVING, include_str!("../../schemas/naamgeving.json")),
        (&ZOEKEN, include_str!("../../schemas/zoeken.json")),
    ];

    fn types(property: &Value) -> Vec<&str> {
        match &property["type"] {
            Value::String(one) => vec![one.as_str()],
            Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        }
    }

    #[test]
    fn shapes_follow_the_output_schemas() {
        for (shape, schema) in WITH_SCHEMAS {
            let schema: Value = serde_json::from_str(schema).expect("schema is JSON");
            let properties = schema["properties"].as_object().expect("properties");
            let documented_arrays: Vec<&str> = properties
                .iter()
                .filter(|(_, property)| {
                    types(property).contains(&"array") || property["$ref"] == "#/$defs/Links"
                })
                .map(|(name, _)| name.as_str())
                .collect();
            for name in &documented_arrays {
                assert!(
                    shape.arrays.contains(name) || shape.optional_arrays.contains(name),
                    "{}: array member {name} is not checked",
                    shape.document
                );
            }
            let named = shape
                .strings
                .iter()
                .chain(shape.arrays)
                .chain(shape.counts)
                .chain(shape.any_of)
                .chain(shape.optional_arrays);
            for name in named {
                assert!(
                    properties.contains_key(*name),
                    "{}: {name} is not in the schema",
                    shape.document
                );
            }
            for name in shape.strings {
                assert!(types(&properties[*name]).contains(&"string"), "{name}");
            }
            for name in shape.counts {
                assert!(types(&properties[*name]).contains(&"integer"), "{name}");
            }
        }
    }

    #[test]
    fn eigenaar_lists_every_documented_member() {
        let schema: Value =
            serde_json::from_str(include_str!("../../schemas/eigenaar.json")).expect("JSON");
        let mut documented: Vec<&str> = schema["properties"]
            .as_object()
            .expect("properties")
            .keys()
            .map(String::as_str)
            .collect();
        let mut listed = EIGENAAR.any_of.to_vec();
        documented.sort_unstable();
        listed.sort_unstable();
        assert_eq!(documented, listed);
    }

    #[test]
    fn wrong_shapes_are_named() {
        assert!(
            BASISPROFIEL
                .check(&json!({}))
                .unwrap_err()
                .contains("kvkNummer")
        );
        assert!(BASISPROFIEL.check(&json!({"kvkNummer": 68750110})).is_err());
        assert!(BASISPROFIEL.check(&json!([])).is_err());
        assert!(EIGENAAR.check(&json!({})).is_err());
        assert!(
            EIGENAAR
                .check(&json!({"rechtsvorm": "Eenmanszaak"}))
                .is_ok()
        );
        assert!(
            EIGENAAR
                .check(&json!({"rechtsvorm": "Eenmanszaak", "websites": "x"}))
                .unwrap_err()
                .contains("websites")
        );
        let zoeken = ZOEKEN.check(&json!({"resultaten": "nope"})).unwrap_err();
        assert!(
            zoeken.contains("resultaten") && zoeken.contains("totaal"),
            "{zoeken}"
        );
        assert!(
            ZOEKEN
                .check(&json!({"resultaten": [], "totaal": 0}))
                .is_ok()
        );
        assert!(
            ZOEKEN
                .check(&json!({"resultaten": [], "totaal": -1}))
                .is_err()
        );
        assert!(
            VESTIGINGEN
                .check(&json!({"kvkNummer": "68750110", "vestigingen": null}))
                .is_err()
        );
        assert!(
            NAAMGEVING
                .check(&json!({"kvkNummer": "68750110", "vestigingen": null}))
                .is_ok()
        );
        assert!(
            VESTIGING
                .check(&json!({"vestigingsnummer": "000037178598", "adressen": {}}))
                .is_err()
        );
    }
}

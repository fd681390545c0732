//! Listed schemas every host can map: no `type` given as an array.
//!
//! The CLIs type a member that may be null as `{"type": ["string", "null"]}`: legal JSON Schema
//! that every SDK validates, but a host that maps tool schemas onto a single-`type` dialect
//! (the OpenAPI subset of Gemini's function declarations) rejects the tool or drops the type,
//! and the MCP Inspector warns about each one. The bridge lists them in a portable form:
//!
//! - a top-level member of a result that is `[T, "null"]` and not required is listed as `T`, and
//!   a `null` value of it is left out of the result ([`NullIsAbsent::apply`], data and text
//!   alike). The result may leave the member out anyway (it is not required, and a `fields`
//!   projection leaves members out), so a model learns the same from its absence, and the
//!   listing stays as small as it was (`"T"` is shorter than the type array);
//! - any other type array (a required member, a member deeper down, three types) becomes
//!   `anyOf` branches of one `type` each, which accept exactly what the array accepted.
//!
//! So every `structuredContent` still validates against the listed `outputSchema`, and every
//! member is still typed.

use serde_json::{Map, Value, json};

/// The top-level members of a tool's result whose `null` is left out (their listed type has no
/// `null` any more).
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct NullIsAbsent(Vec<String>);

impl NullIsAbsent {
    /// Leave out every listed member whose value is `null`.
    pub(crate) fn apply(&self, data: &mut Value) {
        if let Value::Object(members) = data {
            for name in &self.0 {
                if members.get(name).is_some_and(Value::is_null) {
                    members.remove(name);
                }
            }
        }
    }
}

/// Make a tool's output schema portable (in place); returns the members whose `null` the result
/// leaves out.
pub(crate) fn output(schema: &mut Value) -> NullIsAbsent {
    let mut absent = Vec::new();
    if let Some(map) = schema.as_object_mut() {
        let required: Vec<String> = map
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|name| name.as_str().map(str::to_string))
            .collect();
        if let Some(members) = map.get_mut("properties").and_then(Value::as_object_mut) {
            for (name, member) in members.iter_mut() {
                if required.contains(name) {
                    continue;
                }
                if let Some(single) = nullable_single(member) {
                    member["type"] = Value::String(single);
                    absent.push(name.clone());
                }
            }
        }
    }
    any_schema(schema);
    NullIsAbsent(absent)
}

/// Make any schema portable (in place): every type array becomes `anyOf` branches.
pub(crate) fn any_schema(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            split_type_array(map);
            for (key, value) in map.iter_mut() {
                match (key.as_str(), value) {
                    ("const" | "enum" | "default" | "examples", _) => {}
                    // Maps from a name to a schema: a member may be called `type`.
                    (
                        "properties" | "patternProperties" | "$defs" | "definitions"
                        | "dependentSchemas",
                        Value::Object(members),
                    ) => members.values_mut().for_each(any_schema),
                    (_, value) => any_schema(value),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(any_schema),
        _ => {}
    }
}

/// `T` when `schema`'s type is `[T, "null"]` (in either order).
fn nullable_single(schema: &Value) -> Option<String> {
    let types = schema.get("type")?.as_array()?;
    let names: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
    match names[..] {
        [one, "null"] | ["null", one] if one != "null" && names.len() == types.len() => {
            Some(one.to_string())
        }
        _ => None,
    }
}

/// `{"type": [a, b], …}` as `{"anyOf": [{"type": a}, {"type": b}], …}`; a one-member array as its
/// member. A schema that has an `anyOf` already gets the new one under `allOf`.
fn split_type_array(map: &mut Map<String, Value>) {
    let Some(Value::Array(types)) = map.get("type") else {
        return;
    };
    if let [only] = &types[..] {
        let only = only.clone();
        map.insert("type".into(), only);
        return;
    }
    let branches: Vec<Value> = types.iter().map(|t| json!({"type": t})).collect();
    map.remove("type");
    if map.contains_key("anyOf") {
        let all = map.entry("allOf").or_insert_with(|| json!([]));
        if let Some(all) = all.as_array_mut() {
            all.push(json!({"anyOf": branches}));
        }
    } else {
        map.insert("anyOf".into(), Value::Array(branches));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_support::schema::has_type_array;

    fn valid(schema: &Value, value: &Value) -> bool {
        jsonschema::validator_for(schema).unwrap().is_valid(value)
    }

    #[test]
    fn an_optional_nullable_member_is_listed_with_one_type_and_its_null_left_out() {
        let original = json!({"type": "object", "required": ["id"], "properties": {
            "id": {"type": ["string", "null"]},
            "naam": {"type": ["string", "null"], "maxLength": 5},
            "aantal": {"type": ["null", "integer"]},
            "adres": {"type": "object", "properties": {"straat": {"type": ["string", "null"]}}},
            "type": {"type": ["string", "number", "null"]}
        }});
        let mut schema = original.clone();
        let absent = output(&mut schema);
        let mut names = absent.0.clone();
        names.sort();
        assert_eq!(names, ["aantal", "naam"]);
        assert!(!has_type_array(&schema), "{schema}");
        assert_eq!(
            schema["properties"]["naam"],
            json!({"type": "string", "maxLength": 5})
        );
        assert_eq!(
            schema["properties"]["id"],
            json!({"anyOf": [{"type": "string"}, {"type": "null"}]})
        );
        assert_eq!(
            schema["properties"]["adres"]["properties"]["straat"],
            json!({"anyOf": [{"type": "string"}, {"type": "null"}]})
        );

        // Every value the CLI's schema accepts, with its nulls left out, the listed one accepts;
        // and what the CLI's schema refuses, the listed one refuses too.
        for value in [
            json!({"id": null, "naam": null, "aantal": null, "adres": {"straat": null}, "type": null}),
            json!({"id": "a", "naam": "b", "aantal": 3, "adres": {"straat": "c"}, "type": 1.5}),
            json!({"id": "a"}),
        ] {
            assert!(valid(&original, &value), "{value}");
            let mut data = value.clone();
            absent.apply(&mut data);
            assert!(valid(&schema, &data), "{data}");
            assert!(!data.as_object().unwrap().contains_key("naam") || !data["naam"].is_null());
        }
        for value in [
            json!({"id": 1}),
            json!({"id": "a", "naam": "te lang"}),
            json!({"id": "a", "aantal": "3"}),
            json!({"id": "a", "adres": {"straat": 1}}),
            json!({"id": "a", "type": true}),
            json!({"naam": "b"}),
        ] {
            assert!(!valid(&original, &value), "{value}");
            let mut data = value.clone();
            absent.apply(&mut data);
            assert!(!valid(&schema, &data), "{data}");
        }
    }

    #[test]
    fn a_type_array_beside_an_any_of_keeps_both() {
        let mut schema = json!({"type": ["string", "integer"], "anyOf": [{"minLength": 2}, {"minimum": 5}],
                                "enum": [{"type": ["x"]}]});
        any_schema(&mut schema);
        assert_eq!(
            schema,
            json!({"anyOf": [{"minLength": 2}, {"minimum": 5}],
                   "allOf": [{"anyOf": [{"type": "string"}, {"type": "integer"}]}],
                   "enum": [{"type": ["x"]}]})
        );
        let mut one = json!({"type": ["string"]});
        any_schema(&mut one);
        assert_eq!(one, json!({"type": "string"}));
    }
}

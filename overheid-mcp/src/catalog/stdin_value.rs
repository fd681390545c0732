//! Path arguments that also take their content on stdin (`"x-stdin": true`, DISC-21): offered
//! to the model as a JSON value, written to the CLI's stdin, with `-` as the argument's value.
//!
//! A model gives data, not the name of a file that holds it. So an argument such as
//! regelrecht-cli's `param_json` (`--param-json FILE`, where `-` reads stdin) is listed under its
//! own name with the schema of its content (`contentSchema`, else any JSON), whether or not the
//! operator allows local paths; the bridge serialises the value, passes `--param-json=-` and
//! writes the JSON to stdin. The payload is held to the same limit as one command-line word.

use serde_json::{Map, Value, json};

use common::tool::{PATH_FORMAT, STDIN_JSON, STDIN_KEYWORD};

use crate::catalog::argv::{MAX_WORD_BYTES, TooLarge};

/// The value a stdin argument gets on the command line.
pub(crate) const STDIN_WORD: &str = "-";

/// Whether the property schema declares a single path whose JSON content `-` reads from stdin.
fn takes_json_on_stdin(schema: &Value) -> bool {
    schema["format"] == PATH_FORMAT
        && schema[STDIN_KEYWORD] == true
        && schema["contentMediaType"] == STDIN_JSON
        && schema["type"] != "array"
}

/// The schema a model sees for the content: the declared `contentSchema`, with a description.
fn value_schema(schema: &Value) -> Value {
    let mut content = match &schema["contentSchema"] {
        Value::Object(content) => content.clone(),
        _ => Map::new(),
    };
    if !content.contains_key("description") {
        content.insert(
            "description".into(),
            json!("De JSON-waarde zelf, geen bestandsnaam"),
        );
    }
    Value::Object(content)
}

/// Replace the first stdin-capable path property of `input` by its content schema; returns its
/// name. Stdin is one stream, so a further such property stays a path.
pub(crate) fn offer_as_value(input: &mut Map<String, Value>) -> Option<String> {
    let properties = input.get_mut("properties")?.as_object_mut()?;
    let (name, schema) = properties
        .iter_mut()
        .find(|(_, schema)| takes_json_on_stdin(schema))?;
    *schema = value_schema(schema);
    Some(name.clone())
}

/// Take the value of stdin argument `name` out of `arguments` (validated), leaving `-` in its
/// place; returns the JSON text for stdin (`None` when the call does not give it).
pub(crate) fn take(
    name: &str,
    arguments: &mut Map<String, Value>,
) -> Result<Option<Vec<u8>>, TooLarge> {
    let Some(value) = arguments.get_mut(name).filter(|value| !value.is_null()) else {
        return Ok(None);
    };
    let payload = std::mem::replace(value, STDIN_WORD.into()).to_string();
    if payload.len() > MAX_WORD_BYTES {
        return Err(TooLarge::Word {
            property: name.to_string(),
            bytes: payload.len(),
        });
    }
    Ok(Some(payload.into_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> Value {
        json!({
            "type": "object",
            "properties": {
                "wet": {"type": "string"},
                "corpus": {"type": "array", "items": {"type": "string", "format": "path"}},
                "param_json": {"type": "string", "format": "path", "contentMediaType": "application/json",
                               "x-stdin": true, "description": "uit een bestand of '-'",
                               "contentSchema": {"type": "object"}},
                "tweede": {"type": "string", "format": "path", "contentMediaType": "application/json", "x-stdin": true},
                "tekst": {"type": "string", "format": "path", "contentMediaType": "text/plain", "x-stdin": true}
            },
            "required": ["param_json"]
        })
    }

    #[test]
    fn offers_the_first_stdin_json_path_as_its_content_schema() {
        let mut input = input();
        let name = offer_as_value(input.as_object_mut().unwrap());
        assert_eq!(name.as_deref(), Some("param_json"));
        let offered = &input["properties"]["param_json"];
        assert_eq!(offered["type"], "object");
        assert!(offered.get("format").is_none() && offered.get("x-stdin").is_none());
        assert!(
            offered["description"]
                .as_str()
                .unwrap()
                .contains("JSON-waarde")
        );
        assert_eq!(input["required"], json!(["param_json"]));
        for still_a_path in ["tweede", "tekst"] {
            assert_eq!(input["properties"][still_a_path]["format"], "path");
        }
        assert_eq!(input["properties"]["corpus"]["items"]["format"], "path");
    }

    #[test]
    fn a_path_without_the_declaration_is_not_offered() {
        let mut input = json!({"type": "object", "properties": {
            "bestand": {"type": "string", "format": "path", "contentMediaType": "application/json"},
            "lijst": {"type": "array", "format": "path", "contentMediaType": "application/json", "x-stdin": true},
            "json": {"type": "string", "contentMediaType": "application/json", "x-stdin": true}
        }});
        assert_eq!(offer_as_value(input.as_object_mut().unwrap()), None);
    }

    #[test]
    fn takes_the_value_as_exact_json_and_leaves_the_stdin_word() {
        let mut arguments: Value = serde_json::from_str(
            r#"{"param_json": {"a": 12345678901234567890.123456789, "b": "x"}, "wet": "w"}"#,
        )
        .unwrap();
        let arguments = arguments.as_object_mut().unwrap();
        let payload = take("param_json", arguments).unwrap().unwrap();
        assert_eq!(
            String::from_utf8(payload).unwrap(),
            r#"{"a":12345678901234567890.123456789,"b":"x"}"#
        );
        assert_eq!(arguments["param_json"], "-");
        assert_eq!(take("ontbreekt", arguments), Ok(None));
    }

    #[test]
    fn refuses_a_payload_over_the_word_limit_naming_the_argument() {
        let fits = "a".repeat(MAX_WORD_BYTES - 2);
        let mut arguments = json!({"v": fits});
        assert!(
            take("v", arguments.as_object_mut().unwrap())
                .unwrap()
                .is_some()
        );
        let mut arguments = json!({"v": format!("{fits}a")});
        assert_eq!(
            take("v", arguments.as_object_mut().unwrap()),
            Err(TooLarge::Word {
                property: "v".into(),
                bytes: MAX_WORD_BYTES + 1
            })
        );
    }
}

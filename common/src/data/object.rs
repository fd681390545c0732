//! A JSON object from members moved in, in their order: what `json!` builds, without the deep
//! copy `json!` makes of every member that is a variable (it serialises the value again, one
//! allocation per string, array and object inside it). The discovery document and the answer's
//! envelope carry whole schemas and answers this way.

use serde_json::Value;

/// The object of `members`, in their order, each value moved in.
pub(crate) fn object<const N: usize>(members: [(&str, Value); N]) -> Value {
    Value::Object(
        members
            .into_iter()
            .map(|(name, value)| (name.to_string(), value))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::object;

    #[test]
    fn the_object_is_what_json_builds_in_the_same_order() {
        let schema = json!({"type": "object", "properties": {"b": {}, "a": {"type": "string"}}});
        let built = object([
            ("z", 1.into()),
            ("schema", schema.clone()),
            ("a", Value::Null),
        ]);
        assert_eq!(built, json!({"z": 1, "schema": schema, "a": null}));
        let order: Vec<&String> = built.as_object().unwrap().keys().collect();
        assert_eq!(order, ["z", "schema", "a"]);
    }
}

//! The discovery budget every tool of the family keeps (DISC-1, DISC-10, DISC-17), checked the
//! same way in each tool's own tests: the root document within [`DISCOVERY_BUDGET`] bytes,
//! each of its entries the compact form of the command's own `--help --json`, and each member
//! list one that every `--fields` projection of the output validates against.

use serde_json::{Value, json};

use super::Run;

/// The most bytes `<tool> --help --json` may print (DISC-1: 20 KiB; issue 17's 16 KiB before
/// issue 31 gave every entry its title and every output member its types).
pub const DISCOVERY_BUDGET: usize = 20_480;

/// Checks the budget and the compact entries of one tool; `run` runs the tool with the given
/// words in a clean environment. Returns the size of the root document in bytes.
pub fn check_discovery_budget(run: &dyn Fn(&[&str]) -> Run) -> usize {
    check_discovery_within(run, DISCOVERY_BUDGET)
}

/// [`check_discovery_budget`] with another limit (a test of the check itself, or a tool that
/// must stay well below DISC-1's).
pub fn check_discovery_within(run: &dyn Fn(&[&str]) -> Run, budget: usize) -> usize {
    let root = run(&["--help", "--json"]);
    let size = root.stdout.len();
    assert!(
        size <= budget,
        "DISC-1: --help --json is {size} bytes, more than {budget}"
    );
    let document = root.json();
    for entry in document["tools"].as_array().expect("tools") {
        let words = super::full_entry_words(entry);
        let full = run(&words).json();
        assert_eq!(
            &common::discovery::compact_entry(&full),
            entry,
            "DISC-17: the root lists the compact form of {words:?}"
        );
        let members = full["outputSchema"]["properties"]
            .as_object()
            .expect("a full output schema with properties");
        assert!(!members.is_empty(), "{words:?}: no members to select");
        let list = &entry["outputSchema"];
        assert!(list.get("required").is_none(), "DISC-10: {list}");
        assert!(
            full["description"]
                .as_str()
                .expect("description")
                .starts_with(entry["description"].as_str().expect("description")),
            "DISC-17: the root description is the first paragraph"
        );
        // Any projection validates: one member alone, of every type its full schema allows, and
        // nothing at all; a member of a type the full schema refuses does not (DISC-10: typed).
        let validator = jsonschema::validator_for(list).expect("a valid JSON Schema");
        let sample = |t: &str| match t {
            "object" => json!({"a": [1]}),
            "array" => json!([1]),
            "string" => json!("x"),
            "integer" => json!(1),
            "number" => json!(1.5),
            "boolean" => json!(true),
            _ => json!(null),
        };
        let all = [
            "object", "array", "string", "integer", "number", "boolean", "null",
        ];
        for (name, _) in members {
            let allowed: Vec<&str> = match &list["properties"][name]["type"] {
                Value::String(t) => vec![t.as_str()],
                Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                other => panic!("DISC-10: {words:?}: member {name} has no type ({other})"),
            };
            for t in all {
                let projection: Value = json!({ name.clone(): sample(t) });
                let fits = allowed.contains(&t) || (t == "integer" && allowed.contains(&"number"));
                assert_eq!(
                    validator.is_valid(&projection),
                    fits,
                    "{words:?}: {projection}"
                );
            }
        }
        assert!(validator.is_valid(&json!({})));
        assert!(!validator.is_valid(&json!([])), "the root is an object");
    }
    size
}

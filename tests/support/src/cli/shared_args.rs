//! The arguments every tool of the family shares (`common::args`), checked the same way in
//! each tool's own tests, so that they behave identically across tools:
//!
//! - [`check_peildatum`]: every `--peildatum` of a tool refuses the same values with the same
//!   pointer and the same detail (DISC-23);
//! - [`check_kvk_nummer`]: every `kvk_nummer` accepts exactly what its published `pattern`
//!   matches (DISC-22).

use serde_json::Value;

use super::Run;

/// Values no `--peildatum` accepts, each with the one error detail every tool gives (DISC-23).
pub(super) const BAD_PEILDATUMS: &[(&str, &str)] = &[
    (
        "2027-02-30",
        r#"peildatum "2027-02-30" is geen geldige datum van de vorm JJJJ-MM-DD"#,
    ),
    (
        "2027-2-1",
        r#"peildatum "2027-2-1" is geen geldige datum van de vorm JJJJ-MM-DD"#,
    ),
    (
        " 2027-1-01",
        r#"peildatum " 2027-1-01" is geen geldige datum van de vorm JJJJ-MM-DD"#,
    ),
    (
        "01-12-2027",
        r#"peildatum "01-12-2027" is geen geldige datum van de vorm JJJJ-MM-DD"#,
    ),
    (
        "morgen",
        r#"peildatum "morgen" is geen geldige datum van de vorm JJJJ-MM-DD"#,
    ),
    (
        "",
        r#"peildatum "" is geen geldige datum van de vorm JJJJ-MM-DD"#,
    ),
];

/// Candidate KvK numbers, valid and invalid, tried against every published pattern.
pub(super) const KVK_NUMMER_CANDIDATES: &[&str] = &[
    "68750110",
    "00000000",
    " 68750110",
    "68750110 ",
    "68750110\n",
    "6875011",
    "687501100",
    "6875011a",
    "٦٨٧٥٠١١٠",
    "",
];

/// The tool entries of `discovery` that have the property `name`.
fn entries_with<'a>(discovery: &'a Value, name: &str) -> Vec<&'a Value> {
    discovery["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter(|tool| tool["inputSchema"]["properties"].get(name).is_some())
        .collect()
}

/// The first example of the command `entry` lists (from its full entry: the root's compact one
/// has none, DISC-17) as words, without any `--peildatum` in it.
fn example_without_peildatum(entry: &Value, run: &dyn Fn(&[String]) -> Run) -> Vec<String> {
    let mut help: Vec<String> = entry["_meta"]["argv"]
        .as_array()
        .expect("argv")
        .iter()
        .map(|w| w.as_str().expect("a word").to_owned())
        .collect();
    help.extend(["--help".to_owned(), "--json".to_owned()]);
    let full = run(&help).json();
    let words: Vec<String> = full["_meta"]["examples"][0]
        .as_array()
        .expect("an example")
        .iter()
        .map(|w| w.as_str().expect("a word").to_owned())
        .collect();
    let mut kept = Vec::new();
    let mut skip = false;
    for word in words {
        if std::mem::take(&mut skip) {
            continue;
        }
        if word == "--peildatum" {
            skip = true;
        } else if !word.starts_with("--peildatum=") {
            kept.push(word);
        }
    }
    kept
}

/// Every command of the tool with a `--peildatum` refuses each of [`BAD_PEILDATUMS`] with
/// exit 65 and exactly one error: pointer `/peildatum` and the shared detail. `run` runs the
/// tool (configured as its tests need) with the given words. Returns how many commands it tried.
pub fn check_peildatum(discovery: &Value, run: &dyn Fn(&[String]) -> Run) -> usize {
    let entries = entries_with(discovery, "peildatum");
    for entry in &entries {
        for (value, detail) in BAD_PEILDATUMS {
            let mut words = example_without_peildatum(entry, run);
            words.push(format!("--peildatum={value}"));
            let error = run(&words).error(65);
            assert_eq!(
                error["errors"],
                serde_json::json!([{"pointer": "/peildatum", "detail": detail}]),
                "{words:?}"
            );
        }
    }
    entries.len()
}

/// Every `kvk_nummer` of the tool accepts exactly the values its published schema matches
/// (DISC-22): for each of [`KVK_NUMMER_CANDIDATES`], the first example with that number (in
/// place of the example's `68750110`, or as `--kvk-nummer=` when it is an option) passes
/// validation under `--dry-run` (exit 0) if and only if the schema matches it, and is refused
/// with exit 65 and pointer `/kvk_nummer` otherwise. Returns how many commands it tried.
pub fn check_kvk_nummer(discovery: &Value, run: &dyn Fn(&[String]) -> Run) -> usize {
    let entries = entries_with(discovery, "kvk_nummer");
    for entry in &entries {
        let mut schema = entry["inputSchema"]["properties"]["kvk_nummer"].clone();
        schema["type"] = "string".into();
        let validator = jsonschema::draft202012::new(&schema).expect("a valid schema");
        let positional = entry["_meta"]["positional"]
            .as_array()
            .is_some_and(|p| p.iter().any(|name| name == "kvk_nummer"));
        for value in KVK_NUMMER_CANDIDATES {
            let example = example_without_peildatum(entry, run);
            let mut words: Vec<String> = if positional {
                let at = example
                    .iter()
                    .position(|w| w == "68750110")
                    .unwrap_or_else(|| panic!("the example {example:?} names 68750110"));
                let mut words = example.clone();
                words[at] = (*value).to_owned();
                words
            } else {
                let mut words = example.clone();
                words.push(format!("--kvk-nummer={value}"));
                words
            };
            words.push("--dry-run".into());
            let outcome = run(&words);
            if validator.is_valid(&Value::String((*value).into())) {
                assert_eq!(outcome.code, 0, "{value:?} matches {schema}: {outcome:#?}");
            } else {
                let error = outcome.error(65);
                let pointers: Vec<&Value> = error["errors"]
                    .as_array()
                    .expect("errors")
                    .iter()
                    .map(|e| &e["pointer"])
                    .collect();
                assert!(
                    pointers.iter().any(|p| *p == "/kvk_nummer"),
                    "{value:?} does not match {schema}, refused as {error}"
                );
            }
        }
    }
    entries.len()
}

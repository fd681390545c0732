//! From tool-call arguments to a command line, by the profile's rule (§3.2) and the tool's `_meta`.
//!
//! Options come first, each value joined to its flag (`--naam=-Donald`), global options are
//! added by the caller, and positionals follow a `--`, so that values starting with `-` stay data.

use serde_json::{Map, Value};

/// The words of one invocation, before and after the `--`.
#[derive(Debug, Default, PartialEq)]
pub struct CommandLine {
    /// Command path and options (`zoeken --naam=Donald --inclusief-inactief`).
    pub words: Vec<String>,
    /// Positional values, in `_meta.positional` order.
    pub positional: Vec<String>,
}

impl CommandLine {
    /// The complete argv after the program name, with `global` options before the `--`.
    pub fn into_args(self, global: Vec<String>) -> Vec<String> {
        let mut args = self.words;
        args.extend(global);
        if !self.positional.is_empty() {
            args.push("--".to_string());
            args.extend(self.positional);
        }
        args
    }
}

/// Build the command line of the tool entry's `_meta` for `arguments` (already validated).
pub fn build(meta: &Value, arguments: &Map<String, Value>) -> CommandLine {
    let mut words: Vec<String> = strings(&meta["argv"]);
    if let Some(flags) = meta["flags"].as_object() {
        for (property, flag) in flags {
            let (Some(flag), Some(value)) = (flag.as_str(), arguments.get(property)) else {
                continue;
            };
            match value {
                Value::Bool(true) => words.push(flag.to_string()),
                Value::Bool(false) | Value::Null => {}
                Value::Array(items) => {
                    words.extend(items.iter().map(|item| joined(flag, item)));
                }
                other => words.push(joined(flag, other)),
            }
        }
    }
    let positional = strings(&meta["positional"])
        .iter()
        .map_while(|property| arguments.get(property).filter(|v| !v.is_null()))
        .map(text)
        .collect();
    CommandLine { words, positional }
}

/// `--flag=value`: one word, so that the parser cannot take a value starting with `-` for an option.
fn joined(flag: &str, value: &Value) -> String {
    format!("{flag}={}", text(value))
}

/// Strings as they are, integral numbers as integers (`2.0` → `2`, which an integer option
/// accepts), everything else in JSON notation.
fn text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Number(number) => match number.as_f64() {
            Some(float) if number.is_f64() && float.is_finite() && float.fract() == 0.0 => {
                // `+ 0.0` turns -0.0 into 0.0; `{:.0}` writes large values in full, without exponent.
                format!("{:.0}", float + 0.0)
            }
            _ => number.to_string(),
        },
        other => other.to_string(),
    }
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn args(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn follows_the_profile_rule() {
        let meta = json!({
            "argv": ["rapportage", "indienen"],
            "positional": ["kvk_nummer", "regeling_id"],
            "flags": {"maatregel": "--maatregel", "geo": "--geo", "stil": "--stil", "pagina": "--pagina"}
        });
        let line = build(
            &meta,
            &args(
                json!({"regeling_id": "-EBR", "kvk_nummer": "68750110", "maatregel": ["a", "b"], "geo": true, "stil": false, "pagina": 2}),
            ),
        );
        assert_eq!(
            line.into_args(vec!["--output".into(), "json".into()]),
            [
                "rapportage",
                "indienen",
                "--maatregel=a",
                "--maatregel=b",
                "--geo",
                "--pagina=2",
                "--output",
                "json",
                "--",
                "68750110",
                "-EBR"
            ]
        );
    }

    #[test]
    fn joins_option_values_that_look_like_options_to_their_flag() {
        let meta = json!({
            "argv": ["zoeken"],
            "positional": [],
            "flags": {"naam": "--naam", "plaats": "--plaats", "type": "--type"}
        });
        let line = build(
            &meta,
            &args(json!({"naam": "--json", "plaats": "--help", "type": ["-x", "", "a=b"]})),
        );
        assert_eq!(
            line.into_args(vec![]),
            [
                "zoeken",
                "--naam=--json",
                "--plaats=--help",
                "--type=-x",
                "--type=",
                "--type=a=b"
            ]
        );
    }

    #[test]
    fn writes_integral_numbers_as_integers() {
        let meta = json!({
            "argv": ["x"],
            "positional": ["n"],
            "flags": {"a": "--a", "b": "--b", "c": "--c", "d": "--d", "e": "--e", "f": "--f", "g": "--g"}
        });
        let line = build(
            &meta,
            &args(json!({
                "a": 2.0, "b": -3.0, "c": 2.5, "d": -0.0, "e": 1e20, "f": [1.0, 7], "g": 18446744073709551615u64,
                "n": 4.0
            })),
        );
        assert_eq!(
            line.into_args(vec![]),
            [
                "x",
                "--a=2",
                "--b=-3",
                "--c=2.5",
                "--d=0",
                "--e=100000000000000000000",
                "--f=1",
                "--f=7",
                "--g=18446744073709551615",
                "--",
                "4"
            ]
        );
    }

    #[test]
    fn stops_positionals_at_the_first_absent_one_and_omits_the_separator_without_any() {
        let meta = json!({"argv": ["x"], "positional": ["a", "b"], "flags": {}});
        assert_eq!(
            build(&meta, &args(json!({"b": "2"}))).into_args(vec![]),
            ["x"]
        );
        assert_eq!(
            build(&meta, &args(json!({"a": "1"}))).into_args(vec![]),
            ["x", "--", "1"]
        );
    }
}

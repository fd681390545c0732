//! From tool-call arguments to a command line, by the profile's rule (§3.2) and the tool's `_meta`.
//!
//! Options come first, each value joined to its flag (`--naam=-Donald`), global options are
//! added by the caller, and positionals follow a `--`, so that values starting with `-` stay data.
//! A program fills its positionals in order, so an absent positional before a given one is
//! refused ([`Gap`]) rather than shifting or dropping the later ones.
//! The finished command line is held to the bridge's size limits before anything is started.

use serde_json::{Map, Value};

/// The words of one invocation, before and after the `--`.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct CommandLine {
    /// Command path and options (`zoek --naam=Donald --inclusief-inactief`).
    pub words: Vec<String>,
    /// Positional values, in `_meta.positional` order.
    pub positional: Vec<String>,
}

impl CommandLine {
    /// The complete argv after the program name, with `global` options before the `--`.
    pub(crate) fn into_args(self, global: Vec<String>) -> Vec<String> {
        let mut args = self.words;
        args.extend(global);
        if !self.positional.is_empty() {
            args.push("--".to_string());
            args.extend(self.positional);
        }
        args
    }
}

/// A positional argument left out while a later one is given: the program would take the later
/// value for the absent one, so the call is refused (-32602) naming both.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Gap {
    /// The absent positional (property name).
    pub missing: String,
    /// The first positional after it that was given.
    pub given: String,
}

/// Build the command line of the tool entry's `_meta` for `arguments` (already validated).
pub(crate) fn build(meta: &Value, arguments: &Map<String, Value>) -> Result<CommandLine, Gap> {
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
    let mut positional = Vec::new();
    let mut missing: Option<String> = None;
    for property in strings(&meta["positional"]) {
        match (arguments.get(&property).filter(|v| !v.is_null()), &missing) {
            (None, None) => missing = Some(property),
            (None, Some(_)) => {}
            (Some(_), Some(absent)) => {
                return Err(Gap {
                    missing: absent.clone(),
                    given: property,
                });
            }
            (Some(value), None) => positional.push(text(value)),
        }
    }
    Ok(CommandLine { words, positional })
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

/// Largest word (one option with its value, or one positional) the bridge passes on, in bytes.
/// Linux refuses a single word of 128 KiB or more (`MAX_ARG_STRLEN`).
pub(crate) const MAX_WORD_BYTES: usize = 64 * 1024;

/// Largest command line the bridge passes on: every word counted with its terminating NUL and
/// its pointer, as the kernel counts them against `ARG_MAX` (at least 2 MiB together with the
/// environment on Linux).
pub(crate) const MAX_ARGV_BYTES: usize = 1024 * 1024;

/// A command line the bridge will not hand to the OS.
#[derive(Debug, PartialEq)]
pub(crate) enum TooLarge {
    /// The word of this argument (property name) has this many bytes.
    Word { property: String, bytes: usize },
    /// All words together count this many bytes.
    Total { bytes: usize },
}

/// Check `args` (from [`CommandLine::into_args`]) against the size limits. An oversized word is
/// named by its property: a positional by `_meta.positional`, an option by its flag
/// (`--param-json=…` → `param_json`, as DISC-8 derives property names).
pub(crate) fn check_size(meta: &Value, args: &[String]) -> Result<(), TooLarge> {
    let separator = args.iter().position(|word| word == "--");
    let positional = strings(&meta["positional"]);
    for (index, word) in args.iter().enumerate() {
        if word.len() <= MAX_WORD_BYTES {
            continue;
        }
        let property = match separator {
            Some(at) if index > at => positional.get(index - at - 1).cloned(),
            _ => word.strip_prefix("--").map(|option| {
                option
                    .split('=')
                    .next()
                    .unwrap_or_default()
                    .replace('-', "_")
            }),
        };
        return Err(TooLarge::Word {
            property: property.unwrap_or_else(|| word.chars().take(40).collect()),
            bytes: word.len(),
        });
    }
    let bytes: usize = args
        .iter()
        .map(|word| word.len() + 1 + std::mem::size_of::<usize>())
        .sum();
    if bytes > MAX_ARGV_BYTES {
        return Err(TooLarge::Total { bytes });
    }
    Ok(())
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
        )
        .unwrap();
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
            "argv": ["zoek"],
            "positional": [],
            "flags": {"naam": "--naam", "plaats": "--plaats", "type": "--type"}
        });
        let line = build(
            &meta,
            &args(json!({"naam": "--json", "plaats": "--help", "type": ["-x", "", "a=b"]})),
        )
        .unwrap();
        assert_eq!(
            line.into_args(vec![]),
            [
                "zoek",
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
        )
        .unwrap();
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
    fn names_an_oversized_word_by_its_property_and_limits_the_whole_line() {
        let meta = json!({"argv": ["x"], "positional": ["id", "tekst"], "flags": {"param_json": "--param-json"}});
        let big = "a".repeat(MAX_WORD_BYTES + 1);
        let fits = "a".repeat(MAX_WORD_BYTES - "--param-json=".len());
        let check = |arguments: Value| {
            let args = build(&meta, &args(arguments))
                .unwrap()
                .into_args(vec!["--output".into()]);
            check_size(&meta, &args)
        };
        assert_eq!(check(json!({"param_json": fits, "id": "1"})), Ok(()));
        assert_eq!(
            check(json!({"param_json": format!("{fits}a")})),
            Err(TooLarge::Word {
                property: "param_json".into(),
                bytes: MAX_WORD_BYTES + 1
            })
        );
        assert_eq!(
            check(json!({"id": "1", "tekst": big})),
            Err(TooLarge::Word {
                property: "tekst".into(),
                bytes: MAX_WORD_BYTES + 1
            })
        );
        let many = vec!["--v=x".to_string(); MAX_ARGV_BYTES / 14 + 1];
        assert!(matches!(
            check_size(&meta, &many),
            Err(TooLarge::Total { bytes }) if bytes > MAX_ARGV_BYTES
        ));
    }

    #[test]
    fn refuses_an_absent_positional_before_a_given_one_and_omits_the_separator_without_any() {
        let meta = json!({"argv": ["x"], "positional": ["a", "b", "c"], "flags": {}});
        let line = |value: Value| build(&meta, &args(value)).map(|l| l.into_args(vec![]));
        // The program fills positionals in order: `x -- 2` would make "2" the value of `a`.
        assert_eq!(
            line(json!({"b": "2", "c": "3"})),
            Err(Gap {
                missing: "a".into(),
                given: "b".into()
            })
        );
        assert_eq!(
            line(json!({"a": "1", "b": null, "c": "3"})),
            Err(Gap {
                missing: "b".into(),
                given: "c".into()
            })
        );
        assert_eq!(line(json!({})), Ok(vec!["x".to_string()]));
        assert_eq!(
            line(json!({"a": "1"})),
            Ok(["x", "--", "1"].map(String::from).to_vec())
        );
        assert_eq!(
            line(json!({"a": "1", "b": "2"})),
            Ok(["x", "--", "1", "2"].map(String::from).to_vec())
        );
    }
}

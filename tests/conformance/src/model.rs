//! Reading a discovery document: tool entries, their arguments, and §3.2 (tool call → command line).

use serde_json::{Map, Value};

/// One tool entry, read leniently (missing parts are empty; the discovery checks report them).
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    /// The command's full entry (its own `--help --json`, DISC-17), else the root's.
    pub raw: Value,
    /// The entry as the root document lists it (its compact form).
    pub root: Value,
    pub name: String,
    pub argv: Vec<String>,
    pub positional: Vec<String>,
    pub flags: Vec<(String, String)>,
    pub examples: Vec<Vec<String>>,
    pub input: Value,
    pub output: Value,
    pub read_only: bool,
    pub open_world: bool,
    /// `_meta.proposes` (MUT-18): records a proposal, not gated by `--confirm`.
    pub proposes: bool,
}

fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|item| item.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

impl Entry {
    pub(crate) fn read(raw: &Value) -> Entry {
        let meta = raw.get("_meta");
        let annotations = raw.get("annotations");
        let hint = |name: &str, default: bool| {
            annotations
                .and_then(|a| a.get(name))
                .and_then(Value::as_bool)
                .unwrap_or(default)
        };
        Entry {
            raw: raw.clone(),
            root: raw.clone(),
            name: raw
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            argv: strings(meta.and_then(|m| m.get("argv"))),
            positional: strings(meta.and_then(|m| m.get("positional"))),
            flags: meta
                .and_then(|m| m.get("flags"))
                .and_then(Value::as_object)
                .map(|flags| {
                    flags
                        .iter()
                        .filter_map(|(name, flag)| Some((name.clone(), flag.as_str()?.to_string())))
                        .collect()
                })
                .unwrap_or_default(),
            examples: meta
                .and_then(|m| m.get("examples"))
                .and_then(Value::as_array)
                .map(|list| list.iter().map(|example| strings(Some(example))).collect())
                .unwrap_or_default(),
            input: raw.get("inputSchema").cloned().unwrap_or(Value::Null),
            output: raw.get("outputSchema").cloned().unwrap_or(Value::Null),
            read_only: hint("readOnlyHint", true),
            open_world: hint("openWorldHint", true),
            proposes: meta.and_then(|m| m.get("proposes")) == Some(&Value::Bool(true)),
        }
    }

    /// The entry read from the command's full entry `full`, listed in the root as `root`.
    pub(crate) fn with_full(root: &Value, full: &Value) -> Entry {
        Entry {
            root: root.clone(),
            ..Entry::read(full)
        }
    }

    /// A stand-in for a program without usable discovery: one command line given by the user.
    pub(crate) fn synthetic(words: &[String], mutating: bool) -> Entry {
        Entry {
            raw: Value::Null,
            root: Value::Null,
            name: String::new(),
            argv: Vec::new(),
            positional: Vec::new(),
            flags: Vec::new(),
            examples: vec![words.to_vec()],
            input: Value::Null,
            output: Value::Null,
            read_only: !mutating,
            open_world: false,
            proposes: false,
        }
    }

    /// The schema of input property `name`.
    pub(crate) fn property(&self, name: &str) -> Option<&Value> {
        self.input.get("properties")?.get(name)
    }

    /// `required` of the input schema.
    pub(crate) fn required(&self) -> Vec<String> {
        strings(self.input.get("required"))
    }

    /// Top-level member names of the output schema, in schema order.
    pub(crate) fn output_fields(&self) -> Vec<String> {
        self.output
            .get("properties")
            .and_then(Value::as_object)
            .map(|properties| properties.keys().cloned().collect())
            .unwrap_or_default()
    }

    fn is_boolean(&self, name: &str) -> bool {
        self.property(name)
            .and_then(|p| p.get("type"))
            .and_then(Value::as_str)
            == Some("boolean")
    }

    fn is_array(&self, name: &str) -> bool {
        self.property(name)
            .and_then(|p| p.get("type"))
            .and_then(Value::as_str)
            == Some("array")
    }

    /// Reverse of §3.2: the arguments an example argv stands for, or why it cannot be read.
    pub(crate) fn arguments_of(&self, example: &[String]) -> Result<Map<String, Value>, String> {
        let rest = example
            .strip_prefix(self.argv.as_slice())
            .ok_or_else(|| format!("voorbeeld begint niet met _meta.argv {:?}", self.argv))?;
        let mut arguments = Map::new();
        let mut positionals = Vec::new();
        let mut words = rest.iter();
        let mut only_positional = false;
        while let Some(word) = words.next() {
            if only_positional || !word.starts_with("--") {
                positionals.push(word.clone());
                continue;
            }
            if word == "--" {
                only_positional = true;
                continue;
            }
            let (flag, inline) = match word.split_once('=') {
                Some((flag, value)) => (flag, Some(value.to_string())),
                None => (word.as_str(), None),
            };
            let (name, _) = self
                .flags
                .iter()
                .find(|(_, long)| long == flag)
                .ok_or_else(|| format!("optie {flag} staat niet in _meta.flags"))?;
            if self.is_boolean(name) {
                arguments.insert(name.clone(), Value::Bool(true));
                continue;
            }
            let value = match inline {
                Some(value) => value,
                None => words
                    .next()
                    .cloned()
                    .ok_or_else(|| format!("{flag} zonder waarde"))?,
            };
            let value = self.typed(name, value);
            if self.is_array(name) {
                let list = arguments
                    .entry(name.clone())
                    .or_insert_with(|| Value::Array(Vec::new()));
                if let Value::Array(items) = list {
                    items.push(value);
                }
            } else {
                arguments.insert(name.clone(), value);
            }
        }
        if positionals.len() > self.positional.len() {
            return Err(format!(
                "meer positionele argumenten dan _meta.positional ({:?})",
                self.positional
            ));
        }
        for (name, value) in self.positional.iter().zip(positionals) {
            let value = self.typed(name, value);
            arguments.insert(name.clone(), value);
        }
        Ok(arguments)
    }

    fn typed(&self, name: &str, text: String) -> Value {
        let schema = self.property(name);
        let kind = schema
            .and_then(|p| {
                if self.is_array(name) {
                    p.get("items")
                } else {
                    Some(p)
                }
            })
            .and_then(|p| p.get("type"))
            .and_then(Value::as_str);
        match kind {
            Some("integer") | Some("number") => {
                serde_json::from_str(&text).unwrap_or(Value::String(text))
            }
            _ => Value::String(text),
        }
    }

    /// §3.2: the argv after the program name for `arguments`, with `globals` right after the command path.
    pub(crate) fn command_line(
        &self,
        arguments: &Map<String, Value>,
        globals: &[String],
    ) -> Vec<String> {
        let mut argv = self.argv.clone();
        argv.extend(globals.iter().cloned());
        for (name, flag) in &self.flags {
            match arguments.get(name) {
                None | Some(Value::Bool(false)) | Some(Value::Null) => {}
                Some(Value::Bool(true)) => argv.push(flag.clone()),
                Some(Value::Array(items)) => {
                    for item in items {
                        argv.push(flag.clone());
                        argv.push(text(item));
                    }
                }
                Some(value) => {
                    argv.push(flag.clone());
                    argv.push(text(value));
                }
            }
        }
        let values: Vec<String> = self
            .positional
            .iter()
            .map_while(|name| arguments.get(name).map(text))
            .collect();
        if !values.is_empty() {
            argv.push("--".into());
            argv.extend(values);
        }
        argv
    }

    /// An example argv with `globals` inserted right after the command path.
    pub(crate) fn example_with(&self, example: &[String], globals: &[String]) -> Vec<String> {
        let split = if example.starts_with(&self.argv) {
            self.argv.len()
        } else {
            0
        };
        let mut argv = example[..split].to_vec();
        argv.extend(globals.iter().cloned());
        argv.extend(example[split..].iter().cloned());
        argv
    }
}

fn text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// Every tool entry of a discovery document.
pub(crate) fn entries(discovery: &Value) -> Vec<Entry> {
    discovery
        .get("tools")
        .and_then(Value::as_array)
        .map(|tools| tools.iter().map(Entry::read).collect())
        .unwrap_or_default()
}

/// The prefix of the profile's OTLP variables for the Logboek (AUDIT-20).
const LOGBOEK_PREFIX: &str = "OTEL_EXPORTER_OTLP_";

/// Every variable the document declares with its kind: the `env` entries, then the profile's
/// variables `profile_env` names by kind (DISC-19).
pub(crate) fn declared_env(discovery: &Value) -> Vec<(String, String)> {
    let own = discovery
        .get("env")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|entry| {
            let name = entry.get("name").and_then(Value::as_str)?;
            let kind = entry.get("kind").and_then(Value::as_str).unwrap_or("");
            Some((name.to_string(), kind.to_string()))
        });
    let profile = discovery
        .get("profile_env")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .flat_map(|(kind, names)| {
            names
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(move |name| (name.to_string(), kind.clone()))
        });
    own.chain(profile).collect()
}

/// Declared variables of `kind`; for `base_url`, only the program's sources (not the Logboek).
pub(crate) fn env_of_kind(discovery: &Value, kind: &str) -> Vec<String> {
    declared_env(discovery)
        .into_iter()
        .filter(|(_, k)| k == kind)
        .map(|(name, _)| name)
        // The Logboek's collector (AUDIT-20) is where records go, not a source the
        // program reads: the upstream checks leave it alone.
        .filter(|name| kind != "base_url" || !name.starts_with(LOGBOEK_PREFIX))
        .collect()
}

/// Whether `global_options` lists `name`.
pub(crate) fn has_global_option(discovery: &Value, name: &str) -> bool {
    discovery
        .get("global_options")
        .and_then(Value::as_array)
        .is_some_and(|list| {
            list.iter()
                .any(|o| o.get("name").and_then(Value::as_str) == Some(name))
        })
}

/// The `default` a global option declares, as text (`--timeout`: `"10"`).
pub(crate) fn global_option_default(discovery: &Value, name: &str) -> Option<String> {
    discovery
        .get("global_options")?
        .as_array()?
        .iter()
        .find(|o| o.get("name").and_then(Value::as_str) == Some(name))?
        .get("default")
        .and_then(|d| match d {
            Value::String(text) => Some(text.clone()),
            Value::Number(number) => Some(number.to_string()),
            _ => None,
        })
}

/// A string that `pattern` rejects, found by trying candidates against the pattern itself.
pub(crate) fn breaking_value(pattern: &str) -> Option<String> {
    let schema = serde_json::json!({"type": "string", "pattern": pattern});
    let validator = jsonschema::draft202012::new(&schema).ok()?;
    [
        "@@ongeldig@@",
        "ongeldig waarde!",
        "0",
        "x",
        "00000000000000000000000000000000000000000000",
        "",
    ]
    .into_iter()
    .find(|candidate| !validator.is_valid(&Value::String((*candidate).into())))
    .map(String::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry() -> Entry {
        Entry::read(&json!({
            "name": "item_get",
            "inputSchema": {"type": "object", "properties": {
                "id": {"type": "string"}, "geo": {"type": "boolean"},
                "soort": {"type": "array", "items": {"type": "string"}}, "pagina": {"type": "integer"}}},
            "_meta": {"argv": ["item", "get"], "positional": ["id"],
                "flags": {"geo": "--geo", "soort": "--soort", "pagina": "--pagina"}}
        }))
    }

    #[test]
    fn example_round_trip() {
        let entry = entry();
        let example: Vec<String> = [
            "item",
            "get",
            "12",
            "--geo",
            "--soort",
            "a",
            "--soort=b",
            "--pagina",
            "3",
        ]
        .map(String::from)
        .to_vec();
        let arguments = entry.arguments_of(&example).unwrap();
        assert_eq!(
            Value::Object(arguments.clone()),
            json!({"geo": true, "soort": ["a", "b"], "pagina": 3, "id": "12"})
        );
        assert_eq!(
            entry.command_line(&arguments, &["--dry-run".into()]),
            [
                "item",
                "get",
                "--dry-run",
                "--geo",
                "--soort",
                "a",
                "--soort",
                "b",
                "--pagina",
                "3",
                "--",
                "12"
            ]
        );
    }

    #[test]
    fn unknown_flag_in_example_is_reported() {
        let example: Vec<String> = ["item", "get", "--nope"].map(String::from).to_vec();
        assert!(
            entry()
                .arguments_of(&example)
                .unwrap_err()
                .contains("--nope")
        );
    }

    #[test]
    fn breaking_values() {
        assert_eq!(
            breaking_value("^[0-9]{8}$").as_deref(),
            Some("@@ongeldig@@")
        );
        assert_eq!(
            breaking_value("^.*@@.*$").as_deref(),
            Some("ongeldig waarde!")
        );
        assert_eq!(breaking_value(".*"), None);
    }

    #[test]
    fn the_logboek_collector_is_not_a_source_but_its_headers_stay_secret() {
        let discovery = serde_json::json!({"env": [
            {"name": "GOOD_BRON_URL", "kind": "base_url"},
            {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "kind": "base_url"},
            {"name": "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "kind": "base_url"},
            {"name": "OTEL_EXPORTER_OTLP_HEADERS", "kind": "secret"},
            {"name": "GOOD_TOKEN", "kind": "secret"}
        ]});
        assert_eq!(env_of_kind(&discovery, "base_url"), ["GOOD_BRON_URL"]);
        assert_eq!(
            env_of_kind(&discovery, "secret"),
            ["OTEL_EXPORTER_OTLP_HEADERS", "GOOD_TOKEN"]
        );
    }
}

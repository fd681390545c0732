//! `volgende_stappen`: the commands a result naturally leads on to, with the values it already
//! knows, so that an agent needs no help call to find them (issue 40 item 2).
//!
//! Each step names its goal (`doel`), the command line for a shell (`opdracht`) and the same
//! call for an MCP host: the tool as overheid-mcp lists it (`<source>__<tool>`, profile §14.1)
//! with its arguments (`argumenten`, the command's `inputSchema` names). The schema of a step is
//! `$defs/stap` of `schemas/check_energiebesparing.json`.

use serde_json::{Map, Value, json};

/// One argument of a step: its `inputSchema` name, how the command line takes it, its value.
pub(crate) enum Arg<'a> {
    /// A positional argument.
    Positional(&'a str, String),
    /// `--flag=value`, once per value of a list.
    Flag(&'a str, &'a str, Value),
}

/// A step to `program`'s command `path` with `args`, for `doel`.
pub(crate) fn step(doel: &str, program: &str, path: &[&str], args: &[Arg<'_>]) -> Value {
    let mut words: Vec<String> = std::iter::once(program)
        .chain(path.iter().copied())
        .map(str::to_string)
        .collect();
    let mut arguments = Map::new();
    for arg in args {
        match arg {
            Arg::Positional(name, value) => {
                words.push(value.clone());
                arguments.insert((*name).to_string(), value.clone().into());
            }
            Arg::Flag(name, flag, value) => {
                let items = value
                    .as_array()
                    .cloned()
                    .unwrap_or_else(|| vec![value.clone()]);
                for item in &items {
                    words.push((*flag).to_string());
                    words.push(
                        item.as_str()
                            .map_or_else(|| item.to_string(), str::to_string),
                    );
                }
                arguments.insert((*name).to_string(), value.clone());
            }
        }
    }
    let source = program.strip_suffix("-cli").unwrap_or(program);
    json!({
        "doel": doel,
        "opdracht": words.iter().map(|w| quoted(w)).collect::<Vec<_>>().join(" "),
        "tool": format!("{source}__{}", path.join("_")),
        "argumenten": arguments,
    })
}

/// `word` as a shell reads it back: as it is when it holds nothing a shell would change.
fn quoted(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.,=:/@+".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_is_one_command_line_and_the_same_tool_call() {
        let step = step(
            "de tekst van artikel 5.15",
            "koop-cli",
            &["regeling", "artikel"],
            &[
                Arg::Positional("bwb_id", "BWBR0041330".into()),
                Arg::Positional("artikel", "5.15".into()),
                Arg::Flag("peildatum", "--peildatum", "2026-12-01".into()),
                Arg::Flag("opgave", "--opgave", json!(["a=1", "b=twee woorden"])),
            ],
        );
        assert_eq!(
            step["opdracht"],
            "koop-cli regeling artikel BWBR0041330 5.15 --peildatum 2026-12-01 \
             --opgave a=1 --opgave 'b=twee woorden'"
        );
        assert_eq!(step["tool"], "koop__regeling_artikel");
        assert_eq!(
            step["argumenten"],
            json!({"bwb_id": "BWBR0041330", "artikel": "5.15", "peildatum": "2026-12-01",
                   "opgave": ["a=1", "b=twee woorden"]})
        );
        assert_eq!(quoted("it's"), r"'it'\''s'");
    }
}

//! RegelRecht's canonical step grammar (`bdd/grammar.yaml`, a copy of the upstream file) read
//! into matchers: each step's text becomes literal pieces and captures, each matched step names
//! its semantic action. Nothing here knows a sentence; a new wording is a grammar change only.

use serde::Deserialize;
use std::sync::OnceLock;

/// The grammar as shipped with the engine.
pub const GRAMMAR_YAML: &str = include_str!("../../bdd/grammar.yaml");

/// How a captured value is typed (`bdd/grammar.yaml` `value_typing`).
#[derive(Debug, Clone, Deserialize)]
pub struct ValueTyping {
    /// `inferred`: the content decides (number, boolean, null, else text).
    pub quoted: String,
    /// `number`.
    pub bare: String,
    /// `inferred`.
    pub table_cell: String,
}

#[derive(Debug, Deserialize)]
struct GrammarFile {
    value_typing: ValueTyping,
    steps: Vec<StepDef>,
}

/// One canonical step.
#[derive(Debug, Clone, Deserialize)]
pub struct StepDef {
    /// Step id.
    pub id: String,
    /// Semantic action the step binds to.
    pub action: String,
    /// `core`, `notes`, `untranslatable` or `provenance`.
    pub tier: String,
    /// The sentence with `"{name}"` (quoted) and `{name}` (bare number) captures.
    pub text: String,
    /// Whether a data table follows.
    #[serde(default)]
    pub datatable: bool,
    /// Fixed extra arguments (e.g. `true` for `output "x" is true`).
    #[serde(default)]
    pub literals: Vec<serde_yaml_ng::Value>,
    #[serde(skip)]
    pieces: Vec<Piece>,
}

#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Literal(String),
    Quoted,
    Bare,
}

/// A captured argument.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    /// From a quoted capture (typed by its content where the action wants a value).
    Quoted(String),
    /// From a bare numeric capture.
    Bare(String),
    /// A literal of the step definition.
    Literal(String),
}

impl Arg {
    /// The captured text.
    pub fn text(&self) -> &str {
        match self {
            Arg::Quoted(s) | Arg::Bare(s) | Arg::Literal(s) => s,
        }
    }
}

/// The parsed grammar.
#[derive(Debug)]
pub struct Grammar {
    /// How captures are typed.
    pub value_typing: ValueTyping,
    /// The steps, in file order.
    pub steps: Vec<StepDef>,
}

fn pieces(text: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut literal = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("\"{")
            && let Some(close) = after.find("}\"")
        {
            out.push(Piece::Literal(std::mem::take(&mut literal)));
            out.push(Piece::Quoted);
            rest = &after[close + 2..];
        } else if let Some(after) = rest.strip_prefix('{')
            && let Some(close) = after.find('}')
        {
            out.push(Piece::Literal(std::mem::take(&mut literal)));
            out.push(Piece::Bare);
            rest = &after[close + 1..];
        } else {
            let c = rest.chars().next().unwrap_or_default();
            literal.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out.push(Piece::Literal(literal));
    out.retain(|p| *p != Piece::Literal(String::new()));
    out
}

/// Length of the number literal at the start of `text` (`-`, digits, one `.`).
fn number_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut i = usize::from(bytes.first() == Some(&b'-'));
    let digits_from = i;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    if i < bytes.len() && bytes[i] == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
    }
    if i == digits_from { 0 } else { i }
}

fn match_pieces(pieces: &[Piece], text: &str, args: &mut Vec<Arg>) -> bool {
    let Some((first, rest)) = pieces.split_first() else {
        return text.is_empty();
    };
    match first {
        Piece::Literal(lit) => text
            .strip_prefix(lit.as_str())
            .is_some_and(|t| match_pieces(rest, t, args)),
        Piece::Quoted => {
            let Some(body) = text.strip_prefix('"') else {
                return false;
            };
            // A capture holds no quote (Cucumber's `{string}`).
            let Some(close) = body.find('"') else {
                return false;
            };
            args.push(Arg::Quoted(body[..close].to_string()));
            match_pieces(rest, &body[close + 1..], args) || {
                args.pop();
                false
            }
        }
        Piece::Bare => {
            let len = number_len(text);
            if len == 0 {
                return false;
            }
            args.push(Arg::Bare(text[..len].to_string()));
            match_pieces(rest, &text[len..], args) || {
                args.pop();
                false
            }
        }
    }
}

impl StepDef {
    /// The captures of `text` (the step without its keyword), if this step matches it.
    pub fn matches(&self, text: &str) -> Option<Vec<Arg>> {
        let mut args = Vec::new();
        if !match_pieces(&self.pieces, text, &mut args) {
            return None;
        }
        for literal in &self.literals {
            let text = match literal {
                serde_yaml_ng::Value::String(s) => s.clone(),
                serde_yaml_ng::Value::Bool(b) => b.to_string(),
                other => serde_yaml_ng::to_string(other)
                    .unwrap_or_default()
                    .trim()
                    .to_string(),
            };
            args.push(Arg::Literal(text));
        }
        Some(args)
    }
}

impl Grammar {
    /// Parses a grammar file.
    pub fn parse(yaml: &str) -> Result<Grammar, String> {
        let file: GrammarFile =
            serde_yaml_ng::from_str(yaml).map_err(|e| format!("grammar.yaml: {e}"))?;
        let steps = file
            .steps
            .into_iter()
            .map(|mut s| {
                s.pieces = pieces(&s.text);
                s
            })
            .collect();
        Ok(Grammar {
            value_typing: file.value_typing,
            steps,
        })
    }

    /// The grammar shipped with the engine.
    pub fn builtin() -> &'static Grammar {
        static GRAMMAR: OnceLock<Grammar> = OnceLock::new();
        GRAMMAR.get_or_init(|| {
            #[allow(
                clippy::expect_used,
                reason = "the shipped file is checked by the tests; a parse failure here is a build defect"
            )]
            Grammar::parse(GRAMMAR_YAML).expect("bdd/grammar.yaml is valid")
        })
    }

    /// The first step matching `text`, with its captures.
    pub fn find(&self, text: &str) -> Option<(&StepDef, Vec<Arg>)> {
        self.steps
            .iter()
            .find_map(|s| s.matches(text).map(|args| (s, args)))
    }

    /// Every tier the grammar names.
    pub fn tiers(&self) -> Vec<&str> {
        let mut tiers: Vec<&str> = Vec::new();
        for s in &self.steps {
            if !tiers.contains(&s.tier.as_str()) {
                tiers.push(&s.tier);
            }
        }
        tiers
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_of_the_shipped_grammar_matches_its_own_example() {
        let grammar = Grammar::builtin();
        assert!(grammar.steps.len() >= 30);
        for step in &grammar.steps {
            let example = step.text.replace("\"{", "\"x").replace("}\"", "\"");
            let example = pieces(&example)
                .iter()
                .map(|p| match p {
                    Piece::Literal(l) => l.clone(),
                    _ => "7".to_string(),
                })
                .collect::<String>();
            let (found, _) = grammar.find(&example).unwrap();
            assert_eq!(found.id, step.id, "{example}");
        }
        assert_eq!(
            grammar.tiers(),
            ["core", "provenance", "untranslatable", "notes"]
        );
    }

    #[test]
    fn quoted_and_bare_captures_are_told_apart() {
        let grammar = Grammar::builtin();
        let (s, args) = grammar.find(r#"parameter "x" is 42"#).unwrap();
        assert_eq!(
            (s.id.as_str(), args[1].clone()),
            ("set_parameter_number", Arg::Bare("42".into()))
        );
        let (s, args) = grammar.find(r#"parameter "x" is "42""#).unwrap();
        assert_eq!(
            (s.id.as_str(), args[1].clone()),
            ("set_parameter_string", Arg::Quoted("42".into()))
        );
        let (s, args) = grammar.find(r#"output "a" is true"#).unwrap();
        assert_eq!(
            (s.action.as_str(), args[1].text()),
            ("assert_boolean", "true")
        );
        assert!(grammar.find("output \"a\" equals -1.5x").is_none());
        assert!(grammar.find("something else").is_none());
    }
}

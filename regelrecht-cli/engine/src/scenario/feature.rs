//! A Gherkin reader for the part of the language RegelRecht's features use: tags, `Feature`,
//! `Background`, `Scenario`/`Example`, `Scenario Outline` with `Examples` (expanded, one
//! scenario per row), steps with their keyword and data tables, comments. A construct it does
//! not know (a doc string, `Rule`) makes the scenarios it touches unrunnable, with the reason.

/// One step.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// `Given`, `When`, `Then`, `And`, `But` or `*`.
    pub keyword: String,
    /// The sentence after the keyword.
    pub text: String,
    /// 1-based line in the file.
    pub line: usize,
    /// Data table rows, cells trimmed.
    pub table: Vec<Vec<String>>,
}

/// One scenario with its own tags (the feature's are in [`Feature::tags`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// Its name.
    pub name: String,
    /// 1-based line of `Scenario:`.
    pub line: usize,
    /// Tags without `@`.
    pub tags: Vec<String>,
    /// Steps, without the background's.
    pub steps: Vec<Step>,
    /// Why it cannot be run as written, if so.
    pub unreadable: Option<String>,
}

/// A parsed `.feature` file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Feature {
    /// Its name.
    pub name: String,
    /// Tags without `@`.
    pub tags: Vec<String>,
    /// Steps run before every scenario.
    pub background: Vec<Step>,
    /// The scenarios in file order.
    pub scenarios: Vec<Scenario>,
}

const KEYWORDS: [&str; 6] = ["Given", "When", "Then", "And", "But", "*"];

fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut out = Vec::new();
    let mut cell = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('|') => cell.push('|'),
                Some('n') => cell.push('\n'),
                Some(other) => {
                    cell.push('\\');
                    cell.push(other);
                }
                None => cell.push('\\'),
            },
            '|' => out.push(std::mem::take(&mut cell).trim().to_string()),
            _ => cell.push(c),
        }
    }
    out.push(cell.trim().to_string());
    out
}

#[derive(Default)]
enum Block {
    #[default]
    None,
    Background,
    Scenario,
    Outline,
    Examples,
}

/// Parses a feature file.
pub fn parse(text: &str) -> Feature {
    let mut reader = Reader::default();
    for (index, raw) in text.lines().enumerate() {
        reader.read_line(index + 1, raw.trim());
    }
    reader.expand_outline();
    reader.feature
}

/// The state of a parse: the feature so far, the block a line belongs to, tags waiting for the
/// next heading, and the outline (with its `Examples` rows) not yet expanded.
#[derive(Default)]
struct Reader {
    feature: Feature,
    pending_tags: Vec<String>,
    block: Block,
    outline: Option<Scenario>,
    examples: Vec<Vec<String>>,
    in_doc_string: bool,
}

impl Reader {
    /// Reads one trimmed line: a doc-string fence, a comment, tags, a table row, a heading
    /// (`Feature`, `Background`, `Scenario`/`Example`, `Scenario Outline`, `Examples`, `Rule`)
    /// or a step; anything else inside a scenario makes it unrunnable.
    fn read_line(&mut self, line_no: usize, line: &str) {
        if line.starts_with("\"\"\"") || line.starts_with("```") {
            self.doc_string_fence(line_no);
        } else if self.in_doc_string || line.is_empty() || line.starts_with('#') {
            // Inside a doc string, a blank line or a comment: nothing to read.
        } else if line.starts_with('@') {
            self.tags(line);
        } else if line.starts_with('|') {
            self.table_row(line);
        } else if let Some(name) = line.strip_prefix("Feature:") {
            self.feature.name = name.trim().to_string();
            self.feature.tags = std::mem::take(&mut self.pending_tags);
        } else if line.starts_with("Background:") {
            self.block = Block::Background;
        } else if let Some((name, is_outline)) = scenario_heading(line) {
            self.scenario(line_no, name, is_outline);
        } else if line.starts_with("Examples:") || line.starts_with("Scenarios:") {
            self.pending_tags.clear();
            self.block = Block::Examples;
        } else if line.starts_with("Rule:") {
            self.expand_outline();
            self.block = Block::None;
        } else {
            self.step(line_no, line);
        }
    }

    /// A `"""` or ```` ``` ```` line opens or closes a doc string, which makes the scenario it is
    /// in unrunnable.
    fn doc_string_fence(&mut self, line_no: usize) {
        self.in_doc_string = !self.in_doc_string;
        if !matches!(self.block, Block::Background | Block::None) {
            self.mark_unreadable(format!(
                "regel {line_no}: doc strings worden niet ondersteund"
            ));
        }
    }

    /// Tags for the next heading, up to a comment.
    fn tags(&mut self, line: &str) {
        self.pending_tags.extend(
            line.split_whitespace()
                .take_while(|t| !t.starts_with('#'))
                .map(|t| t.trim_start_matches('@').to_string()),
        );
    }

    /// A data table row: a row of `Examples`, or a row of the last step's table.
    fn table_row(&mut self, line: &str) {
        let row = cells(line);
        let target = match self.block {
            Block::Examples => {
                self.examples.push(row);
                return;
            }
            Block::Background => self.feature.background.last_mut(),
            Block::Outline => self.outline.as_mut().and_then(|s| s.steps.last_mut()),
            Block::Scenario => self
                .feature
                .scenarios
                .last_mut()
                .and_then(|s| s.steps.last_mut()),
            Block::None => None,
        };
        if let Some(step) = target {
            step.table.push(row);
        }
    }

    /// A `Scenario`/`Example` or `Scenario Outline` heading starts a scenario with the tags
    /// read before it; a previous outline is expanded first.
    fn scenario(&mut self, line_no: usize, name: &str, is_outline: bool) {
        self.expand_outline();
        let scenario = Scenario {
            name: name.trim().to_string(),
            line: line_no,
            tags: std::mem::take(&mut self.pending_tags),
            steps: Vec::new(),
            unreadable: None,
        };
        if is_outline {
            self.outline = Some(scenario);
            self.block = Block::Outline;
        } else {
            self.feature.scenarios.push(scenario);
            self.block = Block::Scenario;
        }
    }

    /// A step with its keyword, added to the block it is in; a line with no keyword is free
    /// text under `Feature:` (its description) or a construct this reader does not know.
    fn step(&mut self, line_no: usize, line: &str) {
        let keyword = KEYWORDS
            .iter()
            .find(|k| line.starts_with(*k) && line[k.len()..].starts_with(' '));
        let Some(keyword) = keyword else {
            if !matches!(self.block, Block::None) {
                self.mark_unreadable(format!("regel {line_no}: onbekende Gherkin-regel"));
            }
            return;
        };
        let step = Step {
            keyword: keyword.to_string(),
            text: line[keyword.len()..].trim().to_string(),
            line: line_no,
            table: Vec::new(),
        };
        match self.block {
            Block::Background => self.feature.background.push(step),
            Block::Scenario => {
                if let Some(s) = self.feature.scenarios.last_mut() {
                    s.steps.push(step);
                }
            }
            Block::Outline => {
                if let Some(s) = self.outline.as_mut() {
                    s.steps.push(step);
                }
            }
            Block::None | Block::Examples => {}
        }
    }

    /// Marks the open outline, or else the last scenario, unrunnable (the first reason stays).
    fn mark_unreadable(&mut self, reason: String) {
        if let Some(s) = self.outline.as_mut().or(self.feature.scenarios.last_mut()) {
            s.unreadable.get_or_insert(reason);
        }
    }

    /// Expands the open outline into one scenario per `Examples` row, `<name>` filled in its
    /// name, steps and tables; an outline without rows stays one unrunnable scenario.
    fn expand_outline(&mut self) {
        let Some(template) = self.outline.take() else {
            return;
        };
        let rows = std::mem::take(&mut self.examples);
        let Some((header, body)) = rows.split_first() else {
            let mut s = template;
            s.unreadable = Some("Scenario Outline zonder Examples".into());
            self.feature.scenarios.push(s);
            return;
        };
        for (i, row) in body.iter().enumerate() {
            let fill = |t: &str| {
                header.iter().zip(row).fold(t.to_string(), |acc, (h, v)| {
                    acc.replace(&format!("<{h}>"), v)
                })
            };
            let mut s = template.clone();
            s.name = format!("{} (voorbeeld {})", fill(&template.name), i + 1);
            for step in &mut s.steps {
                step.text = fill(&step.text);
                for cell in step.table.iter_mut().flatten() {
                    *cell = fill(cell);
                }
            }
            self.feature.scenarios.push(s);
        }
    }
}

/// The name after a scenario heading, and whether it is an outline.
fn scenario_heading(line: &str) -> Option<(&str, bool)> {
    ["Scenario Outline:", "Scenario Template:"]
        .iter()
        .find_map(|k| line.strip_prefix(k).map(|n| (n, true)))
        .or_else(|| {
            ["Scenario:", "Example:"]
                .iter()
                .find_map(|k| line.strip_prefix(k).map(|n| (n, false)))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tags_background_tables_and_outlines() {
        let feature = parse(
            "@tier:core\nFeature: F\n  Uitleg\n  Background:\n    Given the calculation date is \"2025-01-01\"\n\n  @wip\n  Scenario: S\n    Given the following parameters:\n      | a | 1 \\| 2 |\n    Then the execution succeeds\n\n  Scenario Outline: O <x>\n    Given parameter \"a\" is <x>\n    Examples:\n      | x |\n      | 1 |\n      | 2 |\n",
        );
        assert_eq!(feature.tags, ["tier:core"]);
        assert_eq!(feature.background.len(), 1);
        assert_eq!(feature.scenarios.len(), 3);
        let s = &feature.scenarios[0];
        assert_eq!((s.tags.clone(), s.line), (vec!["wip".to_string()], 8));
        assert_eq!(s.steps[0].table, [["a", "1 | 2"]]);
        assert_eq!(feature.scenarios[2].steps[0].text, "parameter \"a\" is 2");
        assert_eq!(feature.scenarios[2].name, "O 2 (voorbeeld 2)");
        assert!(s.unreadable.is_none());
    }

    #[test]
    fn an_unknown_construct_makes_the_scenario_unreadable() {
        let feature = parse(
            "Feature: F\n  Scenario: S\n    Given x\n      \"\"\"\n      tekst\n      \"\"\"\n",
        );
        assert!(
            feature.scenarios[0]
                .unreadable
                .as_deref()
                .unwrap()
                .contains("doc strings")
        );
    }
}

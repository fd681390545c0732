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

enum Block {
    None,
    Background,
    Scenario,
    Outline,
    Examples,
}

/// Parses a feature file.
pub fn parse(text: &str) -> Feature {
    let mut feature = Feature::default();
    let mut pending_tags: Vec<String> = Vec::new();
    let mut block = Block::None;
    let mut outline: Option<Scenario> = None;
    let mut examples: Vec<Vec<String>> = Vec::new();
    let mut in_doc_string = false;

    let flush_outline =
        |feature: &mut Feature, outline: &mut Option<Scenario>, examples: &mut Vec<Vec<String>>| {
            let Some(template) = outline.take() else {
                return;
            };
            let rows = std::mem::take(examples);
            let Some((header, body)) = rows.split_first() else {
                let mut s = template;
                s.unreadable = Some("Scenario Outline zonder Examples".into());
                feature.scenarios.push(s);
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
                feature.scenarios.push(s);
            }
        };

    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.trim();
        if line.starts_with("\"\"\"") || line.starts_with("```") {
            in_doc_string = !in_doc_string;
            let reason = format!("regel {line_no}: doc strings worden niet ondersteund");
            match block {
                Block::Background | Block::None => {}
                _ => {
                    if let Some(s) = outline.as_mut().or(feature.scenarios.last_mut()) {
                        s.unreadable.get_or_insert(reason);
                    }
                }
            }
            continue;
        }
        if in_doc_string || line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with('@') {
            pending_tags.extend(
                line.split_whitespace()
                    .take_while(|t| !t.starts_with('#'))
                    .map(|t| t.trim_start_matches('@').to_string()),
            );
            continue;
        }
        if line.starts_with('|') {
            let row = cells(line);
            let target = match block {
                Block::Examples => {
                    examples.push(row);
                    continue;
                }
                Block::Background => feature.background.last_mut(),
                Block::Outline => outline.as_mut().and_then(|s| s.steps.last_mut()),
                Block::Scenario => feature
                    .scenarios
                    .last_mut()
                    .and_then(|s| s.steps.last_mut()),
                Block::None => None,
            };
            if let Some(step) = target {
                step.table.push(row);
            }
            continue;
        }
        if let Some(name) = line.strip_prefix("Feature:") {
            feature.name = name.trim().to_string();
            feature.tags = std::mem::take(&mut pending_tags);
            continue;
        }
        if line.starts_with("Background:") {
            block = Block::Background;
            continue;
        }
        let heading = ["Scenario Outline:", "Scenario Template:"]
            .iter()
            .find_map(|k| line.strip_prefix(k).map(|n| (n, true)))
            .or_else(|| {
                ["Scenario:", "Example:"]
                    .iter()
                    .find_map(|k| line.strip_prefix(k).map(|n| (n, false)))
            });
        if let Some((name, is_outline)) = heading {
            flush_outline(&mut feature, &mut outline, &mut examples);
            let scenario = Scenario {
                name: name.trim().to_string(),
                line: line_no,
                tags: std::mem::take(&mut pending_tags),
                steps: Vec::new(),
                unreadable: None,
            };
            if is_outline {
                outline = Some(scenario);
                block = Block::Outline;
            } else {
                feature.scenarios.push(scenario);
                block = Block::Scenario;
            }
            continue;
        }
        if line.starts_with("Examples:") || line.starts_with("Scenarios:") {
            pending_tags.clear();
            block = Block::Examples;
            continue;
        }
        if line.starts_with("Rule:") {
            flush_outline(&mut feature, &mut outline, &mut examples);
            block = Block::None;
            continue;
        }
        let keyword = KEYWORDS
            .iter()
            .find(|k| line.starts_with(*k) && line[k.len()..].starts_with(' '));
        let Some(keyword) = keyword else {
            // Free text under Feature: (its description) or a construct we do not know.
            if !matches!(block, Block::None) {
                let reason = format!("regel {line_no}: onbekende Gherkin-regel");
                if let Some(s) = outline.as_mut().or(feature.scenarios.last_mut()) {
                    s.unreadable.get_or_insert(reason);
                }
            }
            continue;
        };
        let step = Step {
            keyword: keyword.to_string(),
            text: line[keyword.len()..].trim().to_string(),
            line: line_no,
            table: Vec::new(),
        };
        match block {
            Block::Background => feature.background.push(step),
            Block::Scenario => {
                if let Some(s) = feature.scenarios.last_mut() {
                    s.steps.push(step);
                }
            }
            Block::Outline => {
                if let Some(s) = outline.as_mut() {
                    s.steps.push(step);
                }
            }
            Block::None | Block::Examples => {}
        }
    }
    flush_outline(&mut feature, &mut outline, &mut examples);
    feature
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

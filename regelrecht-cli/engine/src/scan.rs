//! Reading what a listing and the search for implementations need from a law's text without
//! parsing its YAML: the top-level scalars (`$id`, `$schema`, `valid_from`, `valid_to`, `name`,
//! `regulatory_layer`, `bwb_id`), the names of its outputs and what it `implements`. A full parse
//! of a 25,000-file corpus takes minutes; a scan of the lines takes a second.
//!
//! The scan is exact or says it is not sure: it reads only the forms the format is written in
//! (block sequences and one-line flow sequences of mappings of plain or simply quoted scalars) and
//! gives `None` for anything else (an anchor, a multi-line flow collection, an escape, a name that
//! refers to an output computed otherwise than from a literal text), and then the file is parsed.
//! A test holds the scan to the parse on every law at hand.

use serde::{Deserialize, Serialize};

/// The header of a law file: its top-level `$id`, `$schema`, `valid_from` and `valid_to`.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Header {
    pub(crate) id: Option<String>,
    pub(crate) schema: Option<String>,
    pub(crate) schema_line: Option<usize>,
    pub(crate) valid_from: Option<String>,
    pub(crate) valid_to: Option<String>,
    pub(crate) valid_to_line: Option<usize>,
}

/// What a listing shows of a law: its name (a `#output` name resolved to the output's literal
/// text, as [`crate::Law::display_name`]), layer, BWB id and the names of its outputs in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub name: Option<String>,
    pub layer: Option<String>,
    pub bwb_id: Option<String>,
    pub outputs: Vec<String>,
}

/// One `implements` entry: the open term `open_term` of article `article` of law `law`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Implements {
    pub(crate) law: String,
    pub(crate) article: String,
    pub(crate) open_term: String,
}

/// The lines of a text, as [`str::lines`] gives them (a trailing `\r` dropped), found with a
/// vectorised search for the line ends: every scan walks a 25,000-file corpus's lines.
pub(crate) fn text_lines(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut ends = memchr::memchr_iter(b'\n', bytes);
    std::iter::from_fn(move || {
        if start >= bytes.len() {
            return None;
        }
        let Some(end) = ends.next() else {
            // The last line, without a line end: kept as it is (a `\r` too).
            let line = &text[start..];
            start = bytes.len();
            return Some(line);
        };
        // Line ends are ASCII, so both bounds are character boundaries.
        let line = &text[start..end];
        start = end + 1;
        Some(line.strip_suffix('\r').unwrap_or(line))
    })
}

/// Reads the top-level `$id`, `$schema`, `valid_from` and `valid_to` scalars without parsing
/// the YAML (`$schema` also as a folded scalar on the next line, as the upstream corpus writes
/// long URLs).
pub(crate) fn scan_header(text: &str) -> Header {
    let mut header = Header::default();
    let mut lines = text_lines(text).enumerate().peekable();
    while let Some((index, line)) = lines.next() {
        let Some(first) = line.as_bytes().first() else {
            continue;
        };
        if !matches!(first, b'$' | b'v') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("$id:") {
            header.id = plain_scalar(rest);
        } else if let Some(rest) = line.strip_prefix("$schema:") {
            header.schema_line = Some(index + 1);
            header.schema = if matches!(rest.trim(), ">" | ">-" | "|" | "|-") {
                lines
                    .peek()
                    .filter(|(_, next)| next.starts_with(' '))
                    .and_then(|(_, next)| plain_scalar(next))
            } else {
                plain_scalar(rest)
            };
        } else if let Some(rest) = line.strip_prefix("valid_from:") {
            header.valid_from = plain_scalar(rest);
        } else if let Some(rest) = line.strip_prefix("valid_to:") {
            header.valid_to = plain_scalar(rest);
            header.valid_to_line = Some(index + 1);
        }
    }
    header
}

/// A plain or simply quoted scalar (no escapes, no quote inside), without a trailing comment.
pub(crate) fn plain_scalar(rest: &str) -> Option<String> {
    let (value, _) = scalar(rest)?;
    Some(value)
}

/// [`plain_scalar`], and whether it was quoted.
fn scalar(rest: &str) -> Option<(String, bool)> {
    let mut value = rest.trim();
    if let Some(pos) = value.find(" #") {
        value = value[..pos].trim_end();
    }
    let quoted = value.len() >= 2
        && ((value.starts_with('\'') && value.ends_with('\''))
            || (value.starts_with('"') && value.ends_with('"')));
    let unquoted = if quoted {
        &value[1..value.len() - 1]
    } else {
        value
    };
    let bad = unquoted.is_empty()
        || unquoted.contains(['\'', '"', '\\'])
        || matches!(
            value.as_bytes()[0],
            b'>' | b'|' | b'&' | b'*' | b'!' | b'[' | b'{' | b'%' | b'@' | b'`'
        );
    (!bad).then(|| (unquoted.to_string(), quoted))
}

/// One meaningful line: its indentation and its content (comments and blank lines are left out).
#[derive(Clone, Copy)]
struct Line<'t> {
    indent: usize,
    content: &'t str,
}

/// The structural lines of a text: the lines of a multi-line scalar (a block scalar `|`/`>`,
/// a plain or quoted scalar continued on deeper lines) are its value's, not keys, and are left
/// out.
fn lines(text: &str) -> Option<Vec<Line<'_>>> {
    let mut out = Vec::new();
    // Lines deeper than this column continue the value of the line before.
    let mut continued_beyond: Option<usize> = None;
    for raw in text_lines(text) {
        let content = raw.trim_start_matches(' ');
        if content.is_empty() {
            continue;
        }
        let indent = raw.len() - content.len();
        if continued_beyond.is_some_and(|column| indent > column) {
            continue;
        }
        continued_beyond = None;
        if content.starts_with('#') {
            continue;
        }
        // A tab in the indentation, a second document or a directive: not the forms scanned
        // here.
        if content.starts_with('\t') || content.starts_with('%') {
            return None;
        }
        if content == "---" {
            if !out.is_empty() {
                return None;
            }
            continue;
        }
        let line = Line { indent, content };
        let dash = content.starts_with("- ");
        continued_beyond = match key_value(content) {
            // A key with a value on its line: anything deeper continues that value.
            Some((_, value)) if !value.trim().is_empty() => Some(indent + if dash { 2 } else { 0 }),
            Some(_) => None,
            // A sequence item that is a scalar (or a flow collection): deeper lines continue it.
            None if dash => Some(indent),
            None => None,
        };
        out.push(line);
    }
    Some(out)
}

/// `key: value` of a line's content (after a leading `- `, when `item`): the key and the rest.
fn key_value(content: &str) -> Option<(&str, &str)> {
    let content = content.strip_prefix("- ").unwrap_or(content);
    let colon = memchr::memchr(b':', content.as_bytes())?;
    let (key, rest) = content.split_at(colon);
    let rest = &rest[1..];
    if !(rest.is_empty() || rest.starts_with(' ')) || key.contains([' ', '{', '[', '"', '\'']) {
        return None;
    }
    Some((key, rest))
}

/// The items of the block sequence under the key on `lines[at]` (whose value is empty): each
/// item's scalar members (`key`, value) at its own level. `None` when the block holds another
/// form than a sequence of mappings of scalars (nested values of an item are passed over).
fn block_items(lines: &[Line<'_>], at: usize) -> Option<Vec<Item>> {
    // The key's own column: after the `- ` of a sequence item it opens.
    let key_indent = lines[at].indent
        + if lines[at].content.starts_with("- ") {
            2
        } else {
            0
        };
    let mut items: Vec<Item> = Vec::new();
    let mut item_indent: Option<usize> = None;
    let mut member_indent = 0;
    for line in &lines[at + 1..] {
        let in_block = line.indent > key_indent
            || (line.indent == key_indent && line.content.starts_with("- "));
        if !in_block {
            break;
        }
        let dash = line.content.starts_with("- ") || line.content == "-";
        match item_indent {
            None if dash => item_indent = Some(line.indent),
            None => return None,
            _ => {}
        }
        let indent = item_indent.unwrap_or(line.indent);
        if line.indent < indent {
            return None;
        }
        if line.indent == indent {
            if !dash {
                return None;
            }
            let rest = line.content[1..].trim_start();
            member_indent = line.indent + (line.content.len() - rest.len());
            if rest.starts_with('{') {
                items.push(flow_mapping(rest)?);
                continue;
            }
            let mut item = Vec::new();
            if !rest.is_empty() {
                let (key, value) = key_value(rest)?;
                item.push((key.to_string(), plain_scalar(value)));
            }
            items.push(item);
        } else if line.indent == member_indent {
            let (key, value) = key_value(line.content)?;
            if line.content.starts_with("- ") {
                return None;
            }
            let item = items.last_mut()?;
            item.push((key.to_string(), plain_scalar(value)));
        }
        // Deeper lines belong to a nested value of the item: passed over.
    }
    Some(items)
}

/// A sequence item: its members at its own level, each with its value when that is a plain
/// scalar (`None`: a nested or multi-line value, not read).
type Item = Vec<(String, Option<String>)>;

/// A one-line flow mapping of plain scalars, `{a: b, c: d}`.
fn flow_mapping(text: &str) -> Option<Item> {
    let inner = text.trim().strip_prefix('{')?.strip_suffix('}')?;
    if inner.contains(['{', '}', '[', ']', '&', '*']) {
        return None;
    }
    let mut members = Vec::new();
    for part in inner.split(',') {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let (key, value) = part.split_once(':')?;
        members.push((key.trim().to_string(), Some(plain_scalar(value)?)));
    }
    Some(members)
}

/// A one-line flow sequence of flow mappings, `[{a: b}, {c: d}]`.
fn flow_items(text: &str) -> Option<Vec<Item>> {
    let inner = text.trim().strip_prefix('[')?.strip_suffix(']')?.trim();
    if inner.is_empty() {
        return Some(Vec::new());
    }
    let mut items = Vec::new();
    let mut rest = inner;
    while !rest.is_empty() {
        let end = rest.find('}')?;
        items.push(flow_mapping(&rest[..=end])?);
        rest = rest[end + 1..].trim_start();
        rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
    }
    Some(items)
}

/// The items of the sequence that is the value of the key on `lines[at]`: a block sequence, or a
/// one-line flow sequence.
fn sequence(lines: &[Line<'_>], at: usize, value: &str) -> Option<Vec<Item>> {
    let value = value.trim();
    if value.is_empty() {
        block_items(lines, at)
    } else if value.starts_with('[') {
        flow_items(value)
    } else {
        None
    }
}

/// The plain scalar value of `key` in `item`; `None` when it is missing or not a plain scalar.
fn member<'i>(item: &'i [(String, Option<String>)], key: &str) -> Option<&'i str> {
    item.iter()
        .find(|(k, _)| k == key)
        .and_then(|(_, v)| v.as_deref())
}

/// Whether a plain scalar would be read as something else than a text (YAML 1.2 core schema):
/// a number, boolean, null or date.
fn not_text(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "true" | "false" | "null" | "~" | "yes" | "no" | "on" | "off" | ".nan" | ".inf" | "-.inf"
    ) || value
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_digit() || b == b'-' || b == b'+' || b == b'.')
}

/// The listing's view of a law, or `None` when the scan is not sure.
pub(crate) fn scan_summary(text: &str) -> Option<Summary> {
    let lines = lines(text)?;
    let mut name = None;
    let mut layer = None;
    let mut bwb_id = None;
    let mut outputs = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        if line.content.contains(['&', '*']) && has_anchor_or_alias(line.content) {
            return None;
        }
        let Some((key, value)) = key_value(line.content) else {
            continue;
        };
        if line.indent == 0 && !line.content.starts_with("- ") {
            let slot = match key {
                "name" => &mut name,
                "regulatory_layer" => &mut layer,
                "bwb_id" => &mut bwb_id,
                _ => continue,
            };
            if value.trim().is_empty() {
                return None;
            }
            *slot = Some(plain_scalar(value)?);
        } else if key == "output" && (value.trim().is_empty() || value.trim().starts_with('[')) {
            for item in sequence(&lines, at, value)? {
                outputs.push(member(&item, "name")?.to_string());
            }
        }
    }
    let name = match name {
        Some(name) if name.starts_with('#') => Some(resolve_name(&lines, &name)?),
        other => other,
    };
    Some(Summary {
        name,
        layer,
        bwb_id,
        outputs,
    })
}

/// Whether a line's content holds an anchor (`&a`) or an alias (`*a`) outside a quoted scalar.
fn has_anchor_or_alias(content: &str) -> bool {
    let mut quote: Option<char> = None;
    let mut previous = ' ';
    for c in content.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if (c == '&' || c == '*') && matches!(previous, ' ' | '[' | '{' | ',') => {
                return true;
            }
            None if c == '#' && previous == ' ' => return false,
            None => {}
        }
        previous = c;
    }
    false
}

/// A `#output` name as the literal text of the only action that computes `output` from a text:
/// `- output: <output>` with a `value:` beside it that is a text scalar. A name whose output is
/// computed otherwise stays as written. `None` when the scan is not sure (the output is named
/// more than once, or its value is not one scalar).
fn resolve_name(lines: &[Line<'_>], name: &str) -> Option<String> {
    let output = &name[1..];
    let mut found: Option<Option<String>> = None;
    for (at, line) in lines.iter().enumerate() {
        let Some((key, value)) = key_value(line.content) else {
            continue;
        };
        if key != "output" || plain_scalar(value).as_deref() != Some(output) {
            continue;
        }
        if found.is_some() {
            return None;
        }
        let mut literal = None;
        let mut seen_value = false;
        for (key, value) in mapping_members(lines, at) {
            if key == "value" {
                seen_value = true;
                let (text, quoted) = scalar(value)?;
                literal = (quoted || !not_text(&text)).then_some(text);
            }
        }
        if !seen_value {
            return None;
        }
        found = Some(literal);
    }
    match found {
        Some(Some(text)) => Some(text),
        // A computed or non-text value: the name stays as written.
        Some(None) => Some(name.to_string()),
        None => Some(name.to_string()),
    }
}

/// The members (`key`, rest of the line) of the block mapping that the line `lines[at]` is a member
/// of; a member that starts a sequence item (`- key: value`) opens the mapping.
fn mapping_members<'t>(lines: &[Line<'t>], at: usize) -> Vec<(&'t str, &'t str)> {
    let dash = |l: &Line<'_>| l.content.starts_with("- ");
    let line = lines[at];
    let (mut start, member_indent) = if dash(&line) {
        (at, line.indent + 2)
    } else {
        (at, line.indent)
    };
    if !dash(&line) {
        while start > 0 {
            let previous = lines[start - 1];
            if previous.indent > member_indent
                || (previous.indent == member_indent && !dash(&previous))
            {
                start -= 1;
            } else {
                if previous.indent + 2 == member_indent && dash(&previous) {
                    start -= 1;
                }
                break;
            }
        }
    }
    let mut members = Vec::new();
    for (index, l) in lines.iter().enumerate().skip(start) {
        let opens = index == start && dash(l) && l.indent + 2 == member_indent;
        if !opens && (l.indent < member_indent || (l.indent == member_indent && dash(l))) {
            break;
        }
        if (opens || l.indent == member_indent)
            && let Some(member) = key_value(l.content)
        {
            members.push(member);
        }
    }
    members
}

/// What the law implements, or `None` when the scan is not sure.
pub(crate) fn scan_implements(text: &str) -> Option<Vec<Implements>> {
    if memchr::memmem::find(text.as_bytes(), b"implements:").is_none() {
        return Some(Vec::new());
    }
    let lines = lines(text)?;
    let mut out = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        let Some(("implements", value)) = key_value(line.content) else {
            continue;
        };
        for item in sequence(&lines, at, value)? {
            out.push(Implements {
                law: member(&item, "law")?.to_string(),
                article: member(&item, "article")?.to_string(),
                open_term: member(&item, "open_term")?.to_string(),
            });
        }
    }
    Some(out)
}

/// Which cross-law constructs a law text names, found by the keys' text (a superset: a key in
/// a comment counts), so that looking for implementations, hooks, overrides and procedures
/// parses only the laws that may have them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Declares {
    pub(crate) implements: bool,
    pub(crate) hooks: bool,
    pub(crate) overrides: bool,
    pub(crate) procedure: bool,
}

impl Declares {
    /// The keys looked for; `build.rs` looks for the same in the built-in laws.
    pub(crate) const KEYS: [&str; 4] = ["implements:", "hooks:", "overrides:", "procedure:"];

    /// From bits 0 to 3 (implements, hooks, overrides, procedure), as the index keeps them.
    pub(crate) fn from_bits(bits: u8) -> Declares {
        Declares {
            implements: bits & 1 != 0,
            hooks: bits & 2 != 0,
            overrides: bits & 4 != 0,
            procedure: bits & 8 != 0,
        }
    }

    /// As bits 0 to 3.
    pub(crate) fn bits(self) -> u8 {
        u8::from(self.implements)
            | u8::from(self.hooks) << 1
            | u8::from(self.overrides) << 2
            | u8::from(self.procedure) << 3
    }

    pub(crate) fn scan(text: &str) -> Declares {
        let [implements, hooks, overrides, procedure] =
            Declares::KEYS.map(|key| text.contains(key));
        Declares {
            implements,
            hooks,
            overrides,
            procedure,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::Corpus;

    /// The parse's view of a law, as the scan must give it.
    fn parsed(law: &crate::Law) -> Summary {
        Summary {
            name: law.display_name(),
            layer: Some(law.regulatory_layer.clone()),
            bwb_id: law.bwb_id.clone(),
            outputs: law.outputs().map(|(_, f)| f.name.clone()).collect(),
        }
    }

    fn implements(law: &crate::Law) -> Vec<Implements> {
        law.articles
            .iter()
            .flat_map(|a| a.machine_readable.iter().flat_map(|m| &m.implements))
            .map(|i| Implements {
                law: i.law.clone(),
                article: i.article.clone(),
                open_term: i.open_term.clone(),
            })
            .collect()
    }

    #[test]
    fn on_every_law_at_hand_the_scan_is_sure_and_reads_what_the_parse_reads() {
        let mut corpus = Corpus::with_builtins();
        corpus
            .add_dir(&test_support::conformance_dir!().join("corpus"))
            .unwrap();
        assert!(corpus.files().len() > 20);
        for file in corpus.files() {
            let text = file.text().unwrap();
            let law = file.law().unwrap();
            assert_eq!(
                scan_summary(text).as_ref(),
                Some(&parsed(law)),
                "{}",
                file.origin.display()
            );
            assert_eq!(
                scan_implements(text),
                Some(implements(law)),
                "{}",
                file.origin.display()
            );
        }
    }

    #[test]
    fn text_lines_are_the_lines_str_lines_gives() {
        for text in [
            "",
            "\n",
            "\n\n",
            "a",
            "a\n",
            "a\nb",
            "a\r\nb\r\n",
            "a\r",
            "a\rb\n",
            "\r\n",
            "é\nü\r\n",
        ] {
            let ours: Vec<&str> = text_lines(text).collect();
            let std: Vec<&str> = text.lines().collect();
            assert_eq!(ours, std, "{text:?}");
        }
    }

    #[test]
    fn block_and_flow_outputs_are_read_in_order() {
        let text = "$id: t\nname: Wet\nregulatory_layer: WET\narticles:\n  - number: '1'\n    machine_readable:\n      execution:\n        output:\n          - name: a\n            type: amount\n            type_spec:\n              unit: eurocent\n          - {name: b, type: number}\n        actions:\n          - output: a\n            value: 1\n  - number: '2'\n    machine_readable:\n      execution:\n        output: [{name: c, type: boolean}, {name: d, type: string}]\n        input:\n          - name: x\n            source: {regulation: w, output: y}\n";
        let summary = scan_summary(text).unwrap();
        assert_eq!(summary.outputs, ["a", "b", "c", "d"]);
        assert_eq!(summary.name.as_deref(), Some("Wet"));
        assert_eq!(summary.layer.as_deref(), Some("WET"));
    }

    #[test]
    fn a_name_refers_to_its_output_s_literal_text() {
        let text = "$id: t\nname: '#wet_naam'\nregulatory_layer: WET\narticles:\n  - number: '1'\n    machine_readable:\n      execution:\n        output:\n          - name: wet_naam\n            type: string\n        actions:\n          - output: wet_naam\n            value: Wet op iets\n";
        assert_eq!(
            scan_summary(text).unwrap().name.as_deref(),
            Some("Wet op iets")
        );
        let computed = text.replace("value: Wet op iets", "value: 12");
        assert_eq!(
            scan_summary(&computed).unwrap().name.as_deref(),
            Some("#wet_naam")
        );
    }

    #[test]
    fn what_the_scan_does_not_read_it_says() {
        for text in [
            "$id: t\nname: &a Wet\n",
            "$id: t\nname: >-\n  Wet\n",
            "$id: t\narticles:\n  - machine_readable:\n      execution:\n        output: [\n          {name: a}]\n",
            "$id: t\narticles:\n  - machine_readable:\n      execution:\n        output:\n          - type: amount\n",
        ] {
            assert_eq!(scan_summary(text), None, "{text}");
        }
    }

    #[test]
    fn implements_entries_are_read() {
        let text = "$id: r\narticles:\n  - number: '2'\n    machine_readable:\n      implements:\n        - law: wet\n          article: '4'\n          open_term: premie\n          gelet_op: Gelet op\n        - {law: andere, article: '1', open_term: x}\n";
        assert_eq!(
            scan_implements(text).unwrap(),
            [
                Implements {
                    law: "wet".into(),
                    article: "4".into(),
                    open_term: "premie".into()
                },
                Implements {
                    law: "andere".into(),
                    article: "1".into(),
                    open_term: "x".into()
                }
            ]
        );
        assert_eq!(scan_implements("$id: r\n").unwrap(), []);
    }
}

//! `--output table`: data for people, fitted to the terminal (rule OUT-4).
//!
//! - One document is a block of aligned `label  value` rows, nested objects
//!   as dotted labels (`adres.plaats`). Long values wrap at the width; a line
//!   break in a value (law text, its `a.`/`b.` items) stays a line break, and
//!   wrapped lines keep the line's own indent, so a law reads like the law.
//! - A list of records is a table with a header. Nested values in a cell are
//!   shown inline (`plaats: Lollum, postcode: 8823SJ`), never as raw JSON.
//!   Descriptions are cut with `…` to fit the width; identifiers, URLs and
//!   any other value without a space never are. A list of one record, a list
//!   whose cells hold line breaks, or one that cannot fit with its tokens
//!   whole, is shown record by record as blocks instead.
//! - The width is `COLUMNS`, else the terminal's; in a pipe without
//!   `COLUMNS` nothing is cut or wrapped.
//!
//! No control character from a source reaches the terminal (rule OUT-6).

use serde_json::Value;

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use super::{printable, styled};

/// Members that only a program follows (HAL's `_links`): never shown in a table.
const MACHINE_ONLY: &[&str] = &["_links"];

/// Whether column `name` holds identifiers a person needs whole to take the next step (a KvK or
/// vestigingsnummer, a law's or scheme's id, a reference): such a column is never cut.
fn is_identifier(name: &str) -> bool {
    let lower = name.to_lowercase();
    lower == "id"
        || lower == "rsin"
        || lower.ends_with("_id")
        || name.ends_with("Id")
        || ["nummer", "kenmerk", "referentie"]
            .iter()
            .any(|suffix| lower.ends_with(suffix))
}

/// The narrowest a shrunk table column gets before the list becomes blocks.
const MIN_COLUMN: usize = 8;
/// The narrowest a wrapped value gets, however deep its label.
const MIN_VALUE: usize = 20;

/// How the table is laid out.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Layout {
    /// The width to fit, in characters; `None`: no limit.
    pub width: Option<usize>,
    pub color: bool,
}

/// `value` as text for people (each line ends in a newline).
pub(crate) fn render(value: &Value, layout: Layout) -> String {
    let mut out = String::new();
    match value {
        Value::Array(items) if items.is_empty() => out.push_str("(geen resultaten)\n"),
        Value::Array(items) if is_record_list(value) => records(items, layout, 0, &mut out),
        Value::Object(_) => document(value, layout, 0, &mut out),
        other => {
            for line in printable(&inline(other), true).lines() {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

fn is_record_list(value: &Value) -> bool {
    matches!(value, Value::Array(items) if !items.is_empty() && items.iter().all(Value::is_object))
}

/// A nested value on one line: lists joined with `, `, objects as `key: value`.
fn inline(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(inner).collect::<Vec<_>>().join(", "),
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| format!("{k}: {}", inner(v)))
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    }
}

/// [`inline`] for a value inside another: a nested list or object in brackets.
fn inner(value: &Value) -> String {
    match value {
        Value::Array(items) if !items.is_empty() => format!("[{}]", inline(value)),
        Value::Object(map) if !map.is_empty() => format!("({})", inline(value)),
        other => inline(other),
    }
}

/// Label/value rows (dotted labels for nested objects), then each list of
/// records under its label.
fn document(value: &Value, layout: Layout, indent: usize, out: &mut String) {
    let mut rows = Vec::new();
    let mut lists = Vec::new();
    flatten(value, String::new(), &mut rows, &mut lists);
    // A label longer than half the width stands on its own line, its value
    // below it in the value column.
    let cap = layout
        .width
        .map_or(usize::MAX, |w| w.saturating_sub(indent) / 2);
    let label_width = rows
        .iter()
        .map(|(k, _)| k.width())
        .filter(|n| *n <= cap)
        .max()
        .unwrap_or(0);
    let value_width = layout
        .width
        .map(|w| w.saturating_sub(indent + label_width + 2).max(MIN_VALUE));
    let pad = " ".repeat(indent);
    for (label, text) in rows {
        let lines = wrapped(&printable(&text, true), value_width);
        let hanging = " ".repeat(indent + label_width + 2);
        let first = lines.first().map(String::as_str).unwrap_or("");
        let label_text = styled(&label, "1", layout.color);
        let (first, rest) = match label_width.checked_sub(label.width()) {
            Some(short) => (
                format!("{pad}{label_text}{}{first}", " ".repeat(short + 2)),
                1,
            ),
            None => {
                // Longer than the whole width: whole on its own line (a key is a token).
                let room = layout
                    .width
                    .map(|w| w.saturating_sub(indent).max(MIN_VALUE));
                let parts: Vec<String> = wrapped(&label, room)
                    .iter()
                    .map(|part| format!("{pad}{}", styled(part, "1", layout.color)))
                    .collect();
                (parts.join("\n"), 0)
            }
        };
        out.push_str(first.trim_end());
        out.push('\n');
        for line in lines.iter().skip(rest) {
            out.push_str(format!("{hanging}{line}").trim_end());
            out.push('\n');
        }
    }
    for (label, items) in lists {
        out.push_str(&format!("\n{pad}{}\n", styled(&label, "1", layout.color)));
        records(items, layout, indent, out);
    }
}

fn flatten<'a>(
    value: &'a Value,
    prefix: String,
    rows: &mut Vec<(String, String)>,
    lists: &mut Vec<(String, &'a Vec<Value>)>,
) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (k, v) in map
                .iter()
                .filter(|(k, _)| !MACHINE_ONLY.contains(&k.as_str()))
            {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(v, key, rows, lists);
            }
        }
        Value::Array(items) if is_record_list(value) => lists.push((prefix, items)),
        other => rows.push((prefix, inline(other))),
    }
}

/// A table of records, or blocks when a table cannot show them well.
fn records(items: &[Value], layout: Layout, indent: usize, out: &mut String) {
    let mut columns: Vec<&str> = Vec::new();
    for item in items {
        if let Value::Object(map) = item {
            for key in map.keys().filter(|k| !MACHINE_ONLY.contains(&k.as_str())) {
                if !columns.contains(&key.as_str()) {
                    columns.push(key);
                }
            }
        }
    }
    let cells: Vec<Vec<String>> = items
        .iter()
        .map(|item| {
            columns
                .iter()
                .map(|c| {
                    item.get(*c)
                        .map(|v| printable(&inline(v), true))
                        .unwrap_or_default()
                })
                .collect()
        })
        .collect();
    let multi_line = cells.iter().flatten().any(|c| c.contains('\n'));
    // One record reads better as label/value rows than as a one-row table.
    let widths = if multi_line || items.len() == 1 {
        None
    } else {
        fitted_widths(
            &columns,
            &cells,
            layout.width.map(|w| w.saturating_sub(indent)),
        )
    };
    let Some(widths) = widths else {
        // Record by record, each a block, separated by a blank line.
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            document(item, layout, indent + 2, out);
        }
        return;
    };
    let pad = " ".repeat(indent);
    let line = |texts: Vec<String>| {
        let joined = texts
            .iter()
            .zip(&widths)
            .map(|(t, w)| {
                let t = truncated(t, *w);
                let fill = w.saturating_sub(t.width());
                format!("{t}{}", " ".repeat(fill))
            })
            .collect::<Vec<_>>()
            .join("  ");
        format!("{pad}{}", joined.trim_end())
    };
    out.push_str(&styled(
        &line(columns.iter().map(|c| printable(c, false)).collect()),
        "1",
        layout.color,
    ));
    out.push('\n');
    for row in cells {
        out.push_str(&line(row));
        out.push('\n');
    }
}

/// Whether `text` is one token a person copies whole: visible ASCII without a space, as
/// identifiers, names a program reads (`is_activiteit_artikel_3_3a_lid_1_onder_a`), URLs,
/// dates and numbers are. Cut, two of them can read alike and a URL leads nowhere.
fn is_token(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_graphic())
}

/// Whether column `i` holds only tokens ([`is_token`]; empty cells aside): it is never cut.
fn is_token_column(cells: &[Vec<String>], i: usize) -> bool {
    cells
        .iter()
        .all(|row| row[i].is_empty() || is_token(&row[i]))
}

/// Column widths that fit `width`: the widest descriptive columns give way first, down to
/// [`MIN_COLUMN`] (or less if neither header nor cells need more); an identifier column
/// ([`is_identifier`]) or a column of single tokens ([`is_token_column`]) keeps its whole
/// width. `None` if even that does not fit: then the list is shown record by record.
fn fitted_widths(
    columns: &[&str],
    cells: &[Vec<String>],
    width: Option<usize>,
) -> Option<Vec<usize>> {
    let mut widths: Vec<usize> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            cells
                .iter()
                .map(|row| row[i].width())
                .chain([c.width()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let Some(width) = width else {
        return Some(widths);
    };
    let gaps = 2 * columns.len().saturating_sub(1);
    let floor: Vec<usize> = widths
        .iter()
        .zip(columns)
        .enumerate()
        .map(|(i, (w, c))| {
            if is_identifier(c) || is_token_column(cells, i) {
                *w
            } else {
                (*w).min(MIN_COLUMN)
            }
        })
        .collect();
    if floor.iter().sum::<usize>() + gaps > width {
        return None;
    }
    while widths.iter().sum::<usize>() + gaps > width {
        let (widest, _) = widths
            .iter()
            .enumerate()
            .filter(|(i, w)| **w > floor[*i])
            .max_by_key(|(_, w)| **w)?;
        widths[widest] -= 1;
    }
    Some(widths)
}

/// `text` cut to `width` columns, the last one `…` if anything was cut.
fn truncated(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_string();
    }
    let (head, _) = split_at_width(text, width.saturating_sub(1));
    format!("{head}…")
}

/// `text` split where its first part is as wide as fits in `width` terminal columns (wide
/// characters count two, combining ones none, as `unicode-width` measures them); a combining
/// character stays with its base.
fn split_at_width(text: &str, width: usize) -> (&str, &str) {
    let mut used = 0;
    for (at, c) in text.char_indices() {
        used += c.width().unwrap_or(0);
        if used > width {
            return text.split_at(at);
        }
    }
    (text, "")
}

/// `text` in lines of at most `width` characters: its own line breaks kept,
/// long lines wrapped at spaces with the line's indent repeated. A token longer than a line
/// ([`is_token`]: a URL, an identifier) stays whole on a line of its own, which the terminal
/// folds, so a copy of it is still the token; other words longer than a line are cut hard.
fn wrapped(text: &str, width: Option<usize>) -> Vec<String> {
    let Some(width) = width else {
        return text.lines().map(str::to_string).collect();
    };
    let mut out = Vec::new();
    for line in text.lines() {
        let indent = line.chars().take_while(|c| *c == ' ').count();
        let body = &line[indent..];
        // A numbered item (`a. `, `1. `, `2) `) hangs its continuation under its text.
        let hang = match body.split_once(' ') {
            Some((mark, _)) if mark.width() <= 4 && mark.ends_with(['.', ')']) => mark.width() + 1,
            _ => 0,
        };
        let continuation = " ".repeat((indent + hang).min(width / 2));
        let mut current = " ".repeat(indent);
        let mut has_word = false;
        for word in body.split(' ').filter(|w| !w.is_empty()) {
            if !has_word {
                current.push_str(word);
            } else if current.width() + 1 + word.width() <= width {
                current.push(' ');
                current.push_str(word);
            } else {
                out.push(std::mem::replace(
                    &mut current,
                    format!("{continuation}{word}"),
                ));
            }
            has_word = true;
            while current.width() > width && !is_token(word) {
                let (mut head, mut tail) = split_at_width(&current, width);
                if head.is_empty() {
                    // A character wider than the whole line still makes progress.
                    (head, tail) = current.split_at(tail.chars().next().map_or(0, char::len_utf8));
                }
                let (head, tail) = (head.to_string(), tail.to_string());
                out.push(head);
                current = format!("{continuation}{tail}");
            }
        }
        out.push(current);
    }
    if out.is_empty() {
        out.push(String::new());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn table(value: &Value, width: Option<usize>) -> String {
        render(
            value,
            Layout {
                width,
                color: false,
            },
        )
    }

    #[test]
    fn law_text_keeps_its_lines_and_wraps_under_its_items() {
        let doc = json!({"nummer": "5.15a", "tekst": "1. Als artikel 5.15 van toepassing is, worden de volgende gegevens verstrekt:\n   a. het nummer van inschrijving in het handelsregister;\n   b. een overzicht."});
        let text = table(&doc, Some(50));
        assert!(!text.contains('\u{fffd}'), "{text}");
        assert_eq!(
            text,
            "nummer  5.15a\n\
             tekst   1. Als artikel 5.15 van toepassing is,\n\
             \x20          worden de volgende gegevens verstrekt:\n\
             \x20          a. het nummer van inschrijving in het\n\
             \x20             handelsregister;\n\
             \x20          b. een overzicht.\n"
        );
        assert!(text.lines().all(|l| l.width() <= 50), "{text}");
    }

    #[test]
    fn a_wide_table_is_cut_to_the_width_with_an_ellipsis() {
        let rows: Vec<Value> = (0..3)
            .map(|i| json!({"id": i, "titel": "een titel ".repeat(20), "omschrijving": "de omschrijving ".repeat(20)}))
            .collect();
        let text = table(&Value::from(rows.clone()), Some(80));
        assert!(text.lines().all(|l| l.width() <= 80), "{text}");
        assert!(text.contains('…'), "{text}");
        assert!(text.starts_with("id  titel"), "{text}");
        // In a pipe without COLUMNS: nothing cut.
        assert!(!table(&Value::from(rows), None).contains('…'));
    }

    #[test]
    fn identifiers_stay_whole_and_descriptions_give_way() {
        let rows: Vec<Value> = (0..3)
            .map(|i| {
                json!({
                    "law_id": format!("besluit_activiteiten_leefomgeving_{i}"),
                    "vestigingsnummer": "000037178598",
                    "naam": "naam ".repeat(12),
                    "_links": {"self": {"href": "https://example.invalid/x"}},
                })
            })
            .collect();
        let text = table(&Value::from(rows), Some(80));
        assert!(
            text.contains("besluit_activiteiten_leefomgeving_2"),
            "{text}"
        );
        assert!(text.contains("000037178598"), "{text}");
        assert!(text.contains("naam…"), "the description gives way: {text}");
        assert!(!text.contains("_links") && !text.contains("href"), "{text}");
        assert!(text.lines().all(|l| l.width() <= 80), "{text}");
        // Too narrow for the whole identifiers beside the other columns: record by record,
        // the identifier not cut.
        let row = json!({"law_id": "wet_op_de_zorgtoesl", "naam": "Zorgtoeslag", "soort": "WET", "omschrijving": "o".repeat(40)});
        let narrow = table(&Value::from(vec![row.clone(), row]), Some(30));
        assert!(
            narrow.contains("law_id        wet_op_de_zorgtoesl\n"),
            "{narrow}"
        );
        assert!(!narrow.contains('…'), "{narrow}");
    }

    #[test]
    fn names_and_urls_are_never_cut() {
        // Two parameters that share their first 13 characters, each with its legal basis: cut
        // at 80 columns, both read `is_activitei…` and the links `https://wetten.ov…`.
        let rows: Vec<Value> = ["a", "b"]
            .iter()
            .map(|x| {
                json!({
                    "naam": format!("is_activiteit_artikel_3_3a_lid_1_onder_{x}"),
                    "type": "boolean",
                    "url": "https://wetten.overheid.nl/BWBR0041330/2026-01-01#Artikel5.15",
                    "omschrijving": "Of de activiteit een activiteit is als bedoeld in artikel 3.3a",
                })
            })
            .collect();
        let text = table(&Value::from(rows), Some(80));
        for whole in [
            "is_activiteit_artikel_3_3a_lid_1_onder_a",
            "is_activiteit_artikel_3_3a_lid_1_onder_b",
            "https://wetten.overheid.nl/BWBR0041330/2026-01-01#Artikel5.15",
        ] {
            assert!(text.contains(whole), "{whole} cut:\n{text}");
        }
        // A URL longer than the line in a block stays whole, the terminal folds it; words
        // around it still wrap.
        let url = format!("https://wetten.overheid.nl/{}", "x".repeat(90));
        let text = table(
            &json!({"bron": format!("zie {url} voor de tekst"), "naam": "n"}),
            Some(60),
        );
        assert!(text.lines().any(|l| l.trim() == url), "{text}");
        assert!(text.contains("voor de tekst"), "{text}");
    }

    #[test]
    fn machine_only_members_are_left_out_of_a_document() {
        let doc = json!({"kvkNummer": "68750110", "_links": {"self": {"href": "x"}}, "_embedded": {"naam": "A"}});
        let text = table(&doc, None);
        assert!(!text.contains("_links"), "{text}");
        assert!(
            text.contains("_embedded.naam"),
            "data under _embedded stays: {text}"
        );
    }

    #[test]
    fn nesting_is_readable_not_raw_json() {
        let rows = json!([{"naam": "A", "adres": {"plaats": "Lollum", "postcode": "8823SJ"}, "sbi": [{"code": "6201"}]}, {"naam": "B"}]);
        let text = table(&rows, None);
        assert!(text.contains("plaats: Lollum, postcode: 8823SJ"), "{text}");
        assert!(text.contains("(code: 6201)"), "{text}");
        assert!(!text.contains('{') && !text.contains('"'), "{text}");
    }

    #[test]
    fn a_list_that_does_not_fit_becomes_blocks() {
        let row: serde_json::Map<String, Value> = (0..30)
            .map(|i| (format!("kolom{i}"), Value::from("waarde")))
            .collect();
        let text = table(
            &Value::from(vec![Value::Object(row.clone()), Value::Object(row)]),
            Some(80),
        );
        assert!(text.contains("  kolom0   waarde\n"), "{text}");
        assert!(
            text.contains("\n\n  kolom0"),
            "a blank line between records: {text}"
        );
        assert!(text.lines().all(|l| l.width() <= 80), "{text}");
    }

    #[test]
    fn a_label_too_long_for_the_width_puts_its_value_below() {
        let doc = json!({"id": "1", "een.lang.pad.naar.een.waarde.x": "waarde"});
        assert_eq!(
            table(&doc, Some(40)),
            "id  1\neen.lang.pad.naar.een.waarde.x\n    waarde\n"
        );
        // Longer than the whole width, a label (a key) stays whole on its own line.
        let doc = json!({"een.heel.lang.pad.naar.een.waarde.diep.in.het.document": "waarde"});
        assert_eq!(
            table(&doc, Some(40)),
            "een.heel.lang.pad.naar.een.waarde.diep.in.het.document\n  waarde\n"
        );
    }

    #[test]
    fn one_record_is_a_block_not_a_one_row_table() {
        let text = table(&json!([{"naam": "Test BV", "plaats": "Lollum"}]), None);
        assert_eq!(text, "  naam    Test BV\n  plaats  Lollum\n");
    }

    #[test]
    fn members_with_line_breaks_become_blocks() {
        let doc =
            json!({"leden": [{"nummer": "1", "tekst": "a\nb"}, {"nummer": "2", "tekst": "c"}]});
        let text = table(&doc, None);
        assert_eq!(
            text,
            "\nleden\n  nummer  1\n  tekst   a\n          b\n\n  nummer  2\n  tekst   c\n"
        );
    }

    /// Widths are terminal columns: a wide character takes two, a combining one none.
    #[test]
    fn widths_count_terminal_columns_not_characters() {
        // "日本" is 2 characters and 4 columns; "e\u{301}" (é, combining) 2 and 1.
        let rows = json!([
            {"naam": "日本", "nr": 1},
            {"naam": "e\u{301}", "nr": 2},
            {"naam": "abcd", "nr": 3}
        ]);
        let text = table(&rows, None);
        let columns: Vec<usize> = text
            .lines()
            .skip(1)
            .map(|line| line[..line.rfind(' ').unwrap() + 1].width())
            .collect();
        assert_eq!(columns, [6, 6, 6], "{text}");
        let doc = json!({"naam": "日本語の法律", "x": 1});
        let cut = table(&json!([doc, doc]), Some(12));
        assert!(cut.lines().all(|l| l.width() <= 12), "{cut}");
        let wrapped = table(&json!({"k": "日本語".repeat(20)}), Some(30));
        assert!(wrapped.lines().all(|l| l.width() <= 30), "{wrapped}");
        // 27 columns for the value: 13 wide characters a line, 60 in all.
        assert_eq!(wrapped.lines().count(), 5, "{wrapped}");
    }
}

//! Rendering for people: problems as text, data as width-aware tables.
//! Machines get JSON from [`crate::print::output`]; nothing here changes a byte of it.

pub(crate) mod problem_text;
pub(crate) mod table;

/// Characters from a source that could change what a terminal shows never reach it raw
/// (rules OUT-6, OUT-11): control characters (CR, ESC, …), the bidirectional controls
/// (U+202A–U+202E, U+2066–U+2069, and the marks U+200E, U+200F, U+061C) and the line and
/// paragraph separators U+2028/U+2029 are shown as an escape (`\u{202E}`). A line break is
/// kept only where the layout can show it (`keep_newlines`); a tab is a space.
pub fn printable(text: &str, keep_newlines: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' if keep_newlines => out.push('\n'),
            '\n' | '\t' => out.push(' '),
            c if c.is_control() || is_bidi_or_separator(c) => {
                out.push_str(&format!("\\u{{{:04X}}}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out
}

/// The bidirectional controls and the Unicode line and paragraph separators: never shown raw,
/// on a terminal ([`printable`]) or on the bridge's approval page.
pub fn is_bidi_or_separator(c: char) -> bool {
    matches!(
        c,
        '\u{202A}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{061C}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

/// `text` in an SGR style when colour is on.
pub(crate) fn styled(text: &str, sgr: &str, color: bool) -> String {
    if color && !text.is_empty() {
        format!("\x1b[{sgr}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn controls_bidi_and_separators_are_escaped() {
        let text = "a\u{202E}gnp.exe\u{2066}b\u{2028}c\rd\x1b[31me\nf\tg";
        assert_eq!(
            printable(text, true),
            "a\\u{202E}gnp.exe\\u{2066}b\\u{2028}c\\u{000D}d\\u{001B}[31me\nf g"
        );
        assert_eq!(printable("x\ny", false), "x y");
        assert_eq!(printable("gewoon één", false), "gewoon één");
    }
}

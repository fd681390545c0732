//! Rendering for people: problems as text, data as width-aware tables.
//! Machines get JSON from [`crate::output`]; nothing here changes a byte of it.

pub mod problem_text;
pub mod table;

/// Control characters from a source never reach a terminal (rule OUT-6);
/// a line break is kept only where the layout can show it (`keep_newlines`).
pub fn printable(text: &str, keep_newlines: bool) -> String {
    text.chars()
        .map(|c| match c {
            '\n' if keep_newlines => '\n',
            '\n' | '\t' => ' ',
            c if c.is_control() => '\u{fffd}',
            c => c,
        })
        .collect()
}

/// `text` in an SGR style when colour is on.
pub(crate) fn styled(text: &str, sgr: &str, color: bool) -> String {
    if color && !text.is_empty() {
        format!("\x1b[{sgr}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

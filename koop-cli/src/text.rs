//! Plain-text rendering of legal text: whitespace collapsed, paragraphs on their own lines, list items
//! indented three spaces per level behind their number (`a. …`), table cells separated by ` | `.
//!
//! Bounded work: indentation stops growing after [`MAX_INDENT_LEVELS`] levels (law nests lists three
//! or four deep), so one line costs at most a fixed number of bytes more than its text; and a writer
//! never grows beyond its limit ([`TextWriter::with_limit`]): it stops writing and reports
//! [`TextWriter::overflowed`], which the caller turns into an error.

/// Spaces of indentation per list level.
const INDENT: &str = "   ";

/// List levels that get their own indentation; deeper levels are indented as this one.
pub const MAX_INDENT_LEVELS: usize = 10;

/// Accumulates readable plain text from a stream of text, block and list events.
#[derive(Debug, Default)]
pub struct TextWriter {
    out: String,
    /// Nothing written on the current line yet (not even indentation).
    at_line_start: bool,
    /// The current line holds more than indentation and a number prefix.
    line_has_content: bool,
    /// Whitespace seen since the last word.
    pending_space: bool,
    /// A word boundary from markup: a space if the next word starts with a letter or digit.
    soft_space: bool,
    /// A list item without its own number is open: write `- ` before its first word.
    pending_marker: bool,
    list_depth: usize,
    cell_depth: usize,
    cells_in_row: usize,
    /// Most bytes the text may hold.
    limit: usize,
    /// Something was not written because the text would pass `limit`.
    overflowed: bool,
}

impl TextWriter {
    /// An empty writer without a limit of its own.
    pub fn new() -> Self {
        Self::with_limit(usize::MAX)
    }

    /// An empty writer whose text stays at most `limit` bytes; what would pass it is dropped and
    /// [`Self::overflowed`] becomes true.
    pub fn with_limit(limit: usize) -> Self {
        Self {
            at_line_start: true,
            limit,
            ..Self::default()
        }
    }

    /// True when text was dropped because of the limit: the text is incomplete.
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// Adds running text; runs of whitespace become one space, leading and trailing whitespace count.
    pub fn text(&mut self, text: &str) {
        let mut words = text.split(char::is_whitespace).peekable();
        if text.starts_with(char::is_whitespace) {
            self.pending_space = true;
        }
        while let Some(word) = words.next() {
            if word.is_empty() {
                continue;
            }
            self.word(word);
            if words.peek().is_some() {
                self.pending_space = true;
            }
        }
        if text.ends_with(char::is_whitespace) {
            self.pending_space = true;
        }
    }

    /// Ends the current line (a paragraph or block boundary). Inside a table cell this is a space.
    /// A line holding only indentation or a number prefix is kept open, so the first paragraph of a list
    /// item continues behind its number.
    pub fn block_break(&mut self) {
        if self.cell_depth > 0 {
            self.pending_space = true;
            return;
        }
        if self.at_line_start || !self.line_has_content {
            return;
        }
        self.end_line();
    }

    /// Marks a boundary between words coming from markup (`<voornaam>`/`<achternaam>`): a space is written
    /// only when the next word starts with a letter or digit, so `Wassenaar</plaats>, 3 februari` stays tight.
    pub fn soft_space(&mut self) {
        self.soft_space = true;
    }

    /// Starts a list (one level deeper).
    pub fn open_list(&mut self) {
        self.block_break();
        self.list_depth += 1;
    }

    /// Ends a list.
    pub fn close_list(&mut self) {
        self.block_break();
        self.list_depth = self.list_depth.saturating_sub(1);
    }

    /// Starts a list item on a new line; its number follows via [`Self::prefix`], else `- ` is used.
    pub fn open_item(&mut self) {
        self.block_break();
        self.pending_marker = true;
    }

    /// Ends a list item.
    pub fn close_item(&mut self) {
        self.pending_marker = false;
        self.block_break();
    }

    /// Writes a number such as `a.` or `1°.` at the start of the current line, followed by a space.
    pub fn prefix(&mut self, number: &str) {
        self.pending_marker = false;
        if number.is_empty() {
            return;
        }
        if self.line_has_content {
            self.block_break();
        }
        self.start_line();
        if !self.at_line_start && !self.out.ends_with(' ') {
            self.push(" ");
        }
        self.push(number);
        self.push(" ");
        self.at_line_start = false;
        self.pending_space = false;
    }

    /// Starts a table row on its own line.
    pub fn open_row(&mut self) {
        self.block_break();
        self.cells_in_row = 0;
    }

    /// Starts a table cell: cells after the first are preceded by ` | `.
    pub fn open_cell(&mut self) {
        if self.cells_in_row > 0 {
            self.start_line();
            trim_spaces(&mut self.out);
            self.push(" | ");
            self.at_line_start = false;
            self.line_has_content = true;
            self.pending_space = false;
        }
        self.cells_in_row += 1;
        self.cell_depth += 1;
    }

    /// Ends a table cell.
    pub fn close_cell(&mut self) {
        self.cell_depth = self.cell_depth.saturating_sub(1);
    }

    /// Appends an already rendered block behind a number (a lid `1.` in the article text).
    pub fn numbered_block(&mut self, number: &str, block: &str) {
        self.block_break();
        if !number.is_empty() {
            self.prefix(number);
        }
        for (i, line) in block.lines().enumerate() {
            if i > 0 {
                self.end_line();
            }
            self.start_line();
            self.push(line);
            self.at_line_start = false;
            self.line_has_content = true;
        }
        self.pending_space = false;
    }

    /// True when nothing but whitespace was written.
    pub fn is_empty(&self) -> bool {
        self.out.trim().is_empty()
    }

    /// The text, without trailing whitespace on any line and without empty lines.
    pub fn finish(mut self) -> String {
        trim_spaces(&mut self.out);
        while self.out.ends_with('\n') {
            self.out.pop();
            trim_spaces(&mut self.out);
        }
        self.out
    }

    /// The text on one line (for titles and numbers).
    pub fn finish_line(self) -> String {
        let text = self.finish();
        if text.contains('\n') {
            text.split_whitespace().collect::<Vec<_>>().join(" ")
        } else {
            text
        }
    }

    fn word(&mut self, word: &str) {
        self.start_line();
        if self.pending_marker {
            self.pending_marker = false;
            self.push("- ");
            self.at_line_start = false;
            self.pending_space = false;
        }
        let soft = self.soft_space && word.starts_with(char::is_alphanumeric);
        if (self.pending_space || soft) && !self.at_line_start && !self.out.ends_with([' ', '\n']) {
            self.push(" ");
        }
        self.soft_space = false;
        self.push(word);
        self.at_line_start = false;
        self.line_has_content = true;
        self.pending_space = false;
    }

    /// Writes the indentation when nothing is on the current line yet.
    fn start_line(&mut self) {
        if self.at_line_start {
            for _ in 0..self.list_depth.min(MAX_INDENT_LEVELS) {
                self.push(INDENT);
            }
        }
    }

    /// Appends `text` unless the text would pass the limit (then nothing more is written).
    fn push(&mut self, text: &str) {
        if self.overflowed || self.out.len().saturating_add(text.len()) > self.limit {
            self.overflowed = true;
            return;
        }
        self.out.push_str(text);
    }

    fn end_line(&mut self) {
        self.soft_space = false;
        trim_spaces(&mut self.out);
        self.push("\n");
        self.at_line_start = true;
        self.line_has_content = false;
        self.pending_space = false;
    }
}

fn trim_spaces(out: &mut String) {
    let kept = out.trim_end_matches(' ').len();
    out.truncate(kept);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_collapses_and_inline_text_joins() {
        let mut w = TextWriter::new();
        w.text("  bedoeld in\n   ");
        w.text("artikel 1");
        w.text(";  en ");
        assert_eq!(w.finish(), "bedoeld in artikel 1; en");
    }

    #[test]
    fn soft_spaces_separate_words_but_not_punctuation() {
        let mut w = TextWriter::new();
        w.text("R.A.A.");
        w.soft_space();
        w.text("Jetten");
        w.soft_space();
        w.text(", Wassenaar");
        assert_eq!(w.finish(), "R.A.A. Jetten, Wassenaar");
    }

    #[test]
    fn lists_are_indented_behind_their_numbers() {
        let mut w = TextWriter::new();
        w.text("Verstaan onder:");
        w.open_list();
        w.open_item();
        w.prefix("a.");
        w.block_break();
        w.text(" minister ");
        w.block_break();
        w.open_item();
        w.prefix("b.");
        w.text("zorg:");
        w.open_list();
        w.open_item();
        w.prefix("1°.");
        w.text("premie");
        w.close_list();
        w.close_list();
        w.block_break();
        w.text("Slot.");
        assert_eq!(
            w.finish(),
            "Verstaan onder:\n   a. minister\n   b. zorg:\n      1°. premie\nSlot."
        );
    }

    #[test]
    fn items_without_number_get_a_dash() {
        let mut w = TextWriter::new();
        w.open_list();
        w.open_item();
        w.text("eerste");
        w.open_item();
        w.prefix("");
        w.text("tweede");
        assert_eq!(
            w.finish(),
            "   - eerste\n   tweede",
            "an explicit empty number means no marker"
        );
    }

    #[test]
    fn table_cells_are_separated_and_rows_are_lines() {
        let mut w = TextWriter::new();
        for row in [["Jaar", "Bedrag"], ["2024", ""], ["2025", "€ 1.234"]] {
            w.open_row();
            for cell in row {
                w.open_cell();
                w.block_break();
                w.text(cell);
                w.block_break();
                w.close_cell();
            }
        }
        assert_eq!(w.finish(), "Jaar | Bedrag\n2024 |\n2025 | € 1.234");
    }

    #[test]
    fn indentation_stops_growing_after_the_last_indented_level() {
        let mut w = TextWriter::new();
        for _ in 0..MAX_INDENT_LEVELS + 5 {
            w.open_list();
            w.open_item();
            w.text("x");
        }
        let text = w.finish();
        let widest = text.lines().map(|l| l.len()).max().unwrap_or(0);
        assert_eq!(
            widest,
            MAX_INDENT_LEVELS * INDENT.len() + "- x".len(),
            "{text}"
        );
        assert_eq!(text.lines().count(), MAX_INDENT_LEVELS + 5);
    }

    #[test]
    fn a_limited_writer_stops_at_its_limit_and_says_so() {
        let mut w = TextWriter::with_limit(10);
        w.text("vijf ");
        assert!(!w.overflowed());
        w.text("woorden passen er niet in");
        assert!(w.overflowed());
        w.text("x");
        let text = w.finish();
        assert!(text.len() <= 10, "{text:?}");
    }

    #[test]
    fn numbered_blocks_keep_their_lines() {
        let mut w = TextWriter::new();
        w.numbered_block("1.", "Onder:\n   a. x");
        w.numbered_block("2.", "Tweede.");
        assert_eq!(w.finish(), "1. Onder:\n   a. x\n2. Tweede.");
    }
}

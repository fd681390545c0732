//! The one printer: data to stdout, everything else to stderr (rules OUT-*).
//!
//! `json` is one compact document (the default when stdout is not a
//! terminal), `pretty` is indented JSON (the default on a terminal), `table`
//! is for people: columns for lists, key/value rows for objects. A closed
//! stdout pipe (`| head`) is not an error. Nothing is written that holds a
//! secret the tool holds ([`crate::process::secrets`]).

use std::io::{self, IsTerminal, Write};

use clap::ValueEnum;
use serde_json::Value;

use crate::problem::error::{FieldError, Problem, Result};
use crate::process::secrets;

/// Whether stdout is a terminal, asked once a process: each question is a system call, and the
/// answer does not change while the process runs.
#[allow(clippy::disallowed_methods, reason = "the one place that asks")]
pub(crate) fn stdout_is_terminal() -> bool {
    static ANSWER: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ANSWER.get_or_init(|| io::stdout().is_terminal())
}

/// Whether stderr is a terminal, asked once a process (see [`stdout_is_terminal`]).
#[allow(clippy::disallowed_methods, reason = "the one place that asks")]
pub fn stderr_is_terminal() -> bool {
    static ANSWER: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ANSWER.get_or_init(|| io::stderr().is_terminal())
}

/// The process's stdout: written only here, by the printer.
#[allow(clippy::disallowed_methods, reason = "the one printer")]
fn stdout() -> io::StdoutLock<'static> {
    io::stdout().lock()
}

/// The process's stderr: written only here, by the printer.
#[allow(clippy::disallowed_methods, reason = "the one printer")]
fn stderr() -> io::StderrLock<'static> {
    io::stderr().lock()
}

/// The result of writing data to stdout as the profile counts it: a closed pipe (`| head`) is
/// delivered; any other failure is exit 74.
fn delivered(written: io::Result<()>) -> Result<(), Problem> {
    match written {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Problem::io(format!(
            "uitvoer kon niet worden geschreven: {e}"
        ))),
        _ => Ok(()),
    }
}

/// How data is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Compacte JSON, één document (alias: raw)
    #[value(alias = "raw")]
    Json,
    /// Ingesprongen JSON
    Pretty,
    /// Tabel voor mensen
    Table,
}

/// Writes data, errors and warnings to the right stream.
#[derive(Clone, Copy, Debug)]
pub struct Printer {
    pub format: OutputFormat,
    pub color: bool,
    pub quiet: bool,
    /// Problems as text for people, with colour or not: `Some` when stderr
    /// is a terminal and `--output json` was not asked for (rule ERR-1).
    pub problem_text: Option<bool>,
    /// The width tables fit: `COLUMNS`, else the terminal's ([`Printer::with_width`]).
    pub width: Option<usize>,
    /// The pager for text longer than the terminal ([`Printer::with_pager`], rule CONV-6).
    pub pager: Option<Pager>,
}

/// A pager command and the size of the terminal it pages for (rule CONV-6).
#[derive(Clone, Copy, Debug)]
pub struct Pager {
    /// The command line, split at spaces (`less -FRX`). Leaked: there is one
    /// a process, and it lives until the process ends.
    command: &'static str,
    rows: usize,
    cols: usize,
}

impl Pager {
    /// Whether `text` takes more lines on the terminal than it has rows (a
    /// line wider than the terminal counts as the lines it wraps into).
    fn needed_for(&self, text: &str) -> bool {
        let mut used = 0;
        for line in text.lines() {
            used += line.chars().count().div_ceil(self.cols).max(1);
            if used > self.rows {
                return true;
            }
        }
        false
    }

    /// Show `text` through the pager; `false` if it could not be started,
    /// and the caller prints directly. A pager that quits early (`q` in
    /// `less`) is no error.
    fn show(&self, text: &str) -> bool {
        let mut words = self.command.split_whitespace();
        let Some(program) = words.next() else {
            return false;
        };
        let Ok(mut child) = std::process::Command::new(program)
            .args(words)
            .stdin(std::process::Stdio::piped())
            .spawn()
        else {
            return false;
        };
        if let Some(mut input) = child.stdin.take() {
            let _ = input.write_all(text.as_bytes());
        }
        let _ = child.wait();
        true
    }
}

impl Printer {
    /// The printer for these options; `None` picks by terminal. `no_color`
    /// is `--no-color`, `NO_COLOR` or `TERM=dumb`, for both streams.
    pub fn new(format: Option<OutputFormat>, no_color: bool, quiet: bool) -> Self {
        let terminal = stdout_is_terminal();
        let problem_text =
            (stderr_is_terminal() && format != Some(OutputFormat::Json)).then_some(!no_color);
        let format = format.unwrap_or(if terminal {
            OutputFormat::Pretty
        } else {
            OutputFormat::Json
        });
        Self {
            format,
            color: terminal && !no_color,
            quiet,
            problem_text,
            width: None,
            pager: None,
        }
    }

    /// Long text for people on a terminal goes through a pager (rule CONV-6):
    /// `OVERHEID_PAGER`, else `PAGER`, else `less -FRX`; not with `off`
    /// (`--geen-pager`), not outside a terminal, not for `--output json`, not
    /// when the pager is `cat` or the terminal's size is unknown.
    #[must_use]
    pub fn with_pager(mut self, off: bool, env: &crate::process::env::Env) -> Self {
        if off || self.format == OutputFormat::Json || !stdout_is_terminal() {
            return self;
        }
        let command = env
            .get(crate::process::env::OVERHEID_PAGER)
            .or_else(|| env.get("PAGER"))
            .unwrap_or("less -FRX")
            .trim();
        if command.is_empty() || command == "cat" {
            return self;
        }
        self.pager = console::Term::stdout()
            .size_checked()
            .map(|(rows, cols)| Pager {
                command: Box::leak(command.into()),
                rows: usize::from(rows),
                cols: usize::from(cols),
            });
        self
    }

    /// Tables fit `columns` (the `COLUMNS` variable) if it is a number, else
    /// the width of the terminal on stdout, if it is one.
    #[must_use]
    pub fn with_width(mut self, columns: Option<&str>) -> Self {
        self.width = columns
            .and_then(|c| c.trim().parse::<usize>().ok())
            .filter(|w| *w > 0)
            .or_else(|| {
                console::Term::stdout()
                    .size_checked()
                    .map(|(_, cols)| usize::from(cols))
            });
        self
    }

    /// The printer for a problem from before the command line was parsed:
    /// `--output json` and `--no-color` as the raw words say, colour also
    /// off under `NO_COLOR` or `TERM=dumb`.
    pub fn early(args: &[std::ffi::OsString], env: &crate::process::env::Env) -> Self {
        let words: Vec<&str> = args.iter().skip(1).filter_map(|a| a.to_str()).collect();
        let json = words
            .windows(2)
            .any(|w| matches!(w[0], "--output" | "-o") && matches!(w[1], "json" | "raw"))
            || words
                .iter()
                .any(|w| matches!(*w, "--output=json" | "--output=raw" | "-ojson" | "-oraw"));
        let no_color = words.contains(&"--no-color")
            || env.get("NO_COLOR").is_some()
            || env.get("TERM") == Some("dumb");
        Self::new(json.then_some(OutputFormat::Json), no_color, false)
            .with_pager(words.contains(&"--geen-pager"), env)
    }

    /// A problem on stderr: text for people on a terminal, else the one
    /// JSON object of rule ERR-1. Both come from [`Problem::to_json`], so
    /// both are scrubbed of held secrets and capped.
    pub fn problem(&self, problem: &Problem, trace_id: &str) {
        let json = problem.to_json(trace_id);
        match self.problem_text {
            Some(color) => {
                let text = crate::print::render::problem_text::render(&json, color);
                let _ = stderr().write_all(text.as_bytes());
            }
            None => self.stderr_json(&json),
        }
    }

    /// Render data in the chosen format (with a trailing newline), without
    /// any secret the tool holds (rule SEC-2).
    pub fn render(&self, value: &Value) -> String {
        let value = secrets::scrubbed(value);
        let value = value.as_ref();
        let mut text = match self.format {
            OutputFormat::Json => value.to_string(),
            OutputFormat::Pretty => {
                serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
            }
            OutputFormat::Table => crate::print::render::table::render(
                value,
                crate::print::render::table::Layout {
                    width: self.width,
                    color: self.color,
                },
            ),
        };
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text
    }

    /// The lines a filter (`--jq`) makes of `document`, as they may go to stdout. The filter
    /// sees the document without held secrets (one that reshapes a secret, reversed or cut up,
    /// would otherwise pass it by the scrub of its output), and its output is scrubbed too.
    pub fn filtered(
        &self,
        document: &Value,
        filter: impl FnOnce(&Value) -> Result<String, Problem>,
    ) -> Result<String, Problem> {
        let document = secrets::scrubbed(document);
        let text = filter(document.as_ref())?;
        Ok(self.for_stdout(text))
    }

    /// Text that is not a rendered document (`--jq`'s lines) as it may go
    /// to stdout: without held secrets, and on a terminal without control
    /// characters other than line breaks (rule OUT-6).
    fn for_stdout(&self, text: String) -> String {
        let text = secrets::scrub(&text).into_owned();
        if stdout_is_terminal() {
            crate::print::render::printable(&text, true)
        } else {
            text
        }
    }

    /// Write rendered data to stdout, through the pager if it is longer than
    /// the terminal (rule CONV-6). A closed pipe counts as success.
    pub fn stdout(&self, text: &str) -> Result<(), Problem> {
        if let Some(pager) = &self.pager
            && pager.needed_for(text)
            && pager.show(text)
        {
            return Ok(());
        }
        let mut out = stdout();
        delivered(out.write_all(text.as_bytes()).and_then(|()| out.flush()))
    }

    /// Copy text rendered already (spooled JSON Lines, secrets masked when they were rendered)
    /// to stdout. Never paged: lines are spooled only when stdout is not a terminal. A closed
    /// pipe counts as success.
    pub(crate) fn stdout_copy(&self, mut file: impl io::Read) -> Result<(), Problem> {
        let mut out = stdout();
        delivered(io::copy(&mut file, &mut out).and_then(|_| out.flush()))
    }

    /// Write one JSON object as one line on stderr, without held secrets.
    pub fn stderr_json(&self, value: &Value) {
        let value = secrets::scrubbed(value);
        let _ = writeln!(stderr(), "{value}");
    }

    /// A plain line for people on stderr (a closing summary), unless `--quiet`.
    pub fn note(&self, line: &str) {
        if !self.quiet {
            let line = secrets::scrub(line);
            let _ = writeln!(
                stderr(),
                "{}",
                crate::print::render::printable(&line, false)
            );
        }
    }

    /// A warning for people on stderr, unless `--quiet`.
    pub fn warn(&self, message: &str) {
        if !self.quiet {
            let _ = writeln!(stderr(), "{}", warning_line(message));
        }
    }

    /// Text for people on stderr as it is (the bare tool's help, ERR-11).
    pub fn stderr_text(&self, text: &str) {
        let _ = stderr().write_all(text.as_bytes());
    }
}

/// The error object, made where it is printed: held secrets are masked at this sink, before
/// any text is capped (ERR-13), so `error` itself knows nothing of secrets.
impl Problem {
    /// The error object as printed on stderr (rule ERR-1). Texts that may echo
    /// input or an upstream are scrubbed of held secrets and capped, so a huge
    /// argument cannot make a huge error.
    pub fn to_json(&self, trace_id: &str) -> serde_json::Value {
        let mut obj = serde_json::Map::new();
        obj.insert(
            "type".into(),
            format!("urn:overheid-cli:problem:{}", self.code).into(),
        );
        obj.insert("title".into(), self.title.as_ref().into());
        if let Some(status) = self.status {
            obj.insert("status".into(), status.into());
        }
        obj.insert("detail".into(), capped(&self.detail).into());
        obj.insert("code".into(), self.code.name.into());
        obj.insert("exit_code".into(), self.exit.code().into());
        obj.insert("instance".into(), format!("urn:trace:{trace_id}").into());
        if !self.errors.is_empty() {
            let errors: Vec<FieldError> = self
                .errors
                .iter()
                .map(|e| FieldError {
                    pointer: capped(&e.pointer),
                    detail: capped(&e.detail),
                })
                .collect();
            obj.insert(
                "errors".into(),
                serde_json::to_value(errors).unwrap_or_default(),
            );
        }
        if let Some(secs) = self.retry_after {
            obj.insert("retry_after".into(), secs.into());
        }
        if let Some(hint) = &self.hint {
            obj.insert("hint".into(), capped(hint).into());
        }
        let mut json = obj.into();
        secrets::scrub_value(&mut json);
        json
    }
}

/// The longest text an error object repeats, in characters.
const MAX_TEXT: usize = 1000;

/// `text` without held secrets (rule ERR-13), cut at [`MAX_TEXT`] characters
/// with an ellipsis. Scrubbing comes first, so a cut never leaves part of a
/// secret behind.
fn capped(text: &str) -> String {
    let text = secrets::scrub(text);
    let text = text.as_ref();
    match text.char_indices().nth(MAX_TEXT) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// A warning as one line: it may quote an upstream, whose line break or control character must
/// not start a line of its own (nor, over MCP, a log message of its own); held secrets masked.
fn warning_line(message: &str) -> String {
    let message = secrets::scrub(message);
    format!(
        "waarschuwing: {}",
        crate::print::render::printable(&message, false)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn printer(format: OutputFormat) -> Printer {
        Printer {
            format,
            color: false,
            quiet: false,
            problem_text: None,
            width: None,
            pager: None,
        }
    }

    #[test]
    fn a_warning_is_one_line_whatever_an_upstream_put_in_it() {
        let line = warning_line("de bron meldt: fout\nwaarschuwing: niets\r\x1b[2J");
        assert_eq!(line.lines().count(), 1, "{line:?}");
        assert!(!line.contains('\r') && !line.contains('\x1b'), "{line:?}");
        assert!(line.starts_with("waarschuwing: de bron meldt: fout waarschuwing: niets"));
    }

    #[test]
    fn the_pager_is_needed_only_for_more_lines_than_the_terminal_has() {
        let pager = Pager {
            command: "less",
            rows: 3,
            cols: 10,
        };
        assert!(!pager.needed_for("a\nb\nc\n"));
        assert!(pager.needed_for("a\nb\nc\nd\n"));
        // A line wider than the terminal wraps: 25 characters take 3 rows.
        assert!(!pager.needed_for(&"x".repeat(25)));
        assert!(pager.needed_for(&format!("{}\ny", "x".repeat(25))));
    }

    #[test]
    fn json_is_one_compact_line() {
        let text = printer(OutputFormat::Json).render(&json!({"a": [1, 2]}));
        assert_eq!(text, "{\"a\":[1,2]}\n");
    }

    #[test]
    fn table_prints_false_and_lists() {
        let text = printer(OutputFormat::Table).render(&json!({
            "naam": "X", "actief": false, "adres": {"plaats": "Lollum"},
            "resultaten": [{"a": 1, "b": true}, {"a": 22}]
        }));
        assert!(text.contains("actief        false"), "{text}");
        assert!(text.contains("adres.plaats  Lollum"), "{text}");
        assert!(text.contains("a   b\n1   true\n22\n"), "{text}");
        assert!(!text.contains('\x1b'));
    }

    #[test]
    fn table_cells_carry_no_control_characters() {
        let text = printer(OutputFormat::Table).render(&json!({"naam": "a\u{1b}[31mb\nc"}));
        assert!(!text.contains('\u{1b}'), "{text:?}");
        // A line break is a line break, not U+FFFD (issue 13.4).
        assert!(
            text.starts_with("naam  a\\u{001B}[31mb\n      c"),
            "{text:?}"
        );
    }

    #[test]
    fn table_of_empty_list() {
        assert_eq!(
            printer(OutputFormat::Table).render(&json!([])),
            "(geen resultaten)\n"
        );
    }

    #[test]
    fn invalid_lists_every_error() {
        let err = Problem::invalid(vec![
            FieldError::new("postcode", "postcode ongeldig"),
            FieldError::new("huisnummer", "huisnummer ongeldig"),
        ]);
        let json = err.to_json(&"0".repeat(32));
        assert_eq!(json["exit_code"], 65);
        assert_eq!(json["errors"].as_array().unwrap().len(), 2);
        assert_eq!(json["errors"][1]["pointer"], "/huisnummer");
        assert_eq!(json["type"], "urn:overheid-cli:problem:ONGELDIGE_INVOER");
    }

    #[test]
    fn echoed_input_is_capped() {
        let huge = "x".repeat(120_000);
        let err = Problem::invalid(vec![FieldError::new(
            "naam",
            format!("naam {huge} te lang"),
        )]);
        let json = err.to_json("ab").to_string();
        assert!(json.len() < 5_000, "{}", json.len());
        assert!(json.contains('…'));
    }

    #[test]
    fn optional_members_are_absent_when_unset() {
        let json = Problem::not_found("x").to_json("ab");
        assert!(json.get("status").is_none());
        assert!(json.get("retry_after").is_none());
        assert_eq!(json["instance"], "urn:trace:ab");
    }
}

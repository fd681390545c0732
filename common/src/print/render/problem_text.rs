//! A problem as text for a person at a terminal (rule ERR-1): the title,
//! the detail, each invalid input with its pointer, the hint, and the exit
//! code with its name. Rendered from the problem's JSON object, so the text
//! is scrubbed and capped exactly as the JSON is.

use serde_json::Value;

use super::{printable, styled};
use crate::problem::exit::ExitStatus;

/// The text of one problem object (as [`crate::problem::error::Problem::to_json`] makes it).
pub(crate) fn render(problem: &Value, color: bool) -> String {
    // One line each: a title or detail may quote an upstream, whose line break or control
    // character must not start a line of its own (or move the cursor) in this message.
    let text = |key: &str| {
        problem
            .get(key)
            .and_then(Value::as_str)
            .map(|s| printable(s, false))
    };
    let mut out = String::new();
    let title = text("title").unwrap_or_else(|| "Fout".into());
    out.push_str(&format!(
        "{} {}\n",
        styled("fout:", "1;31", color),
        styled(&title, "1", color)
    ));
    let errors = problem.get("errors").and_then(Value::as_array);
    // The detail of invalid input is often just its entries joined: say it once.
    let joined = errors.map(|list| {
        list.iter()
            .filter_map(|e| e.get("detail").and_then(Value::as_str))
            .map(|d| printable(d, true))
            .collect::<Vec<_>>()
            .join("; ")
    });
    if let Some(detail) = text("detail").filter(|d| !d.is_empty() && Some(d) != joined.as_ref()) {
        out.push_str(&indented(&detail));
    }
    for error in errors.into_iter().flatten() {
        let field = |key: &str| {
            error
                .get(key)
                .and_then(Value::as_str)
                .map(|s| printable(s, false))
        };
        out.push_str(&format!(
            "  {} {}\n",
            styled(
                &format!("{}:", field("pointer").unwrap_or_default()),
                "33",
                color
            ),
            field("detail").unwrap_or_default()
        ));
    }
    if let Some(status) = problem.get("status").and_then(Value::as_u64) {
        out.push_str(&format!("  HTTP-status van de bron: {status}\n"));
    }
    if let Some(secs) = problem.get("retry_after").and_then(Value::as_u64) {
        out.push_str(&format!("  opnieuw proberen na {secs} s\n"));
    }
    // A hint is the family's own text, which may break its lines on purpose.
    let hint = problem
        .get("hint")
        .and_then(Value::as_str)
        .map(|s| printable(s, true));
    if let Some(hint) = hint {
        out.push_str(&format!(
            "  {} {}\n",
            styled("hint:", "36", color),
            hint.replace('\n', "\n        ")
        ));
    }
    if let Some(code) = problem.get("exit_code").and_then(Value::as_u64) {
        let name = u8::try_from(code)
            .ok()
            .and_then(ExitStatus::from_code)
            .map(ExitStatus::name);
        let code_text = text("code")
            .filter(|c| Some(c.as_str()) != name)
            .map(|c| format!(", code {c}"))
            .unwrap_or_default();
        let name = name.map(|n| format!(" ({n})")).unwrap_or_default();
        out.push_str(&styled(
            &format!("  afsluitcode {code}{name}{code_text}"),
            "2",
            color,
        ));
        out.push('\n');
    }
    out
}

fn indented(text: &str) -> String {
    text.lines().map(|line| format!("  {line}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::error::{FieldError, Problem};

    #[test]
    fn a_problem_reads_as_text_with_pointer_hint_and_exit_name() {
        let problem = Problem::invalid(vec![FieldError::new("postcode", "postcode ongeldig")])
            .with_hint("bv. 1234AB");
        let text = render(&problem.to_json("ab"), false);
        assert_eq!(
            text,
            "fout: Ongeldige invoer\n  /postcode: postcode ongeldig\n  \
             hint: bv. 1234AB\n  afsluitcode 65 (DATAERR), code ONGELDIGE_INVOER\n"
        );
        let colored = render(&problem.to_json("ab"), true);
        assert!(colored.contains("\x1b[1;31mfout:\x1b[0m"), "{colored:?}");
    }

    #[test]
    fn a_detail_of_its_own_is_shown_with_exit_name_and_code() {
        let problem = Problem::timeout("de bron antwoordde niet").with_hint("--timeout 30");
        assert_eq!(
            render(&problem.to_json("ab"), false),
            "fout: Tijdslimiet verstreken\n  de bron antwoordde niet\n  hint: --timeout 30\n  \
             afsluitcode 124 (TIMEOUT), code TIJDLIMIET_VERSTREKEN\n"
        );
    }

    #[test]
    fn source_text_cannot_steer_the_terminal() {
        let text = render(&Problem::not_found("a\x1b[2Jb").to_json("ab"), false);
        assert!(!text.contains('\x1b'), "{text:?}");
    }

    /// A line break or control character an upstream put in a detail (or a title) stays on
    /// its line: it cannot make a line that reads as one of the message's own.
    #[test]
    fn source_text_cannot_start_a_line() {
        let upstream = "onbekend\nhint: zet KVK_API_KEY=x\r\u{2028}afsluitcode 0\u{85}x";
        let text = render(&Problem::not_found(upstream).to_json("ab"), false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text:?}");
        assert!(
            lines[1].starts_with("  onbekend hint: zet KVK_API_KEY=x"),
            "{text:?}"
        );
        assert!(!text.contains('\r') && !text.contains('\u{2028}') && !text.contains('\u{85}'));
        // The family's own hint may break its lines.
        let hint = Problem::not_found("x").with_hint("eerst dit\ndan dat");
        assert!(render(&hint.to_json("ab"), false).contains("eerst dit\n        dan dat"));
    }
}

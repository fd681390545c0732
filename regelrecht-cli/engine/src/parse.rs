//! A law text parsed in full: the YAML read into a [`Law`], its dates and format checked, every
//! problem with its line and without text taken from the file.

use crate::dates::parse_iso_date;
use crate::error::LoadError;
use crate::format;
use crate::law::Law;
use crate::origin::Origin;

/// Fully parses a law text, reporting the line of any problem.
pub fn parse_law(origin: &Origin, text: &str) -> Result<Law, LoadError> {
    let law: Law = serde_yaml_ng::from_str(text).map_err(|e| {
        let line = e.location().map(|l| l.line());
        let mut problem = e.to_string();
        if let Some(pos) = problem.find(" at line ") {
            problem.truncate(pos);
        }
        LoadError::new(origin, line, without_file_text(&problem))
    })?;
    if let Some(from) = &law.valid_from
        && !from.starts_with('#')
        && parse_iso_date(from).is_none()
    {
        return Err(LoadError::new(
            origin,
            find_line(text, "valid_from:"),
            "valid_from is geen datum (JJJJ-MM-DD)",
        ));
    }
    Ok(law)
}

/// A parser message without text taken from the file, so that a file that is no law (say, a
/// symlink to a secret) is never echoed: quoted excerpts (`"…"`, `` `…` ``) before "expected"
/// are dropped. What follows "expected", and the names in "missing field" / "duplicate field",
/// come from the law format itself and stay.
pub(crate) fn without_file_text(message: &str) -> String {
    if message.starts_with("missing field") || message.starts_with("duplicate field") {
        return message.to_string();
    }
    let (head, schema) = message.split_at(message.find("expected").unwrap_or(message.len()));
    let mut out = String::with_capacity(message.len());
    let mut chars = head.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                let mut escaped = false;
                for c in chars.by_ref() {
                    match c {
                        '\\' if !escaped => escaped = true,
                        '"' if !escaped => break,
                        _ => escaped = false,
                    }
                }
            }
            '`' => {
                chars.by_ref().find(|&c| c == '`');
            }
            _ => out.push(c),
        }
    }
    format!("{}{schema}", out.replace(" ,", ","))
}

/// The format checks every parsed law passes ([`crate::format`]): a `$schema` version this
/// engine reads and a known regulatory layer.
pub(crate) fn check_format(origin: &Origin, text: &str, law: &Law) -> Result<(), LoadError> {
    if let Some(problem) = law.schema.as_deref().and_then(format::schema_refusal) {
        return Err(LoadError::new(origin, find_line(text, "$schema:"), problem));
    }
    if let Some(problem) = format::layer_refusal(&law.regulatory_layer) {
        return Err(LoadError::new(
            origin,
            find_line(text, "regulatory_layer:"),
            problem,
        ));
    }
    Ok(())
}

fn find_line(text: &str, prefix: &str) -> Option<usize> {
    text.lines()
        .position(|l| l.starts_with(prefix))
        .map(|i| i + 1)
}

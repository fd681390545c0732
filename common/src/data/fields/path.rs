//! The path grammar of `--fields`: a dotted path with `[n]` and `[]` (`a.b[0].c`,
//! `list[].x`), and the normalized paths a JSONPath query yields (`$['a'][0]['b\'c']`).

/// One step of a path through a JSON document.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Step {
    Key(String),
    Index(usize),
    /// Every element of an array (only in a selection, never concrete).
    AllItems,
}

/// Parse `a.b[0].c` / `list[].x`.
pub(super) fn parse_path(raw: &str) -> Option<Vec<Step>> {
    let mut steps = Vec::new();
    for part in raw.split('.') {
        let (name, mut rest) = match part.find('[') {
            Some(i) => part.split_at(i),
            None => (part, ""),
        };
        let valid_name = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '$' | '@'));
        if !valid_name {
            return None;
        }
        steps.push(Step::Key(name.to_string()));
        while !rest.is_empty() {
            let close = rest.find(']')?;
            let inner = rest.get(1..close)?;
            if !rest.starts_with('[') {
                return None;
            }
            steps.push(if inner.is_empty() {
                Step::AllItems
            } else {
                Step::Index(inner.parse().ok()?)
            });
            rest = &rest[close + 1..];
        }
    }
    Some(steps)
}

/// Parse a normalized path like `$['a'][0]['b\'c']`.
pub(super) fn parse_normalized_path(path: &str) -> Option<Vec<Step>> {
    let mut rest = path.strip_prefix('$')?;
    let mut steps = Vec::new();
    while let Some(after) = rest.strip_prefix('[') {
        if let Some(quoted) = after.strip_prefix('\'') {
            let mut name = String::new();
            let mut chars = quoted.char_indices();
            let end = loop {
                let (i, c) = chars.next()?;
                match c {
                    '\\' => name.push(chars.next()?.1),
                    '\'' => break i,
                    c => name.push(c),
                }
            };
            steps.push(Step::Key(name));
            rest = quoted[end + 1..].strip_prefix(']')?;
        } else {
            let close = after.find(']')?;
            steps.push(Step::Index(after[..close].parse().ok()?));
            rest = &after[close + 1..];
        }
    }
    rest.is_empty().then_some(steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalized_paths_parse_with_escapes() {
        assert_eq!(
            parse_normalized_path(r"$['a'][3]['b\'c']"),
            Some(vec![
                Step::Key("a".into()),
                Step::Index(3),
                Step::Key("b'c".into())
            ])
        );
    }
}

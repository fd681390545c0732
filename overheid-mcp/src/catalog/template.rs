//! RFC 6570 level-1 URI templates (`koop://regeling/{bwb_id}`): matching a URI back to its variables.
//!
//! Level 1 expands a variable with every character outside the unreserved set
//! percent-encoded, so a value never contains `/`, `?` or `#`; matching takes each
//! variable up to the next literal and percent-decodes it.

/// One parsed template.
#[derive(Clone, Debug)]
pub(crate) struct UriTemplate {
    parts: Vec<Part>,
}

#[derive(Clone, Debug, PartialEq)]
enum Part {
    Literal(String),
    Variable(String),
}

impl UriTemplate {
    /// Parse a level-1 template; `None` for operators (`{+x}`, `{?x}`), nesting or unbalanced braces.
    pub(crate) fn parse(template: &str) -> Option<Self> {
        let mut parts = Vec::new();
        let mut rest = template;
        while !rest.is_empty() {
            match rest.find('{') {
                Some(0) => {
                    let end = rest.find('}')?;
                    let name = &rest[1..end];
                    let simple = !name.is_empty()
                        && name
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.');
                    if !simple {
                        return None;
                    }
                    if matches!(parts.last(), Some(Part::Variable(_))) {
                        return None; // two adjacent variables cannot be told apart
                    }
                    parts.push(Part::Variable(name.to_string()));
                    rest = &rest[end + 1..];
                }
                Some(start) => {
                    parts.push(Part::Literal(rest[..start].to_string()));
                    rest = &rest[start..];
                }
                None => {
                    if rest.contains('}') {
                        return None;
                    }
                    parts.push(Part::Literal(rest.to_string()));
                    rest = "";
                }
            }
            if matches!(parts.last(), Some(Part::Literal(l)) if l.contains('}')) {
                return None;
            }
        }
        Some(Self { parts })
    }

    /// The variable names, in template order.
    pub(crate) fn variables(&self) -> Vec<&str> {
        self.parts
            .iter()
            .filter_map(|part| match part {
                Part::Variable(name) => Some(name.as_str()),
                Part::Literal(_) => None,
            })
            .collect()
    }

    /// The variables of `uri` if it is an expansion of this template.
    pub(crate) fn match_uri(&self, uri: &str) -> Option<Vec<(String, String)>> {
        let mut rest = uri;
        let mut values = Vec::new();
        for (index, part) in self.parts.iter().enumerate() {
            match part {
                Part::Literal(literal) => rest = rest.strip_prefix(literal.as_str())?,
                Part::Variable(name) => {
                    let end = match self.parts.get(index + 1) {
                        Some(Part::Literal(next)) => rest.find(next.as_str())?,
                        _ => rest.len(),
                    };
                    let raw = &rest[..end];
                    if raw.is_empty() || raw.contains(['/', '?', '#']) {
                        return None;
                    }
                    values.push((name.clone(), percent_decode(raw)?));
                    rest = &rest[end..];
                }
            }
        }
        rest.is_empty().then_some(values)
    }
}

/// Decode `%XX` escapes; `None` for a broken escape or bytes that are not UTF-8.
pub(crate) fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(values: &[(&str, &str)]) -> Vec<(String, String)> {
        values
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn matches_variables_between_literals() {
        let template = UriTemplate::parse("koop://regeling/{bwb_id}/artikel/{artikel}").unwrap();
        assert_eq!(template.variables(), ["bwb_id", "artikel"]);
        assert_eq!(
            template.match_uri("koop://regeling/BWBR0018451/artikel/5.15"),
            Some(pairs(&[("bwb_id", "BWBR0018451"), ("artikel", "5.15")]))
        );
        assert_eq!(
            template.match_uri("koop://regeling/a%20b/artikel/x"),
            Some(pairs(&[("bwb_id", "a b"), ("artikel", "x")]))
        );
    }

    #[test]
    fn rejects_uris_of_another_shape() {
        let template = UriTemplate::parse("koop://regeling/{bwb_id}").unwrap();
        assert_eq!(template.match_uri("koop://regeling/"), None);
        assert_eq!(template.match_uri("koop://regeling/a/b"), None);
        assert_eq!(template.match_uri("kvk://regeling/a"), None);
        assert_eq!(template.match_uri("koop://regeling/%zz"), None);
    }

    #[test]
    fn refuses_templates_beyond_level_one() {
        for bad in ["x://{+a}", "x://{a}{b}", "x://{a", "x://a}", "x://{}"] {
            assert!(UriTemplate::parse(bad).is_none(), "{bad}");
        }
    }
}

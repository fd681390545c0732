//! `NAAM=WAARDE` on the command line (`evalueer --param`, `concept --opgave`): one home for
//! how such a text is split and when it is refused. What the value means (its type, Dutch
//! number notation) is decided by the command that uses it.

use common::validate::Validation;

/// How the name before the `=` is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Name {
    /// Without surrounding white space; a name that is only white space is refused
    /// (`evalueer --param`, whose published pattern allows white space around the name).
    Trimmed,
    /// Exactly as given; only an empty name is refused (`concept --opgave`: its published
    /// pattern is what is accepted, DISC-22).
    AsGiven,
}

/// The `NAAM=WAARDE` pairs of the repeated option `--<option>` (split at the first `=`; the
/// value as given). A text without `=` or without a name is an input error at `/<option>`
/// (exit 65); every bad text is reported, not only the first.
pub(crate) fn name_value_pairs(
    texts: &[String],
    option: &str,
    name: Name,
    validation: &mut Validation,
) -> Vec<(String, String)> {
    let mut out = Vec::with_capacity(texts.len());
    for text in texts {
        let split = text.split_once('=').map(|(n, v)| match name {
            Name::Trimmed => (n.trim(), v),
            Name::AsGiven => (n, v),
        });
        match split {
            Some((n, value)) if !n.is_empty() => out.push((n.to_string(), value.to_string())),
            _ => validation.push(option, format!("--{option} {text:?}: verwacht NAAM=WAARDE")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(texts: &[&str], name: Name) -> (Vec<(String, String)>, Option<common::Problem>) {
        let texts: Vec<String> = texts.iter().map(|t| t.to_string()).collect();
        let mut validation = Validation::new();
        let pairs = name_value_pairs(&texts, "param", name, &mut validation);
        let problem = validation.finish().err();
        (pairs, problem)
    }

    fn pair(n: &str, v: &str) -> (String, String) {
        (n.to_string(), v.to_string())
    }

    #[test]
    fn splits_at_the_first_equals_sign_and_keeps_the_value_as_given() {
        let (pairs, problem) = split(&[" a =1", "b==2", "c= 3 "], Name::Trimmed);
        assert!(problem.is_none());
        assert_eq!(pairs, [pair("a", "1"), pair("b", "=2"), pair("c", " 3 ")]);
        let (pairs, problem) = split(&[" a =1"], Name::AsGiven);
        assert!(problem.is_none());
        assert_eq!(pairs, [pair(" a ", "1")]);
    }

    #[test]
    fn every_text_without_a_name_or_equals_sign_is_an_input_error() {
        let (_, problem) = split(&["=1", "  =1", "zonder-is", "goed=1"], Name::Trimmed);
        let problem = problem.expect("refused");
        assert_eq!(problem.exit.code(), 65);
        assert_eq!(problem.errors.len(), 3);
        assert!(problem.errors.iter().all(|e| e.pointer == "/param"));
        // As given, white space is a name (the published pattern decides, DISC-22).
        let (pairs, problem) = split(&["=1", "  =1"], Name::AsGiven);
        assert_eq!(problem.expect("refused").errors.len(), 1);
        assert_eq!(pairs, [pair("  ", "1")]);
    }
}

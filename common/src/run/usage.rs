//! A clap usage error as the profile's problem object: exit 2, a Dutch detail
//! naming the argument and value, and a hint (rules ERR-*, EXIT-2).

use crate::problem::error::Problem;
use clap::Command;
use clap::error::{ContextKind, ContextValue, ErrorKind};

/// The closest valid word clap found (a command, a flag, a value), or for an unknown flag near
/// the profile's `--json`, that one (clap does not know it). Only the visible vocabulary is
/// offered (a retired spelling kept as a hidden alias becomes the word it stands for), and never
/// the word that was typed.
fn suggestion(err: &clap::Error, arg: &str, cmd: &Command) -> Option<String> {
    let typed = arg.split(['=', ' ']).next().unwrap_or(arg);
    let clap_says = [
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedArg,
        ContextKind::SuggestedValue,
    ]
    .into_iter()
    .find_map(|kind| match err.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        ContextValue::Strings(list) => list.first().cloned(),
        _ => None,
    })
    .and_then(|word| visible(&word, cmd));
    clap_says
        .or_else(|| {
            (err.kind() == ErrorKind::UnknownArgument && typed.starts_with("--"))
                .then(|| crate::data::suggest::closest(typed, &["--json"]))
                .flatten()
                .map(str::to_string)
        })
        .filter(|word| {
            let typed_word = context_text(err, ContextKind::InvalidSubcommand);
            word != typed && typed_word.as_deref() != Some(word.as_str())
        })
}

/// `word` as the visible vocabulary of `cmd`'s tree says it: a command's name or visible alias,
/// a hidden alias replaced by its command's name, a visible option (`--x`); a hidden option
/// (a retired spelling) is `None`. A word the tree does not hold (a value) is kept.
fn visible(word: &str, cmd: &Command) -> Option<String> {
    fn walk<'c>(cmd: &'c Command, out: &mut Vec<&'c Command>) {
        out.push(cmd);
        for sub in cmd.get_subcommands() {
            walk(sub, out);
        }
    }
    let mut tree = Vec::new();
    walk(cmd, &mut tree);
    if let Some(long) = word.strip_prefix("--") {
        let arg = tree.iter().flat_map(|c| c.get_arguments()).find(|a| {
            a.get_long() == Some(long) || a.get_all_aliases().is_some_and(|all| all.contains(&long))
        });
        return match arg {
            Some(arg) if arg.is_hide_set() => None,
            Some(arg) if arg.get_long() == Some(long) => Some(word.to_string()),
            Some(arg) => arg.get_long().map(|l| format!("--{l}")),
            None => Some(word.to_string()),
        };
    }
    let sub = tree
        .iter()
        .flat_map(|c| c.get_subcommands())
        .find(|s| s.get_name() == word || s.get_all_aliases().any(|alias| alias == word));
    match sub {
        Some(sub) if sub.is_hide_set() => None,
        Some(sub) if sub.get_name() == word || sub.get_visible_aliases().any(|a| a == word) => {
            Some(word.to_string())
        }
        Some(sub) => Some(sub.get_name().to_string()),
        None => Some(word.to_string()),
    }
}

fn context_text(err: &clap::Error, kind: ContextKind) -> Option<String> {
    match err.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        ContextValue::Strings(list) => Some(list.join(", ")),
        other => Some(other.to_string()),
    }
}

/// For a bare word given to a command that takes none (`kvk-cli zoek Donald`): the same word
/// after the command's first option that takes a value (`--naam Donald`), since that is what
/// a person most often meant, unless that option was given. `words` is argv without the program.
fn bare_word(err: &clap::Error, arg: &str, cmd: &Command, words: &[&str]) -> Option<String> {
    if err.kind() != ErrorKind::UnknownArgument || arg.is_empty() || arg.starts_with('-') {
        return None;
    }
    let (_, node) = crate::run::discovery::command_at(cmd, words);
    if node.get_arguments().any(clap::Arg::is_positional) {
        return None;
    }
    let option = crate::run::discovery::command_args(node)
        .find(|a| !a.is_positional() && a.get_action().takes_values())?
        .get_long()?;
    let given = format!("--{option}");
    if words
        .iter()
        .any(|w| *w == given || w.starts_with(&format!("{given}=")))
    {
        return None;
    }
    let quoted = if arg.contains(' ') {
        format!("\"{arg}\"")
    } else {
        arg.to_string()
    };
    Some(format!("--{option} {quoted}"))
}

/// A clap usage error as a profile problem (exit 2), in Dutch, with a hint
/// that names the valid values when clap knows them. `cmd` is the tree that was parsed, `words`
/// argv without the program.
pub(crate) fn usage_problem(err: &clap::Error, cmd: &Command, words: &[&str]) -> Problem {
    let arg = context_text(err, ContextKind::InvalidArg).unwrap_or_default();
    let value = context_text(err, ContextKind::InvalidValue).unwrap_or_default();
    let detail = match err.kind() {
        ErrorKind::UnknownArgument => format!("onbekende optie of argument: {arg}"),
        ErrorKind::InvalidSubcommand => format!(
            "onbekend commando: {}",
            context_text(err, ContextKind::InvalidSubcommand).unwrap_or_default()
        ),
        ErrorKind::MissingRequiredArgument => format!("verplicht argument ontbreekt: {arg}"),
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            "commando ontbreekt".to_string()
        }
        ErrorKind::InvalidValue if value.is_empty() => format!("lege waarde voor {arg}"),
        ErrorKind::InvalidValue => format!("ongeldige waarde {value:?} voor {arg}"),
        ErrorKind::ArgumentConflict => {
            format!("{arg} is meer dan eens of samen met een andere optie gegeven")
        }
        ErrorKind::TooManyValues => format!("te veel waarden voor {arg}"),
        ErrorKind::WrongNumberOfValues | ErrorKind::TooFewValues => {
            format!("verkeerd aantal waarden voor {arg}")
        }
        ErrorKind::ValueValidation => format!("ongeldige waarde {value:?} voor {arg}"),
        _ => "ongeldige aanroep".to_string(),
    };
    let mut hint = String::from("zie --help of --help --json");
    if err.kind() == ErrorKind::UnknownArgument && arg == "--json" {
        hint = "--json hoort bij --help (--help --json beschrijft het programma); \
                JSON-uitvoer is de standaard, of kies met --output json"
            .to_string();
    } else if let Some(suggestion) = suggestion(err, &arg, cmd) {
        hint = format!(
            "{}; {hint}",
            crate::data::suggest::did_you_mean(&suggestion)
        );
    } else if let Some(option) = bare_word(err, &arg, cmd, words) {
        hint = format!(
            "een waarde hoort bij een optie: {}; {hint}",
            crate::data::suggest::did_you_mean(&option)
        );
    } else if let Some(valid) =
        context_text(err, ContextKind::ValidValue).filter(|v| !v.trim().is_empty())
    {
        hint = format!("geldige waarden: {valid}; {hint}");
    }
    Problem::usage(detail).with_hint(hint)
}

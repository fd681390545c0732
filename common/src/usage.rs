//! A clap usage error as the profile's problem object: exit 2, a Dutch detail
//! naming the argument and value, and a hint (rules ERR-*, EXIT-2).

use crate::error::Problem;
use clap::error::{ContextKind, ContextValue, ErrorKind};

/// The closest valid word clap found (a command, a flag, a value), or for
/// an unknown flag near the profile's `--json`, that one (clap does not know it).
fn suggestion(err: &clap::Error, arg: &str) -> Option<String> {
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
    });
    clap_says.or_else(|| {
        let flag = arg.split(['=', ' ']).next().unwrap_or(arg);
        (err.kind() == ErrorKind::UnknownArgument && flag.starts_with("--"))
            .then(|| crate::suggest::closest(flag, &["--json"]))
            .flatten()
            .map(str::to_string)
    })
}

fn context_text(err: &clap::Error, kind: ContextKind) -> Option<String> {
    match err.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        ContextValue::Strings(list) => Some(list.join(", ")),
        other => Some(other.to_string()),
    }
}

/// A clap usage error as a profile problem (exit 2), in Dutch, with a hint
/// that names the valid values when clap knows them.
pub fn usage_problem(err: &clap::Error) -> Problem {
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
    if let Some(suggestion) = suggestion(err, &arg) {
        hint = format!("{}; {hint}", crate::suggest::did_you_mean(&suggestion));
    } else if let Some(valid) =
        context_text(err, ContextKind::ValidValue).filter(|v| !v.trim().is_empty())
    {
        hint = format!("geldige waarden: {valid}; {hint}");
    }
    Problem::usage(detail).with_hint(hint)
}

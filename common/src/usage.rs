//! A clap usage error as the profile's problem object: exit 2, a Dutch detail
//! naming the argument and value, and a hint (rules ERR-*, EXIT-2).

use crate::error::Problem;
use clap::error::{ContextKind, ContextValue, ErrorKind};

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
    if let Some(valid) = context_text(err, ContextKind::ValidValue).filter(|v| !v.trim().is_empty())
    {
        hint = format!("geldige waarden: {valid}; {hint}");
    }
    Problem::usage(detail).with_hint(hint)
}

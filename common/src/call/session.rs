//! The KvK number and the KvK session rule (rules SEC-6 … SEC-10), in one module: the
//! argument, its check and the rule that binds it to the session.
//!
//! When `KVK_SESSIE_NUMMER` is set, a command that addresses one company
//! defaults to that number and refuses any other with exit 77; the attempt is
//! audited with the attempted number as data subject.

use crate::call::context::Context;
use crate::call::tool::ArgSchema;
use crate::data::validate::{Validation, is_digits};
use crate::problem::error::{Problem, Result};
use crate::process::env::KVK_SESSIE_NUMMER;

/// The session's KvK number, if the session is bound. A value that is not
/// a KvK number is a configuration error (exit 78).
pub fn session_number(ctx: &Context<'_>) -> Result<Option<String>> {
    match ctx.env(KVK_SESSIE_NUMMER).map(str::trim) {
        None => Ok(None),
        Some(number) if is_kvk_nummer(number) => Ok(Some(number.to_string())),
        Some(_) => Err(Problem::config(format!(
            "{KVK_SESSIE_NUMMER} is geen KvK-nummer (8 cijfers)"
        ))
        .with_hint("zet KVK_SESSIE_NUMMER op het KvK-nummer van de sessie of maak hem leeg")
        .into()),
    }
}

/// The number to use: the argument as given (not trimmed: DISC-22), else the session's;
/// neither is exit 2.
pub fn kvk_number(ctx: &Context<'_>, argument: Option<&str>) -> Result<String> {
    if let Some(argument) = argument {
        return Ok(argument.to_string());
    }
    Ok(session_number(ctx)?.ok_or_else(|| {
        Problem::usage("geen KvK-nummer opgegeven")
            .with_hint("geef het KvK-nummer als argument of zet KVK_SESSIE_NUMMER")
    })?)
}

/// Record `number` as the data subject and refuse it when the session is bound elsewhere.
pub fn enforce(ctx: &mut Context<'_>, number: &str) -> Result<()> {
    ctx.subject(number, "KVK_NUMMER");
    match session_number(ctx)? {
        Some(session) if session != number => Err(Problem::no_permission(format!(
            "deze sessie is gebonden aan KvK-nummer {session}; KvK-nummer {number} is niet toegestaan"
        ))
        .with_hint("u kunt alleen de gegevens van het bedrijf van deze sessie opvragen").into()),
        _ => Ok(()),
    }
}

/// The rule for a command whose answer reveals the company it belongs to (kvk-cli's
/// `vestigingsprofiel toon`: an establishment names its company), applied before anything is
/// printed. The company named in the answer (`owner`, when it is a KvK number) becomes the call's
/// data subject (AUDIT-14). With a session (`session`, read before the request, so an invalid
/// value is 78 before any work), an answer for another company, or one that does not say whose it
/// is, is refused with 77; the refusal does not name the other company (SEC-7).
pub fn enforce_owner(
    ctx: &mut Context<'_>,
    session: Option<&str>,
    owner: Option<&str>,
    what: &str,
) -> Result<()> {
    let owner = owner.filter(|number| is_kvk_nummer(number));
    if let Some(owner) = owner {
        ctx.subject_found(owner, "KVK_NUMMER");
    }
    match (session, owner) {
        (Some(session), Some(owner)) if session == owner => Ok(()),
        (Some(session), Some(_)) => Err(Problem::no_permission(format!(
            "deze sessie is gebonden aan KvK-nummer {session}; {what} hoort bij een ander bedrijf"
        ))
        .with_hint("u kunt alleen de gegevens van het bedrijf van deze sessie opvragen")
        .into()),
        (Some(session), None) => Err(Problem::no_permission(format!(
            "deze sessie is gebonden aan KvK-nummer {session}; het antwoord over {what} noemt geen \
             KvK-nummer, dus niet te controleren bij welk bedrijf het hoort"
        ))
        .with_hint("u kunt alleen de gegevens van het bedrijf van deze sessie opvragen")
        .into()),
        (None, _) => Ok(()),
    }
}

/// The whole rule for a command that addresses one company by its KvK number
/// in argument `kvk_nummer`: resolve (exit 2 when absent), validate (exit 65),
/// then enforce the session (exit 77).
pub fn bound_kvk_number(ctx: &mut Context<'_>, argument: Option<&str>) -> Result<String> {
    let number = kvk_number(ctx, argument)?;
    let mut validation = Validation::new();
    check_kvk_nummer(&number, &mut validation);
    validation.finish()?;
    enforce(ctx, &number)?;
    Ok(number)
}

arguments! {
    /// `KVK_NUMMER`, positional and optional: the company a session-bound command addresses,
    /// by default the session's (`KVK_SESSIE_NUMMER`, rule SEC-6).
    #[derive(clap::Args, Debug, Clone, Default, PartialEq, serde::Serialize)]
    pub struct KvkNummer {
        /// Standaard KVK_SESSIE_NUMMER
        pub kvk_nummer: Option<String> => {"pattern": "^[0-9]{8}$", "examples": ["68750110"]},
    }
}

impl KvkNummer {
    /// The published schema of every `kvk_nummer` argument (also the positional of
    /// `rvo-cli rapportage indienen` and kvk-cli's `zoek --kvk-nummer`, by its text).
    pub const SCHEMA: ArgSchema = Self::SCHEMAS[0];

    /// The whole session rule: the argument, else the session's number (neither: exit 2),
    /// checked (exit 65), and refused when the session is bound to another (exit 77).
    pub fn bound(&self, ctx: &mut Context<'_>) -> Result<String> {
        bound_kvk_number(ctx, self.kvk_nummer.as_deref())
    }

    /// The argument, else the session's number (neither: exit 2), not yet checked.
    pub fn resolve(&self, ctx: &Context<'_>) -> Result<String> {
        kvk_number(ctx, self.kvk_nummer.as_deref())
    }
}

/// Whether `value` is a KvK number: exactly eight ASCII digits, as [`KvkNummer::SCHEMA`] says.
pub fn is_kvk_nummer(value: &str) -> bool {
    is_digits(value, 8)
}

/// Record in `validation` (argument `kvk_nummer`) that `value` is no KvK number, if it is not.
pub fn check_kvk_nummer(value: &str, validation: &mut Validation) {
    if let Some(detail) = kvk_nummer_problem(value) {
        validation.push("kvk_nummer", detail);
    }
}

/// What is wrong with `value` as a KvK number, if anything (the one wording every tool uses).
pub fn kvk_nummer_problem(value: &str) -> Option<String> {
    (!is_kvk_nummer(value))
        .then(|| format!("KvK-nummer {value:?} moet uit precies 8 cijfers bestaan"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kvk_numbers_are_exactly_eight_digits() {
        assert!(is_kvk_nummer("68750110"));
        assert!(is_kvk_nummer("00000000"));
        for bad in [
            "6875011",
            "687501100",
            "6875011a",
            " 68750110",
            "68750110 ",
            "68750110\n",
            "٦٨٧٥٠١١٠",
            "",
        ] {
            assert!(!is_kvk_nummer(bad), "{bad:?}");
            assert!(kvk_nummer_problem(bad).is_some(), "{bad:?}");
        }
        assert_eq!(kvk_nummer_problem("68750110"), None);
    }
}

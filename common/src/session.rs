//! The KvK session rule (rule SESSION-1).
//!
//! When `KVK_SESSIE_NUMMER` is set, a command that addresses one company
//! defaults to that number and refuses any other with exit 77; the attempt is
//! audited with the attempted number as data subject.

use crate::context::Context;
use crate::env::KVK_SESSIE_NUMMER;
use crate::error::{Error, Result};

/// The number to use: the argument, else the session's; neither is exit 2.
pub fn kvk_number(ctx: &Context<'_>, argument: Option<&str>) -> Result<String> {
    argument
        .map(str::trim)
        .map(str::to_string)
        .or_else(|| ctx.env(KVK_SESSIE_NUMMER).map(str::to_string))
        .ok_or_else(|| {
            Error::usage("geen KvK-nummer opgegeven")
                .with_hint("geef het KvK-nummer als argument of zet KVK_SESSIE_NUMMER")
        })
}

/// Record `number` as the data subject and refuse it when the session is bound elsewhere.
pub fn enforce(ctx: &mut Context<'_>, number: &str) -> Result<()> {
    ctx.subject(number, "KVK_NUMMER");
    match ctx.env(KVK_SESSIE_NUMMER) {
        Some(session) if session.trim() != number => Err(Error::no_permission(format!(
            "deze sessie is gebonden aan KvK-nummer {}; KvK-nummer {number} is niet toegestaan",
            session.trim()
        ))
        .with_hint("u kunt alleen de gegevens van het bedrijf van deze sessie opvragen")),
        _ => Ok(()),
    }
}

//! The legal basis of an answer (`wettelijke_grondslag`), as every command prints it: per output
//! the article that produced the value, then every article on the chain behind it (a source in
//! another law, another output of the same law, the implementation of an open term, an
//! override, a hook),
//! each with the law version applied and where to read it.

use regelrecht_engine::Basis;
use serde::Serialize;

/// One entry of `wettelijke_grondslag`.
#[derive(Serialize)]
pub(crate) struct Grondslag<'a> {
    uitvoer: &'a str,
    wet: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    law_id: Option<&'a str>,
    bwb_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    valid_from: Option<Option<&'a str>>,
    artikel: &'a str,
    url: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    wijze: Option<&'a str>,
    keten: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    via: Option<&'a str>,
}

/// How much of each basis a command shows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Detail {
    /// The fixed questions (`check …`): law name, article and link, and whether it is on the
    /// chain behind the article that produced the answer.
    Answer,
    /// `evalueer`: also the law's `$id` and version, how the article took part (`direct`,
    /// `override`, `hook`; on the chain `bron`, `intern`, `open_norm`, or `override` and `hook` for
    /// an article that overrode a value or gave it through a hook) and what it gave.
    Evaluation,
}

/// The legal basis of `basis`, in order.
pub(crate) fn entries(basis: &[Basis], detail: Detail) -> Vec<Grondslag<'_>> {
    let full = detail == Detail::Evaluation;
    basis
        .iter()
        .map(|b| Grondslag {
            uitvoer: &b.output,
            wet: b.law_name.as_deref().unwrap_or(&b.law_id),
            law_id: full.then_some(b.law_id.as_str()),
            bwb_id: b.bwb_id.as_deref(),
            valid_from: full.then_some(b.valid_from.as_deref()),
            artikel: &b.article,
            url: b.url.as_deref(),
            wijze: full.then_some(b.how),
            keten: !b.producing,
            via: b.via.as_deref().filter(|_| full),
        })
        .collect()
}

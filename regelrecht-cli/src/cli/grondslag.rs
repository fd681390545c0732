//! The legal basis of an answer (`wettelijke_grondslag`), one entry per output, as every
//! command prints it: the article that produced the value, and where to read it.

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
    artikel: &'a str,
    url: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    wijze: Option<&'a str>,
}

/// How much of each basis a command shows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Detail {
    /// The fixed questions (`check …`): law name, article and link.
    Answer,
    /// `evalueer`: also the law's `$id` and how the value came about (`direct`, `override`, `hook`).
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
            artikel: &b.article,
            url: b.url.as_deref(),
            wijze: full.then_some(b.how),
        })
        .collect()
}
